// What `skills list` shows: the registry's skills (from its index alone) and those in skill folders, filtered and
// sorted.
import { contentComparer } from './integrity.js';
import { SkillsError } from '../errors.js';
import type { Layout } from '../model/skill.js';
import type { Skill } from '../model/skill.js';
import { validateSkills } from '../skill/validate.js';
import { confusableGroups, skeleton } from '../skill/confusable-names.js';
import { findSkills, userFolderWarnings, type SkillReader } from '../skill/folders.js';
import type { ListCache, SkillSummary } from '../skill/list-cache.js';
import { loadSkill } from '../skill/load.js';
import { registrySkills, skillFoldersFor, type FolderSources } from './find-skills.js';

export type Scope = 'registry' | 'project' | 'user';

export interface ListRow {
  id: string;
  /** The latest version (registry) or the folder's version; undefined when the skill has none. */
  version?: string;
  /** Every version, newest first. */
  versions: string[];
  layout?: Layout;
  owner?: string;
  scope: Scope;
  usedBy: string[];
  description: string;
  /** The stored copy (registry) or the skill folder, absolute. */
  path: string;
  /** Folder skills only: false when validate finds errors. */
  valid?: boolean;
  /** Folder skills only: the registry holds this version too (its row is not shown twice). */
  registered?: boolean;
}

export interface ListResult {
  /** The registry read; undefined with --no-registry. */
  registry?: string;
  skills: ListRow[];
  /** User-scope skills hidden by a project skill of the same name. */
  shadowed: { id: string; path: string; by: string }[];
}

export interface ListSkillsOptions extends FolderSources {
  /** The registry to read; undefined: none. */
  registry?: string;
  /** Read the skill folders too (default); false: the registry alone. */
  folders?: boolean;
  owner?: string;
  layout?: string;
  /**
   * Where what a folder skill shows (and whether it is valid) is kept between runs (skill/list-cache.ts), for the
   * skill folders read, so that an unchanged skill is not read and validated again; none: every skill is loaded.
   */
  cacheFor?: (folders: string[]) => ListCache | undefined;
}

const LAYOUTS: Layout[] = ['skill-md', 'manifest'];
const SCOPE_ORDER: Record<Scope, number> = { registry: 0, project: 1, user: 2 };

/**
 * The skills of the registry and of the skill folders, by id (the registry's row first), with what is shadowed and why.
 */
export async function listSkills(
  opts: ListSkillsOptions,
): Promise<ListResult & { warnings: string[]; looked: string[] }> {
  if (opts.layout !== undefined && !LAYOUTS.includes(opts.layout as Layout)) {
    throw new SkillsError('E_USAGE', `--layout must be skill-md or manifest, not "${opts.layout}"`);
  }
  const { registry } = opts;
  // index.json alone: each entry carries its latest version's summary, so no releases file is read.
  const inRegistry = registry === undefined ? [] : registrySkills(registry);
  const rows: ListRow[] = inRegistry.map(({ entry: e, root }) => ({
    id: e.id,
    version: e.latestVersion,
    versions: e.versions,
    layout: e.latest.layout,
    owner: e.owner,
    scope: 'registry',
    usedBy: e.usedBy,
    description: e.latest.description,
    path: root,
  }));
  const folders = opts.folders === false ? [] : skillFoldersFor(opts);
  const cache = folders.length > 0 ? opts.cacheFor?.(folders.map((f) => f.dir)) : undefined;
  const found = findSkills(folders, listReader(cache));
  // The skills the cache did not know are loaded: validate them, and keep what they show.
  const loaded = found.skills.map((f) => f.skill).filter((s): s is Skill => !isSummary(s));
  const valid = new Map<Skill, boolean>();
  for (const r of await validateSkills(loaded)) {
    valid.set(r.skill, r.valid);
    cache?.record(r.skill, r.valid);
  }
  cache?.save();
  for (const f of found.skills) {
    const s = f.skill;
    rows.push({
      id: s.id,
      version: s.version,
      versions: s.version ? [s.version] : [],
      layout: s.layout,
      owner: s.owner,
      scope: f.scope,
      usedBy: [],
      description: s.description,
      path: s.root,
      valid: isSummary(s) ? s.valid : valid.get(s)!,
    });
  }
  // The first folder's skill wins over a later one of the same name (the project's over the user's), as agents load
  // them.
  const shadowed: ListResult['shadowed'] = found.shadowed.map((s) => ({ id: s.id, path: s.path, by: s.by }));
  // A twin (the same skill installed for two agents) shadows nothing worth a warning.
  const sameContent = contentComparer();
  const warnings = found.shadowed
    .filter((s) => !sameContent(s.path, s.by))
    .map((s) => `${s.id} in ${s.path} (${s.scope}) is shadowed by ${s.by} (${s.byScope})`);
  if (found.cut) warnings.unshift(found.cut);
  // A relative CLAUDE_CONFIG_DIR (…) is not used for the user folders read: said first, as agents and doctor say it.
  warnings.unshift(...userFolderWarnings(folders, opts.env));
  for (const s of found.skipped) warnings.push(`${s.path}: skipped: ${s.message}`);
  // Look-alike names (a Cyrillic р in "рdf" beside "pdf"): one skill can pass for the other.
  for (const group of confusableGroups(rows.map((r) => r.id))) {
    warnings.push(
      `${group.map((id) => `"${id}"`).join(' and ')} look alike (each reads as "${skeleton(group[0]!)}"): one skill can pass for another; check which one is meant`,
    );
  }
  // A skill installed from the registry into a folder is one skill: its folder's row stands for both, marked as
  // registered, with the registry's owner and usedBy.
  const inFolders = new Map(rows.filter((r) => r.scope !== 'registry').map((r) => [r.id, r]));
  const once = rows.filter((r) => {
    if (r.scope !== 'registry') return true;
    const placed = inFolders.get(r.id);
    if (!placed || (placed.version ?? '0.0.0') !== r.version) return true;
    placed.registered = true;
    placed.usedBy = r.usedBy;
    placed.owner ??= r.owner;
    return false;
  });
  const skills = once
    .filter(
      (r) =>
        (opts.owner === undefined || r.owner === opts.owner) && (opts.layout === undefined || r.layout === opts.layout),
    )
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : SCOPE_ORDER[a.scope] - SCOPE_ORDER[b.scope]));
  return { registry, skills, shadowed, warnings, looked: folders.map((f) => f.dir) };
}

const isSummary = (s: Skill | SkillSummary): s is SkillSummary => 'valid' in s;

/** Each skill folder's summary from the cache when nothing it was made from changed; else the skill, loaded. */
function listReader(cache: ListCache | undefined): SkillReader<Skill | SkillSummary> {
  return {
    probe: cache && ((dir) => cache.probe(dir)),
    read: (root, listing) => cache?.take(root) ?? loadSkill(root, { listing }),
  };
}
