import { describe, expect, it } from 'vitest';
import { blockTokenCounter, promptBlocks, WHOLE_BLOCK } from '../../../src/prompt/prompt-tokens.js';
import { renderPrompt, type PromptSkill } from '../../../src/prompt/render.js';
import type { TokenCache } from '../../../src/tokens/token-cache.js';
import { cachePieces, cachedTokenCounter, pieceKey, tokenCounter } from '../../../src/tokens/tokens.js';

/** A TokenCache in memory (the interface openTokenCache gives, without its file). */
function memoryCache() {
  const counts = new Map<string, number>();
  const cache: TokenCache = {
    get: (key) => counts.get(key),
    set: (key, n) => void counts.set(key, n),
    save() {},
  };
  return { cache, counts };
}

const catalog = Array.from({ length: 3000 }, (_, i) => ({
  name: `skill-${i}`,
  description: `Converts file ${i} into a report. Use when the user asks about thing ${i}.`,
  location: `/registry/built-in/skill-${i}@1.0.0/SKILL.md`,
}));
const active = (name: string, lines: number): PromptSkill => ({
  name,
  title: name,
  root: `/registry/built-in/${name}@1.0.0`,
  instructions: `# ${name}\n\n${'Read the input, then write the result.\n'.repeat(lines)}`,
  files: ['scripts/run.sh'],
  tools: [],
  mcpServers: [],
});

describe('promptBlocks', () => {
  it("cuts before each selected skill's block and each rule, where cachePieces always cuts, and loses nothing", () => {
    for (const format of ['markdown', 'xml'] as const) {
      const prompt = renderPrompt(
        { tier: 'full', catalog, active: [active('alpha', 10), active('beta', 3)], soul: 'Be brief.' },
        format,
      );
      const blocks = promptBlocks(prompt);
      expect(blocks.join('')).toBe(prompt);
      expect(blocks.length).toBeGreaterThanOrEqual(3);
      // Every cut is one cachePieces makes too.
      const cuts = new Set<number>();
      let at = 0;
      for (const p of cachePieces(prompt)) cuts.add((at += p.length));
      at = 0;
      for (const b of blocks.slice(0, -1)) expect(cuts.has((at += b.length))).toBe(true);
      expect(blocks.some((b) => b.startsWith(format === 'xml' ? '<skill_content name="alpha">' : '## alpha'))).toBe(
        true,
      );
    }
    expect(promptBlocks('')).toEqual(['']);
    expect(promptBlocks('one line\n')).toEqual(['one line\n']);
  });
});

describe('blockTokenCounter', () => {
  it('counts exactly what tokenCounter counts, and keeps the count of a long block whole', async () => {
    const count = await tokenCounter();
    const { cache, counts } = memoryCache();
    const counter = blockTokenCounter(cache, cachedTokenCounter(cache));
    const prompt = renderPrompt({ tier: 'full', catalog, active: [active('alpha', 50)] }, 'markdown');
    const [listing] = promptBlocks(prompt);
    expect(listing!.length).toBeGreaterThanOrEqual(WHOLE_BLOCK);
    expect(await counter(prompt)).toBe(count(prompt));
    expect(counts.get(pieceKey(listing!))).toBe(count(listing!));
    // A second run takes the listing's count whole: a count no tokenizer would give shows it was read.
    counts.set(pieceKey(listing!), 7);
    expect(await counter(prompt)).toBe(7 + count(prompt.slice(listing!.length)));
    // With other skills selected after it, the listing is still the same block.
    const other = renderPrompt({ tier: 'full', catalog, active: [active('beta', 5), active('gamma', 2)] }, 'markdown');
    expect(await counter(other)).toBe(7 + count(other.slice(listing!.length)));
  });

  it('counts a short text by pieces alone, keeping no whole count', async () => {
    const count = await tokenCounter();
    const { cache, counts } = memoryCache();
    const text = renderPrompt({ tier: 'catalog', catalog: catalog.slice(0, 50), active: [] }, 'markdown');
    expect(await blockTokenCounter(cache, cachedTokenCounter(cache))(text)).toBe(count(text));
    expect([...counts.keys()]).toEqual(cachePieces(text).map(pieceKey));
  });
});
