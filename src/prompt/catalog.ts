import { registrySkills, storedRoots } from '../registry/find-skills.js';
import { contentComparer } from '../registry/integrity.js';
import { readFolder, type CatalogEntry, type CatalogScope } from '../skill/light.js';
import type { SkillFolder } from '../skill/folders.js';
import type { MetaCache } from '../skill/meta-cache.js';
import { discoveryBudget } from '../skill/discover.js';
import { closest } from '../skill/names.js';
import { shadowFinder } from '../skill/plugin.js';
import type { Query } from './select-query.js';
import type { Reach } from './select-scan.js';
import {
  catalogEntryOf,
  indexIdentity,
  parseSelectionIndex,
  readSelectionIndex,
  rowOf,
  selectionIndexText,
  writeSelectionText,
  type SelectionIndex,
} from './selection-index.js';
import { prefilter } from './selection-prefilter.js';
import type { CatalogRun } from './tier-tokens.js';

// render-prompt's view of the skills an agent could use: the folders' skills, read light (skill/light.ts), then
// the registry's, from index.json alone. The first skill of a name wins.

export interface Catalog {
  /** The skills of the catalog, in discovery order: folders in the order given, then the registry. */
  entries: CatalogEntry[];
  /** Hidden skills (see CatalogEntry.hidden). */
  hidden: CatalogEntry[];
  /** Names removed by disabledSkills. */
  disabled: string[];
  /** Skills left out because a skill of the same name came first. */
  shadowed: { name: string; location: string; scope: CatalogScope; by: string; byScope: CatalogScope }[];
  warnings: string[];
  /**
   * Which entries a query may match, when the registry's selection index says (SelectOptions.mayMatch); absent,
   * selection reads every entry.
   */
  mayMatch?: (q: Query) => Reach | undefined;
  /** The registry's entries at the end of `entries`, when they are its selection index's rows (tier-tokens.ts). */
  registryRun?: CatalogRun;
}

export interface CatalogOptions {
  folders: SkillFolder[];
  /** The registry folder, or undefined to read none. */
  registry?: string;
  disabled?: readonly string[];
  /** Keep each folder skill's SKILL.md body in its entry (selection by a query reads it). */
  bodies?: boolean;
  /** Where the readings of unchanged skill files are kept between runs (skill/meta-cache.ts). */
  cache?: MetaCache;
}

/**
 * Build the catalog: the skills of each folder in order, then the registry's. The first skill of a name wins
 * (project folders come before user folders, folders before the registry); a user skill hidden by a project
 * skill is warned about, a registry skill hidden by a folder skill is not (a registry usually holds copies of
 * the project's own skills).
 */
export function buildCatalog(opts: CatalogOptions): Catalog {
  const out: Catalog = { entries: [], hidden: [], disabled: [], shadowed: [], warnings: [] };
  // Names are compared after NFKC, as the standard compares them (a name pasted from a macOS folder is NFD).
  const disabled = new Set((opts.disabled ?? []).map((n) => n.normalize('NFKC')));
  const byName = new Map<string, CatalogEntry>();
  const shadowerOf = shadowFinder<CatalogEntry>((e) => e.root);
  const seenRoots = new Set<string>();
  const sameContent = contentComparer();
  const take = (e: CatalogEntry) => {
    const first = byName.get(e.name);
    if (first) {
      out.shadowed.push({
        name: e.name,
        location: e.location,
        scope: e.scope,
        by: first.location,
        byScope: first.scope,
      });
      // A twin (the same skill installed for two agents) hides nothing: no warning. Nor does a skill of its name in
      // another plugin (shadowFinder finds no shadower): agents name it plugin:name, so it is no mistake of the
      // user's; but a prompt names skills by name alone (selection, --select), so the first is the one in it, as
      // serve serves the first (list shows both).
      if (e.scope !== 'registry' && !sameContent(e.root, first.root) && shadowerOf([first], e))
        out.warnings.push(`${e.name} in ${e.root} (${e.scope}) is shadowed by ${first.root} (${first.scope})`);
      return;
    }
    byName.set(e.name, e);
    if (disabled.has(e.name)) out.disabled.push(e.name);
    else if (e.hidden) out.hidden.push(e);
    else out.entries.push(e);
  };
  // One budget for the search of every folder (skill/discover.ts): a configuration that names `/` is cut, and said so.
  const budget = discoveryBudget();
  for (const folder of opts.folders) {
    for (const e of readFolder(folder, out.warnings, budget, opts.bodies === true, opts.cache)) {
      // The same folder reached twice (a symlink, a folder listed twice) counts once.
      if (seenRoots.has(e.location)) continue;
      seenRoots.add(e.location);
      take(e);
    }
  }
  if (opts.registry !== undefined) {
    const { entries, index } = registryEntries(opts.registry, opts.bodies === true);
    const from = out.entries.length;
    // From a selection index (its ids checked unique) with no name taken before and none disabled, no entry can be
    // shadowed or disabled: take's lookups are left out (ten thousand of them).
    if (index && byName.size === 0 && disabled.size === 0) addUnique(out, entries);
    else for (const e of entries) take(e);
    if (index) {
      const rows = rowsOf(out.entries, entries);
      out.mayMatch = prefilter(index, out.entries, rows);
      out.registryRun = runOf(opts.registry, index, rows, from);
    }
  }
  warnMisspeltDisabled(disabled, byName, out.warnings);
  return out;
}

