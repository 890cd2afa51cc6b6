// A count and its noun agree in what the commands say ("1 folder", "2 folders"), through the built CLI: the limits
// of a search set to one, a single warning over --max-warnings, a catalog of one skill.
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runCli, tempFolders } from '../helpers/cli.js';
import { skillMd, writeTree } from '../helpers/tree.js';

const t = tempFolders('skills-counts-');
afterAll(() => t.cleanup());

function twoSkills(): string {
  const dir = t.fresh('two');
  writeTree(dir, {
    'one/SKILL.md': skillMd('name: one\ndescription: Does one thing, and does it well enough.\n'),
    'two/SKILL.md': skillMd('name: two\ndescription: Does two things. Use when testing counts.\n'),
  });
  return dir;
}

describe('a count of one is said in the singular', () => {
  it('the search limits: "it read 1 folder", "it found 1 skill" (and 2 of each in the plural)', async () => {
    const dir = twoSkills();
    const folder = await runCli(['list', dir], { env: { SKILLS_MAX_FOLDERS: '1' } });
    expect(folder.stderr).toMatch(/: it read 1 folder, the most one search reads \(SKILLS_MAX_FOLDERS raises it\)/);
    const skill = await runCli(['list', dir], { env: { SKILLS_MAX_SKILLS: '1' } });
    expect(skill.stderr).toMatch(/: it found 1 skill, the most one search finds \(SKILLS_MAX_SKILLS raises it\)/);
    const more = await runCli(['list', join(dir, '..')], { env: { SKILLS_MAX_FOLDERS: '2' } });
    expect(more.stderr).toMatch(/: it read 2 folders, the most one search reads/);
  });

  it('lint --max-warnings: "1 warning, more than --max-warnings 0"', async () => {
    const dir = twoSkills();
    const r = await runCli(['lint', join(dir, 'one'), '--max-warnings', '0'], { cwd: dir });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('error: 1 warning, more than --max-warnings 0');
  });

  it('render-prompt of a catalog of one: "1 of 1 skill selected", "--explain: 0 of 1 skill match"', async () => {
    const dir = twoSkills();
    const r = await runCli(['render-prompt', join(dir, 'two'), '--query', 'testing counts', '--explain'], {
      cwd: dir,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/tier \w+, 1 of 1 skill selected$/m);
    expect(r.stderr).toMatch(/^explain: \d of 1 skill match "testing counts"/m);
  });
});
