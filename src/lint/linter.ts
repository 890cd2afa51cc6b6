import { relative } from 'node:path';
import picomatch from 'picomatch';
import type { Config, RuleSetting } from '../config/config.js';
import { validateSkills } from '../skill/validate.js';
import { CHECKS } from '../model/checks.js';
import type { Diagnostic, Severity } from '../model/diagnostic.js';
import type { Skill } from '../model/skill.js';
import { SkillsError } from '../errors.js';
import { closest } from '../skill/names.js';
import { skillFiles } from './files.js';
import { rules as allRules } from './rules/index.js';
import type { Fix, Report, Rule } from './types.js';
import { fixForCheck } from './validate-fixes.js';

export interface LintFinding extends Diagnostic {
  fix?: Fix;
}

export interface LintReport {
  skill: Skill;
  valid: boolean;
  diagnostics: LintFinding[];
}

interface Resolved {
  severity: Severity | 'off';
  options: Record<string, unknown>;
}

/** Every id and alias a configuration may name: validate's checks and the lint rules. */
function knownNames(rules: Rule[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const [alias, c] of Object.entries(CHECKS)) {
    names.set(c.id, c.id);
    names.set(alias, c.id);
  }
  for (const r of rules) {
    names.set(r.names[0], r.names[0]);
    names.set(r.names[1], r.names[0]);
  }
  return names;
}

/** Resolve the configuration's rule settings by id; unknown names and ill-typed options are E_CONFIG errors. */
export function resolveSettings(config: Config, rules: Rule[] = allRules): Map<string, RuleSetting> {
  const names = knownNames(rules);
  const byId = new Map<string, RuleSetting>();
  for (const [name, setting] of Object.entries(config.rules)) {
    const id = names.get(name);
    if (!id) {
      const near = closest(name, [...names.keys()]);
      throw new SkillsError('E_CONFIG', `${config.file}: unknown rule "${name}" in rules${near ? `; did you mean "${near}"?` : ''}`, {
        hint: 'run `skills lint --list-rules` for every rule id and alias',
      });
    }
    const rule = rules.find((r) => r.names[0] === id);
    for (const [opt, value] of Object.entries(setting.options ?? {})) {
      const spec = rule?.options?.[opt];
      if (!spec) {
        throw new SkillsError('E_CONFIG', `${config.file}: rule ${name} has no option "${opt}"${rule?.options ? ` (it has: ${Object.keys(rule.options).join(', ')})` : ' (it takes none)'}`);
      }
      const want = Array.isArray(spec.default) ? 'array' : typeof spec.default;
      const got = Array.isArray(value) ? 'array' : typeof value;
      if (want !== got || (want === 'number' && !Number.isFinite(value as number))) {
        throw new SkillsError('E_CONFIG', `${config.file}: option ${opt} of rule ${name} must be ${want === 'array' ? 'a list of text' : `a ${want}`}, e.g. ${JSON.stringify(spec.default)}`);
      }
    }
    byId.set(id, { ...byId.get(id), ...setting });
  }
  return byId;
}

function resolve(rule: Rule, settings: Map<string, RuleSetting>): Resolved {
  const s = settings.get(rule.names[0]);
  const options: Record<string, unknown> = {};
  for (const [k, o] of Object.entries(rule.options ?? {})) options[k] = s?.options?.[k] ?? o.default;
  return { severity: s?.severity ?? rule.severity, options };
}

export interface LintOptions {
  config: Config;
  spec?: boolean;
  /** Rules to run (all by default); tests pass a subset. */
  rules?: Rule[];
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
    const f: LintFinding = { ruleId: rule.names[0], rule: rule.names[1], severity: r.severity ?? severity, message: r.message, file: r.file ?? skill.file };
    if (r.line !== undefined) {
      f.line = r.line;
      f.column = r.column ?? 1;
    }
    if (r.hint) f.hint = r.hint;
    if (r.fix) f.fix = r.fix;
    return f;
  };
  for (const rule of rules) {
    const { severity, options: opts } = resolve(rule, settings);
    if (severity === 'off') continue;
    const applicable = kept.filter((s) => rule.layouts.includes(s.layout));
    if (applicable.length === 0) continue;
    await rule.prepare?.(applicable, opts);
    if (rule.check) {
      for (const skill of applicable) {
        const fs = filesOf(skill);
        const out = bySkill.get(skill)!;
        rule.check(skill, { options: opts, report: (r) => out.push(toFinding(rule, severity, skill, r)), readText: fs.readText, stat: fs.stat });
      }
    }
    rule.checkTree?.(applicable, { options: opts, report: (skill, r) => bySkill.get(skill)?.push(toFinding(rule, severity, skill, r)) });
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
    diagnostics.sort((a, b) => (a.file === b.file ? (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0) : a.file < b.file ? -1 : 1));
    return { skill, valid: !diagnostics.some((d) => d.severity === 'error'), diagnostics };
  });
}

const DISABLE = /<!--\s*skills-lint-disable(-next-line)?((?:\s+[\w-]+,?)*)\s*-->/g;

/**
 * `<!-- skills-lint-disable SK012 -->` turns rules off for the whole Markdown file it is in,
 * `<!-- skills-lint-disable-next-line SK012 -->` for the line after it; no ids means every rule.
 */
function applyInlineDisables(diagnostics: LintFinding[], skill: Skill, readText: (rel: string) => string | undefined, rules: Rule[]): LintFinding[] {
  const names = knownNames(rules);
  const byFile = new Map<string, { all: Set<string> | 'all' | undefined; lines: Map<number, Set<string> | 'all'> }>();
  const directives = (file: string) => {
    let d = byFile.get(file);
    if (d) return d;
    d = { all: undefined, lines: new Map() };
    byFile.set(file, d);
    if (!/\.(md|markdown)$/i.test(file) || !file.startsWith(skill.root)) return d;
    const text = readText(file.slice(skill.root.length + 1));
    if (!text || !text.includes('skills-lint-disable')) return d;
    const lineStarts: number[] = [0];
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
    for (const m of text.matchAll(DISABLE)) {
      const ids = m[2]!.split(/[\s,]+/).filter(Boolean).map((n) => names.get(n) ?? n);
      const set: Set<string> | 'all' = ids.length === 0 ? 'all' : new Set(ids);
      if (m[1]) {
        let line = 0;
        while (line + 1 < lineStarts.length && lineStarts[line + 1]! <= m.index!) line++;
        d.lines.set(line + 2, set);
      } else if (set === 'all' || d.all === 'all') d.all = 'all';
      else d.all = new Set([...(d.all ?? []), ...set]);
    }
    return d;
  };
  return diagnostics.filter((diag) => {
    const d = directives(diag.file);
    const off = (s: Set<string> | 'all' | undefined) => s === 'all' || (s !== undefined && s.has(diag.ruleId));
    return !off(d.all) && !(diag.line !== undefined && off(d.lines.get(diag.line)));
  });
}
