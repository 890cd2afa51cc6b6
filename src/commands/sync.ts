import { registryFor } from '../registry/locate.js';
import { relative, resolve, sep } from 'node:path';
import type { Paint } from '../ui/color.js';
import type { Context } from '../context.js';
import { SkillsError } from '../errors.js';
import { SYNC_STATUSES, syncSkills, type LeftOut, type SyncItem, type SyncStatus } from '../sync/sync.js';
import { someOf } from '../skill/namesakes.js';
import { jsonDiagnostic } from '../model/diagnostic.js';
import { paint, useColor } from '../ui/color.js';
import { formatDiagnostic } from '../ui/validate-report.js';
import { safeJson, forTerminal, forTerminalLine } from '../ui/terminal-text.js';

export interface SyncOptions {
  dir: string;
  owner?: string;
  force?: boolean;
  watch?: boolean;
  dryRun?: boolean;
  /** -q: only the skills skipped as invalid or refused (and errors); nothing about those registered. */
  quiet?: boolean;
  json?: boolean;
  registry?: string;
  color?: boolean;
  /** Ends --watch (the CLI wires SIGINT and SIGTERM to it); tests pass their own. */
  signal?: AbortSignal;
}

export interface SyncResult {
  registry: string;
  skills: SyncItem[];
  counts: Record<SyncStatus, number>;
  /** Deeper copies of a version registered from a shallower folder: left out, in one warning. */
  leftOut: LeftOut[];
  exitCode: number;
}

