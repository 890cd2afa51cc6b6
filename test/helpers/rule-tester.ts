import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { loadSkill } from '../../src/skill/load.js';
import { planFixes, writeEdits } from '../../src/lint/fix.js';
import { lintSkills, type LintFinding } from '../../src/lint/linter.js';
import type { Report, Rule } from '../../src/lint/types.js';
import type { Skill } from '../../src/model/skill.js';
import { writeTree, type TreeSpec } from './tree.js';

export interface RuleCase {
  /** The skill's files; the folder is `folder` (default "demo"). */
  tree: TreeSpec;
  folder?: string;
  options?: Record<string, unknown>;
}

export interface InvalidCase extends RuleCase {
  /** One pattern per expected report, in order. */
  messages: RegExp[];
  /** Line of each report, when given. */
  lines?: number[];
  /** After applying every fix once: expected text of these files (relative paths). */
  output?: Record<string, string>;
  /** After applying every fix once: expected mode bits of these files. */
  modes?: Record<string, number>;
}

/** Run one rule on one skill written to a temp folder; returns the reports and the loaded skill. */
export async function runRule(
  rule: Rule,
  c: RuleCase,
): Promise<{ reports: Report[]; findings: LintFinding[]; skill: Skill; root: string; cleanup: () => void }> {
  const base = mkdtempSync(join(tmpdir(), 'skills-rule-'));
  const root = join(base, c.folder ?? 'demo');
  writeTree(root, c.tree);
  const { reports, findings, skill } = await checkAt(rule, root, c.options);
  return { reports, findings, skill, root, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

/**
 * Run one rule on the skill folder at `root`, as it is on disk now, through the linter with only that rule
 * enabled (its options set in the configuration): `reports` are what the rule reported, in order, as it wrote
 * them; `findings` what the linter made of them.
 */
export async function checkAt(
  rule: Rule,
  root: string,
  given: Record<string, unknown> = {},
): Promise<{ reports: Report[]; findings: LintFinding[]; skill: Skill }> {
  const skill = loadSkill(root);
  const reports: Report[] = [];
  const config = { dir: root, rules: { [rule.names[0]]: { options: given } }, ignores: [] };
  const [linted] = await lintSkills([skill], {
    config,
    rules: [rule],
    onReport: (_rule, _skill, r) => reports.push(r),
  });
  const findings = linted!.diagnostics.filter((d) => d.ruleId === rule.names[0]);
  return { reports, findings, skill };
}

/** ESLint's RuleTester in small: valid cases report nothing, invalid ones report what they say, fixes fix. */
export async function testRule(rule: Rule, cases: { valid: RuleCase[]; invalid: InvalidCase[] }): Promise<void> {
  for (const [i, c] of cases.valid.entries()) {
    const r = await runRule(rule, c);
    try {
      expect(
        r.reports.map((x) => x.message),
        `valid case ${i} of ${rule.names[1]}`,
      ).toEqual([]);
      expect(r.findings, `valid case ${i} of ${rule.names[1]}: the linter's findings`).toEqual([]);
    } finally {
      r.cleanup();
    }
  }
  for (const [i, c] of cases.invalid.entries()) {
    const r = await runRule(rule, c);
    try {
      const what = `invalid case ${i} of ${rule.names[1]}: ${JSON.stringify(r.reports.map((x) => x.message))}`;
      expect(r.reports.length, what).toBe(c.messages.length);
      // Every report is a finding of the linter, with the rule's id and a file.
      expect(r.findings.map((f) => f.message).sort(), what).toEqual(r.reports.map((x) => x.message).sort());
      c.messages.forEach((m, j) => expect(r.reports[j]!.message, what).toMatch(m));
      if (c.lines)
        expect(
          r.reports.map((x) => x.line),
          what,
        ).toEqual(c.lines);
      for (const rep of r.reports) if (rep.file) expect(rep.file.startsWith(r.root), what).toBe(true);
      if (c.output || c.modes) {
        const fixes = r.reports.flatMap((x) => (x.fix ? [x.fix] : []));
        expect(fixes.length, `${what}: expected fixes`).toBeGreaterThan(0);
        expect(rule.fixable).toBe(true);
        writeEdits(planFixes(fixes).edits);
        for (const [p, text] of Object.entries(c.output ?? {}))
          expect(readFileSync(join(r.root, p), 'utf8'), `${what}: ${p} after fix`).toBe(text);
        for (const [p, mode] of Object.entries(c.modes ?? {}))
          expect(statSync(join(r.root, p)).mode & 0o777, `${what}: mode of ${p}`).toBe(mode);
        // A second pass finds nothing left to fix.
        const again = await checkAt(rule, r.root, c.options);
        expect(
          again.reports.filter((x) => x.fix).map((x) => x.message),
          `${what}: second pass`,
        ).toEqual([]);
      }
    } finally {
      r.cleanup();
    }
  }
}
