import { relative } from 'node:path';
import type { Paint } from './color.js';
import { jsonDiagnostic, type Diagnostic } from '../model/diagnostic.js';
import type { Skill } from '../model/skill.js';
import { forTerminal, forTerminalLine } from './terminal-text.js';
import { counted } from '../formats/text.js';

/** What a report shows of its skill. */
export type ReportedSkill = Pick<Skill, 'root' | 'id' | 'layout' | 'version'>;

export interface ValidateResult {
  reports: { skill: ReportedSkill; valid: boolean; diagnostics: (Diagnostic & { fix?: unknown })[] }[];
  outside: string[];
  errorCount: number;
  warningCount: number;
  /** Lint's info findings (validate has none). */
  infoCount?: number;
  /** --strict: warnings fail too. */
  strict: boolean;
  /** Folders the search could not read and links it could not follow: their skills were not checked (exit 1). */
  unread?: { path: string; message: string }[];
  /** Links to skill folders the search left out: warned of and listed with `unread` in JSON, never failing. */
  notFollowed?: { path: string; message: string }[];
}

/** Count findings by severity. */
export function countFindings(reports: { diagnostics: Diagnostic[] }[]): {
  errorCount: number;
  warningCount: number;
  infoCount: number;
} {
  const n = { errorCount: 0, warningCount: 0, infoCount: 0 };
  for (const r of reports) {
    for (const d of r.diagnostics) {
      if (d.severity === 'error') n.errorCount++;
      else if (d.severity === 'warning') n.warningCount++;
      else n.infoCount++;
    }
  }
  return n;
}

/** Whether a report's skill fails the run: it is invalid, or has a warning under --strict. */
function fails(r: ValidateResult['reports'][number], strict: boolean): boolean {
  return !r.valid || (strict && r.diagnostics.some((d) => d.severity === 'warning'));
}

/** The --format json document: one object, paths absolute. */
export function toJson(result: ValidateResult) {
  return {
    skills: result.reports.map((r) => ({
      path: r.skill.root,
      id: r.skill.id,
      layout: r.skill.layout,
      valid: !fails(r, result.strict),
      diagnostics: r.diagnostics.map(jsonDiagnostic),
    })),
    errorCount: result.errorCount,
    warningCount: result.warningCount,
    ...(result.infoCount !== undefined ? { infoCount: result.infoCount } : {}),
    unread: [...(result.unread ?? []), ...(result.notFollowed ?? [])].map((u) => ({
      path: u.path,
      message: u.message,
    })),
  };
}

/** Findings grouped by skill, ESLint's "stylish" in spirit, and one summary line. */
export function formatStylish(result: ValidateResult, c: Paint, cwd: string): string {
  const out: string[] = [];
  const rel = (p: string) => forTerminalLine(relative(cwd, p) || '.');
  for (const r of result.reports) {
    const mark = fails(r, result.strict) ? c.red('✖') : c.green('✔');
    out.push(
      `${mark} ${c.bold(rel(r.skill.root))} ${c.dim(`(${r.skill.layout}${r.skill.version ? ` ${forTerminalLine(r.skill.version)}` : ''})`)}`,
    );
    for (const d of r.diagnostics) out.push(formatDiagnostic(d, c, rel));
  }
  const n = result.reports.length;
  const problems = result.errorCount + result.warningCount + (result.infoCount ?? 0);
  const fixable = result.reports.reduce((n, r) => n + r.diagnostics.filter((d) => d.fix).length, 0);
  if (n === 0) {
    out.push(
      c.dim(
        `no skills to validate${result.outside.length ? ` (${counted(result.outside.length, 'file')} outside any skill ignored)` : ''}`,
      ),
    );
  } else if (problems === 0 || (result.errorCount === 0 && result.warningCount === 0 && !result.infoCount)) {
    out.push(c.green(`${counted(n, 'skill')} valid`));
  } else {
    // Under --strict a skill with a warning is marked ✖ and counted invalid, as --json says.
    const invalid = result.reports.filter((r) => fails(r, result.strict)).length;
    const infos = result.infoCount ? `, ${result.infoCount} info` : '';
    const line = `${counted(problems, 'problem')} (${counted(result.errorCount, 'error')}, ${counted(result.warningCount, 'warning')}${infos}) in ${counted(n, 'skill')}; ${invalid} invalid`;
    out.push(
      result.errorCount > 0 || (result.strict && result.warningCount > 0) ? c.red.bold(line) : c.yellow.bold(line),
    );
    if (fixable > 0) out.push(c.dim(`${counted(fixable, 'problem')} fixable with --fix`));
  }
  return out.join('\n') + '\n';
}

/** One finding on its line (and its hint below), every text from the skill escaped for the terminal. */
export function formatDiagnostic(d: Diagnostic, c: Paint, rel: (p: string) => string): string {
  const where = `${forTerminalLine(rel(d.file))}${d.line ? `:${d.line}:${d.column ?? 1}` : ''}`;
  const sev =
    d.severity === 'error' ? c.red('error  ') : d.severity === 'warning' ? c.yellow('warning') : c.cyan('info   ');
  let s = `  ${where}  ${sev}  ${forTerminalLine(d.message)}  ${c.dim(`${d.ruleId} ${d.rule}`)}`;
  if (d.hint) s += `\n      ${c.dim(`hint: ${forTerminal(d.hint).replace(/\n/g, '\n            ')}`)}`;
  return s;
}
