// A tier chosen automatically never gives a prompt no agent can take (issue 18): over the automatic limit
// (SKILLS_PROMPT_LIMIT, default 50,000 tokens) the next smaller tier is rendered, with a warning that says how to
// choose; a tier or a budget asked for is rendered as asked.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempFolders } from '../helpers/cli.js';
import { skillMd, writeTree } from '../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-prompt-limit-');
afterAll(cleanup);

function manySkills(n: number): string {
  const dir = fresh('skills');
  for (let i = 0; i < n; i++) {
    const words = Array.from({ length: 40 }, (_, j) => `word${(i * 7 + j) % 97}`).join(' ');
    writeTree(join(dir, `skill-${i}`), {
      'SKILL.md': skillMd(`name: skill-${i}\ndescription: Handles task ${i}: ${words}. Use when task ${i} comes up.\n`),
    });
  }
  return dir;
}

describe('the automatic tier and its limit', () => {
  it('falls back to a smaller tier over the limit, saying how to choose; --tier is rendered as asked', async () => {
    const dir = manySkills(60);
    const env = { SKILLS_PROMPT_LIMIT: '1500', HOME: fresh('home'), SKILLS_REGISTRY: '' };
    const auto = await runCli(['render-prompt', dir, '--format', 'json'], { env });
    expect(auto.exitCode, auto.stderr).toBe(0);
    const doc = JSON.parse(auto.stdout);
    expect(doc.tier).toBe('breadcrumb');
    expect(doc.tokens).toBeLessThanOrEqual(1500);
    expect(doc.warnings.join('\n')).toMatch(
      /the catalog tier is ~\d+ tokens, over the 1500-token limit of an automatic choice \(SKILLS_PROMPT_LIMIT\): rendered the breadcrumb tier instead; choose with --tier catalog/,
    );
    const asked = await runCli(['render-prompt', dir, '--tier', 'catalog', '--format', 'json'], { env });
    const full = JSON.parse(asked.stdout);
    expect(full.tier).toBe('catalog');
    expect(full.tokens).toBeGreaterThan(1500);
    expect(full.warnings.join('\n')).not.toContain('automatic choice');
    // A query that selects a skill keeps it, in full: only the other skills leave the listing.
    const query = await runCli(['render-prompt', dir, '--query', 'task 7 word49', '--format', 'json'], { env });
    const q = JSON.parse(query.stdout);
    expect(q.tier).toBe('full');
    expect(q.selected.map((x: { name: string }) => x.name)).toContain('skill-7');
    expect(q.prompt).toContain('Handles task 7');
    expect(q.prompt).not.toContain('Handles task 8:');
    expect(q.warnings.join('\n')).toMatch(/listed only the \d+ selected skills? of 60/);
    // Under the default limit nothing changes.
    const small = await runCli(['render-prompt', dir, '--format', 'json'], {
      env: { ...env, SKILLS_PROMPT_LIMIT: '' },
    });
    expect(JSON.parse(small.stdout).tier).toBe('catalog');
  });
});
