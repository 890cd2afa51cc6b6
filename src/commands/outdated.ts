import { relative } from 'node:path';
import type { Context } from '../context.js';
import { cacheHome } from '../fetch/cache.js';
import { checkOutdated, type OutdatedEntry, type OutdatedReport } from '../install/outdated.js';
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
 * `skills outdated`: each locked skill's current, wanted and latest version and where it comes from. Read-only, and
 * exit 0 whatever it finds: a remote that cannot be reached is a line (an `error` field with --json) for its skill.
 */
export async function outdated(options: OutdatedOptions, ctx: Context): Promise<OutdatedReport & { exitCode: 0 }> {
  const target = installTarget(options, ctx);
  const progress = await startProgress(ctx, options, 'checking for newer versions');
  let report: OutdatedReport;
  try {
    report = await checkOutdated({
      lockfile: target.lockfile,
      registry: target.registry,
      cacheDir: cacheHome(ctx.env, target.home),
      env: ctx.env,
      progress: (t) => progress.text(t),
    });
  } finally {
    progress.stop();
  }
  if (options.json) {
    ctx.stdout.write(`${safeJson(report)}\n`);
    return { ...report, exitCode: 0 };
  }
  const c = paint(useColor(options.color, ctx));
  const ce = paint(useColor(options.color, ctx, ctx.stderr));
  const rel = relative(ctx.cwd, report.lockfile) || report.lockfile;
  if (!report.locked) {
    ctx.stdout.write(`no skills installed (no ${rel})\n`);
    return { ...report, exitCode: 0 };
  }
  for (const s of report.skills)
    if (s.error)
      ctx.stderr.write(`${ce.red('error:')} ${forTerminal(`${s.id}: cannot check ${s.from}: ${s.error.message}`)}\n`);
  const rows = report.skills.filter((s) => options.all || s.outdated);
  if (rows.length > 0) ctx.stdout.write(formatTable(rows, c));
  const unchecked = report.skills.filter((s) => s.unchecked !== undefined);
  if (options.all)
    for (const s of unchecked) ctx.stdout.write(c.dim(forTerminal(`${s.id}: not checked: ${s.unchecked}`)) + '\n');
  const failed = report.skills.filter((s) => s.error).length;
  if (!report.skills.some((s) => s.outdated)) {
    const none = report.skills.length === 0 ? `no skills in ${rel}` : 'all skills are up to date';
    const also = [
      ...(failed ? [`${failed} could not be checked`] : []),
      ...(unchecked.length && !options.all
        ? [`${unchecked.length} not checkable (from a folder, archive or URL)`]
        : []),
    ];
    ctx.stdout.write(`${forTerminal(`${none}${also.length ? ` (${also.join('; ')})` : ''}`)}\n`);
  }
  return { ...report, exitCode: 0 };
}

/** The table: id, current, wanted, latest, source; wanted and latest coloured when newer. */
function formatTable(rows: OutdatedEntry[], c: Paint): string {
  const dash = '—';
  const cells = rows.map((s) => [
    s.id,
    s.current.label,
    s.error ? '?' : (s.wanted?.label ?? dash),
    s.error ? '?' : (s.latest?.label ?? dash),
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
