// What stands in the way of a folder that is not there: a link that leads nowhere, a file where a folder is
// needed, a folder above it that may not be looked into. A folder that is merely missing (only folders above it)
// is made on the first write, and is no problem.
import { lstatSync, readlinkSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { describeErrno } from './errno.js';

export interface Blocked {
  kind: 'dangling-link' | 'file' | 'denied' | 'other';
  /** The path in the way: the link, the file, the folder that may not be looked into. */
  path: string;
  /** What is wrong, in a sentence that names `path`. */
  message: string;
  /** What to do. */
  hint: string;
}

/**
 * Why `dir` cannot be the folder it should be, when something is in its way: undefined when it is a folder, or
 * missing below folders (made when written). A link followed to its end.
 */
export function folderBlocked(dir: string): Blocked | undefined {
  let denied = false;
  for (let d = dir; ; d = dirname(d)) {
    let isDir: boolean;
    try {
      isDir = statSync(d).isDirectory();
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      if (e.code === 'EACCES') {
        // A folder above does not let it be looked at: the nearest one that can be looked at is the one.
        denied = true;
      } else if (e.code === 'ENOENT' || e.code === 'ENOTDIR') {
        const link = linkAt(d);
        if (link !== undefined)
          return {
            kind: 'dangling-link',
            path: d,
            message: `${d} is a link to ${link}, which leads nowhere`,
            hint: `create the folder it leads to, or remove the link (rm ${d}), then run again`,
          };
      } else {
        return { kind: 'other', path: d, ...describe(e, d) };
      }
      if (dirname(d) === d) return undefined;
      continue;
    }
    if (denied)
      return {
        kind: 'denied',
        path: d,
        message: `cannot look into ${d}: permission denied (EACCES)`,
        hint: `check the owner and mode of ${d} (ls -ld): you may not open it`,
      };
    if (!isDir)
      return {
        kind: 'file',
        path: d,
        message: `${d} is a file, where a folder is needed`,
        hint: `move the file ${d} out of the way, then run again`,
      };
    return undefined;
  }
}

/** What a symlink at `p` holds, or undefined when `p` is no link. */
function linkAt(p: string): string | undefined {
  try {
    return lstatSync(p, { throwIfNoEntry: false })?.isSymbolicLink() ? readlinkSync(p) : undefined;
  } catch {
    return undefined;
  }
}

function describe(e: NodeJS.ErrnoException, where: string): { message: string; hint: string } {
  const { message, hint } = describeErrno(e, where);
  return { message, hint: hint ?? `check ${where} (ls -ld)` };
}
