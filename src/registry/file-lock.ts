// The one inter-process lock (proper-lockfile's lock folder) for the registry's index and a project's
// skills-lock.json: waited for with a deadline, taken over when its holder is gone, and failing with a message that
// says what it waited for and for how long.
import * as fs from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { SkillsError } from '../errors.js';
import { processAlive } from '../fs/atomic.js';
import { readRegularText } from '../fs/read.js';
import { keepFileSizeSignalIgnored } from '../proc/signals.js';

/** A lock whose holder stopped refreshing it (crashed, killed) is taken over once it is this old. */
export const LOCK_STALE_MS = 10_000;

/**
 * A lock's time in the future cannot come from a live holder on this machine (it refreshes the lock with its own
 * clock, at most a second ahead on a file system that keeps whole seconds): one more than this ahead is taken over
 * at once, as a stale one is (a clock that was wrong, a lock copied or restored from elsewhere).
 */
const FUTURE_MS = LOCK_STALE_MS;

/**
 * The file inside the lock folder that names its holder: `<pid> <host>`. A holder that was killed (its pid gone on
 * this host) leaves a lock that is taken over at once, not after LOCK_STALE_MS. Written just after the folder is
 * made, so a holder killed in between leaves a folder without it: that one goes stale by its time, as before.
 */
export const LOCK_OWNER = 'owner';

/**
 * Who the lock folder says holds it: `gone` (a process on this host that has ended), `alive` (another process on this
 * host that is running), or `unknown` (no name yet, a name from another host, this process, or one not readable).
 */
function holderOf(lockPath: string): 'gone' | 'alive' | 'unknown' {
  let text: string;
  try {
    text = readRegularText(join(lockPath, LOCK_OWNER));
  } catch {
    return 'unknown';
  }
  const m = /^(\d+) (.+)$/.exec(text);
  if (!m || m[2] !== hostname()) return 'unknown';
  const pid = Number(m[1]);
  if (pid === process.pid) return 'unknown';
  // EPERM: the process is there, another user's; a zombie (killed, not yet reaped) is gone.
  return processAlive(pid) ? 'alive' : 'gone';
}

/**
 * What a stat of the lock folder tells proper-lockfile: its time, or the epoch (stale, taken over at once) when the
 * time is more than FUTURE_MS ahead or its holder is known to be gone.
 */
const staleIfGone = (path: fs.PathLike, st: fs.Stats): fs.Stats =>
  st.mtime.getTime() > Date.now() + FUTURE_MS || holderOf(String(path)) === 'gone'
    ? ({ ...st, mtime: new Date(0) } as fs.Stats)
    : st;

/**
 * True when the lock folder has not been refreshed for LOCK_STALE_MS: its holder is gone whatever its name says (a
 * pid that a later process took over is "alive" to a check by pid).
 */
function unrefreshed(lockPath: string): boolean {
  try {
    return fs.statSync(lockPath).mtimeMs < Date.now() - LOCK_STALE_MS;
  } catch {
    return true;
  }
}

// proper-lockfile calls mkdir, rmdir, stat, utimes and realpath on the object it is given (and caches the file
// system's time precision on it, so it is one object). Its rmdir (a release, or a stale lock taken over) removes the
// owner file first; it refuses a lock that a live process on this host has named and refreshed lately: two waiters
// that both saw a killed holder's lock must not both take it, the second removing the first one's new lock.
const lockFs = {
  ...fs,
  stat: (path: fs.PathLike, cb: (err: NodeJS.ErrnoException | null, st?: fs.Stats) => void) =>
    fs.stat(path, (err, st) => cb(err, st && staleIfGone(path, st))),
  rmdir: (path: fs.PathLike, cb: (err: NodeJS.ErrnoException | null) => void) => {
    if (holderOf(String(path)) === 'alive' && !unrefreshed(String(path)))
      return cb(Object.assign(new Error('Lock file is already being held'), { code: 'ELOCKED' }));
    fs.rm(join(String(path), LOCK_OWNER), { force: true }, () => fs.rmdir(path, cb));
  },
};

/**
 * Name this process in the lock folder it has just made. The folder's time is put back as it was: proper-lockfile
 * checks on each refresh that the time is still the one it set, and a file made inside changes it.
 */
function nameHolder(lockPath: string): void {
  try {
    const before = fs.statSync(lockPath);
    fs.writeFileSync(join(lockPath, LOCK_OWNER), `${process.pid} ${hostname()}`);
    fs.utimesSync(lockPath, before.atime, before.mtime);
  } catch {
    // Without the file the lock still works; a killed holder's lock is then taken over by its time alone.
  }
}

export interface LockOptions {
  /** The lock folder proper-lockfile creates. */
  lockPath: string;
  /** What is locked, for messages: `the registry /r`, `/p/skills-lock.json`. */
  what: string;
  /** How long to wait for a live holder before giving up. */
  waitMs: number;
  /** Told once when the lock is held by another process, so a spinner can say what it waits for. */
  onWait?: () => void;
}

export interface HeldLock {
  release: () => Promise<void>;
  /** Set when the lock was lost while held (its folder removed, or not refreshed in time). */
  compromised: () => Error | undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How old the lock folder is, for the message that gives up on it. */
function ageOf(lockPath: string): string {
  try {
    const ms = Date.now() - fs.statSync(lockPath).mtime.getTime();
    return ms >= 0
      ? `it was refreshed ${(ms / 1000).toFixed(1)} s ago, so the process holding it is still running`
      : `its time is ${(-ms / 1000).toFixed(1)} s in the future`;
  } catch {
    return 'it has just been released';
  }
}

/**
 * Take the lock: wait (with growing, randomised pauses) while a live process holds it, take over one whose holder
 * is gone (not refreshed for LOCK_STALE_MS, or time-stamped in the future), give up after `waitMs` with E_IO.
 */
export async function acquireLock(target: string, opts: LockOptions): Promise<HeldLock> {
  const lockfile = (await import('proper-lockfile')).default;
  keepFileSizeSignalIgnored();
  let compromised: Error | undefined;
  const started = Date.now();
  let pause = 5;
  let told = false;
  for (;;) {
    try {
      const release = await lockfile.lock(target, {
        realpath: false,
        lockfilePath: opts.lockPath,
        stale: LOCK_STALE_MS,
        retries: 0,
        fs: lockFs,
        onCompromised: (err) => {
          compromised = err;
        },
      });
      nameHolder(opts.lockPath);
      return { release, compromised: () => compromised };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ELOCKED') {
        throw new SkillsError('E_IO', `cannot lock ${opts.what} (${opts.lockPath}): ${(err as Error).message}`, {
          cause: err,
        });
      }
      const waited = Date.now() - started;
      if (waited >= opts.waitMs) {
        throw new SkillsError(
          'E_IO',
          `${opts.what} is locked by another process (${opts.lockPath}): gave up after waiting ${Math.round(waited / 1000)} s; ${ageOf(opts.lockPath)}`,
          {
            cause: err,
            hint: `wait for the other skills command to finish and run again; a lock whose process was killed is taken over at once on this host, elsewhere once it has not been refreshed for ${LOCK_STALE_MS / 1000} s`,
          },
        );
      }
      if (!told) {
        told = true;
        opts.onWait?.();
      }
      await sleep(pause * (0.5 + Math.random()));
      pause = Math.min(200, pause * 1.3);
    }
  }
}
