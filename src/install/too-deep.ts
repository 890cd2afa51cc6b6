// A skill whose files fit where they are read but would lie deeper than the system can name where they are written
// (an agent folder with a longer path, the registry's store): found before the first write, from the paths alone.
// One of a source of several is left out as one too deep to read is (remote.ts), and the others installed; one named
// on its own refuses the run. Either way nothing of it is written: no registered copy, no staging folder.
import { dirname, join } from 'node:path';
import { SkillsError } from '../errors.js';
import type { Lockfile } from '../formats/lockfile.js';
import { tempStem } from '../fs/atomic.js';
import { PATH_MAX } from '../fs/errno.js';
import { MAX_DEPTH } from '../fs/walk.js';
import { skillFiles } from '../registry/integrity.js';
import { storePath } from '../registry/layout.js';
import { STAGING_PREFIX, type Place } from './places.js';
import type { InstallOptions, Planned, Prepared } from './types.js';

// What a temp name adds to its stem, at the most: `.<pid>.<8 hex>`.
const TEMP_TAIL = `.${'9'.repeat(7)}.${'f'.repeat(8)}`;

/** The folders a skill's files are first written below: each agent folder's staging copy, the store's. */
function writtenBelow(options: InstallOptions, places: readonly Place[], id: string, version: string): string[] {
  const out = places.map((p) => join(p.abs, `${tempStem(STAGING_PREFIX, id)}${TEMP_TAIL}`));
  if (options.useRegistry)
    for (const owner of ['built-in', 'custom']) {
      const store = join(options.registry, storePath(id, version, owner));
      out.push(join(dirname(store), `${tempStem(STAGING_PREFIX, `${id}@${version}`)}${TEMP_TAIL}`));
    }
  return out;
}

/** The longest path of a skill's files: those known, else its entries, else (past the walk's bound) a listing. */
function deepestPath(p: Prepared): string {
  const { root, entries } = p.skill;
  // A load's walk stops MAX_DEPTH folders down; below, only a listing of the files (as the copy makes) sees them.
  const bounded = entries.some((e) => e.kind === 'dir' && e.path.split('/').length >= MAX_DEPTH);
  const paths = p.files ?? (bounded ? skillFiles(root, entries) : entries);
  return paths
    .map((f) => ('rel' in f ? f.rel : f.path))
    .reduce((a, path) => (Buffer.byteLength(path) > Buffer.byteLength(a) ? path : a), '');
}

/**
 * Leave out of `planned` each skill from a source of several whose deepest file would be a path of PATH_MAX bytes
 * or more where it is written (a --link places a link, and writes none of its files); refuse the run for one named
 * on its own. `before`: the lock as it was, whose entry a skill left out keeps.
 */
export function leaveOutTooDeep(
  options: InstallOptions,
  planned: Planned,
  places: readonly Place[],
  before: Lockfile | undefined,
): void {
  const copies = options.link ? [] : places;
  const kept: Planned['items'] = [];
  for (const item of planned.items) {
    const { plan, resolved } = item;
    if (plan.kind !== 'local' || item.entry.link) {
      kept.push(item);
      continue;
    }
    const deepest = deepestPath(plan.prepared);
    const over = writtenBelow(options, copies, resolved.id, resolved.version)
      .map((dir) => join(dir, deepest))
      .find((path) => Buffer.byteLength(path) >= PATH_MAX);
    if (over === undefined) {
      kept.push(item);
      continue;
    }
    const where = over.slice(0, over.length - deepest.length - 1);
    const said = `${deepest} would lie deeper than the system can name in ${dirname(where)} (a path of ${Buffer.byteLength(over).toLocaleString('en-US')} bytes; the system takes 4,096, PATH_MAX), though it fits where it is read`;
    if (!planned.ofSeveral?.has(resolved.id))
      throw new SkillsError('E_IO', `${resolved.id}: ${said}; nothing was installed`, {
        hint: 'install into a folder with a shorter path (--into), or shorten the folders inside the skill',
      });
    planned.skipped.push({
      source: plan.prepared.typed,
      id: resolved.id,
      message: `${said}; it was skipped`,
      diagnostics: [],
      tooLong: true,
    });
    const old = before?.skills[resolved.id];
    if (old) planned.next.skills[resolved.id] = old;
    else delete planned.next.skills[resolved.id];
  }
  planned.items = kept;
}
