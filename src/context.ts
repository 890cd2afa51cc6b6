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
