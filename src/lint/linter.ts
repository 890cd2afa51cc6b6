import { relative } from 'node:path';
import picomatch from 'picomatch';
import type { Config } from '../config/config.js';
import { validateSkills } from '../skill/validate.js';
import type { Diagnostic, Severity } from '../model/diagnostic.js';
import type { Skill } from '../model/skill.js';
import { tokenCounter } from '../tokens/tokens.js';
import { skillFiles } from './files.js';
import { keptBy, skillDisables, type FileDisables } from './inline-disables.js';
import unusedDisable from './rules/unused-disable.js';
import { rules as allRules } from './rules/index.js';
import { knownNames, resolveSettings, settingFor } from './settings.js';
import type { Fix, Report, Rule, RuleContext, RuleTools, TreeSkill } from './types.js';
import { fixForCheck } from './validate-fixes.js';
import { inputsOf, type SkillInputs } from './lint-cache.js';

export { resolveSettings } from './settings.js';

export interface LintFinding extends Diagnostic {
  fix?: Fix;
}

/** What a report keeps of its skill: the linter lets go of the rest once the skill is checked. */
export type LintedSkill = TreeSkill & Pick<Skill, 'version'>;

export interface LintReport {
  skill: LintedSkill;
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
  onReport?(rule: Rule, skill: TreeSkill, report: Report): void;
  /** Token counts (the user's cache, say); the tokenizer alone by default. */
  countTokens?: RuleTools['countTokens'];
  /**
   * For the result cache (lint-cache.ts): each result says what it was made from, as of the run that began at this
   * time (ms).
   */
  inputsSince?: number;
}

/**
 * One skill's report, and what the tree rules need of it: plain data, so that it can come from a worker thread.
 */
export interface SkillResult {
  report: LintReport;
  /** The disable comments of the skill file, when it has some (the tree rules' findings are in it). */
  disables?: FileDisables;
  /** Linting stopped on this skill (parallel.ts): it is reported, but the tree rules leave it out. */
  failed?: boolean;
  /** With `inputsSince`: the paths and identities the result was made from; none when it cannot be kept. */
  inputs?: SkillInputs;
}

/** A linter that takes skills one at a time, keeps only their findings, and runs the tree rules at the end. */
export interface Linter {
  /** Lint one loaded skill (nothing when it is under an ignored glob); the skill may be let go afterwards. */
  add(skill: Skill): Promise<void>;
  /** Lint one skill and give its result without keeping it (undefined when it is under an ignored glob). */
  check(skill: Skill): Promise<SkillResult | undefined>;
  /** Keep a result that check made (here or in a worker thread), in turn with the skills added. */
  keep(result: SkillResult): void;
  /** The tree rules over every skill added, and the reports, in the order the skills were added. */
  finish(): LintReport[];
}

interface Active {
  rule: Rule;
  severity: Severity;
  options: Record<string, unknown>;
}

const byPlace = (a: LintFinding, b: LintFinding) =>
  a.file === b.file ? (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0) : a.file < b.file ? -1 : 1;

function toFinding(rule: Rule, severity: Severity, skill: TreeSkill, r: Report): LintFinding {
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
}

/** What is kept of a skill once it is checked: what reports and tree rules read of it. */
function linted(skill: Skill): LintedSkill {
  const positions: Skill['positions'] = {};
  for (const k of ['id', 'name'] as const) if (skill.positions[k]) positions[k] = skill.positions[k]!;
  const out: LintedSkill = {
    id: skill.id,
    name: skill.name,
    layout: skill.layout,
    root: skill.root,
    file: skill.file,
    positions,
  };
  if (skill.version !== undefined) out.version = skill.version;
  return out;
}

/**
 * What the configuration's ignores leave out (undefined: it has none): a file (a finding in it is dropped), and a
 * skill folder (the skill is not linted).
 */
export function ignoresOf(
  config: Config,
): { file: (path: string) => boolean; root: (root: string) => boolean } | undefined {
  if (config.ignores.length === 0) return undefined;
  const ignored = picomatch(config.ignores, { dot: true });
  const rel = (p: string) => relative(config.dir, p).split('\\').join('/');
  return {
    file: (path) => ignored(rel(path)),
    root: (root) => ignored(rel(root)) || ignored(`${rel(root)}/`),
  };
}

const UNUSED_DISABLE = unusedDisable.names[0];

/**
 * The linter: for each skill, every validate finding (with a fix where one is safe), then every enabled rule, then
 * the configuration's severities and the inline disable comments; the skill's files are read once, and let go
 * with the skill. Skills under an ignored glob are dropped.
 */
