import { describe, expect, it } from 'vitest';
import { blockTokenCounter } from '../../../src/prompt/prompt-tokens.js';
import {
  catalogItems,
  renderPrompt,
  type PromptEntry,
  type PromptFormat,
  type PromptInput,
  type PromptSkill,
} from '../../../src/prompt/render.js';
import { countsApart, MIN_RUN, tierTokens, type CatalogRun } from '../../../src/prompt/tier-tokens.js';
import type { TokenCache } from '../../../src/tokens/token-cache.js';
import { cachedTokenCounter, tokenCounter } from '../../../src/tokens/tokens.js';

function memoryCache() {
  const counts = new Map<string, number>();
  const cache: TokenCache = { get: (key) => counts.get(key), set: (key, n) => void counts.set(key, n), save() {} };
  return { cache, counts };
}

// Folder skills first, then the registry's: descriptions of one and several sentences, some with what the prompt
// strips (a zero-width space) or escapes in xml, one with a brief description.
const folders: PromptEntry[] = Array.from({ length: 3 }, (_, i) => ({
  name: `local-${i}`,
  description: `A project skill ${i}. Use it <now> & then.`,
  location: `/work/project/.agents/skills/local-${i}/SKILL.md`,
}));
const registry: PromptEntry[] = Array.from({ length: 400 }, (_, i) => ({
  name: i % 3 === 0 ? `Skill ${i}` : `skill-${i}`,
  description:
    i % 7 === 0
      ? `Converts   file ${i}\ninto a "report".\u200b Use when the user asks about thing ${i}. More text here.`
      : `Handles task ${i}. Use when task ${i} comes up.`,
  ...(i % 11 === 0 ? { briefDescription: `Task ${i}, briefly.` } : {}),
  location: `/srv/registry/built-in/skill-${i}@1.0.${i}/SKILL.md`,
}));
const active: PromptSkill = {
  name: 'skill-5',
  title: 'Skill 5',
  version: '1.0.5',
  root: '/srv/registry/built-in/skill-5@1.0.5',
  instructions: '# Skill 5\n\nRead the input, then write the result.\n',
  files: ['scripts/run.sh'],
  tools: [{ path: 'scripts/run.sh', description: 'runs it' }],
  mcpServers: [],
};

describe('tierTokens', () => {
  it('counts what rendering the whole prompt and counting it gives, to the token, in both formats', async () => {
    const count = await tokenCounter();
    const cases: [Omit<PromptInput, 'catalog'>, PromptEntry[], number][] = [
      [{ tier: 'full', active: [active] }, [...folders, ...registry], folders.length],
      [{ tier: 'catalog', active: [], soul: 'Be brief.' }, [...folders, ...registry], folders.length],
      [{ tier: 'full', active: [active], base: '/srv' }, registry, 0],
      [{ tier: 'catalog', active: [], descriptions: 'brief' }, registry, 0],
      [{ tier: 'catalog', active: [], descriptions: 'none' }, [...folders, ...registry], folders.length],
    ];
    for (const format of ['markdown', 'xml'] as PromptFormat[]) {
      for (const [input, catalog, from] of cases) {
        const { cache, counts } = memoryCache();
        const counter = blockTokenCounter(cache, cachedTokenCounter(cache));
        const run: CatalogRun = { from, key: 'the registry' };
        const whole = count(renderPrompt({ ...input, catalog }, format));
        expect(await tierTokens(input, catalog, catalog.length, run, format, counter, cache)).toBe(whole);
        // Again, with the run's count from the cache (entries given one by one).
        const size = counts.size;
        expect(await tierTokens(input, (i) => catalog[i]!, catalog.length, run, format, counter, cache)).toBe(whole);
        expect(counts.size).toBe(size);
      }
    }
  });

  it("keeps the run's count under a key of what it is rendered from: a count kept there is used, another key is not", async () => {
    const count = await tokenCounter();
    const { cache, counts } = memoryCache();
    const input: Omit<PromptInput, 'catalog'> = { tier: 'catalog', active: [] };
    const run: CatalogRun = { from: 0, key: 'rows of index A' };
    const whole = count(renderPrompt({ ...input, catalog: registry }, 'markdown'));
    expect(await tierTokens(input, registry, registry.length, run, 'markdown', count, cache)).toBe(whole);
    const keys = [...counts.keys()];
    expect(keys).toHaveLength(1);
    // A count no tokenizer would give shows that the run was not counted again.
    counts.set(keys[0]!, 5);
    const last = count(renderPrompt({ ...input, catalog: [registry.at(-1)!] }, 'markdown'));
    expect(await tierTokens(input, registry, registry.length, run, 'markdown', count, cache)).toBe(5 + last);
    // Another key (other rows, format, description level or base) counts its own run.
    for (const [i, r, format] of [
      [input, { from: 0, key: 'rows of index B' }, 'markdown'],
      [input, run, 'xml'],
      [{ ...input, descriptions: 'brief' }, run, 'markdown'],
      [{ ...input, base: '/srv' }, run, 'markdown'],
    ] as [Omit<PromptInput, 'catalog'>, CatalogRun, PromptFormat][]) {
      const expected = count(renderPrompt({ ...i, catalog: registry }, format));
      expect(await tierTokens(i, registry, registry.length, r, format, count, cache)).toBe(expected);
    }
    expect(counts.size).toBe(5);
  });

  it('is used for the catalog and full tiers of a run longer than MIN_RUN only', () => {
    const run: CatalogRun = { from: 3, key: 'k' };
    expect(countsApart('full', 3 + MIN_RUN + 1, run)).toBe(true);
    expect(countsApart('catalog', 3 + MIN_RUN + 1, run)).toBe(true);
    expect(countsApart('catalog', 3 + MIN_RUN, run)).toBe(false);
    expect(countsApart('breadcrumb', 10_000, run)).toBe(false);
    expect(countsApart('none', 10_000, run)).toBe(false);
    expect(countsApart('full', 10_000, undefined)).toBe(false);
  });
});

describe('catalogItems', () => {
  it('is the text renderPrompt writes for those entries, between the one before and the one after', () => {
    for (const format of ['markdown', 'xml'] as PromptFormat[]) {
      for (const base of [undefined, '/srv']) {
        const prompt = renderPrompt({ tier: 'catalog', catalog: registry, active: [], base }, format);
        const items = catalogItems(registry.slice(10, 20), format, 'full', base);
        const before = catalogItems(registry.slice(0, 10), format, 'full', base);
        expect(prompt).toContain(`\n${before}${items}`);
        expect(items.split(format === 'xml' ? '<skill>\n' : '\n- ')).toHaveLength(10 + (format === 'xml' ? 1 : 0));
      }
    }
  });
});
