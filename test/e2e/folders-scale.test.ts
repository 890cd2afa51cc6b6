import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempFolders } from '../helpers/cli.js';
import { skillMd } from '../helpers/tree.js';

// Many skill folders of every kind side by side: the catalog (render-prompt, which opens SKILL.md straight away and
// reads the folder of anything else) and list (which loads every skill in full) find the same skills, through the
// built CLI.

const { fresh, cleanup } = tempFolders('skills-folders-scale-');
afterAll(cleanup);

const COUNT = 1_200;

describe('a thousand skill folders', () => {
  it('list and render-prompt find the same skills, with their real locations; a skill an agent cannot use is named by both', async () => {
    const cwd = fresh('project');
    const dir = join(cwd, '.claude/skills');
    const expected = new Map<string, string>();
    for (let i = 0; i < COUNT; i++) {
      const name = `skill-${String(i).padStart(4, '0')}`;
      const folder = join(dir, i % 100 === 7 ? `group/${name}` : name);
      mkdirSync(folder, { recursive: true });
      const description = `Handles case ${i}. Use when the user asks about case ${i}.`;
      const kind = i % 3;
      const file = kind === 2 ? 'manifest.json' : kind === 1 ? 'skill.md' : 'SKILL.md';
      writeFileSync(
        join(folder, file),
        kind === 2
          ? JSON.stringify({ id: name, name, version: '1.0.0', description, owner: 'built-in' })
          : skillMd(`name: ${name}\ndescription: "${description}"`),
      );
      expected.set(name, join(realpathSync(folder), file));
    }
    // Left out of the catalog with a warning, and listed as invalid: a skill with no description.
    mkdirSync(join(dir, 'no-description'));
    writeFileSync(join(dir, 'no-description/SKILL.md'), skillMd('name: no-description'));
    const home = fresh('home');
    const env = { HOME: home, XDG_CACHE_HOME: join(home, '.cache'), SKILLS_REGISTRY: '' };

    const prompt = await runCli(['render-prompt', '--tier', 'catalog', '--format', 'json'], { cwd, env });
    expect(prompt.exitCode, prompt.stderr).toBe(0);
    const catalog: { name: string; location: string }[] = JSON.parse(prompt.stdout).catalog;
    expect(new Map(catalog.map((e) => [e.name, e.location]))).toEqual(expected);
    expect(prompt.stderr).toContain(`warning: ${join(dir, 'no-description')}: skipped: SKILL.md has no description`);

    const list = await runCli(['list', '--json'], { cwd, env });
    expect(list.exitCode, list.stderr).toBe(0);
    const rows: { id: string; valid: boolean }[] = JSON.parse(list.stdout).skills;
    expect(rows.filter((r) => r.valid).map((r) => r.id)).toEqual([...expected.keys()].sort());
    expect(rows.filter((r) => !r.valid).map((r) => r.id)).toEqual(['no-description']);
  }, 60_000);
});
