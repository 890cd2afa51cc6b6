// One install's copies into agent folders, made visible together with the lock that records them. Each copy is
// written under a staging name first (`.staging-<id>.<pid>.<hex>`, beside its target); only when every copy is
// written does a journal name them (`<lockfile>.placing`), then the lock is written, then each is renamed into
// place and the journal removed. The lock is the commit point:
// - killed before the lock is written: nothing an agent reads has changed (the staging folders are leftovers the
//   next install removes);
// - killed after: the next command that takes the project's lock reads the journal and finishes the renames, so
//   the folders come to match the lock.
// An install whose lock text does not change (nothing new, or --frozen) commits when its journal is written.
import { createHash } from 'node:crypto';
import { realpathSync, rmSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { tempStem, writeAtomic } from '../fs/atomic.js';
import { afterCleanup } from '../fs/errno.js';
import { firstMissing, isInside, present, removeEmptyUpTo } from '../fs/walk.js';
import { STAGING_PREFIX, removeEntry, swapIn } from './places.js';
import { readRegularText } from '../fs/read.js';

/** A copy written under its staging name, waiting for its rename to `target`. */
export interface Staged {
  staging: string;
  target: string;
}

interface Journal {
  pid: number;
  /** sha256 (hex) of the lock text this install writes; null when the lock does not change. */
  lock: string | null;
  staged: Staged[];
}

/** The journal of the install that writes `lockfile`. */
export const journalOf = (lockfile: string) => `${lockfile}.placing`;

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

/** The copies of one install, staged as they are written and renamed into place once the lock is written. */
export class Placing {
  readonly staged: Staged[] = [];
  /** Each folder placed into that is not there yet, with the topmost folder the install makes to hold it. */
  private readonly made: { folder: string; top: string }[];

  /** `folders`: the folders the copies go into, looked at before the first is written. */
  constructor(
    private readonly lockfile: string,
    folders: string[] = [],
  ) {
    this.made = folders.flatMap((folder) => {
      const top = firstMissing(folder);
      return top === undefined ? [] : [{ folder, top }];
    });
  }

  add(s: Staged): void {
    this.staged.push(s);
  }

  /**
   * Make the copies visible with the lock: the journal, then `writeLock` (which writes `lockText`, or nothing when
   * it is undefined), then the renames, then no journal.
   */
  commit(lockText: string | undefined, writeLock: () => void): void {
    if (this.staged.length === 0) {
      writeLock();
      return;
    }
    const journal: Journal = {
      pid: process.pid,
      lock: lockText === undefined ? null : digest(lockText),
      staged: this.staged,
    };
    const file = journalOf(this.lockfile);
    try {
      writeAtomic(file, `${JSON.stringify(journal)}\n`);
      writeLock();
    } catch (err) {
      // Stopped before its commit point (a full disk, a lock it may not write): the copies it staged and its
      // journal go, and the project is as it was. Past it (only a flush failed once the lock was in place), the
      // copies are placed, as the next run's recovery would.
      const committed = lockText === undefined ? present(file) : textIs(this.lockfile, lockText);
      throw afterCleanup(err, () => {
        if (committed) finish(this.staged);
        else this.abort();
        rmSync(file, { force: true });
      });
    }
    finish(this.staged);
    rmSync(journalOf(this.lockfile), { force: true });
  }

  /**
   * Remove every staged copy, then the folders the install made that are left empty (an agent folder and its
   * parents): the install stopped before its lock was written, and the project is as it was.
   */
  abort(): void {
    for (const s of this.staged) removeEntry(s.staging);
    this.staged.length = 0;
    for (const { folder, top } of this.made) removeEmptyUpTo(folder, top);
  }
}

/** True when `file` holds `text` (as its digest says). */
function textIs(file: string, text: string): boolean {
  try {
    return digest(readRegularText(file)) === digest(text);
  } catch {
    return false;
  }
}

/** Rename each staged copy still there into place (one already renamed is not there any more). */
function finish(staged: Staged[]): void {
  for (const s of staged) if (present(s.staging)) swapIn(s.staging, s.target);
}

/**
 * What an install killed while placing left: with its lock written (or none to write), its renames are finished;
 * without, its staged copies go. Run under the project's lock, before anything else reads the agent folders. A
 * journal is a file in the project, perhaps a stranger's: only an entry whose staging folder is its target's
 * sibling, named for it, in a folder inside `base` (the project's folder; the home folder for the user's lock) is
 * acted on. Returns what was done, or undefined when there was no journal.
 */
export function recoverPlacing(lockfile: string, base: string): 'finished' | 'undone' | undefined {
  const file = journalOf(lockfile);
  let journal: Journal;
  try {
    journal = JSON.parse(readRegularText(file)) as Journal;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    // A journal that cannot be read was never completely written (it is written whole, by rename): nothing was
    // committed by it; the staging folders are removed as leftovers.
    rmSync(file, { force: true });
    return 'undone';
  }
  let lock: string | undefined;
  try {
    lock = readRegularText(lockfile);
  } catch {
    lock = undefined;
  }
  const committed = journal?.lock === null || (lock !== undefined && digest(lock) === journal?.lock);
  const staged = Array.isArray(journal?.staged) ? journal.staged.filter((s) => isStaged(s) && ours(s, base)) : [];
  if (committed) finish(staged);
  else for (const s of staged) removeEntry(s.staging);
  rmSync(file, { force: true });
  return committed ? 'finished' : 'undone';
}

const isStaged = (s: unknown): s is Staged =>
  typeof s === 'object' &&
  s !== null &&
  typeof (s as Staged).staging === 'string' &&
  typeof (s as Staged).target === 'string';

/** A staged copy as placeInto names it, beside its target, in a folder that really is inside `base`. */
function ours(s: Staged, base: string): boolean {
  const dir = dirname(s.target);
  if (dirname(s.staging) !== dir || !basename(s.staging).startsWith(`${tempStem(STAGING_PREFIX, basename(s.target))}.`))
    return false;
  try {
    return isInside(realpathSync(base), realpathSync(dir));
  } catch {
    return false;
  }
}

/**
 * Run `fn` once what an install killed while placing left is settled (install/placing.ts): under the project's
 * lock, before anything reads the agent folders. --frozen settles it too (it places copies, and would place its own
 * beside the unfinished renames; settling never writes the lock); a dry run, which writes nothing, leaves it.
 */
export function afterPlacing<T>(
  options: { lockfile: string; home: string; global?: boolean; dryRun?: boolean },
  fn: () => T,
): T {
  if (!options.dryRun) recoverPlacing(options.lockfile, options.global ? options.home : dirname(options.lockfile));
  return fn();
}
