import { relative } from 'node:path';
import { foreignLockBeside } from '../install/foreign-lock.js';
import type { Context } from '../context.js';
import { cacheHomeIfAny } from '../fetch/cache.js';
import { checkOutdated, removedUpstream, type OutdatedEntry, type OutdatedReport } from '../install/outdated.js';
import { paint, useColor, type Paint } from '../ui/color.js';
import { startProgress } from '../ui/spinner.js';
import { forTerminal, safeJson } from '../ui/terminal-text.js';
import { installTarget } from './install.js';

export interface OutdatedOptions {
  global?: boolean;
  all?: boolean;
  json?: boolean;
  registry?: string;
  color?: boolean;
}

/**
 * `skills outdated`: each locked skill's current, wanted and latest version and where it comes from. Read-only. Exit
 * 0 when every skill that has versions was checked, whatever it finds; 2 when one could not be (a remote out of
 * reach, a registry that did not answer): its line (an `error` field with --json) says why, and the others are still
 * checked.
 */
export async function outdated(options: OutdatedOptions, ctx: Context): Promise<OutdatedReport & { exitCode: 0 | 2 }> {
  const target = installTarget(options, ctx);
  const progress = await startProgress(ctx, options, 'checking for newer versions');
  let report: OutdatedReport;
  try {
    report = await checkOutdated({
      lockfile: target.lockfile,
      registry: target.registry,
      cacheDir: cacheHomeIfAny(ctx.env, target.home),
      env: ctx.env,
      progress: (t) => progress.text(t),
    });
  } finally {
    progress.stop();
  }
  const failed = report.skills.filter((s) => s.error);
  const exitCode = failed.length > 0 ? 2 : 0;
  if (options.json) {
    ctx.stdout.write(`${safeJson(report)}\n`);
    return { ...report, exitCode };
  }
  const c = paint(useColor(options.color, ctx));
  const ce = paint(useColor(options.color, ctx, ctx.stderr));
  if (!report.locked) {
    ctx.stdout.write(notInstalledLine(report.lockfile, ctx.cwd));
    return { ...report, exitCode };
  }
  if (failed.length > 0) {
    ctx.stderr.write(uncheckedLine(failed.length, report.skills.length, ce));
    for (const s of failed)
      ctx.stderr.write(`${ce.red('error:')} ${forTerminal(`${s.id}: cannot check ${s.from}: ${s.error!.message}`)}\n`);
    for (const hint of new Set(failed.flatMap((s) => (s.error!.hint ? [s.error!.hint] : []))))
      ctx.stderr.write(`${ce.dim('hint:')} ${forTerminal(hint)}\n`);
  }
  // Gone from the source: listed (never "up to date"), and said on stderr with what to do.
  const removed = report.skills.filter((s) => s.removed);
  for (const s of removed) {
    const { message, hint } = removedUpstream(s, s.wanted!);
    ctx.stderr.write(`${ce.yellow('warning:')} ${forTerminal(message)}\n${ce.dim('hint:')} ${forTerminal(hint)}\n`);
  }
  const rows = report.skills.filter((s) => options.all || s.outdated || s.removed);
  if (rows.length > 0) ctx.stdout.write(formatTable(rows, c));
  const unchecked = report.skills.filter((s) => s.unchecked !== undefined);
  if (options.all)
    for (const s of unchecked) ctx.stdout.write(c.dim(forTerminal(`${s.id}: not checked: ${s.unchecked}`)) + '\n');
  if (!report.skills.some((s) => s.outdated)) {
    const checked = report.skills.length - failed.length - unchecked.length - removed.length;
    const gone = removed.length
      ? [`${removed.length} removed from ${removed.length === 1 ? 'its' : 'their'} source (see above)`]
      : [];
    const notCheckable = unchecked.length && !options.all ? [notCheckableNote(unchecked.length)] : [];
    let summary: string;
    if (report.skills.length === 0) summary = noSkillsLine(report.lockfile, ctx.cwd);
    else if (failed.length === 0 && removed.length === 0)
      summary = `all skills are up to date${notCheckable.length ? ` (${notCheckable.join('; ')})` : ''}`;
    else
      summary = [
        ...(failed.length ? [`${failed.length} could not be checked (see above)`] : []),
        ...gone,
        ...(checked > 0 ? [`the ${checked} checked ${checked === 1 ? 'is' : 'are'} up to date`] : []),
        ...notCheckable,
      ].join('; ');
    ctx.stdout.write(`${forTerminal(summary)}\n`);
  }
  return { ...report, exitCode };
}

/** The skills a lock holds that have no versions to check, as outdated and update say them. */
export const notCheckableNote = (n: number): string => `${n} not checkable (from a folder, archive or URL)`;

/**
 * `no skills installed (no skills-lock.json)`: what outdated and update say where there is no lockfile (exit 0). Where
 * skills-lock.json is another installer's (`npx skills add`), it says so, and how to take its skills over.
 */
export function notInstalledLine(lockfile: string, cwd: string): string {
  const line = `no skills installed (no ${forTerminal(relative(cwd, lockfile) || lockfile)})`;
  const foreign = foreignLockBeside(lockfile);
  if (!foreign) return `${line}\n`;
  const n = foreign.entries.length;
  return (
    `${line}; ${forTerminal(relative(cwd, foreign.file) || foreign.file)} is another installer's (npx skills add), ` +
    `with ${n} skill${n === 1 ? '' : 's'}: \`skills install\` with no sources installs ${n === 1 ? 'it' : 'them'} ` +
    `from ${n === 1 ? 'its source' : 'their sources'} and locks ${n === 1 ? 'it' : 'them'} here\n`
  );
}

/** `no skills in skills-lock.json`: what outdated and update say of a lockfile that holds none. */
export function noSkillsLine(lockfile: string, cwd: string): string {
  return `no skills in ${relative(cwd, lockfile) || lockfile}`;
}

/**
 * `error: 1 of 3 skills could not be checked; …`, said first by outdated and update: nothing after it is to be read
 * as "up to date" for those skills.
 */
export function uncheckedLine(n: number, total: number, ce: Paint): string {
  return `${ce.red('error:')} ${n} of ${total} skill${total === 1 ? '' : 's'} could not be checked; nothing is known of ${n === 1 ? 'its' : 'their'} newer versions\n`;
}

/** A wanted or latest cell: its label, `removed in <label>` where the skill's folder is gone. */
const pointCell = (p: OutdatedEntry['wanted']) => (p === undefined ? '—' : p.gone ? `removed in ${p.label}` : p.label);

/** The table: id, current, wanted, latest, source; wanted and latest coloured when newer. */
function formatTable(rows: OutdatedEntry[], c: Paint): string {
  const cells = rows.map((s) => [
    s.id,
    s.current.label,
    s.error ? '?' : pointCell(s.wanted),
    s.error ? '?' : pointCell(s.latest),
    s.from,
  ]);
  const head = ['id', 'current', 'wanted', 'latest', 'source'];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]!.length)));
  const line = (r: string[], styles: ((t: string) => string)[]) =>
    r.map((t, i) => styles[i]!(i === r.length - 1 ? forTerminal(t) : forTerminal(t).padEnd(widths[i]!))).join('  ');
  const plain = (t: string) => t;
  let out = `${line(
    head,
    head.map(() => c.bold),
  )}\n`;
  rows.forEach((s, n) => {
    const styles = [plain, plain, s.wantedNewer ? c.yellow : plain, s.latestNewer ? c.green : plain, c.dim];
    out += `${line(cells[n]!, styles)}\n`;
  });
  return out;
}
