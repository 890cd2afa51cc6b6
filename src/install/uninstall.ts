// Uninstalling a skill: out of the agent folders, the lock, and the store unless something still uses it.
import { renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SkillsError } from '../errors.js';
import { serializeLockfile, type Lockfile } from '../formats/lockfile.js';
import { tempName, writeAtomic } from '../fs/atomic.js';
import { present } from '../fs/walk.js';
import { readIndex } from '../registry/index-io.js';
import { folderIntegrity } from '../registry/integrity.js';
import { removeSkill } from '../registry/remove.js';
import { unuseSkill } from '../registry/usage.js';
import { readLockfile } from './lock.js';
import { REMOVING_PREFIX, placesOf } from './places.js';

export interface UninstallOptions {
  registry: string;
  lockfile: string;
  id: string;
  /** Also remove `<into>/<id>` (absolute), whatever it holds. */
  into?: string;
  consumer?: string;
}

export interface UninstallResult {
  id: string;
  /** The version the lock had (or undefined when it had none). */
  version?: string;
  /** The first of `removed`: --into's `<into>/<id>` when it was removed. */
  into?: string;
  /** Every `<folder>/<id>` removed: --into's, then the lock's recorded folders'. */
  removed: string[];
  /** True when the lock had the skill and no longer has it. */
  lock: boolean;
  /** Stored copies removed (absolute). */
  store: string[];
  /** The consumers that keep the skill in the store. */
  keptFor: string[];
  warnings: string[];
}

/**
 * `skills uninstall <id>`: out of --into and the lock's recorded folders, the lock, and the store unless something
 * still uses it.
 */
export async function uninstallSkill(options: UninstallOptions): Promise<UninstallResult> {
  const { id, registry, lockfile, into } = options;
  const lock = readLockfile(lockfile);
  const entry = lock?.skills[id];
  const places = placesOf(lockfile, lock, into, 'nothing was removed');
  // --into's copy goes whatever it holds (the user named it); a recorded folder's only when it is the copy skills
  // installed (its content has the lock's integrity), so a folder of someone's own work is never deleted unasked.
  const targets: string[] = [];
  const warnings: string[] = [];
  for (const place of places) {
    const target = join(place.abs, id);
    if (!present(target)) continue;
    if (
      place.abs === into ||
      (entry !== undefined && statSync(target).isDirectory() && folderIntegrity(target) === entry.integrity)
    )
      targets.push(target);
    else
      warnings.push(
        `${target} was left in place: it is not the copy skills installed (its content does not match ${lockfile}); remove it by hand, or with --into ${place.abs}`,
      );
  }
  const indexEntry = readIndex(registry).skills.find((s) => s.id === id);
  const inStore = indexEntry !== undefined && (entry === undefined || indexEntry.versions.includes(entry.version));
  if (!entry && targets.length === 0 && !inStore) {
    throw new SkillsError(
      'E_NOT_FOUND',
      `${id} is not installed: not in ${lockfile}${into ? `, not in ${into}` : ''}, not in the registry ${registry}`,
      {
        hint: 'see what is installed in skills-lock.json, or with skills list',
      },
    );
  }
  const result: UninstallResult = {
    id,
    ...(entry ? { version: entry.version } : {}),
    removed: [],
    lock: false,
    store: [],
    keptFor: [],
    warnings,
  };
  if (lock) {
    const needers = Object.entries(lock.skills)
      .filter(([other, e]) => other !== id && Object.hasOwn(e.dependencies, id))
      .map(([other, e]) => `${other}@${e.version}`);
    if (needers.length) result.warnings.push(`${id} is a dependency of ${needers.join(', ')}, which stay installed`);
  }
  for (const target of targets) {
    const trash = join(dirname(target), tempName(REMOVING_PREFIX, id));
    renameSync(target, trash);
    rmSync(trash, { recursive: true, force: true });
    result.removed.push(target);
  }
  if (result.removed.length) result.into = result.removed[0];
  if (indexEntry) {
    let usedBy = indexEntry.usedBy;
    if (options.consumer && usedBy.includes(options.consumer))
      usedBy = (await unuseSkill(registry, id, options.consumer)).usedBy;
    if (usedBy.length > 0) result.keptFor = usedBy;
    else if (inStore) {
      const removed = await removeSkill(registry, id, entry?.version);
      result.store = removed.paths.map((p) => join(registry, p));
    }
  }
  if (lock && entry) {
    const next: Lockfile = { ...lock, skills: { ...lock.skills } };
    delete next.skills[id];
    writeAtomic(lockfile, serializeLockfile(next));
    result.lock = true;
  }
  return result;
}
