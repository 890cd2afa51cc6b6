// skills-lock.json: found, read, and the paths it keeps.
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { SkillsError } from '../errors.js';
import { LOCKFILE_NAME, parseLockfile, type Lockfile } from '../formats/lockfile.js';
import { present } from '../fs/walk.js';

/**
 * The nearest skills-lock.json from `cwd` up to the repository root (the first folder with .git); else
 * `<cwd>/skills-lock.json`.
 */
export function findLockfile(cwd: string): string {
  for (let d = resolve(cwd), prev = ''; d !== prev; prev = d, d = dirname(d)) {
    if (present(join(d, LOCKFILE_NAME))) return join(d, LOCKFILE_NAME);
    if (present(join(d, '.git'))) break;
  }
  return join(resolve(cwd), LOCKFILE_NAME);
}

/** Read skills-lock.json; undefined when there is none, a located E_CONFIG when it is corrupt. */
export function readLockfile(file: string): Lockfile | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SkillsError('E_IO', `cannot read ${file}: ${(err as Error).message}`, { cause: err });
  }
  const { lock, problem } = parseLockfile(text, LOCKFILE_NAME);
  if (!lock) {
    throw new SkillsError('E_CONFIG', `${file}:${problem!.line}:${problem!.column}: ${problem!.message}`, {
      hint: `nothing was installed or written: fix ${file} by hand (see the README's lockfile format), or delete it and install again`,
    });
  }
  return lock;
}

/** A path as the lock keeps it: relative to the lockfile's folder, forward slashes. */
export function lockPath(lockDir: string, abs: string): string {
  const rel = relative(lockDir, abs);
  return (rel === '' ? '.' : isAbsolute(rel) ? abs : rel).split(sep).join('/');
}
