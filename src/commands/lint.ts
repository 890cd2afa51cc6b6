import { relative } from 'node:path';
import { homeOf, type Context } from '../context.js';
import { SkillsError } from '../errors.js';
import { lintPaths, type LintRun } from '../lint/lint-paths.js';
import { rules } from '../lint/rules/index.js';
import { renderRules } from '../lint/rules-doc.js';
import { toSarif } from '../lint/formatters/sarif.js';
import { paint, useColor, type Paint } from '../ui/color.js';
import { visibleFindings } from '../lint/visible.js';
import { countFindings, formatDiagnostic, formatStylish, toJson, type ValidateResult } from '../ui/validate-report.js';
import { forTerminal, forTerminalLine, safeJson, writeSafeJson } from '../ui/terminal-text.js';
import { setDiscoveryLimits } from '../skill/discover.js';
import { parseConcurrency } from '../lint/parallel.js';
import { counted } from '../formats/text.js';

export type { FixRecord } from '../lint/lint-paths.js';

export interface LintOptions {
  paths: string[];
  format?: string;
  /** A whole number; anything else the user typed is kept as text, to be refused by name. */
  maxWarnings?: number | string;
  fix?: boolean;
  fixDryRun?: boolean;
  config?: string;
  strict?: boolean;
  spec?: boolean;
  listRules?: boolean;
  /** Show info findings too (hidden by default, unless the configuration sets the rule's level). */
  verbose?: boolean;
  /** Show errors only (ESLint's --quiet); the summary still counts what was hidden. */
  quiet?: boolean;
  color?: boolean;
  /** Threads to lint on: a number, auto or off (parsed by parseConcurrency). */
  concurrency?: string | number;
  /** false (--no-cache): lint every skill afresh and keep nothing (SKILLS_LINT_CACHE=0 does the same). */
  cache?: boolean;
}

/** `skills lint [paths…]`: validate's checks and the lint rules, with --fix; exit 0 ok, 1 findings fail. */
export async function lint(options: LintOptions, ctx: Context) {
  const format = options.format ?? 'stylish';
  if (options.listRules) {
    if (!['stylish', 'markdown', 'json'].includes(format))
      throw new SkillsError('E_USAGE', `--list-rules prints stylish, markdown or json, not ${format}`);
    ctx.stdout.write(renderRules(rules, format as 'stylish' | 'markdown' | 'json'));
    return { exitCode: 0 };
  }
  setDiscoveryLimits(ctx.env);
  const maxWarnings = checkOptions(options, format);
  const concurrency = parseConcurrency(options.concurrency);
  const run = await lintPaths({
    paths: options.paths,
    cwd: ctx.cwd,
    config: options.config,
    spec: options.spec,
    fix: options.fix,
    fixDryRun: options.fixDryRun,
    env: ctx.env,
    home: homeOf(ctx),
    concurrency,
    cache: options.cache !== false,
    version: ctx.version,
  });
  const { reports, fixed } = run;
  if (run.cut) ctx.stderr.write(`warning: ${forTerminal(run.cut)}\n`);
  // Nothing linted because the configuration's ignores left every skill out: said, or a hook's tick would hide it.
  if (reports.length === 0 && run.ignored.length > 0 && format === 'stylish') {
    const n = run.ignored.length;
    ctx.stderr.write(
      `warning: ${forTerminal(`${n === 1 ? `the skill ${relative(ctx.cwd, run.ignored[0]!) || '.'} is` : `${n} skills are`} left out by "ignores" in ${run.configFile ?? 'skills.config.json'}`)}\n`,
    );
  }
  for (const u of [...run.unread, ...run.notFollowed])
    ctx.stderr.write(`warning: ${forTerminal(`${u.path}: ${u.message}`)}\n`);
  const counts = countFindings(reports);
  const result: ValidateResult = {
    reports,
    outside: run.outside,
    ...counts,
    strict: !!options.strict,
    unread: run.unread,
    notFollowed: run.notFollowed,
  };
  const text = await render(run, result, format, options, ctx);
  if (text !== '') ctx.stdout.write(text);
  const tooManyWarnings = maxWarnings !== undefined && counts.warningCount > maxWarnings;
  if (tooManyWarnings && format === 'stylish')
    ctx.stderr.write(
      `error: ${counted(counts.warningCount, 'warning')}, more than --max-warnings ${options.maxWarnings}\n`,
    );
  // A file --fix could not write fails the run as an I/O error does, once every other fix is written and told.
  const unwritten = new Set(run.notWritten.map((n) => n.file)).size;
  if (unwritten > 0 && format === 'stylish')
    ctx.stderr.write(
      `error: lint --fix left ${unwritten === 1 ? '1 file' : `${unwritten} files`} unwritten; ${unwritten === 1 ? 'its fixes are' : 'their fixes are'} listed above as not fixed, with the reason\n`,
    );
  if (unwritten > 0) return { exitCode: 2, reports, fixed };
  // A folder the search could not read fails the run as a finding does (ESLint: a file it cannot read).
  const failed =
    counts.errorCount > 0 ||
    (options.strict === true && counts.warningCount > 0) ||
    tooManyWarnings ||
    run.unread.length > 0;
  return { exitCode: failed ? 1 : 0, reports, fixed };
}

