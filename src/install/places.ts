// The agent folders that get flat `<id>/` copies (--into and the ones the lock records): checked, and written.
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { SkillsError, isSkillsError } from '../errors.js';
import { intoOf, type Lockfile } from '../formats/lockfile.js';
import { tempName } from '../fs/atomic.js';
import { folderBlocked } from '../fs/blocked.js';
import { afterCleanup, errnoIn, explainErrno } from '../fs/errno.js';
import { isInside, present } from '../fs/walk.js';
import { legacyDigests, skillFiles, type StoredFile } from '../registry/integrity.js';
import { adoptFiles, copyFiles, removeTree } from '../registry/store.js';

export const STAGING_PREFIX = '.staging-';
export const TRASH_PREFIX = '.trash-';
export const REMOVING_PREFIX = '.removing-';

/** A folder that gets flat `<id>/` copies: --into, or one the lock records. */
export interface Place {
  abs: string;
  /** How messages name it: `--into <abs>`, or `<lockfile>: into "<path>"`. */
  label: string;
  recorded: boolean;
}

/**
 * The folders that get `<id>/` copies: --into first (so a result's `into` stays --into's), then the lock's recorded
 * ones. Each must be a folder, or not there yet below one; a recorded one must not lead out of the lockfile's folder
 * through a symlink (the schema has already refused `..` and absolute paths).
 */
export function placesOf(
  lockfile: string,
  lock: Lockfile | undefined,
  into: string[],
  opts: { home: string; global?: boolean; nothing?: string; confined?: readonly string[] },
): Place[] {
  const nothing = opts.nothing ?? 'nothing was installed';
  const lockDir = dirname(lockfile);
  const places: Place[] = [];
  // An agent's folder in a project (chosen by default, or by --agent) must stay in it: a repository can commit
  // `.claude` as a link to `~/.claude`, and the skills would land where every project's agent reads them. Only a
  // folder given with --into may lead out; the user's own folders (--global) may, as dotfiles often do.
  const confined = new Set(opts.global ? [] : (opts.confined ?? []));
  for (const abs of into)
    if (!places.some((p) => p.abs === abs))
      places.push({ abs, label: confined.has(abs) ? `the agent folder ${abs}` : `--into ${abs}`, recorded: false });
  for (const rel of lock ? intoOf(lock) : []) {
    // `~/…`: a user folder, which only the user's own (--global) lock may name; a project's lock, perhaps a
    // stranger's, never has skills written into the home folder.
    if (rel.startsWith('~/') && !opts.global) {
      throw new SkillsError(
        'E_CONFIG',
        `${lockfile}: into "${rel}" names a folder in the home folder, which only the user's lock (skills install --global) may; ${nothing}`,
        { hint: `remove that entry from "into" in ${lockfile}` },
      );
    }
    const abs = rel.startsWith('~/') ? join(opts.home, rel.slice(2)) : resolve(lockDir, rel);
    const given = places.find((p) => p.abs === abs);
    if (given) given.recorded = true;
    else places.push({ abs, label: `${lockfile}: into "${rel}"`, recorded: true });
  }
  for (const place of places) {
    // It is made on the first write: nothing may be in its way (a link leading nowhere, a file, a folder that may
    // not be looked into), and the nearest part of it that exists must be a folder.
    const blocked = folderBlocked(place.abs);
    if (blocked)
      throw new SkillsError(
        blocked.kind === 'file' ? 'E_USAGE' : 'E_IO',
        `${place.label}: ${blocked.message}; ${nothing}`,
        {
          hint:
            blocked.kind === 'file'
              ? `${blocked.hint}, or give the folder agents read skills from with --into, e.g. .claude/skills`
              : blocked.hint,
        },
      );
    for (let d = place.abs; ; d = dirname(d)) {
      let st;
      try {
        st = statSync(d);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT' && dirname(d) !== d) continue;
      }
      if (!st?.isDirectory())
        throw new SkillsError('E_USAGE', `${place.label}: ${d} is not a folder; ${nothing}`, {
          hint: 'give the folder agents read skills from, e.g. .claude/skills',
        });
      // The user's lock (--global) is the user's alone: a folder it names may lead out, as at install.
      const base = lockDir;
      const inLock = !opts.global && place.recorded && !into.includes(place.abs);
      if ((inLock || confined.has(place.abs)) && !isInside(realpathSync(base), realpathSync(d))) {
        throw new SkillsError(
          'E_CONFIG',
          `${place.label}: ${d} leads out of ${base} (through a symlink, to ${realpathSync(d)}); ${nothing}`,
          {
            hint: inLock
              ? `a lock names folders inside its project: remove that entry from "into" in ${lockfile}, or pass the folder with --into if it is meant`
              : `a project's agent folder is written inside the project: remove the link, or pass the folder with --into if it is meant`,
          },
        );
      }
      break;
    }
  }
  return places;
}

/**
 * Copy a stored skill to `<into>/<id>` through a staging folder renamed into place; the old copy goes only after.
 * What is copied is hashed: a copy whose files are not `integrity` (the stored copy changed) is refused. The copy
 * is writable, as files in an agent's folder are. `files` are the stored copy's files when the caller knows them
 * (it has just registered them): not walked, and not read when their bytes are held.
 */
