// Installing skills: from a folder, an archive, or a spec resolved against a registry, with their
// dependencies; into the registry (registerSkill does the store and the index) and, when asked, into flat
// `<into>/<id>/` folders; recorded in skills-lock.json. Everything that can refuse (validation, resolution, the
// lock, an existing folder) is decided before the first write, so a refused install leaves nothing behind.
import { dirname, join } from 'node:path';
import { SkillsError } from '../errors.js';
import { INTO_PATH, LOCKFILE_NAME, emptyLockfile, intoOf } from '../formats/lockfile.js';
import { cleanStale } from '../fs/atomic.js';
import { isInside, present } from '../fs/walk.js';
import { carryOut } from './apply.js';
import { lockPath, readLockfile, withProjectLock } from './lock.js';
import { planFromLock, planFromSources } from './plan.js';
import { REMOVING_PREFIX, STAGING_PREFIX, TRASH_PREFIX, placesOf } from './places.js';
import { Scratch, UNPACK_PREFIX } from './sources.js';
import type { InstallOptions, InstallOutcome } from './types.js';

/** `skills install`: install the sources (or, with none, exactly what the lockfile says). */
export async function installSkills(options: InstallOptions): Promise<InstallOutcome> {
  const { registry, lockfile } = options;
  const lockDir = dirname(lockfile);
  cleanStale(registry, [UNPACK_PREFIX]);
  if (options.from !== undefined && !present(join(options.from, 'index.json'))) {
    throw new SkillsError('E_NOT_FOUND', `--from ${options.from}: no registry there (no index.json)`, {
      hint: 'give a registry folder: one that skills sync wrote, with index.json in it',
    });
  }
  return withProjectLock(lockfile, () => installLocked(options), {
    readOnly: options.frozen,
    onWait: () => options.progress?.(`waiting for another install in ${lockDir}`),
  });
}

/** The install itself, under the project's lock: the lock read here is the one the last writer left. */
async function installLocked(options: InstallOptions): Promise<InstallOutcome> {
  const { registry, lockfile } = options;
  const lockDir = dirname(lockfile);
  const before = readLockfile(lockfile);
  const places = placesOf(lockfile, before, options.into);
  for (const p of places)
    cleanStale(p.abs, [STAGING_PREFIX, REMOVING_PREFIX], { prefix: TRASH_PREFIX, target: (base) => base });
  const scratch = new Scratch(registry);
  try {
    const planned =
      options.sources.length === 0
        ? await planFromLock(options, before, scratch)
        : await planFromSources(options, before ?? emptyLockfile(), scratch, lockDir);
    if (!planned.ok) return planned;
    // --into is recorded, so the next `skills install` (a teammate's clone) places skills there too; --frozen
    // records nothing, and a folder outside the project cannot be recorded.
    const into = options.into;
    if (into !== undefined && !places[0]!.recorded && !options.frozen) {
      const rel = lockPath(lockDir, into);
      if (isInside(lockDir, into) && INTO_PATH.test(rel))
        planned.next = { ...planned.next, into: [...intoOf(planned.next), rel].sort() };
      else
        planned.warnings.push(
          `--into ${into} is outside ${lockDir}, so ${LOCKFILE_NAME} does not record it: pass --into again to place skills there`,
        );
    }
    return await carryOut(options, planned, before, places);
  } finally {
    scratch.cleanup();
  }
}
