// Removing a skill's versions from the store and the index.
import { join } from 'node:path';
import { SkillsError } from '../errors.js';
import type { IndexEntry, RegistryIndex } from '../formats/index-file.js';
import { notFound, readIndex } from './index-io.js';
import { stamp } from './layout.js';
import { cleanLeftovers } from './store.js';
import { updateIndex } from './update.js';
import { goneProject } from './usage.js';

export interface RemoveResult {
  id: string;
  /** Versions removed, newest first. */
  removed: string[];
  /** Versions still registered (none when the whole entry went). */
  remaining: string[];
  /** Stored copies removed, relative to the registry. */
  paths: string[];
  /** What failed once the index was written (the change is made): see UpdateIndexOptions.warn. */
  warnings?: string[];
}

/**
 * Remove one version (or every version) of a skill from the store and the index; refused while it is used, unless
 * force.
 */
export async function removeSkill(
  dir: string,
  id: string,
  version?: string,
  opts: { force?: boolean; now?: Date } = {},
): Promise<RemoveResult> {
  const check = (index: RegistryIndex): IndexEntry => {
    const entry = index.skills.find((s) => s.id === id);
    if (!entry) throw notFound(index, id);
    if (version !== undefined && !entry.versions.includes(version)) {
      throw new SkillsError(
        'E_NOT_FOUND',
        `${id}@${version} is not registered; registered versions: ${entry.versions.join(', ')}`,
        {
          hint: `e.g. skills registry remove ${id}@${entry.versions[0]}`,
        },
      );
    }
    // A project whose folder is gone uses nothing.
    const users = entry.usedBy.filter((c) => !goneProject(c));
    if (users.length > 0 && !opts.force) {
      throw new SkillsError('E_USAGE', `${id} is used by ${users.join(', ')}; nothing was removed`, {
        hint: `run skills registry unuse ${id} --for <consumer> for each, or remove it anyway with --force`,
      });
    }
    return entry;
  };
  check(readIndex(dir));
  let result: RemoveResult | undefined;
  const warnings: string[] = [];
  await updateIndex(
    dir,
    (index, update) => {
      cleanLeftovers(dir, update.recorded);
      const entry = check(index);
      const removed = version === undefined ? [...entry.versions] : [version];
      const releases = update.releases(id);
      const paths = removed
        .map((v) => (Object.hasOwn(releases, v) ? releases[v]!.path : undefined))
        .filter((p): p is string => p !== undefined);
      // Deleted once index.json no longer lists them; put back should it not be written.
      for (const p of paths) update.takeOut(join(dir, p));
      for (const v of removed) delete releases[v];
      entry.versions = entry.versions.filter((v) => !removed.includes(v));
      if (entry.versions.length === 0) index.skills = index.skills.filter((s) => s !== entry);
      else {
        entry.latestVersion = entry.versions[0]!;
        entry.updatedAt = stamp(opts.now ?? new Date());
      }
      result = { id, removed, remaining: [...entry.versions], paths };
      return index;
    },
    { warn: (w) => warnings.push(w) },
  );
  return warnings.length > 0 ? { ...result!, warnings } : result!;
}