export function placeInto(
  into: string,
  id: string,
  stored: string,
  integrity: string,
  files?: StoredFile[],
  batch?: Stager,
): void {
  const staging = join(into, tempName(STAGING_PREFIX, id));
  const target = join(into, id);
  try {
    mkdirSync(into, { recursive: true });
    const list = files ?? skillFiles(stored);
    const copied = copyFiles(list, staging, true, integrity);
    // A copy stored when links inside a skill were kept as links is the content registered, now placed as files.
    if (copied !== integrity && !legacyDigests(list).includes(integrity)) {
      throw new SkillsError(
        'E_INVALID',
        `${stored}: the stored copy of ${id} was changed after it was registered (expected ${integrity}, its files hash to ${copied}); ${target} was not written`,
        {
          hint: `register it again from its source (skills registry sync <its folder> --force), or remove it (skills registry remove ${id}) and install it again`,
        },
      );
    }
    place(staging, target, batch);
  } catch (err) {
    const failed = isSkillsError(err) ? err : writeFailure(err, target, into);
    throw afterCleanup(failed, () => removeTree(staging));
  }
}

/**
 * Place this run's own unpacked copy of a skill (an archive's, in the install's scratch) by moving it into
 * `<into>/<id>` instead of copying it: one rename, no file written or removed twice. Only `files` stay (as a copy
 * takes them), with the owner's write bit as a copy has it. False, with nothing changed, when the scratch is on
 * another file system than `into` (the caller then copies).
 */
export function adoptInto(
  into: string,
  id: string,
  root: string,
  files: StoredFile[],
  only = false,
  batch?: Stager,
): boolean {
  const staging = join(into, tempName(STAGING_PREFIX, id));
  const target = join(into, id);
  try {
    mkdirSync(into, { recursive: true });
    try {
      adoptFiles(root, files, staging, '', only);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EXDEV' && present(root) && !present(staging)) return false;
      throw err;
    }
    for (const f of files)
      if (f.kind === 'file' && (f.mode & 0o200) === 0) chmodSync(join(staging, f.rel), f.mode | 0o200);
    place(staging, target, batch);
    return true;
  } catch (err) {
    throw afterCleanup(writeFailure(err, target, into), () => removeTree(staging));
  }
}

/** A copy into `into` that failed: its hint, for a system call's error, names that folder (not a temp name in it). */
function writeFailure(err: unknown, target: string, into: string): SkillsError {
  const errno = errnoIn(err);
  const hint = errno ? explainErrno(errno, into).hint : undefined;
  return new SkillsError('E_IO', `cannot write ${target}: ${(err as Error).message}`, {
    cause: err,
    ...(hint ? { hint } : {}),
  });
}

/** What takes staged copies to rename into place later (install/placing.ts), all at once with the lock. */
export interface Stager {
  add(s: { staging: string; target: string }): void;
}

/** Rename the staged copy into place now, or hand it to `batch` to be renamed with the others. */
function place(staging: string, target: string, batch: Stager | undefined): void {
  if (batch) batch.add({ staging, target });
  else swapIn(staging, target);
}

/** Rename the staged copy or link into place; what was there is moved aside first and removed only after. */
export function swapIn(staging: string, target: string): void {
  let trash: string | undefined;
  // present() is an lstat: it sees a link too, dangling or not.
  if (present(target)) {
    trash = join(dirname(target), tempName(TRASH_PREFIX, basename(target)));
    renameSync(target, trash);
  }
  renameSync(staging, target);
  if (trash) removeEntry(trash);
}

/**
 * Make `<into>/<id>` a symlink to the skill's folder (--link; a junction on Windows, which needs no privilege), through
 * a staging name renamed into place. The link is relative when both sit in one tree, so a clone keeps working.
 */
export function placeLink(into: string, id: string, folder: string, batch?: Stager): void {
  const staging = join(into, tempName(STAGING_PREFIX, id));
  const target = join(into, id);
  try {
    mkdirSync(into, { recursive: true });
    const rel = relative(into, folder);
    symlinkSync(process.platform === 'win32' ? folder : rel, staging, 'junction');
    place(staging, target, batch);
  } catch (err) {
    const failed = new SkillsError('E_IO', `cannot link ${target} to ${folder}: ${(err as Error).message}`, {
      cause: err,
    });
    throw afterCleanup(failed, () => removeEntry(staging));
  }
}

/** True when `p` is a symlink (whatever it points at, if anything). */
export function isLink(p: string): boolean {
  return entryAt(p)?.isSymbolicLink() === true;
}

/** What is at `p` itself (a link not followed), or undefined when nothing is, or it cannot be looked at. */
export function entryAt(p: string): Stats | undefined {
  try {
    return lstatSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** Remove a symlink itself (never what it points at), or a folder tree. */
export function removeEntry(p: string): void {
  if (isLink(p)) rmSync(p, { force: true });
  else removeTree(p);
}

/** True when `p` is a symlink that leads to `folder`. */
export function linksTo(p: string, folder: string): boolean {
  try {
    return isLink(p) && realpathSync(p) === realpathSync(folder);
  } catch {
    return false;
  }
}
