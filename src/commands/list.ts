import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Paint } from '../ui/color.js';
import type { Context } from '../context.js';
import { discoverSkills } from '../core/discover.js';
import { isInside } from '../core/fs-walk.js';
import { loadSkill } from '../core/load.js';
import { locateRegistry, readIndex } from '../core/registry.js';
import { validateSkills } from '../core/validate.js';
import { SkillsError, isSkillsError } from '../errors.js';
import { loadConfig } from '../core/config.js';
import type { Layout, Skill } from '../model/skill.js';
import { paint, useColor } from '../ui/color.js';

export interface ListOptions {
  dirs: string[];
  json?: boolean;
  long?: boolean;
  owner?: string;
  layout?: string;
  registry?: string;
  color?: boolean;
}

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
}

export interface ListResult {
  registry: string;
  skills: ListRow[];
  /** User-scope skills hidden by a project skill of the same name. */
  shadowed: { id: string; path: string; by: string }[];
}

/** Skill folders looked at when none are given: the project's, then the user's. */
export const PROJECT_DIRS = ['skills', '.agents/skills', '.claude/skills'];
export const USER_DIR = '.agents/skills';
const LAYOUTS: Layout[] = ['skill-md', 'manifest'];
const SCOPE_ORDER: Record<Scope, number> = { registry: 0, project: 1, user: 2 };

/** `skills list [dirs…]`: the registry's skills (from its index alone) and those in skill folders. */
export async function list(options: ListOptions, ctx: Context): Promise<ListResult> {
  if (options.layout !== undefined && !LAYOUTS.includes(options.layout as Layout)) {
    throw new SkillsError('E_USAGE', `--layout must be skill-md or manifest, not "${options.layout}"`);
  }
  const home = ctx.env.HOME ?? homedir();
  const registry = locateRegistry({ registry: options.registry, cwd: ctx.cwd, env: ctx.env, home });
  // index.json alone: each entry carries its latest version's summary, so no releases file is read.
  const rows: ListRow[] = readIndex(registry).skills.map((e) => {
    const latest = e.latest;
    return {
      id: e.id,
      version: e.latestVersion,
      versions: e.versions,
      layout: latest.layout,
      owner: e.owner,
      scope: 'registry',
      usedBy: e.usedBy,
      description: latest.description,
      path: latest.path ? join(registry, latest.path) : registry,
    };
  });

  const userDir = join(home, USER_DIR);
  const scoped = (dir: string): { dir: string; scope: Scope } => ({ dir, scope: isInside(userDir, dir) ? 'user' : 'project' });
  // The folders given, else skillDirs from skills.config.json, else the standard project and user folders.
  const configured = options.dirs.length > 0 ? undefined : loadConfig(ctx.cwd, undefined, home).skillDirs;
  const folders: { dir: string; scope: Scope }[] =
    options.dirs.length > 0
      ? options.dirs.map((d) => scoped(resolve(ctx.cwd, d)))
      : configured
        ? configured.map(scoped)
        : [...PROJECT_DIRS.map((d) => ({ dir: resolve(ctx.cwd, d), scope: 'project' as Scope })), { dir: userDir, scope: 'user' }];
  const seen = new Set<string>();
  const found: { skill: Skill; scope: Scope }[] = [];
  for (const { dir, scope } of folders) {
    for (const skill of skillsIn(dir)) {
      const key = real(skill.root);
      if (seen.has(key)) continue;
      seen.add(key);
      found.push({ skill, scope });
    }
  }
  const reports = await validateSkills(found.map((f) => f.skill));
  const folderRows: ListRow[] = reports.map((r, i) => ({
    id: r.skill.id,
    version: r.skill.version,
    versions: r.skill.version ? [r.skill.version] : [],
    layout: r.skill.layout,
    owner: r.skill.owner,
    scope: found[i]!.scope,
    usedBy: [],
    description: r.skill.description,
    path: r.skill.root,
    valid: r.valid,
  }));

  // The project's skill wins over the user's of the same name, as agents load them.
  const shadowed: ListResult['shadowed'] = [];
  const projectIds = new Map(folderRows.filter((r) => r.scope === 'project').map((r) => [r.id, r.path]));
  for (const r of folderRows) {
    if (r.scope === 'user' && projectIds.has(r.id)) shadowed.push({ id: r.id, path: r.path, by: projectIds.get(r.id)! });
    else rows.push(r);
  }
  for (const s of shadowed) ctx.stderr.write(`warning: ${s.id} in ${s.path} (user) is shadowed by ${s.by} (project)\n`);

  const shown = rows
    .filter((r) => (options.owner === undefined || r.owner === options.owner) && (options.layout === undefined || r.layout === options.layout))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : SCOPE_ORDER[a.scope] - SCOPE_ORDER[b.scope]));
  const result: ListResult = { registry, skills: shown, shadowed };
  if (options.json) ctx.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else ctx.stdout.write(formatList(shown, { long: !!options.long, width: ctx.stdout.columns || 100, c: paint(useColor(options.color, ctx)), registry }));
  return result;
}

function real(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
}

/** Skills below a folder; a folder that does not exist, or holds none, gives none. */
function skillsIn(dir: string): Skill[] {
  try {
    if (!statSync(dir).isDirectory()) return [];
  } catch {
    return [];
  }
  let roots: string[];
  let listings;
  try {
    ({ roots, listings } = discoverSkills([dir], { cwd: dir }));
  } catch (err) {
    if (isSkillsError(err)) return [];
    throw err;
  }
  const out: Skill[] = [];
  for (const r of roots) {
    try {
      out.push(loadSkill(r, { listing: listings.get(r) }));
    } catch (err) {
      if (!isSkillsError(err)) throw err;
    }
  }
  return out;
}

const width = (s: string) => [...s].length;

/** The table: one row per skill, the description cut so each line fits `width` columns. */
export function formatList(rows: ListRow[], opts: { long: boolean; width: number; c: Paint; registry: string }): string {
  const { c } = opts;
  if (rows.length === 0) return c.dim(`no skills found (registry ${opts.registry})\n`);
  const cells = rows.map((r) => [
    r.valid === false ? `${r.id} ✖` : r.id,
    (opts.long ? r.versions.join(', ') : r.version) || '-',
    r.layout ?? '-',
    r.owner ?? '-',
    r.scope,
    r.usedBy.length > 0 ? r.usedBy.join(', ') : '-',
  ]);
  const head = ['ID', 'VERSION', 'LAYOUT', 'OWNER', 'SCOPE', 'USED BY'];
  const widths = head.map((h, i) => Math.max(width(h), ...cells.map((row) => width(row[i]!))));
  const pad = (s: string, i: number) => s + ' '.repeat(widths[i]! - width(s));
  const fixed = widths.reduce((a, b) => a + b + 2, 0);
  const room = Math.max(10, opts.width - fixed);
  const cut = (s: string) => {
    const flat = s.replace(/\s+/g, ' ').trim();
    const chars = [...flat];
    return chars.length <= room ? flat : `${chars.slice(0, room - 1).join('')}…`;
  };
  const lines = [c.bold([...head.map(pad), 'DESCRIPTION'].join('  '))];
  rows.forEach((r, k) => {
    const row = cells[k]!.map(pad);
    if (r.valid === false) row[0] = c.red(row[0]!);
    lines.push(`${row.join('  ')}  ${c.dim(cut(r.description))}`.trimEnd());
  });
  if (rows.some((r) => r.valid === false)) lines.push(c.dim('✖ invalid: run skills validate <path> to see why'));
  return `${lines.join('\n')}\n`;
}