/**
 * A disabledSkills name that no skill goes by, while one is near it (`pdff`, `pdf`), is a typo that leaves the skill
 * on: said. A name with none near is left alone: it may be a skill of folders this run does not read.
 */
function warnMisspeltDisabled(disabled: Set<string>, byName: Map<string, CatalogEntry>, warnings: string[]): void {
  if (disabled.size === 0) return;
  const names = [...byName.keys()];
  for (const name of disabled) {
    if (byName.has(name)) continue;
    const near = closest(name, names);
    if (near !== undefined)
      warnings.push(
        `disabledSkills names "${name}", which no skill goes by; did you mean "${near}"? It is not disabled`,
      );
  }
}

/** take() of entries whose names are unique, with none taken before and none disabled: hidden or listed. */
function addUnique(out: Pick<Catalog, 'entries' | 'hidden'>, entries: readonly CatalogEntry[]): void {
  for (const e of entries) (e.hidden ? out.hidden : out.entries).push(e);
}

/**
 * The registry's entries of the catalog (from `from` on, each of them the row `rows[i]` of `index`) as a run whose
 * token count can be kept: its key names the folder their locations start with, the index's header (which names the
 * index.json it was written from) and the rows left out (hidden, disabled, or shadowed by a folder's skill).
 */
function runOf(dir: string, index: SelectionIndex, rows: Int32Array, from: number): CatalogRun {
  let left = '';
  let next = 0;
  for (let i = from; i < rows.length; i++) {
    for (; next < rows[i]!; next++) left += `${next},`;
    next++;
  }
  for (; next < index.rows.length; next++) left += `${next},`;
  return { from, key: `${dir}\n${index.header}\n${left}` };
}

/**
 * The row of each of the catalog's entries among the registry's `entries` (-1: not the registry's). The catalog holds
 * the registry's in their order, less those left out: found by walking both, with no map of ten thousand entries.
 */
function rowsOf(catalog: readonly CatalogEntry[], entries: readonly CatalogEntry[]): Int32Array {
  const rows = new Int32Array(catalog.length).fill(-1);
  for (let i = 0, j = 0; i < catalog.length; i++) {
    const e = catalog[i]!;
    if (e.scope !== 'registry') continue;
    while (j < entries.length && entries[j] !== e) j++;
    if (j < entries.length) rows[i] = j++;
  }
  return rows;
}

/**
 * The registry's skills: from its selection index when it was written from the index.json there now, else from
 * index.json alone (registry/find-skills.ts), each entry's latest summary. When selection will read them (`forQuery`)
 * and the index was missing or stale, it is made from index.json and used by this run too, and written for the next
 * (best effort: a registry may be read-only; a writer's change meanwhile makes it stale again, never wrong).
 */
function registryEntries(dir: string, forQuery: boolean): { entries: CatalogEntry[]; index?: SelectionIndex } {
  const index = readSelectionIndex(dir);
  if (index) return fromIndex(dir, index);
  const identity = forQuery ? indexIdentity(dir) : undefined;
  const skills = registrySkills(dir);
  if (identity !== undefined && indexIdentity(dir) === identity) {
    const text = selectionIndexText(
      skills.map((s) => s.entry),
      identity,
    );
    try {
      writeSelectionText(dir, text);
    } catch {
      // Read-only, or full: the next run reads index.json again.
    }
    // This query reads it as the next will (registry-bodies.ts reads the bodies its prefilter finds): a missing or
    // stale index changes nothing selection prints.
    const made = parseSelectionIndex(text, identity);
    if (made) return fromIndex(dir, made);
  }
  return { entries: skills.map(({ entry, root }) => catalogEntryOf(rowOf(entry), root)) };
}

/** The registry's entries as its selection index gives them, each at its stored copy. */
function fromIndex(dir: string, index: SelectionIndex): { entries: CatalogEntry[]; index: SelectionIndex } {
  const rootOf = storedRoots(dir);
  return { entries: index.rows.map((r) => catalogEntryOf(r, rootOf(r[5]))), index };
}
