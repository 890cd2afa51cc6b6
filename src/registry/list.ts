// What `skills list` shows: the registry's skills (from its index alone) and those in skill folders, filtered and
// sorted.
import { sameContent } from './integrity.js';
import { SkillsError } from '../errors.js';
import type { Layout } from '../model/skill.js';
import { validateSkills } from '../skill/validate.js';
import { confusableGroups, skeleton } from '../skill/confusable-names.js';
import { findSkillsEverywhere, skillFoldersFor, type FolderSources } from './find-skills.js';

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
}

const LAYOUTS: Layout[] = ['skill-md', 'manifest'];
const SCOPE_ORDER: Record<Scope, number> = { registry: 0, project: 1, user: 2 };

/**
 * The skills of the registry and of the skill folders, by id (the registry's row first), with what is shadowed and why.
 */
export async function listSkills(opts: ListSkillsOptions): Promise<ListResult & { warnings: string[] }> {
  if (opts.layout !== undefined && !LAYOUTS.includes(opts.layout as Layout)) {
    throw new SkillsError('E_USAGE', `--layout must be skill-md or manifest, not "${opts.layout}"`);
  }
  const { registry } = opts;
  const found = findSkillsEverywhere(() => (opts.folders === false ? [] : skillFoldersFor(opts)), registry);
  // index.json alone: each entry carries its latest version's summary, so no releases file is read.
  const rows: ListRow[] = found.registry.map(({ entry: e, root }) => ({
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
  const reports = await validateSkills(found.skills.map((f) => f.skill));
  reports.forEach((r, i) =>
    rows.push({
      id: r.skill.id,
      version: r.skill.version,
      versions: r.skill.version ? [r.skill.version] : [],
      layout: r.skill.layout,
      owner: r.skill.owner,
      scope: found.skills[i]!.scope,
      usedBy: [],
      description: r.skill.description,
      path: r.skill.root,
      valid: r.valid,
    }),
  );
  // The first folder's skill wins over a later one of the same name (the project's over the user's), as agents load
  // them.
  const shadowed: ListResult['shadowed'] = found.shadowed.map((s) => ({ id: s.id, path: s.path, by: s.by }));
  // A twin (the same skill installed for two agents) shadows nothing worth a warning.
  const warnings = found.shadowed
    .filter((s) => !sameContent(s.path, s.by))
    .map((s) => `${s.id} in ${s.path} (${s.scope}) is shadowed by ${s.by} (${s.byScope})`);
  if (found.cut) warnings.unshift(found.cut);
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
  return { registry, skills, shadowed, warnings };
}
