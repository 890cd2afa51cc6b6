// One skill of a plugin installed alone: a link of its instructions into a skill beside it (obra/superpowers'
// `../requesting-code-review/code-reviewer.md`) dangles in the copy. lint takes it (SK109: the agents' installers
// take a plugin whole); install says it, and exits as it would without.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempFolders } from '../helpers/cli.js';
import { skillMd, writeTree } from '../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-plugin-links-');
afterAll(cleanup);

const WARNING =
  'brainstorming: SKILL.md:7 links ../writing-plans/SKILL.md, in the skill writing-plans, which was not installed with it: add --skill writing-plans, or install the source whole';

function plugin(): { dir: string; project: string; env: Record<string, string> } {
  const dir = fresh('src');
  writeTree(dir, {
    'plug/.claude-plugin/plugin.json': '{"name": "plug"}\n',
    'plug/skills/brainstorming/SKILL.md': skillMd(
      'name: brainstorming\ndescription: Turns ideas into designs. Use when starting a feature.\n',
      '# Brainstorming\n\nThen write the plan with [writing-plans](../writing-plans/SKILL.md).\n',
    ),
    'plug/skills/writing-plans/SKILL.md': skillMd(
      'name: writing-plans\ndescription: Writes implementation plans. Use when a design is agreed.\n',
    ),
  });
  const project = join(dir, 'project');
  mkdirSync(project);
  return { dir, project, env: { SKILLS_REGISTRY: join(dir, 'registry') } };
}

describe('install --skill of one skill of a plugin (built CLI)', () => {
  it('warns of its link into a skill left behind, naming the skill, the link and how to take both; exit 0', async () => {
    const { project, env } = plugin();
    const r = await runCli(['install', '../plug', '--skill', 'brainstorming'], { cwd: project, env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(`warning: ${WARNING}\n`);
    expect(r.stdout).toContain('added     brainstorming@0.0.0');
    const j = await runCli(['install', '../plug', '--skill', 'brainstorming', '--json'], { cwd: project, env });
    expect(j.exitCode).toBe(0);
    expect((JSON.parse(j.stdout) as { warnings: string[] }).warnings).toContain(WARNING);
  });

  it('says nothing of it when the skill linked to comes along, or the plugin whole', async () => {
    for (const args of [['--skill', 'brainstorming', '--skill', 'writing-plans'], []]) {
      const { project, env } = plugin();
      const r = await runCli(['install', '../plug', ...args], { cwd: project, env });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).not.toContain('not installed with it');
    }
  });
});

describe('install --skill beside thousands of skills (built CLI)', () => {
  it('looks up the links of a skill of 6,000 `../` links among 3,000 skills left out in seconds, and warns of the one that leads into one', async () => {
    // Each link was measured against each skill left out: 18 s of CPU at 3,000 by 3,000, 124 s at 20,000 links.
    const dir = fresh('many');
    const tree: Record<string, string> = {};
    for (let i = 0; i < 3000; i++)
      tree[`s${i}/SKILL.md`] = skillMd(`name: s${i}\ndescription: Does s${i} things. Use when testing.\n`);
    const links = Array.from({ length: 6000 }, (_, i) => `See [x](../gone${i}/x.md) and ../s${i % 3000}/nothing.md`);
    tree['big/SKILL.md'] = skillMd(
      'name: big\ndescription: Links a lot. Use when testing.\n',
      `${links.join('\n')}\nThen [s7](../s7/SKILL.md).\n`,
    );
    writeTree(dir, tree);
    const project = join(dir, 'project');
    mkdirSync(project);
    const started = Date.now();
    const r = await runCli(['install', dir, '--skill', 'big', '--into', 'out', '--dry-run'], {
      cwd: project,
      env: { SKILLS_REGISTRY: join(dir, 'registry') },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'warning: big: SKILL.md:6005 links ../s7/SKILL.md, in the skill s7, which was not installed with it: add --skill s7, or install the source whole',
    );
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 120_000);
});
