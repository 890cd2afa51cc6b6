// The linter itself, with rules made for the test: how findings are made from reports, severities and options
// from the configuration, turning rules off (configuration and inline comments), the order of findings, and fixes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Config, RuleSetting } from '../../../src/config/config.js';
import { lintSkills, type LintFinding } from '../../../src/lint/linter.js';
import type { Fix, Report, Rule } from '../../../src/lint/types.js';
import type { Skill } from '../../../src/model/skill.js';
import { loadSkill } from '../../../src/skill/load.js';
import { skillMd, writeTree, type TreeSpec } from '../../helpers/tree.js';

const bases: string[] = [];
afterEach(() => {
  for (const b of bases.splice(0)) rmSync(b, { recursive: true, force: true });
});

const fm = 'name: demo\ndescription: Demo skill. Use when testing.\n';
const manifest = (extra: Record<string, unknown> = {}) =>
  JSON.stringify(
    { id: 'demo', name: 'Demo', version: '1.0.0', description: 'Demo. Use when testing.', owner: 'built-in', ...extra },
    null,
    2,
  );

/** A skill written to a temp folder and loaded. */
function skillOf(tree: TreeSpec, folder = 'demo'): Skill {
  const base = mkdtempSync(join(tmpdir(), 'skills-linter-'));
  bases.push(base);
  const root = join(base, folder);
  writeTree(root, tree);
  return loadSkill(root);
}

const configOf = (rules: Record<string, RuleSetting> = {}, extra: Partial<Config> = {}): Config => ({
  file: 'skills.config.json',
  dir: tmpdir(),
  rules,
  ignores: [],
  ...extra,
});

/** A rule for the test: reports what `reports` gives for a skill and its options. */
function ruleOf(
  id: string,
  name: string,
  reports: (skill: Skill, options: Record<string, unknown>) => Report[],
  extra: Partial<Rule> = {},
): Rule {
  return {
    names: [id, name],
    description: 'a rule for the test',
    tags: ['test'],
    layouts: ['skill-md', 'manifest'],
    severity: 'warning',
    sources: ['this test'],
    fixable: false,
    check(skill, ctx) {
      for (const r of reports(skill, ctx.options)) ctx.report(r);
    },
    ...extra,
  };
}

async function findings(skill: Skill, rules: Rule[], config: Config = configOf()): Promise<LintFinding[]> {
  const [report] = await lintSkills([skill], { config, rules });
  return report!.diagnostics;
}

describe('lintSkills: findings from reports', () => {
  it('finds nothing in a clean skill with no rules', async () => {
    expect(await findings(skillOf({ 'SKILL.md': skillMd(fm) }), [])).toEqual([]);
  });

  it('makes each report a finding with the rule id and name, its severity, the skill file by default and column 1', async () => {
    const skill = skillOf({ 'SKILL.md': skillMd(fm) });
    const rule = ruleOf('SK900', 'test-rule', () => [
      { message: 'whole skill' },
      { message: 'at a line', line: 3, hint: 'do this' },
    ]);
    expect(await findings(skill, [rule])).toEqual([
      { ruleId: 'SK900', rule: 'test-rule', severity: 'warning', message: 'whole skill', file: skill.file },
      {
        ruleId: 'SK900',
        rule: 'test-rule',
        severity: 'warning',
        message: 'at a line',
        file: skill.file,
        line: 3,
        column: 1,
        hint: 'do this',
      },
    ]);
  });

  it('runs a rule only on skills of its layouts, and prepares it once, with those skills, only when it runs', async () => {
    const md = skillOf({ 'SKILL.md': skillMd(fm) });
    const mf = skillOf({ 'manifest.json': manifest() });
    const prepared: Skill[][] = [];
    const rule = ruleOf('SK900', 'test-rule', (s) => [{ message: s.layout }], {
      layouts: ['manifest'],
      prepare: async (skills) => void prepared.push(skills),
    });
    const reports = await lintSkills([md, mf], { config: configOf(), rules: [rule] });
    expect(reports.map((r) => r.diagnostics.map((d) => d.message))).toEqual([[], ['manifest']]);
    expect(prepared).toEqual([[mf]]);
    await lintSkills([md], { config: configOf(), rules: [rule] });
    await lintSkills([mf], { config: configOf({ SK900: { severity: 'off' } }), rules: [rule] });
    expect(prepared).toHaveLength(1);
  });

  it('gives checkTree reports to the skill each names', async () => {
    const a = skillOf({ 'SKILL.md': skillMd(fm) });
    const b = skillOf({ 'SKILL.md': skillMd(fm) });
    const rule: Rule = {
      ...ruleOf('SK900', 'test-rule', () => []),
      check: undefined,
      checkTree: (skills, ctx) => ctx.report(skills[1]!, { message: `${skills.length} skills` }),
    };
    const reports = await lintSkills([a, b], { config: configOf(), rules: [rule] });
    expect(reports.map((r) => r.diagnostics.map((d) => d.message))).toEqual([[], ['2 skills']]);
  });

  it('shows each report to onReport as the rule made it', async () => {
    const skill = skillOf({ 'SKILL.md': skillMd(fm) });
    const seen: [string, Report][] = [];
    const rule = ruleOf('SK900', 'test-rule', () => [{ message: 'm', line: 2 }]);
    await lintSkills([skill], {
      config: configOf({ SK900: { severity: 'error' } }),
      rules: [rule],
      onReport: (r, _s, rep) => seen.push([r.names[0], rep]),
    });
    expect(seen).toEqual([['SK900', { message: 'm', line: 2 }]]);
  });
});

