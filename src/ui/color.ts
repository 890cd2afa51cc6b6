import type { Context } from '../context.js';

/** Decide colour once: --color/--no-color, then NO_COLOR / FORCE_COLOR, then whether the stream is a terminal. */
export function useColor(flag: boolean | undefined, ctx: Context, stream: { isTTY?: boolean } = ctx.stdout): boolean {
  if (flag !== undefined) return flag;
  if (ctx.env.NO_COLOR !== undefined && ctx.env.NO_COLOR !== '') return false;
  const force = ctx.env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  return stream.isTTY === true;
}

export type Style = ((s: string) => string) & { bold: (s: string) => string };

/** The styles our output uses. */
export interface Paint {
  red: Style;
  green: Style;
  yellow: Style;
  cyan: Style;
  dim: Style;
  bold: Style;
}

// SGR codes: [open, close]. These few styles are all the output needs; chalk would also load its own terminal
// detection (tty, os, env) on every start, which costs a tenth of the start-up budget, and we decide colour above.
const CODES = {
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  cyan: [36, 39],
  dim: [2, 22],
  bold: [1, 22],
} as const;

/** ANSI styles when `color`, else styles that return their text unchanged. */
export function paint(color: boolean): Paint {
  const make = (codes: (readonly [number, number])[]): ((s: string) => string) =>
    color ? (s) => codes.reduceRight((acc, [open, close]) => `\u001b[${open}m${acc}\u001b[${close}m`, s) : (s) => s;
  const style = (name: keyof typeof CODES): Style =>
    Object.assign(make([CODES[name]]), { bold: make([CODES[name], CODES.bold]) });
  return {
    red: style('red'),
    green: style('green'),
    yellow: style('yellow'),
    cyan: style('cyan'),
    dim: style('dim'),
    bold: style('bold'),
  };
}
