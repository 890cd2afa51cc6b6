import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { loadSkill } from '../../../../src/skill/load.js';
import rule from '../../../../src/lint/rules/duplicate-skill.js';
import type { Report, TreeSkill } from '../../../../src/lint/types.js';
import type { Skill } from '../../../../src/model/skill.js';
import { skillMd, writeTree, type TreeSpec } from '../../../helpers/tree.js';

let bases: string[] = [];
afterEach(() => {
  for (const b of bases) rmSync(b, { recursive: true, force: true });
  bases = [];
});

/** Load skills from folders written below one temp dir; keys are folder paths. */
function load(trees: Record<string, TreeSpec>): Skill[] {
  const base = mkdtempSync(join(tmpdir(), 'skills-dup-'));
  bases.push(base);
  return Object.entries(trees).map(([dir, tree]) => {
    writeTree(join(base, dir), tree);
    return loadSkill(join(base, dir));
  });
}

function check(skills: Skill[]): { skill: TreeSkill; report: Report }[] {
  const out: { skill: TreeSkill; report: Report }[] = [];
  rule.checkTree(skills, { options: {}, report: (skill, report) => out.push({ skill, report }) });
  return out;
}

const md = (name: string) => ({ 'SKILL.md': skillMd(`name: ${name}\ndescription: Demo skill. Use when testing.\n`) });
const manifest = (id: string, name: string) => ({
  'manifest.json': JSON.stringify(
    { id, name, version: '1.0.0', description: 'Demo. Use when testing.', owner: 'built-in' },
    null,
    2,
  ),
});

it('duplicate-skill: distinct skills report nothing', () => {
  expect(
    check(load({ 'a/pdf': md('pdf'), 'a/docx': md('docx'), 'b/basic-tools': manifest('basic-tools', 'Basic Tools') })),
  ).toEqual([]);
  expect(check([])).toEqual([]);
  // One folder reached twice is one skill.
  const [one] = load({ 'a/pdf': md('pdf') });
  expect(check([one!, loadSkill(one!.root)])).toEqual([]);
});

it('duplicate-skill: the same name in two SKILL.md skills is reported on both, with the other path', () => {
  const skills = load({ 'a/pdf': md('pdf'), 'b/pdf': md('pdf'), 'c/other': md('other') });
  const found = check(skills);
  expect(found.map((f) => f.skill)).toEqual([skills[0], skills[1]]);
  expect(found[0]!.report.message).toBe(
    `name "pdf" is also used by ${skills[1]!.file}; expected each skill to have its own`,
  );
  expect(found[1]!.report.message).toContain(skills[0]!.file);
  // A copy kept on purpose (a plugin package built from skills/) has a way out that is not a rename.
  expect(found[0]!.report.hint).toMatch(/"ignores" in skills\.config\.json, e\.g\. \["plugins\/\*\*"\]/);
  expect(found.map((f) => [f.report.file, f.report.line])).toEqual([
    [skills[0]!.file, 2],
    [skills[1]!.file, 2],
  ]);
});

it('duplicate-skill: ids compare after NFKC and lowercasing, across layouts', () => {
  const skills = load({
    'a/pdf': md('pdf'),
    'b/pdf': manifest('PDF', 'Portable documents'),
    'c/pdf': manifest('ｐｄｆ', 'PDF reader'),
  });
  const found = check(skills);
  expect(found).toHaveLength(3);
  expect(found[0]!.report.message).toMatch(
    new RegExp(`name "pdf" is also used by .*b/pdf/manifest.json, .*c/pdf/manifest.json`),
  );
  expect(found[1]!.report.message).toMatch(/^id "PDF" is also used by .*a\/pdf\/SKILL.md, .*c\/pdf\/manifest.json/);
  expect(found[1]!.report.line).toBe(2);
});

it('duplicate-skill: the same display name with different ids is reported as a name', () => {
  const skills = load({ 'a/x': manifest('pdf-reader', 'PDF Tools'), 'b/y': manifest('pdf-writer', 'pdf tools') });
  const found = check(skills);
  expect(found.map((f) => f.report.message)).toEqual([
    `name "PDF Tools" is also used by ${skills[1]!.file}; expected each skill to have its own`,
    `name "pdf tools" is also used by ${skills[0]!.file}; expected each skill to have its own`,
  ]);
  expect(found.map((f) => f.report.line)).toEqual([3, 3]);
});

it('duplicate-skill: three copies list the two others', () => {
  const skills = load({ 'a/s': md('s'), 'b/s': md('s'), 'c/s': md('s') });
  const found = check(skills);
  expect(found).toHaveLength(3);
  expect(found[2]!.report.message).toBe(
    `name "s" is also used by ${skills[0]!.file}, ${skills[1]!.file}; expected each skill to have its own`,
  );
});

