import { homedir } from 'node:os';
import type { Writable, Readable } from 'node:stream';

/** What a command may know of the world: everything else comes through its options. */
export interface Context {
  cwd: string;
  env: Record<string, string | undefined>;
  stdout: Writable & { isTTY?: boolean; columns?: number };
  stderr: Writable & { isTTY?: boolean };
  stdin: Readable & { isTTY?: boolean };
  version: string;
}

/** The user's home folder: $HOME when set (tests point it at a temp folder), else the system's. */
export function homeOf(ctx: Pick<Context, 'env'>): string {
  return ctx.env.HOME ?? homedir();
}
