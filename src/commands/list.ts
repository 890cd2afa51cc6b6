import { registryFor } from '../registry/locate.js';
import { join } from 'node:path';
import type { Paint } from '../ui/color.js';
import { homeOf, type Context } from '../context.js';
import { readIndex } from '../registry/registry.js';
import { findSkills, skillFolders } from '../skill/folders.js';
import { validateSkills } from '../skill/validate.js';
import { SkillsError } from '../errors.js';
import { loadConfig } from '../config/config.js';
import type { Layout } from '../model/skill.js';
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

const LAYOUTS: Layout[] = ['skill-md', 'manifest'];
const SCOPE_ORDER: Record<Scope, number> = { registry: 0, project: 1, user: 2 };

/** `skills list [dirs…]`: the registry's skills (from its index alone) and those in skill folders. */
export async function list(options: ListOptions, ctx: Context): Promise<ListResult> {
  if (options.layout !== undefined && !LAYOUTS.includes(options.layout as Layout)) {
    throw new SkillsError('E_USAGE', `--layout must be skill-md or manifest, not "${options.layout}"`);
  }
  const home = homeOf(ctx);
  const registry = registryFor(options, ctx);
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

  // The folders given, else skillDirs from skills.config.json, else the standard project and user folders.
  const configured = options.dirs.length > 0 ? undefined : loadConfig(ctx.cwd, undefined, home).skillDirs;
  const found = findSkills(skillFolders({ cwd: ctx.cwd, home, env: ctx.env, given: options.dirs, configured }));
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
  // The first folder's skill wins over a later one of the same name (the project's over the user's), as agents load them.
  const shadowed: ListResult['shadowed'] = found.shadowed.map((s) => ({ id: s.id, path: s.path, by: s.by }));
  for (const s of found.shadowed) ctx.stderr.write(`warning: ${s.id} in ${s.path} (${s.scope}) is shadowed by ${s.by} (${s.byScope})\n`);

  const shown = rows
    .filter((r) => (options.owner === undefined || r.owner === options.owner) && (options.layout === undefined || r.layout === options.layout))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : SCOPE_ORDER[a.scope] - SCOPE_ORDER[b.scope]));
  const result: ListResult = { registry, skills: shown, shadowed };
  if (options.json) ctx.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else ctx.stdout.write(formatList(shown, { long: !!options.long, width: ctx.stdout.columns || 100, c: paint(useColor(options.color, ctx)), registry }));
  return result;
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
