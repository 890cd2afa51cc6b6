import { mkdirSync, readFileSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempFolders } from '../helpers/cli.js';
import { skillMd } from '../helpers/tree.js';
import { TOO_RECENT_MS } from '../../src/skill/list-cache.js';

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

  it('list keeps what it showed of each skill in the user cache, shows it again, and sees a change', async () => {
    const cwd = fresh('project');
    const dir = join(cwd, '.claude/skills');
    for (let i = 0; i < 300; i++) {
      const name = `skill-${String(i).padStart(3, '0')}`;
      mkdirSync(join(dir, name), { recursive: true });
      writeFileSync(join(dir, name, 'SKILL.md'), skillMd(`name: ${name}\ndescription: D${i}. Use when.`));
    }
    const other = fresh('other-project');
    mkdirSync(join(other, 'skills/solo'), { recursive: true });
    writeFileSync(join(other, 'skills/solo/SKILL.md'), skillMd('name: solo\ndescription: S. Use when.'));
    // Files changed just before a run are not kept (a clock tick may hide a change): let them settle.
    await new Promise((r) => setTimeout(r, TOO_RECENT_MS + 200));
    const home = fresh('home');
    const env = { HOME: home, XDG_CACHE_HOME: join(home, '.cache'), SKILLS_REGISTRY: '' };
    /** The cache files of `kind` in a cache folder: one per set of skill folders read. */
    const caches = (dir: string, kind: string) =>
      readdirSync(dir).filter((n) => new RegExp(`^${kind}-[0-9a-f]{16}\\.json$`).test(n));
    const first = await runCli(['list', '--json'], { cwd, env });
    expect(first.exitCode, first.stderr).toBe(0);
    const [file] = caches(join(home, '.cache/skills'), 'list');
    expect(JSON.parse(readFileSync(join(home, '.cache/skills', file!), 'utf8')).skills).toHaveLength(300);
    const again = await runCli(['list', '--json'], { cwd, env });
    expect(again.stdout).toBe(first.stdout);
    // A skill made invalid is seen at once (a changed file is no longer what the cache kept).
    writeFileSync(join(dir, 'skill-123/SKILL.md'), skillMd('name: skill-123'));
    const changed = await runCli(['list', '--json'], { cwd, env });
    const invalid = JSON.parse(changed.stdout).skills.filter((r: { valid: boolean }) => !r.valid);
    expect(invalid.map((r: { id: string }) => r.id)).toEqual(['skill-123']);
    // SKILLS_LIST_CACHE=0: the same rows, nothing kept.
    const off = { ...env, XDG_CACHE_HOME: join(home, 'other-cache'), SKILLS_LIST_CACHE: '0' };
    const uncached = await runCli(['list', '--json'], { cwd, env: off });
    expect(uncached.stdout).toBe(changed.stdout);
    expect(caches(join(home, 'other-cache/skills'), 'list')).toEqual([]);
    // Another project's folders have a file of their own; render-prompt keeps its catalog beside them.
    expect((await runCli(['list'], { cwd: other, env })).exitCode).toBe(0);
    expect(caches(join(home, '.cache/skills'), 'list')).toHaveLength(2);
    expect((await runCli(['render-prompt', '--tier', 'catalog'], { cwd, env })).exitCode).toBe(0);
    expect(caches(join(home, '.cache/skills'), 'catalog')).toHaveLength(1);
  }, 60_000);
});