/** The usage errors; returns --max-warnings as a number. */
function checkOptions(options: LintOptions, format: string): number | undefined {
  if (!['stylish', 'json', 'sarif'].includes(format))
    throw new SkillsError('E_USAGE', `--format must be stylish, json or sarif, not "${format}"`);
  if (options.fix && options.fixDryRun) throw new SkillsError('E_USAGE', 'use --fix or --fix-dry-run, not both');
  const max = options.maxWarnings;
  if (max !== undefined && (typeof max !== 'number' || !Number.isInteger(max) || max < 0)) {
    throw new SkillsError('E_USAGE', `--max-warnings takes a whole number of 0 or more, not "${max}"`);
  }
  return max;
}

async function render(
  run: LintRun,
  result: ValidateResult,
  format: string,
  options: LintOptions,
  ctx: Context,
): Promise<string> {
  // The diff package loads only when there is a diff to show.
  const diff = run.preview.length > 0 ? (await import('../lint/formatters/diff.js')).formatDiff : () => '';
  if (format === 'json') {
    const doc = {
      ...toJson(result),
      ...(options.fix ? { fixed: run.fixed.map((f) => ({ file: f.file, description: f.description })) } : {}),
      ...(options.fixDryRun
        ? { wouldFix: run.preview.map((e) => ({ file: e.file, fixes: e.fixes, diff: diff([e], { cwd: ctx.cwd }) })) }
        : {}),
      ...(run.notFixed.length > 0 ? { notFixed: run.notFixed } : {}),
      ...(run.notWritten.length > 0 ? { notWritten: run.notWritten } : {}),
    };
    // Written in pieces: the document of 100,000 skills is tens of megabytes as one string.
    await writeSafeJson(ctx.stdout, doc);
    return '';
  }
  if (format === 'sarif') return safeJson(toSarif(run.reports, rules, { cwd: ctx.cwd, version: ctx.version })) + '\n';
  const c = paint(useColor(options.color, ctx));
  const fixed = run.fixed
    .map((f) => `${c.green('fixed')}  ${forTerminalLine(`${relative(ctx.cwd, f.file) || '.'}: ${f.description}`)}\n`)
    .join('');
  // A fix no pass applies is said with its reason: under --fix as not done, else as not possible.
  const label = options.fix ? 'not fixed' : 'cannot fix';
  const notFixed = [...run.notWritten, ...run.notFixed]
    .map(
      (f) =>
        `${c.yellow(label)}  ${forTerminalLine(`${relative(ctx.cwd, f.file) || '.'}: ${f.description}: ${f.reason}`)}\n`,
    )
    .join('');
  return (
    fixed + notFixed + forTerminal(diff(run.preview, { cwd: ctx.cwd })) + stylish(run, result, options, c, ctx.cwd)
  );
}

/**
 * What a person sees: info findings hidden unless --verbose or the configuration asks for them; with --quiet, only
 * the skills with errors and their errors. The summary counts every finding, and says what was hidden.
 */
function stylish(run: LintRun, result: ValidateResult, options: LintOptions, c: Paint, cwd: string): string {
  const shown = visibleFindings(run.reports, { ...options, explicit: run.explicit });
  const hidden = [
    ...(shown.hiddenWarnings ? [counted(shown.hiddenWarnings, 'warning')] : []),
    ...(shown.hiddenInfos ? [`${shown.hiddenInfos} info finding${shown.hiddenInfos === 1 ? '' : 's'}`] : []),
  ].join(' and ');
  const left = unwrittenLine(run, c);
  if (!options.quiet) {
    const body = formatStylish({ ...result, reports: shown.reports }, c, cwd) + left;
    return hidden ? `${body}${c.dim(`… and ${hidden} hidden; --verbose shows them`)}\n` : body;
  }
  // ESLint's --quiet: the failing skills and their errors, then one line.
  const rel = (p: string) => forTerminalLine(relative(cwd, p) || '.');
  const out: string[] = [];
  for (const r of shown.reports) {
    out.push(`${c.red('✖')} ${c.bold(rel(r.skill.root))}`);
    for (const d of r.diagnostics) out.push(formatDiagnostic(d, c, rel));
  }
  const n = result.reports.length;
  const line =
    result.errorCount > 0
      ? c.red.bold(`${counted(result.errorCount, 'error')} in ${counted(shown.reports.length, 'skill')} of ${n}`)
      : c.green(n === 0 ? 'no skills to lint' : `no errors in ${counted(n, 'skill')}`);
  out.push(hidden ? `${line}${c.dim(`; ${hidden} hidden by --quiet`)}` : line);
  return out.join('\n') + '\n' + left;
}

/** Under --fix, the findings left because their file could not be written: neither fixed nor fixable. */
function unwrittenLine(run: LintRun, c: Paint): string {
  if (run.leftUnwritten === 0) return '';
  const files = new Set(run.notWritten.map((n) => n.file)).size;
  const what = `${counted(run.leftUnwritten, 'problem')} left unfixed: ${files === 1 ? 'its file' : `their ${counted(files, 'file')}`}`;
  return c.yellow(`${what} could not be written (see "not fixed" above)`) + '\n';
}
