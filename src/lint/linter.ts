import { relative } from 'node:path';
import picomatch from 'picomatch';
import type { Config } from '../config/config.js';
import { validateSkills } from '../skill/validate.js';
import type { Diagnostic, Severity } from '../model/diagnostic.js';
import type { Skill } from '../model/skill.js';
import { skillFiles } from './files.js';
import { applyInlineDisables } from './inline-disables.js';
import { rules as allRules } from './rules/index.js';
import { resolveSettings, settingFor } from './settings.js';
import type { Fix, Report, Rule } from './types.js';
import { fixForCheck } from './validate-fixes.js';

export { resolveSettings } from './settings.js';

export interface LintFinding extends Diagnostic {
  fix?: Fix;
}

export interface LintReport {
  skill: Skill;
  valid: boolean;
  diagnostics: LintFinding[];
}

export interface LintOptions {
  config: Config;
  spec?: boolean;
  /** Rules to run (all by default); tests pass a subset. */
  rules?: Rule[];
  /**
   * Sees each report as its rule makes it, before severities and disable comments apply (the rule tester reads them).
   */
  onReport?(rule: Rule, skill: Skill, report: Report): void;
}

/**
 * Lint loaded skills: every validate finding (with a fix where one is safe), then every enabled rule, then
 * the configuration's severities and the inline disable comments. Skills under an ignored glob are dropped.
 */
export async function lintSkills(skills: Skill[], options: LintOptions): Promise<LintReport[]> {
  const rules = options.rules ?? allRules;
  const settings = resolveSettings(options.config, rules);
  const ignored = options.config.ignores.length ? picomatch(options.config.ignores, { dot: true }) : undefined;
  const rel = (p: string) => relative(options.config.dir, p).split('\\').join('/');
  const kept = ignored ? skills.filter((s) => !ignored(rel(s.root)) && !ignored(`${rel(s.root)}/`)) : skills;
  const reports = await validateSkills(kept, { spec: options.spec });
  const bySkill = new Map<Skill, LintFinding[]>();
  const files = new Map<Skill, ReturnType<typeof skillFiles>>();
  const filesOf = (s: Skill) => {
    let f = files.get(s);
    if (!f) files.set(s, (f = skillFiles(s)));
    return f;
  };
  for (const r of reports) {
    bySkill.set(
      r.skill,
      r.diagnostics.map((d) => {
        const fix = fixForCheck(r.skill, d, filesOf(r.skill).readText, filesOf(r.skill).stat);
        return fix ? { ...d, fix } : { ...d };
      }),
    );
  }
  const toFinding = (rule: Rule, severity: Severity, skill: Skill, r: Report): LintFinding => {
    const f: LintFinding = {
      ruleId: rule.names[0],
      rule: rule.names[1],
      severity: r.severity ?? severity,
      message: r.message,
      file: r.file ?? skill.file,
    };
    if (r.line !== undefined) {
      f.line = r.line;
      f.column = r.column ?? 1;
    }
    if (r.hint) f.hint = r.hint;
    if (r.fix) f.fix = r.fix;
    return f;
  };
  for (const rule of rules) {
    const { severity, options: opts } = settingFor(rule, settings);
    if (severity === 'off') continue;
    const applicable = kept.filter((s) => rule.layouts.includes(s.layout));
    if (applicable.length === 0) continue;
    await rule.prepare?.(applicable, opts);
    if (rule.check) {
      for (const skill of applicable) {
        const fs = filesOf(skill);
        const out = bySkill.get(skill)!;
        const report = (r: Report) => {
          options.onReport?.(rule, skill, r);
          out.push(toFinding(rule, severity, skill, r));
        };
        rule.check(skill, { options: opts, report, readText: fs.readText, stat: fs.stat });
      }
    }
    rule.checkTree?.(applicable, {
      options: opts,
      report: (skill, r) => {
        options.onReport?.(rule, skill, r);
        bySkill.get(skill)?.push(toFinding(rule, severity, skill, r));
      },
    });
  }
  return kept.map((skill) => {
    let diagnostics = bySkill.get(skill)!;
    // Settings for validate's checks (lint rules had theirs applied above).
    diagnostics = diagnostics.flatMap((d) => {
      if (!d.ruleId.startsWith('SK0')) return [d];
      const s = settings.get(d.ruleId)?.severity;
      if (s === 'off') return [];
      return [s ? { ...d, severity: s } : d];
    });
    diagnostics = applyInlineDisables(diagnostics, skill, filesOf(skill).readText, rules);
    if (ignored) diagnostics = diagnostics.filter((d) => !ignored(rel(d.file)));
    diagnostics.sort((a, b) =>
      a.file === b.file ? (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0) : a.file < b.file ? -1 : 1,
    );
    return { skill, valid: !diagnostics.some((d) => d.severity === 'error'), diagnostics };
  });
}
