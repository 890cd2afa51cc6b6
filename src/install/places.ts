// The agent folders that get flat `<id>/` copies (--into and the ones the lock records): checked, and written.
import { mkdirSync, realpathSync, renameSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { SkillsError, isSkillsError } from '../errors.js';
import { intoOf, type Lockfile } from '../formats/lockfile.js';
import { tempName } from '../fs/atomic.js';
import { isInside, present } from '../fs/walk.js';
import { skillFiles } from '../registry/integrity.js';
import { copyFiles, removeTree } from '../registry/store.js';

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
  into: string | undefined,
  nothing = 'nothing was installed',
): Place[] {
  const lockDir = dirname(lockfile);
  const places: Place[] = into === undefined ? [] : [{ abs: into, label: `--into ${into}`, recorded: false }];
  for (const rel of lock ? intoOf(lock) : []) {
    const abs = resolve(lockDir, rel);
    if (abs === into) places[0]!.recorded = true;
    else places.push({ abs, label: `${lockfile}: into "${rel}"`, recorded: true });
  }
  for (const place of places) {
    // It is made on the first write: the nearest part of it that exists must be a folder.
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
      if (place.recorded && place.abs !== into && !isInside(realpathSync(lockDir), realpathSync(d))) {
        throw new SkillsError(
          'E_CONFIG',
          `${place.label}: ${d} leads out of ${lockDir} (through a symlink, to ${realpathSync(d)}); ${nothing}`,
          {
            hint: `a lock names folders inside its project: remove that entry from "into" in ${lockfile}, or pass the folder with --into if it is meant`,
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
 * is writable, as files in an agent's folder are.
 */
export function placeInto(into: string, id: string, stored: string, integrity: string): void {
  const staging = join(into, tempName(STAGING_PREFIX, id));
  const target = join(into, id);
  try {
    mkdirSync(into, { recursive: true });
    const copied = copyFiles(skillFiles(stored), staging, true);
    if (copied !== integrity) {
      throw new SkillsError(
        'E_INVALID',
        `${stored}: the stored copy of ${id} was changed after it was registered (expected ${integrity}, its files hash to ${copied}); ${target} was not written`,
        {
          hint: `register it again from its source (skills sync <its folder> --force), or remove it (skills remove ${id}) and install it again`,
        },
      );
    }
    let trash: string | undefined;
    if (present(target)) {
      trash = join(into, tempName(TRASH_PREFIX, id));
      renameSync(target, trash);
    }
    renameSync(staging, target);
    if (trash) removeTree(trash);
  } catch (err) {
    removeTree(staging);
    if (isSkillsError(err)) throw err;
    throw new SkillsError('E_IO', `cannot write ${target}: ${(err as Error).message}`, { cause: err });
  }
}
