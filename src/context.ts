import { homedir } from 'node:os';
import { isAbsolute } from 'node:path';
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

/**
 * Where a run with no usable home looks for the user's folders: a path that is not there, so user folders read as
 * absent. Nothing is written under it: --global and the caches refuse or skip it (see hasHome, userCacheDir).
 */
export const NO_HOME = '/nonexistent/skills-no-home';

/**
 * The user's home folder: $HOME when set (tests point it at a temp folder), else the system's. An empty or relative
 * HOME is no home (NO_HOME): `~/...` must never become a path in the working folder.
 */
export function homeOf(ctx: Pick<Context, 'env'>): string {
  const home = ctx.env.HOME ?? homedir();
  return home !== '' && isAbsolute(home) ? home : NO_HOME;
}

/** True when the run has a home folder (see homeOf). */
export function hasHome(ctx: Pick<Context, 'env'>): boolean {
  return homeOf(ctx) !== NO_HOME;
}
