// The one inter-process lock (proper-lockfile's lock folder) for the registry's index and a project's
// skills-lock.json: waited for with a deadline, taken over when its holder is gone, and failing with a message that
// says what it waited for and for how long.
import * as fs from 'node:fs';
import { SkillsError } from '../errors.js';
import { keepFileSizeSignalIgnored } from '../proc/signals.js';

/** A lock whose holder stopped refreshing it (crashed, killed) is taken over once it is this old. */
export const LOCK_STALE_MS = 10_000;

/**
 * A lock's time in the future cannot come from a live holder on this machine (it refreshes the lock with its own
 * clock, at most a second ahead on a file system that keeps whole seconds): one more than this ahead is taken over
 * at once, as a stale one is (a clock that was wrong, a lock copied or restored from elsewhere).
 */
const FUTURE_MS = LOCK_STALE_MS;

/** How long a stat may put a lock's time ahead before it counts as stale: see FUTURE_MS. */
const staleIfFuture = (st: fs.Stats): fs.Stats =>
  st.mtime.getTime() > Date.now() + FUTURE_MS ? ({ ...st, mtime: new Date(0) } as fs.Stats) : st;

// proper-lockfile calls mkdir, rmdir, stat, utimes and realpath on the object it is given (and caches the file
// system's time precision on it, so it is one object).
const lockFs = {
  ...fs,
  stat: (path: fs.PathLike, cb: (err: NodeJS.ErrnoException | null, st?: fs.Stats) => void) =>
    fs.stat(path, (err, st) => cb(err, st && staleIfFuture(st))),
};

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
            hint: `wait for the other skills command to finish and run again; a lock whose process was killed is taken over once it has not been refreshed for ${LOCK_STALE_MS / 1000} s`,
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
