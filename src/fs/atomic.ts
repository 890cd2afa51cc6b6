import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, lstatSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { SkillsError } from '../errors.js';

// Writes that a killed process cannot leave half done: a file or folder is made under a temp name and renamed
// into place. Temp names carry the writer's pid, so the next run can tell a dead writer's leftovers from a live
// one's and clean them.

/** A temp name `<prefix><base>.<pid>.<random>`. */
export function tempName(prefix: string, base: string): string {
  return `${prefix}${base}.${process.pid}.${randomBytes(4).toString('hex')}`;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True when a tempName names a process that is gone (never this one). */
export function deadOwner(name: string): boolean {
  const pid = Number(/\.(\d+)\.[0-9a-f]+$/.exec(name)?.[1]);
  return Number.isInteger(pid) && pid !== process.pid && !alive(pid);
}

/**
 * Remove what killed writers left in `dir`: `prefix*` temp entries of dead processes. A `trash` folder (the
 * previous copy moved aside just before its replacement was renamed in) whose target is missing is put back.
 */
export function cleanStale(
  dir: string,
  prefixes: string[],
  trash?: { prefix: string; target: (base: string) => string },
): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (trash && name.startsWith(trash.prefix) && deadOwner(name)) {
      const base = name.slice(trash.prefix.length).replace(/\.\d+\.[0-9a-f]+$/, '');
      const target = join(dir, trash.target(base));
      try {
        lstatSync(target);
      } catch {
        renameSync(join(dir, name), target);
        continue;
      }
      rmSync(join(dir, name), { recursive: true, force: true });
      continue;
    }
    if (prefixes.some((p) => name.startsWith(p)) && deadOwner(name))
      rmSync(join(dir, name), { recursive: true, force: true });
  }
}

/** Write through a temp file in the same folder, flushed, then renamed over the target. */
export function writeAtomic(file: string, text: string): void {
  const tmp = join(dirname(file), tempName(`.${basename(file)}.tmp-`, 'w'));
  try {
    const fd = openSync(tmp, 'wx', 0o644);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw new SkillsError('E_IO', `cannot write ${file}: ${(err as Error).message}`, { cause: err });
  }
}
