import { relative } from 'node:path';
import type { Context } from '../context.js';
import { loadConfig } from '../config/config.js';
import { discoverSkills } from '../skill/discover.js';
import { loadSkill } from '../skill/load.js';
import { SkillsError } from '../errors.js';
import { planFixes, writeEdits, type FileEdit } from '../lint/fix.js';
import { lintSkills, type LintReport } from '../lint/linter.js';
import { rules } from '../lint/rules/index.js';
import { renderRules } from '../lint/rules-doc.js';
import { toSarif } from '../lint/formatters/sarif.js';
import { paint, useColor } from '../ui/color.js';
import { countFindings, formatStylish, toJson, type ValidateResult } from '../ui/validate-report.js';

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
  color?: boolean;
}

export interface FixRecord {
  file: string;
  description: string;
}

const MAX_PASSES = 10;

/** `skills lint [paths…]`: validate's checks and the lint rules, with --fix; exit 0 ok, 1 findings fail. */
export async function lint(options: LintOptions, ctx: Context) {
  const format = options.format ?? 'stylish';
  const color = useColor(options.color, ctx);
  if (options.listRules) {
    if (!['stylish', 'markdown', 'json'].includes(format)) throw new SkillsError('E_USAGE', `--list-rules prints stylish, markdown or json, not ${format}`);
    ctx.stdout.write(renderRules(rules, format as 'stylish' | 'markdown' | 'json'));
    return { exitCode: 0 };
  }
  if (!['stylish', 'json', 'sarif'].includes(format)) throw new SkillsError('E_USAGE', `--format must be stylish, json or sarif, not "${format}"`);
  if (options.fix && options.fixDryRun) throw new SkillsError('E_USAGE', 'use --fix or --fix-dry-run, not both');
  if (options.maxWarnings !== undefined && (typeof options.maxWarnings !== 'number' || !Number.isInteger(options.maxWarnings) || options.maxWarnings < 0)) {
    throw new SkillsError('E_USAGE', `--max-warnings takes a whole number of 0 or more, not "${options.maxWarnings}"`);
  }
  const maxWarnings = options.maxWarnings;
  const config = loadConfig(ctx.cwd, options.config);
  const paths = options.paths.length > 0 ? options.paths : ['.'];
  const run = async () => {
    const { roots, outside, listings } = discoverSkills(paths, { cwd: ctx.cwd });
    const skills = roots.map((r) => loadSkill(r, { spec: options.spec, listing: listings.get(r) }));
    return { reports: await lintSkills(skills, { config, spec: options.spec }), outside };
  };
  let { reports, outside } = await run();
  const fixed: FixRecord[] = [];
  let preview: FileEdit[] = [];
  if (options.fix) {
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      const { edits, applied } = planFixes(fixesOf(reports));
      if (applied.length === 0) break;
      writeEdits(edits);
      for (const e of edits) for (const description of e.fixes) fixed.push({ file: e.file, description });
      ({ reports, outside } = await run());
    }
  } else if (options.fixDryRun) {
    preview = planFixes(fixesOf(reports)).edits;
  }
  const counts = countFindings(reports);
  const result: ValidateResult = { reports, outside, ...counts, strict: !!options.strict };
  const rel = (p: string) => relative(ctx.cwd, p) || '.';
  if (format === 'json') {
    ctx.stdout.write(
      JSON.stringify(
        {
          ...toJson(result),
          ...(options.fix ? { fixed: fixed.map((f) => ({ file: f.file, description: f.description })) } : {}),
          ...(options.fixDryRun ? { wouldFix: await Promise.all(preview.map(async (e) => ({ file: e.file, fixes: e.fixes, diff: await diffOf(e, rel) }))) } : {}),
        },
        null,
        2,
      ) + '\n',
    );
  } else if (format === 'sarif') {
    ctx.stdout.write(JSON.stringify(toSarif(reports, rules, { cwd: ctx.cwd, version: ctx.version }), null, 2) + '\n');
  } else {
    const c = paint(color);
    let out = '';
    for (const f of fixed) out += `${c.green('fixed')}  ${rel(f.file)}: ${f.description}\n`;
    for (const e of preview) out += await diffOf(e, rel);
    ctx.stdout.write(out + formatStylish(result, c, ctx.cwd));
  }
  const tooManyWarnings = maxWarnings !== undefined && counts.warningCount > maxWarnings;
  if (tooManyWarnings && format === 'stylish') ctx.stderr.write(`error: ${counts.warningCount} warnings, more than --max-warnings ${options.maxWarnings}\n`);
  const failed = counts.errorCount > 0 || (options.strict === true && counts.warningCount > 0) || tooManyWarnings;
  return { exitCode: failed ? 1 : 0, reports, fixed };
}

function fixesOf(reports: LintReport[]) {
  return reports.flatMap((r) => r.diagnostics.flatMap((d) => (d.fix ? [d.fix] : [])));
}

/** A unified diff of one planned edit, or the mode change, as `git diff` would show it. */
async function diffOf(e: FileEdit, rel: (p: string) => string): Promise<string> {
  let out = '';
  const name = rel(e.file);
  out += `diff --git a/${name} b/${name}\n`;
  if (e.mode !== undefined && e.mode !== e.modeBefore) {
    out += `old mode ${(0o100000 | (e.modeBefore ?? 0)).toString(8)}\nnew mode ${(0o100000 | e.mode).toString(8)}\n`;
  }
  if (e.after !== (e.before ?? '')) {
    const { createTwoFilesPatch } = await import('diff');
    if (e.before === undefined) out += 'new file mode 100644\n';
    const patch = createTwoFilesPatch(e.before === undefined ? '/dev/null' : `a/${name}`, `b/${name}`, e.before ?? '', e.after, undefined, undefined, { context: 3 });
    // jsdiff starts with an "Index:" banner and a ==== rule; git's format has neither.
    out += patch.replace(/^(?:Index: [^\n]*\n)?=+\n/, '');
  }
  return out;
}
