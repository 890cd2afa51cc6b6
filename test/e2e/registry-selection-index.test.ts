// The registry's selection index end to end: `registry sync` writes it, render-prompt reads it, and a missing or
// damaged one changes nothing render-prompt prints (it is rebuilt for the next run).
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSelectionIndex, SELECTION_INDEX_FILE } from '../../src/prompt/selection-index.js';
import { EXAMPLES, FIXTURES, runCli, tempFolders } from '../helpers/cli.js';
import { skillMd, writeTree } from '../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-selection-index-e2e-');
afterAll(cleanup);

describe('render-prompt --query over a registry with its selection index', () => {
  it('prints the same with the index, without it and with a damaged one; sync writes it, a query rebuilds it', async () => {
    const reg = join(fresh(), 'registry');
    const home = fresh('home');
    const env = { SKILLS_REGISTRY: reg, HOME: home };
    for (const dir of [EXAMPLES, join(FIXTURES, 'selection/skills')]) {
      const r = await runCli(['registry', 'sync', dir, '-q'], { env });
      expect(r.exitCode, r.stderr).toBe(0);
    }
    const file = join(reg, SELECTION_INDEX_FILE);
    expect(readSelectionIndex(reg)?.rows.length).toBeGreaterThan(25);
    const outputs = async () => {
      const out: string[] = [];
      for (const q of ['scrape product prices', 'fill out this PDF form with my address', 'write a haiku about autumn'])
        for (const extra of [['--explain', '--json'], []]) {
          const r = await runCli(['render-prompt', '--query', q, '--registry', reg, ...extra], { cwd: home, env });
          out.push(`${r.exitCode}\n${r.stdout}\n${r.stderr}`);
        }
      return out;
    };
    const withIndex = await outputs();
    expect(withIndex[0]).toContain('"web-scraping"');
    rmSync(file);
    expect(await outputs()).toEqual(withIndex);
    // The first query wrote it again.
    expect(readSelectionIndex(reg)?.rows.length).toBeGreaterThan(25);
    // Lines of stems damaged, still well formed: found by their digest, not trusted.
    writeFileSync(file, readFileSync(file, 'utf8').replace(/\nt[a-z]+\t/g, '\ntzz\t'));
    expect(await outputs()).toEqual(withIndex);
    writeFileSync(file, 'garbage');
    expect(await outputs()).toEqual(withIndex);
    expect(existsSync(file)).toBe(true);
  });
});

describe('the size of an automatic tier over a registry of many skills', () => {
  it("is counted without rendering the registry's entries, to the same token, as they change", async () => {
    const src = fresh('skills');
    for (let i = 0; i < 300; i++) {
      writeTree(join(src, `skill-${i}`), {
        'SKILL.md': skillMd(
          `name: skill-${i}\ndescription: Handles task ${i} of the ledger, "as asked". Use when task ${i} comes up.\n`,
        ),
      });
    }
    const reg = join(fresh(), 'registry');
    const home = fresh('home');
    const env = { SKILLS_REGISTRY: reg, HOME: home, XDG_CACHE_HOME: join(home, 'cache'), SKILLS_PROMPT_LIMIT: '3000' };
    expect((await runCli(['registry', 'sync', src, '-q'], { env })).exitCode).toBe(0);
    // A project skill of a registry skill's name leaves that one out of the catalog.
    const project = fresh('project');
    writeTree(join(project, '.agents/skills/skill-7'), {
      'SKILL.md': skillMd("name: skill-7\ndescription: The project's own task 7. Use when task 7 comes up.\n"),
    });
    const render = async (cwd: string, extra: Record<string, string> = {}, format = 'markdown') => {
      const r = await runCli(['render-prompt', '--query', 'task 7 of the ledger', '--format', format], {
        cwd,
        env: { ...env, ...extra },
      });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/the full tier is ~\d+ tokens, over the 3000-token limit/);
      return `${r.stdout}\n${r.stderr}`;
    };
    for (const [cwd, format] of [
      [home, 'markdown'],
      [project, 'markdown'],
      [home, 'xml'],
    ]) {
      // Counted whole (no token cache), then with the registry's run counted, then with its count kept.
      const whole = await render(cwd!, { SKILLS_TOKEN_CACHE: '0' }, format);
      expect(await render(cwd!, {}, format)).toBe(whole);
      expect(await render(cwd!, {}, format)).toBe(whole);
    }
    // A skill changed in the registry: its entry, and so the run, is another.
    writeTree(join(src, 'skill-100'), {
      'SKILL.md': skillMd('name: skill-100\ndescription: Now a much longer description of task 100. Use when asked.\n'),
    });
    expect((await runCli(['registry', 'sync', src, '-q'], { env })).exitCode).toBe(0);
    expect(await render(home)).toBe(await render(home, { SKILLS_TOKEN_CACHE: '0' }));
  });
});
