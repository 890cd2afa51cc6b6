import type { Context } from '../context.js';

/** What a command may tell the user while a slow step runs. */
export interface Progress {
  text(message: string): void;
  stop(): void;
}

const silent: Progress = { text: () => {}, stop: () => {} };

/**
 * An ora spinner on stderr, only when stderr is a terminal and the output is not JSON; otherwise nothing at all
 * (ora itself is not even loaded).
 */
export async function startProgress(ctx: Context, options: { json?: boolean }, message: string): Promise<Progress> {
  if (options.json || ctx.stderr.isTTY !== true) return silent;
  const ora = (await import('ora')).default;
  const spinner = ora({ text: message, stream: ctx.stderr as NodeJS.WriteStream, discardStdin: false }).start();
  return {
    text: (m) => {
      spinner.text = m;
    },
    stop: () => {
      spinner.stop();
    },
  };
}