describe('lintSkills: severities and options from the configuration', () => {
  const rule = ruleOf('SK900', 'test-rule', () => [{ message: 'plain' }, { message: 'its own', severity: 'info' }]);

  it('takes a rule’s severity from the configuration, by id or by name; a report’s own severity wins', async () => {
    const skill = skillOf({ 'SKILL.md': skillMd(fm) });
    for (const key of ['SK900', 'test-rule']) {
      const [r] = await lintSkills([skill], { config: configOf({ [key]: { severity: 'error' } }), rules: [rule] });
      expect(r!.diagnostics.map((d) => [d.message, d.severity])).toEqual([
        ['plain', 'error'],
        ['its own', 'info'],
      ]);
      expect(r!.valid).toBe(false);
    }
    const [r] = await lintSkills([skill], { config: configOf(), rules: [rule] });
    expect(r!.diagnostics.map((d) => d.severity)).toEqual(['warning', 'info']);
    expect(r!.valid).toBe(true);
  });

  it('does not run a rule the configuration turns off', async () => {
    const skill = skillOf({ 'SKILL.md': skillMd(fm) });
    let ran = 0;
    const counted = ruleOf('SK900', 'test-rule', () => (ran++, [{ message: 'x' }]));
    expect(await findings(skill, [counted], configOf({ 'test-rule': { severity: 'off' } }))).toEqual([]);
    expect(ran).toBe(0);
  });

  it('applies the configuration to validate’s checks too, by id or by name', async () => {
    const skill = skillOf({ 'SKILL.md': skillMd('name: demo\n') });
    expect((await findings(skill, [])).map((d) => [d.ruleId, d.severity])).toEqual([['SK011', 'error']]);
    expect(
      (await findings(skill, [], configOf({ SK011: { severity: 'warning' } }))).map((d) => [d.ruleId, d.severity]),
    ).toEqual([['SK011', 'warning']]);
    expect(await findings(skill, [], configOf({ 'description-required': { severity: 'off' } }))).toEqual([]);
  });

  it('gives a rule its options: the defaults, each replaced where the configuration sets it', async () => {
    const skill = skillOf({ 'SKILL.md': skillMd(fm) });
    const seen: Record<string, unknown>[] = [];
    const opts = ruleOf('SK900', 'test-rule', (_s, o) => (seen.push(o), []), {
      options: { max: { default: 3, description: 'most' }, words: { default: ['a'], description: 'words' } },
    });
    await findings(skill, [opts]);
    await findings(skill, [opts], configOf({ SK900: { options: { max: 5 } } }));
    expect(seen).toEqual([
      { max: 3, words: ['a'] },
      { max: 5, words: ['a'] },
    ]);
  });

  it('refuses unknown rules and ill-typed or unknown options (E_CONFIG)', async () => {
    const skill = skillOf({ 'SKILL.md': skillMd(fm) });
    const opts = ruleOf('SK900', 'test-rule', () => [], { options: { max: { default: 3, description: 'most' } } });
    await expect(findings(skill, [opts], configOf({ 'test-rul': { severity: 'off' } }))).rejects.toMatchObject({
      code: 'E_CONFIG',
      message: expect.stringMatching(/unknown rule "test-rul".*did you mean "test-rule"/),
    });
    await expect(findings(skill, [opts], configOf({ SK900: { options: { max: 'many' } } }))).rejects.toMatchObject({
      code: 'E_CONFIG',
      message: expect.stringMatching(/option max of rule SK900 must be a number/),
    });
    await expect(findings(skill, [opts], configOf({ SK900: { options: { min: 1 } } }))).rejects.toMatchObject({
      code: 'E_CONFIG',
      message: expect.stringMatching(/has no option "min" \(it has: max\)/),
    });
  });
});

