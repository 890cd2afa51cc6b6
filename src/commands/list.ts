import { registryFor } from '../registry/locate.js';
import type { Paint } from '../ui/color.js';
import { homeOf, type Context } from '../context.js';
import { listSkills, type ListResult, type ListRow } from '../registry/list.js';
import { paint, useColor } from '../ui/color.js';
import { columns, cutColumns, padColumns } from '../ui/columns.js';
import { forTerminal, forTerminalLine, safeJson } from '../ui/terminal-text.js';
import { setDiscoveryLimits } from '../skill/discover.js';
import { userListCache } from '../skill/list-cache.js';
import { shownWarnings } from '../prompt/skill-warnings.js';
import { shownPath } from '../ui/shown-path.js';

export interface ListOptions {
  dirs: string[];
  json?: boolean;
  long?: boolean;
  owner?: string;
  layout?: string;
  /** A folder, or false for --no-registry. */
  registry?: string | false;
  /** false: the registry alone (`skills registry list`). */
  folders?: boolean;
  color?: boolean;
  /** --verbose: every warning (else the first few: prompt/skill-warnings.ts). */
  verbose?: boolean;
  /** -c: the skills.config.json whose skillDirs are listed (else the nearest one). */
  config?: string;
}

/** `skills list [dirs…]`: the registry's skills (from its index alone) and those in skill folders. */
export async function list(options: ListOptions, ctx: Context): Promise<ListResult> {
  setDiscoveryLimits(ctx.env);
  const registry = options.registry === false ? undefined : registryFor({ registry: options.registry }, ctx);
  const found = await listSkills({
    registry,
    folders: options.folders,
    cwd: ctx.cwd,
    home: homeOf(ctx),
    env: ctx.env,
    given: options.dirs,
    ...(options.config === undefined ? {} : { config: options.config }),
    owner: options.owner,
    layout: options.layout,
    // What an unchanged folder skill shows is kept in the user's cache (off with SKILLS_LIST_CACHE=0).
    cacheFor: (folders) => userListCache(ctx.env, homeOf(ctx), ctx.version, folders),
  });
  // Every warning of list is about single skills (shadowed, skipped, look-alike names), but the search's cut, first.
  for (const w of shownWarnings(found.warnings, found.warnings.length, options.verbose))
    ctx.stderr.write(`warning: ${forTerminal(w)}\n`);
  const result: ListResult = { registry, skills: found.skills, shadowed: found.shadowed };
  if (options.json) ctx.stdout.write(`${safeJson(result)}\n`);
  else
    ctx.stdout.write(
      formatList(result.skills, {
        long: !!options.long,
        width: ctx.stdout.columns || 100,
        c: paint(useColor(options.color, ctx)),
        registry,
        looked: found.looked.map((d) => shownPath(d, ctx.cwd, homeOf(ctx))),
      }),
    );
  return result;
}

/** Whitespace that flattening changes: any but a single space, two spaces, a space first or last. */
const LOOSE_SPACE = /[^\S ]| {2}|^ | $/;

/** The widest USED BY cell, in terminal columns: one long consumer must not widen every row. */
const USED_BY_MAX = 40;

/**
 * The widest OWNER cell: an owner is a skill's own free text (github/awesome-copilot has one of 87 characters, "… -
 * independent, not affiliated with or endorsed by Shopify Inc."), which left every row's description 9 columns.
 */
const OWNER_MAX = 24;

/** The consumers that fit in USED_BY_MAX columns, and a count of the rest ("a, b, +3"); a name too long is cut. */
export function usedByCell(names: string[]): string {
  if (names.length === 0) return '-';
  const all = names.join(', ');
  if (columns(all) <= USED_BY_MAX) return all;
  for (let k = names.length - 1; k >= 1; k--) {
    const text = `${names.slice(0, k).join(', ')}, +${names.length - k}`;
    if (columns(text) <= USED_BY_MAX) return text;
  }
  const more = names.length > 1 ? `, +${names.length - 1}` : '';
  return `${cutColumns(names[0]!, USED_BY_MAX - more.length)}${more}`;
}

/** The table: one row per skill, the description cut so each line fits `width` columns. */
export function formatList(
  rows: ListRow[],
  opts: { long: boolean; width: number; c: Paint; registry?: string; looked?: string[] },
): string {
  const { c } = opts;
  if (rows.length === 0) {
    const where = opts.looked === undefined ? '' : `: looked in ${forTerminal(opts.looked.join(', ') || 'no folder')}`;
    return c.dim(
      `no skills found${where} (${opts.registry ? `registry ${forTerminal(opts.registry)}` : 'no registry read'})\n`,
    );
  }
  // Everything in a row came from a skill or the registry's index: escaped before it is measured and printed.
  const cells = rows.map((r) =>
    [
      r.id,
      (opts.long ? r.versions.join(', ') : r.version) || '-',
      r.layout ?? '-',
      cutColumns(forTerminalLine(r.owner ?? '-'), OWNER_MAX),
      r.registered ? `${r.scope}+registry` : r.scope,
      usedByCell(r.usedBy.map(forTerminalLine)),
    ].map(forTerminalLine),
  );
  const head = ['ID', 'VERSION', 'LAYOUT', 'OWNER', 'SCOPE', 'USED BY'];
  // Padded and cut by terminal columns (ui/columns.ts): a Chinese name takes two a character.
  const widths = head.map((h, i) => Math.max(columns(h), ...cells.map((row) => columns(row[i]!))));
  const pad = (s: string, i: number) => padColumns(s, widths[i]!);
  // The mark of an invalid skill has a column of its own after the id, padded here: ✖ takes one column on a
  // terminal (wcwidth: not an emoji unless followed by U+FE0F), but string-width counts it as two.
  const marked = rows.some((r) => r.valid === false);
  const mark = (r: ListRow | undefined) => (!marked ? '' : r?.valid === false ? ' ✖' : '  ');
  const fixed = widths.reduce((a, b) => a + b + 2, 0) + mark(undefined).length;
  const room = Math.max(10, opts.width - fixed);
  // Most descriptions are one line with single spaces: flat already, and not copied.
  const cut = (s: string) => cutColumns(LOOSE_SPACE.test(s) ? s.replace(/\s+/g, ' ').trim() : s, room);
  const headRow = head.map(pad);
  headRow[0] += mark(undefined);
  const lines = [c.bold([...headRow, 'DESCRIPTION'].join('  '))];
  rows.forEach((r, k) => {
    const row = cells[k]!.map(pad);
    row[0] += mark(r);
    if (r.valid === false) row[0] = c.red(row[0]!);
    lines.push(`${row.join('  ')}  ${c.dim(cut(forTerminal(r.description)))}`.trimEnd());
  });
  if (rows.some((r) => r.valid === false)) lines.push(c.dim('✖ invalid: run skills validate <path> to see why'));
  return `${lines.join('\n')}\n`;
}