export function createLinter(options: LintOptions): Linter {
  const rules = options.rules ?? allRules;
  const settings = resolveSettings(options.config, rules);
  const names = knownNames(rules);
  // Every id there is, for SK134: a rule this linter does not run (a test's one rule) is still no unknown name.
  const ruleNames = rules === allRules ? names : knownNames([...new Set([...allRules, ...rules])]);
  const active: Active[] = [];
  for (const rule of rules) {
    const s = settingFor(rule, settings);
    if (s.severity !== 'off') active.push({ rule, severity: s.severity, options: s.options });
  }
  const ignores = ignoresOf(options.config);
  const tools: RuleTools = { countTokens: options.countTokens ?? (async (t) => (await tokenCounter())(t)) };
  // What rules keep for the run (RuleContext.runCache): gone with the linter, so a later run reads the files afresh.
  const runCaches = new Map<string, unknown>();
  const reports: LintReport[] = [];
  // For the tree rules' findings: the disable comments of each skill file, kept only where it has some.
  const fileDisables = new Map<LintReport, FileDisables>();
  const failed = new Set<LintReport>();
  const treeRules = active.filter((a) => a.rule.checkTree);
  const laterIds: ReadonlySet<string> = new Set(treeRules.map((a) => a.rule.names[0]));
  // The rules that check one skill, for each layout.
  const checks = new Map<Skill['layout'], Active[]>();
  const checksFor = (layout: Skill['layout']) => {
    let list = checks.get(layout);
    if (!list) checks.set(layout, (list = active.filter((a) => a.rule.check && a.rule.layouts.includes(layout))));
    return list;
  };

  const settle = (diagnostics: LintFinding[]) => {
    let out = diagnostics.flatMap((d) => {
      // Settings for validate's checks (lint rules have theirs applied as they report).
      if (!d.ruleId.startsWith('SK0')) return [d];
      const s = settings.get(d.ruleId)?.severity;
      if (s === 'off') return [];
      return [s ? { ...d, severity: s } : d];
    });
    if (ignores) out = out.filter((d) => !ignores.file(d.file));
    return out;
  };

  const linter: Linter = {
    async check(skill) {
      if (ignores?.root(skill.root)) return undefined;
      const files = skillFiles(skill);
      const [validated] = await validateSkills([skill], { spec: options.spec });
      const out: LintFinding[] = validated!.diagnostics.map((d) => {
        const fix = fixForCheck(skill, d, files.readText, files.stat);
        return fix ? { ...d, fix } : { ...d };
      });
      // One context for the skill, lent to each rule in turn (rules report while they check, never later).
      let current: Active;
      let outside = false;
      const ctx: RuleContext = {
        options: {},
        report(r) {
          options.onReport?.(current.rule, skill, r);
          out.push(toFinding(current.rule, current.severity, skill, r));
        },
        readText: files.readText,
        stat: files.stat,
        ruleNames,
        reported: () => ({ findings: settle(out), later: laterIds }),
        readsOutside: () => {
          outside = true;
        },
        runCache: <T>(key: string, make: () => T): T => {
          if (!runCaches.has(key)) runCaches.set(key, make());
          return runCaches.get(key) as T;
        },
      };
      for (const a of checksFor(skill.layout)) {
        const prepared = a.rule.prepare?.([skill], a.options, tools);
        if (prepared) await prepared;
        current = a;
        ctx.options = a.options;
        a.rule.check!(skill, ctx);
      }
      const disables = skillDisables(skill, files.readText, names);
      // What SK135 says of the comments is not for them to turn off (nor are ESLint's reports of unused directives).
      const diagnostics = settle(out).filter((d) => d.ruleId === UNUSED_DISABLE || keptBy(disables(d.file), d));
      diagnostics.sort(byPlace);
      const r: LintReport = {
        skill: linted(skill),
        valid: !diagnostics.some((d) => d.severity === 'error'),
        diagnostics,
      };
      const result: SkillResult = { report: r };
      if (treeRules.length > 0) {
        const d = disables(skill.file);
        if (d.all !== undefined || d.lines.size > 0) result.disables = d;
      }
      if (options.inputsSince !== undefined && !outside) {
        const inputs = inputsOf(skill, options.inputsSince);
        if (inputs) result.inputs = inputs;
      }
      return result;
    },
    keep(result) {
      reports.push(result.report);
      if (result.disables) fileDisables.set(result.report, result.disables);
      if (result.failed) failed.add(result.report);
    },
    async add(skill) {
      const result = await linter.check(skill);
      if (result) linter.keep(result);
    },
    finish() {
      const bySkill = new Map<TreeSkill, LintReport>(reports.map((r) => [r.skill, r]));
      for (const { rule, severity, options: opts } of treeRules) {
        const applicable = reports
          .filter((r) => rule.layouts.includes(r.skill.layout) && !failed.has(r))
          .map((r) => r.skill);
        if (applicable.length === 0) continue;
        rule.checkTree!(applicable, {
          options: opts,
          report: (skill, r) => {
            options.onReport?.(rule, skill, r);
            const report = bySkill.get(skill);
            if (!report) return;
            const f = toFinding(rule, severity, skill, r);
            const d = fileDisables.get(report);
            if ((d && f.file === report.skill.file && !keptBy(d, f)) || ignores?.file(f.file)) return;
            report.diagnostics.push(f);
            report.diagnostics.sort(byPlace);
            if (f.severity === 'error') report.valid = false;
          },
        });
      }
      return reports;
    },
  };
  return linter;
}

/** Lint loaded skills (createLinter, each in turn): one report a skill, in order. */
export async function lintSkills(skills: Skill[], options: LintOptions): Promise<LintReport[]> {
  const linter = createLinter(options);
  for (const skill of skills) await linter.add(skill);
  return linter.finish();
}
