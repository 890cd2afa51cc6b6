import type { Context } from '../context.js';
import { useColor } from './color.js';

/** What a command may tell the user while a slow step runs. */
export interface Progress {
  text(message: string): void;
  stop(): void;
}

const silent: Progress = { text: () => {}, stop: () => {} };

/**
 * An ora spinner on stderr, only when stderr is a terminal and the output is not JSON; otherwise nothing at all
 * (ora itself is not even loaded). A terminal that reports no width (0 columns: `script` without a size, some CI
 * ptys) gets none either: ora divides by the width to know how many lines to clear, and clears forever. Nor does a
 * run under CI (`CI` set) or on `TERM=dumb`: ora would not animate there but print a "- message" line per step, which
 * is noise in a build log.
 */
export async function startProgress(
  ctx: Context,
  options: { json?: boolean; color?: boolean },
  message: string,
): Promise<Progress> {
  const stream = ctx.stderr as NodeJS.WriteStream;
  if (options.json || stream.isTTY !== true || !(stream.columns > 0)) return silent;
  if (ctx.env.CI !== undefined || ctx.env.TERM === 'dumb') return silent;
  const ora = (await import('ora')).default;
  // Colour as decided for everything else (--color, --no-color, NO_COLOR, FORCE_COLOR).
  const spinner = ora({
    text: message,
    stream,
    discardStdin: false,
    color: useColor(options.color, ctx, stream) ? 'cyan' : false,
  }).start();
  return {
    text: (m) => {
      spinner.text = m;
    },
    stop: () => {
      spinner.stop();
    },
  };
}
