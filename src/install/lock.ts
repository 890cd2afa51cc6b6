// skills-lock.json: found, read, and the paths it keeps.
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { SkillsError } from '../errors.js';
import { LOCKFILE_NAME, parseLockfile, type Lockfile } from '../formats/lockfile.js';
import { SIDE_LOCKFILE_NAME } from '../formats/foreign-lock.js';
import { isForeignLock } from './foreign-lock.js';
import { present } from '../fs/walk.js';
import { projectChain } from '../skill/folders.js';
import { acquireLock } from '../registry/file-lock.js';
import { readRegularText } from '../fs/read.js';

/** The lock folder that serialises the commands that read and write one skills-lock.json (beside it, hidden). */
export const PROJECT_LOCK = `.${LOCKFILE_NAME}.lock`;

/** How long an install waits for another install or uninstall in the same project (which may unpack archives). */
const PROJECT_LOCK_WAIT_MS = 5 * 60_000;

/**
 * Run `fn` holding the project's lock, so installs and uninstalls in one project run one after the other and each
 * reads skills-lock.json after the previous one wrote it: none loses another's entries. `readOnly` (--frozen,
 * which writes no lock, and --dry-run) goes on without the lock where the project's folder cannot be written or is not
 * there.
 */
export async function withProjectLock<T>(
  lockfile: string,
  fn: () => Promise<T>,
  opts: { readOnly?: boolean; onWait?: () => void } = {},
): Promise<T> {
  let held;
  try {
    held = await acquireLock(lockfile, {
      lockPath: join(dirname(lockfile), PROJECT_LOCK),
      what: lockfile,
      waitMs: PROJECT_LOCK_WAIT_MS,
      onWait: opts.onWait,
    });
  } catch (err) {
    const code = ((err as Error).cause as NodeJS.ErrnoException | undefined)?.code;
    if (opts.readOnly && (code === 'EACCES' || code === 'EROFS' || code === 'EPERM' || code === 'ENOENT')) return fn();
    throw err;
  }
  try {
    return await fn();
  } finally {
    await held.release().catch(() => {});
  }
}

/**
 * The nearest skills-lock.json from `cwd` up to the repository root (the first folder with .git); else
 * `<cwd>/skills-lock.json`. Where skills-lock.json is another installer's, ours is `.skills-lock.json` beside it.
 */
export function findLockfile(cwd: string): string {
  // The project's top, as every command finds it: the nearest folder with a skills lock, else the repository root.
  const top = projectChain(cwd).at(-1)!;
  if (present(join(top, SIDE_LOCKFILE_NAME))) return join(top, SIDE_LOCKFILE_NAME);
  // Another installer's skills-lock.json is never overwritten: ours goes beside it.
  if (present(join(top, LOCKFILE_NAME)))
    return join(top, isForeignLock(join(top, LOCKFILE_NAME)) ? SIDE_LOCKFILE_NAME : LOCKFILE_NAME);
  return join(resolve(cwd), LOCKFILE_NAME);
}

/**
 * The user's lock, for --global: `$XDG_CONFIG_HOME/skills/skills-lock.json` (else `~/.config/…`). It records the
 * agents' user folders as `~/.claude/skills`, and no project's lock can name them.
 */
export function globalLockfile(home: string, env: Record<string, string | undefined>): string {
  // A relative XDG_CONFIG_HOME is not used, as its specification says and the agents' folders do (agentHomePath).
  const xdg = env.XDG_CONFIG_HOME;
  const config = xdg?.trim() && isAbsolute(xdg) ? xdg : join(home, '.config');
  return join(config, 'skills', LOCKFILE_NAME);
}

/** Read skills-lock.json; undefined when there is none, a located E_CONFIG when it is corrupt. */
export function readLockfile(file: string): Lockfile | undefined {
  let text: string;
  try {
    text = readRegularText(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SkillsError('E_IO', `cannot read ${file}: ${(err as Error).message}`, { cause: err });
  }
  const { lock, problem, newer } = parseLockfile(text, LOCKFILE_NAME);
  if (!lock) {
    throw new SkillsError('E_CONFIG', `${file}:${problem!.line}:${problem!.column}: ${problem!.message}`, {
      hint:
        newer !== undefined
          ? `nothing was installed or written: update skills to the version your team uses (npm install -g skillsmith@latest), and keep the lock as it is`
          : problem!.conflict
            ? `nothing was installed or written: resolve the merge in ${file} (keep the skills of both sides, each once, and delete the marker lines), then run skills install to check it; or take one side (git checkout --ours ${file}) and run skills install`
            : `nothing was installed or written: fix ${file} by hand (see the README's lockfile format), or delete it and install again`,
    });
  }
  return lock;
}

/** A path as the lock keeps it: relative to the lockfile's folder, forward slashes. */
export function lockPath(lockDir: string, abs: string): string {
  const rel = relative(lockDir, abs);
  return (rel === '' ? '.' : isAbsolute(rel) ? abs : rel).split(sep).join('/');
}
