import type { Context } from '../context.js';
import { discoverSkills } from '../skill/discover.js';
import { loadSkill } from '../skill/load.js';
import { validateSkills } from '../skill/validate.js';
import { SkillsError } from '../errors.js';
import { paint, useColor } from '../ui/color.js';
import { formatStylish, toJson, type ValidateResult } from '../ui/validate-report.js';
import { forTerminal, writeSafeJson } from '../ui/terminal-text.js';
import { setDiscoveryLimits } from '../skill/discover.js';

export interface ValidateOptions {
  paths: string[];
  spec?: boolean;
  strict?: boolean;
  format?: string;
  /** -q: the skills with errors and their errors only (JSON keeps everything); the summary still counts the rest. */
  quiet?: boolean;
  color?: boolean;
}

/** `skills validate [paths…]`: exit 0 valid, 1 on errors (or warnings with --strict). */
export async function validate(
  options: ValidateOptions,
  ctx: Context,
): Promise<{ result: ValidateResult; exitCode: number }> {
  const format = options.format ?? 'stylish';
  if (format !== 'stylish' && format !== 'json') {
    throw new SkillsError('E_USAGE', `--format must be stylish or json, not "${format}"`);
  }
  setDiscoveryLimits(ctx.env);
  const paths = options.paths.length > 0 ? options.paths : ['.'];
  const { roots, outside, listings, cut, links: unread, notFollowed } = discoverSkills(paths, { cwd: ctx.cwd });
  if (cut) ctx.stderr.write(`warning: ${forTerminal(cut)}\n`);
  for (const u of [...unread, ...notFollowed]) ctx.stderr.write(`warning: ${forTerminal(`${u.path}: ${u.message}`)}\n`);
  // One skill at a time: loaded, checked and let go, keeping what the report shows of it.
  const reports: ValidateResult['reports'] = [];
  for (const root of roots) {
    const listing = listings.get(root);
    listings.delete(root);
    const skill = loadSkill(root, { spec: options.spec, listing });
    const { valid, diagnostics } = (await validateSkills([skill], { spec: options.spec }))[0]!;
    reports.push({ skill: { root, id: skill.id, layout: skill.layout, version: skill.version }, valid, diagnostics });
  }
  let errorCount = 0;
  let warningCount = 0;
  for (const r of reports) {
    for (const d of r.diagnostics) {
      if (d.severity === 'error') errorCount++;
      else if (d.severity === 'warning') warningCount++;
    }
  }
  const result: ValidateResult = {
    reports,
    outside,
    errorCount,
    warningCount,
    strict: !!options.strict,
    unread,
    notFollowed,
  };
  if (format === 'json') await writeSafeJson(ctx.stdout, toJson(result));
  else {
    const c = paint(useColor(options.color, ctx));
    const full = formatStylish(result, c, ctx.cwd);
    if (!options.quiet) ctx.stdout.write(full);
    else {
      // The skills with errors, their errors only, then the summary of everything.
      const failing = reports
        .map((r) => ({ ...r, diagnostics: r.diagnostics.filter((d) => d.severity === 'error') }))
        .filter((r) => r.diagnostics.length > 0);
      const body = failing.length
        ? formatStylish({ ...result, reports: failing }, c, ctx.cwd)
            .trimEnd()
            .split('\n')
        : [];
      const summary = full.trimEnd().split('\n').at(-1) ?? '';
      ctx.stdout.write(
        `${[...body.slice(0, -1), summary].filter((l, i, a) => l !== '' || i < a.length - 1).join('\n')}\n`,
      );
    }
  }
  // A folder the search could not read fails the run as a finding does: its skills were not checked.
  const failed = errorCount > 0 || (options.strict === true && warningCount > 0) || unread.length > 0;
  return { result, exitCode: failed ? 1 : 0 };
}