it('duplicate-skill: two plugins of a marketplace may each have a skill of one name (Claude Code names it plugin:name)', () => {
  // terrylica/cc-skills keeps plugins/<plugin>/plugin.json; the usual layout is plugins/<plugin>/.claude-plugin/.
  const base = mkdtempSync(join(tmpdir(), 'skills-dup-'));
  bases.push(base);
  const setup = md('setup')['SKILL.md'];
  writeTree(base, {
    'plugins/asciinema-tools/plugin.json': '{"name":"asciinema-tools"}',
    'plugins/asciinema-tools/skills/setup/SKILL.md': setup,
    'plugins/gmail-commander/.claude-plugin/plugin.json': '{"name":"gmail-commander"}',
    'plugins/gmail-commander/skills/setup/SKILL.md': setup,
    'plugins/loose/skills/setup/SKILL.md': setup,
    'skills/setup/SKILL.md': setup,
  });
  const at = (dir: string) => loadSkill(join(base, dir));
  const a = at('plugins/asciinema-tools/skills/setup');
  const g = at('plugins/gmail-commander/skills/setup');
  expect(check([a, g])).toEqual([]);
  // A folder with no plugin manifest is no plugin, and a skill outside every plugin is compared with all.
  const loose = at('plugins/loose/skills/setup');
  const top = at('skills/setup');
  expect(check([a, loose]).map((f) => f.skill)).toEqual([a, loose]);
  expect(check([a, g, top]).map((f) => f.skill)).toEqual([a, g, top]);
  expect(check([a, g, top])[0]!.report.message).toBe(
    `name "setup" is also used by ${top.file}; expected each skill to have its own`,
  );
});

it('duplicate-skill: a plugin that its marketplace names needs no manifest of its own (anthropics/claude-code)', () => {
  // anthropics/claude-code lists plugins/plugin-dev in .claude-plugin/marketplace.json; the plugin has no plugin.json.
  const base = mkdtempSync(join(tmpdir(), 'skills-dup-'));
  bases.push(base);
  const setup = md('setup')['SKILL.md'];
  writeTree(base, {
    '.claude-plugin/marketplace.json': JSON.stringify({
      metadata: { pluginRoot: './plugins' },
      plugins: [
        { name: 'a', source: './plugins/a' },
        { name: 'b', source: 'b' },
        { name: 'remote', source: { source: 'github', repo: 'o/r' } },
      ],
    }),
    'plugins/a/skills/setup/SKILL.md': setup,
    'plugins/b/skills/setup/SKILL.md': setup,
    'plugins/c/skills/setup/SKILL.md': setup,
  });
  const at = (dir: string) => loadSkill(join(base, dir));
  const [a, b, c] = ['a', 'b', 'c'].map((p) => at(`plugins/${p}/skills/setup`));
  expect(check([a!, b!])).toEqual([]);
  // plugins/c is named by no marketplace: it is no plugin.
  expect(check([a!, c!]).map((f) => f.skill)).toEqual([a, c]);
});

it("duplicate-skill: one skill shipped in each agent's plugin (.codex-plugin, .cursor-plugin, …) is no duplicate", () => {
  // stripe/ai: providers/{claude,codex,cursor,grok}/plugin/skills/stripe-docs, each plugin with its agent's manifest
  // folder; all 48 skills failed SK127 when only .claude-plugin was known.
  const base = mkdtempSync(join(tmpdir(), 'skills-dup-'));
  bases.push(base);
  const docs = md('stripe-docs')['SKILL.md'];
  const agents = ['claude', 'codex', 'cursor', 'grok'];
  writeTree(base, {
    ...Object.fromEntries(
      agents.flatMap((a) => [
        [`providers/${a}/plugin/.${a}-plugin/plugin.json`, '{"name":"stripe"}'],
        [`providers/${a}/plugin/skills/stripe-docs/SKILL.md`, docs],
      ]),
    ),
    // A folder named like a manifest folder without plugin.json in it makes no plugin.
    'providers/other/plugin/.other-plugin/README.md': 'not a manifest',
    'providers/other/plugin/skills/stripe-docs/SKILL.md': docs,
  });
  const copies = agents.map((a) => loadSkill(join(base, `providers/${a}/plugin/skills/stripe-docs`)));
  expect(check(copies)).toEqual([]);
  const other = loadSkill(join(base, 'providers/other/plugin/skills/stripe-docs'));
  expect(check([...copies, other]).map((f) => f.skill)).toEqual([...copies, other]);
  // The repository's own skills/stripe-docs beside the plugins' copies: the hint names the folder to leave out.
  writeTree(join(base, 'skills/stripe-docs'), { 'SKILL.md': docs });
  const own = loadSkill(join(base, 'skills/stripe-docs'));
  const found = check([own, ...copies]);
  expect(found.map((f) => f.skill)).toEqual([own, ...copies]);
  for (const f of found) expect(f.report.hint).toContain('e.g. ["providers/**"]');
});

it("duplicate-skill: a skill placed in agents' folders is a copy each agent reads from its own folder, not a duplicate", () => {
  // `skills install ./skills/x --agent claude-code --agent codex` places .claude/skills/x and .agents/skills/x.
  const skills = load({
    'skills/x': md('x'),
    '.claude/skills/x': md('x'),
    '.agents/skills/x': md('x'),
    'packages/app/.github/skills/x': md('x'),
    'home/.config/opencode/skills/x': md('x'),
    // Antigravity's older workspace folder, which it still reads.
    '.agent/skills/x': md('x'),
  });
  expect(check(skills)).toEqual([]);
  // Two skills of one name in one agent's folder still clash (the folder names differ only in case), and so do two
  // outside every agent's folder.
  const one = load({ '.claude/skills/Deploy': md('deploy'), '.claude/skills/deploy': md('deploy') });
  expect(check(one).map((f) => f.skill)).toEqual(one);
  const two = load({ 'skills/x': md('x'), 'plugins/x/skills/x': md('x'), '.claude/skills/x': md('x') });
  expect(check(two).map((f) => f.skill)).toEqual(two.slice(0, 2));
  expect(check(two)[0]!.report.message).toBe(
    `name "x" is also used by ${two[1]!.file}; expected each skill to have its own`,
  );
});
