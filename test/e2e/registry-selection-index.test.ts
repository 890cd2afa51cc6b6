// The registry's selection index end to end: `registry sync` writes it, render-prompt reads it, and a missing or
// damaged one changes nothing render-prompt prints (it is rebuilt for the next run).
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSelectionIndex, SELECTION_INDEX_FILE } from '../../src/prompt/selection-index.js';
import { EXAMPLES, FIXTURES, runCli, tempFolders } from '../helpers/cli.js';

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