/** `skills sync <dir>`: register every valid skill below dir; exit 1 when one was invalid or refused. */
export async function sync(options: SyncOptions, ctx: Context): Promise<SyncResult> {
  const registry = registryFor(options, ctx);
  const c = paint(useColor(options.color, ctx));
  if (options.dryRun && options.watch)
    throw new SkillsError('E_USAGE', '--dry-run and --watch do not go together: a watch registers as skills change', {
      hint: 'run skills registry sync <dir> --dry-run once',
    });
  const base = {
    dir: options.dir,
    cwd: ctx.cwd,
    registry,
    owner: options.owner,
    force: options.force,
    dryRun: options.dryRun,
    // What failed once the index was written: the sync is done, and this is said on stderr (--json too).
    onWarning: (w: string) => ctx.stderr.write(`${c.yellow(forTerminal(`warning: ${w}`))}\n`),
  };
  if (options.watch) {
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    const started = (dir: string) => {
      if (!options.quiet)
        ctx.stderr.write(`${forTerminal(`watching ${dir} for skills (registry ${registry})`)}; Ctrl-C to stop\n`);
      options.signal?.addEventListener('abort', onSignal, { once: true });
      // A signal ends the watch cleanly: the sync under way finishes, then the command returns (exit 0).
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
    };
    const onItem = (item: SyncItem) => {
      if (options.quiet && !options.json && !failed(item)) return;
      ctx.stdout.write(options.json ? `${safeJson(eventOf(item), 0)}\n` : formatItem(item, c, registry, ctx.cwd));
    };
    const onLeftOut = (left: LeftOut[]) => {
      if (options.quiet && !options.json) return;
      ctx.stdout.write(
        options.json
          ? left.map((l) => `${safeJson({ event: 'left-out', ...l }, 0)}\n`).join('')
          : `${c.yellow(`warning: ${leftOutWarning(left, options.dir, ctx.cwd)}`)}\n`,
      );
    };
    try {
      const { skills, counts, leftOut } = await syncSkills({
        ...base,
        onItem,
        onLeftOut,
        watch: { signal: stop.signal, started },
      });
      return { registry, skills, counts, leftOut, exitCode: 0 };
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  }

  const { skills: items, counts, leftOut } = await syncSkills(base);
  const exitCode = counts.invalid + counts.refused > 0 ? 1 : 0;
  if (options.json) {
    ctx.stdout.write(`${safeJson({ registry, skills: items.map(jsonItem), counts, leftOut })}\n`);
  } else if (options.quiet) {
    ctx.stdout.write(
      items
        .filter(failed)
        .map((i) => formatItem(i, c, registry, ctx.cwd, false))
        .join(''),
    );
  } else {
    // One skill without a version (or with a loose one) gets its warning on its line; many get one line after the
    // list, not one each.
    const warned = items.filter((i) => (i.warnings ?? []).length > 0);
    const loose = warned.filter((i) => i.looseVersion !== undefined);
    const unversioned = warned.filter((i) => i.looseVersion === undefined);
    const many = (group: SyncItem[]) => group.length > 1;
    // --dry-run: the same lines, said as what would be (as install says them); nothing was written.
    const would = options.dryRun === true;
    const text =
      items
        .map((i) =>
          formatItem(i, c, registry, ctx.cwd, !many(i.looseVersion === undefined ? unversioned : loose), would),
        )
        .join('') +
      (many(unversioned) ? `${c.yellow(`warning: ${forTerminalLine(unversionedSummary(unversioned))}`)}\n` : '') +
      (many(loose) ? `${c.yellow(`warning: ${forTerminalLine(looseSummary(loose))}`)}\n` : '') +
      (leftOut.length > 0
        ? `${c.yellow(`warning: ${forTerminalLine(leftOutWarning(leftOut, options.dir, ctx.cwd))}`)}\n`
        : '') +
      summary(items, counts, registry, c, would);
    ctx.stdout.write(would ? `${text}dry run: nothing was registered\n` : text);
  }
  return { registry, skills: items, counts, leftOut, exitCode };
}

/** The one warning for the deeper copies left out: how many, a few of their folders in the one synced. */
function leftOutWarning(left: LeftOut[], typed: string, cwd: string): string {
  const n = left.length;
  const dir = resolve(cwd, typed);
  const invalid = left.filter((l) => l.invalid).length;
  const paths = left.map((l) => relative(dir, l.source).split(sep).join('/'));
  return `${n} deeper skill${n === 1 ? '' : 's'} of ${typed} named as a shallower one ${n === 1 ? 'was' : 'were'} left out (${someOf(paths)}${invalid > 0 ? `; ${invalid} of them invalid` : ''}): the shallowest of each name is registered; sync a deeper one's folder by itself to register it`;
}

/** A skill the sync left out: what -q still shows. */
const failed = (i: SyncItem) => i.status === 'invalid' || i.status === 'refused';

function jsonItem(i: SyncItem) {
  return {
    ...i,
    ...(i.diagnostics ? { diagnostics: i.diagnostics.map(jsonDiagnostic) } : {}),
  };
}

/** One --watch --json line: seed 000's "skill:created" in spirit. */
function eventOf(i: SyncItem) {
  const { status, ...rest } = jsonItem(i);
  return { event: status, ...rest };
}

/** The first five of many items, and how many more. */
function firstFew(items: SyncItem[], each: (i: SyncItem) => string): string {
  const shown = items.slice(0, 5).map(each).join(', ');
  return items.length > 5 ? `${shown} and ${items.length - 5} more` : shown;
}

/** The one line for many skills without a version: how many, the first few ids, and how to version one. */
function unversionedSummary(items: SyncItem[]): string {
  return `${items.length} skills have no version (${firstFew(items, (i) => i.id)}); each is kept as 0.0.0, and a changed copy replaces it (to version one, add metadata.version to its SKILL.md, or "version" to its manifest.json)`;
}

/** The one line for many skills kept under the version their loose one means. */
function looseSummary(items: SyncItem[]): string {
  const each = (i: SyncItem) => `${i.id} "${i.looseVersion}" as ${i.version}`;
  return `${items.length} skills have a version that is not MAJOR.MINOR.PATCH (${firstFew(items, each)}); each is kept as the one it plainly means (write it as MAJOR.MINOR.PATCH in its SKILL.md to keep it as written)`;
}

function formatItem(i: SyncItem, c: Paint, registry: string, cwd: string, warnings = true, would = false): string {
  // Names, folders, warnings and errors come from the skills synced: escaped, each on its line.
  const rel = (p: string) => forTerminalLine(relative(cwd, p) || '.');
  const name = forTerminalLine(i.version ? `${i.id}@${i.version}` : i.id);
  const word = i.status === 'invalid' ? 'skipped' : i.status;
  // A dry run's changes are what would be; a skill left out or unchanged is said as it is.
  const label = would && ['added', 'updated', 'replaced'].includes(i.status) ? `would be ${word}` : word;
  const colour = {
    added: c.green,
    updated: c.green,
    replaced: c.yellow,
    unchanged: c.dim,
    invalid: c.red,
    refused: c.red,
  }[i.status];
  let line = `${colour(label.padEnd(would ? 18 : 9))} ${c.bold(name)}`;
  if (i.path) line += c.dim(`  ${forTerminalLine(relative(registry, i.path))}`);
  if (i.status === 'invalid') {
    const errors = i.diagnostics!.filter((d) => d.severity === 'error').length;
    line += ` ${c.dim(`(${rel(i.source)}: invalid, ${errors} error${errors === 1 ? '' : 's'})`)}\n`;
    return line + i.diagnostics!.map((d) => `${formatDiagnostic(d, c, rel)}\n`).join('');
  }
  if (warnings) for (const w of i.warnings ?? []) line += `\n      ${c.yellow(`warning: ${forTerminalLine(w)}`)}`;
  if (i.error)
    return `${line}: ${forTerminal(i.error.message)}\n${i.error.hint ? `      ${c.dim(`hint: ${forTerminal(i.error.hint).replace(/\n/g, '\n            ')}`)}\n` : ''}`;
  return `${line}\n`;
}

function summary(
  items: SyncItem[],
  counts: Record<SyncStatus, number>,
  registry: string,
  c: Paint,
  would: boolean,
): string {
  if (items.length === 0) return c.dim(`no skills to sync (registry ${registry})\n`);
  const parts = SYNC_STATUSES.filter((s) => counts[s] > 0).map(
    (s) => `${counts[s]} ${s === 'invalid' ? 'skipped (invalid)' : s}`,
  );
  // Skills all skipped or refused were read, not synced: "no skill synced", not "1 skill synced …: 1 refused".
  const none = counts.invalid + counts.refused === items.length;
  const count = none ? 'no skill' : `${items.length} skill${items.length === 1 ? '' : 's'}`;
  const line = `${count} ${would ? 'would be synced' : 'synced'} into ${registry}: ${parts.join(', ')}`;
  return `${counts.invalid + counts.refused > 0 ? c.red.bold(line) : c.green(line)}\n`;
}