describe('lintSkills: turning findings off where they are', () => {
  const body = '# Skill\n\n<!-- skills-lint-disable-next-line test-rule -->\nline 4\nline 5\n';
  // SKILL.md: 4 lines of frontmatter, then the body from line 5; the comment is on line 7.
  const everyLine = ruleOf('SK900', 'test-rule', (s) =>
    [7, 8, 9].map((line) => ({ message: `line ${line}`, line, file: s.file })),
  );
  const other = ruleOf('SK901', 'other-rule', (s) => [{ message: 'other', line: 8, file: s.file }]);

  it('disables the next line for the rules a -next-line comment names (by id or name), and only them', async () => {
    const skill = skillOf({ 'SKILL.md': skillMd(fm, body) });
    expect((await findings(skill, [everyLine, other])).map((d) => `${d.ruleId} ${d.message}`)).toEqual([
      'SK900 line 7',
      'SK901 other',
      'SK900 line 9',
    ]);
  });

  it('disables a whole file for the rules a comment names, or for every rule when it names none', async () => {
    const named = skillOf({
      'SKILL.md': skillMd(fm, '# Skill\n\n<!-- skills-lint-disable SK900 -->\n\nline\n'),
      'references/a.md': '# A\n',
    });
    const inRef = ruleOf('SK902', 'in-ref', (s) => [
      { message: 'in a.md', line: 1, file: join(s.root, 'references/a.md') },
    ]);
    expect((await findings(named, [everyLine, other, inRef])).map((d) => d.message)).toEqual(['other', 'in a.md']);
    const all = skillOf({ 'SKILL.md': skillMd(fm, '# Skill\n\n<!-- skills-lint-disable -->\n') });
    expect(await findings(all, [everyLine, other])).toEqual([]);
  });

  it('drops skills and findings under the configuration’s ignores', async () => {
    const skill = skillOf({ 'SKILL.md': skillMd(fm), 'references/a.md': '# A\n' });
    const twoFiles = ruleOf('SK900', 'test-rule', (s) => [
      { message: 'skill file' },
      { message: 'a.md', file: join(s.root, 'references/a.md') },
    ]);
    const dir = join(skill.root, '..');
    expect(
      (await findings(skill, [twoFiles], configOf({}, { dir, ignores: ['demo/references/**'] }))).map((d) => d.message),
    ).toEqual(['skill file']);
    expect(
      await lintSkills([skill], { config: configOf({}, { dir, ignores: ['demo/**'] }), rules: [twoFiles] }),
    ).toEqual([]);
  });
});

describe('lintSkills: order and fixes', () => {
  it('orders findings by file, then line, then column; findings at one place keep the order they were made in', async () => {
    const skill = skillOf({ 'SKILL.md': skillMd(fm), 'references/a.md': '# A\n' });
    const ref = join(skill.root, 'references/a.md');
    const first = ruleOf('SK900', 'first', (s) => [
      { message: 'a.md 1', file: ref, line: 1 },
      { message: 'skill 5:3', file: s.file, line: 5, column: 3 },
      { message: 'skill 5:1 first', line: 5, column: 1 },
      { message: 'skill', file: s.file },
    ]);
    const second = ruleOf('SK901', 'second', () => [
      { message: 'skill 5:1 second', line: 5, column: 1 },
      { message: 'skill 2', line: 2 },
    ]);
    expect((await findings(skill, [first, second])).map((d) => d.message)).toEqual([
      'skill',
      'skill 2',
      'skill 5:1 first',
      'skill 5:1 second',
      'skill 5:3',
      'a.md 1',
    ]);
  });

  it('carries a rule’s fix on its finding, and the safe fix of a validate check on that check’s finding', async () => {
    const skill = skillOf({ 'manifest.json': manifest({ envVars: ['API_KEY'] }) });
    const fix: Fix = {
      description: 'add a line',
      changes: [{ kind: 'append', file: join(skill.root, 'notes.txt'), text: 'x\n' }],
    };
    const fixing = ruleOf('SK900', 'test-rule', () => [{ message: 'fixable', fix }, { message: 'not fixable' }], {
      fixable: true,
    });
    const found = await findings(skill, [fixing]);
    expect(found.find((d) => d.message === 'fixable')!.fix).toEqual(fix);
    expect(found.find((d) => d.message === 'not fixable')!.fix).toBeUndefined();
    const envExample = found.find((d) => d.ruleId === 'SK027')!;
    expect(envExample.fix).toEqual({
      description: 'add API_KEY to .env.example',
      changes: [{ kind: 'append', file: join(skill.root, '.env.example'), text: 'API_KEY=\n' }],
    });
  });
});
