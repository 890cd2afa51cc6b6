import { Chalk, type ChalkInstance } from 'chalk';
import type { Context } from '../context.js';

/** Decide colour once: --color/--no-color, then NO_COLOR / FORCE_COLOR, then whether the stream is a terminal. */
export function useColor(flag: boolean | undefined, ctx: Context, stream: { isTTY?: boolean } = ctx.stdout): boolean {
  if (flag !== undefined) return flag;
  if (ctx.env.NO_COLOR !== undefined && ctx.env.NO_COLOR !== '') return false;
  const force = ctx.env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  return stream.isTTY === true;
}

/** A chalk whose level follows the one decision above, not chalk's own detection. */
export function paint(color: boolean): ChalkInstance {
  return new Chalk({ level: color ? 1 : 0 });
}
