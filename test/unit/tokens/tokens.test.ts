import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { renderPrompt, type PromptSkill } from '../../../src/prompt/render.js';
import type { TokenCache } from '../../../src/tokens/token-cache.js';
import { COUNTER_ID, cachePieces, cachedTokenCounter, pieceKey, tokenCounter } from '../../../src/tokens/tokens.js';
import { ROOT } from '../../helpers/cli.js';

/** mulberry32: the same seed, the same texts. */
function prng(seed: number) {
  let a = seed >>> 0;
  return (n: number) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

// What the pre-tokenizer and the run slicing are most sensitive to: newlines before "/", spaces and other
// whitespace, punctuation that takes the newlines after it, contractions, letters of every case, digits,
// surrogate pairs, Unicode whitespace that only one side calls whitespace (U+0085, U+FEFF), special tokens.
const WORDS = [
  'hello',
  'World',
  "don't",
  "it's",
  'CamelCase',
  'URL',
  'x',
  '日本語のテキスト',
  'naïve',
  'Ünïcödé',
  '😀',
  '12345',
  '3.14',
  'a/b',
  'https://x.io/p?q=1',
];
const PUNCT = [
  '.',
  ',',
  '!?',
  '...',
  '->',
  '/',
  '//',
  '#',
  '`',
  '```',
  '<|endoftext|>',
  '- ',
  '* ',
  '(',
  ')',
  '"',
  "'",
  ':',
  '|',
  '—',
];
const SPACE = [
  ' ',
  '  ',
  '\t',
  '\n',
  '\n\n',
  '\r\n',
  '\r',
  ' \n',
  '\n ',
  '\n\t',
  '\n/',
  '\n-',
  '\n#',
  '\n<',
  '\u00a0',
  '\u0085',
  '\ufeff',
  '\u2028',
  '\u3000',
  '\v',
  '\f',
  '\n\u0085',
  '\n\ufeff',
  '\n\u00a0',
];
// Longer than the 1,000 characters at which runs are cut into slices.
const LONG = [
  'x'.repeat(1500),
  ' '.repeat(1200),
  '\n'.repeat(1100),
  'ab'.repeat(700),
  '😀'.repeat(600),
  '-'.repeat(2100),
  ' \n'.repeat(800),
];

function text(rand: (n: number) => number, long: boolean): string {
  let s = '';
  const n = 20 + rand(300);
  for (let i = 0; i < n; i++) {
    const k = rand(10);
    const list = long && k === 0 ? LONG : k < 4 ? WORDS : k < 7 ? SPACE : PUNCT;
    s += list[rand(list.length)];
  }
  return s;
}

const cuts = (pieces: string[]) => pieces.slice(0, -1).map((_, i) => pieces.slice(0, i + 1).join('').length);

describe('cachePieces', () => {
  it('cuts only after a newline followed by a character that is neither whitespace nor "/", and loses nothing', () => {
    const rand = prng(1);
    for (let i = 0; i < 300; i++) {
      const t = text(rand, true);
      const pieces = cachePieces(t, { min: 1, spread: 1 });
      expect(pieces.join('')).toBe(t);
      for (const at of cuts(pieces)) {
        expect(t[at - 1]).toBe('\n');
        expect(t[at]).toMatch(/^[^\s/\u0085]$/u);
      }
    }
  });

  it('o200k_base makes the same tokens of the pieces as of the whole text (the pre-tokenizer never runs across a cut)', () => {
    const rand = prng(2);
    let checked = 0;
    for (let i = 0; i < 300; i++) {
      const t = text(rand, false);
      const pieces = cachePieces(t, { min: 1, spread: 1 });
      if (pieces.length > 1) checked++;
      expect(pieces.flatMap((p) => encode(p, { disallowedSpecial: new Set() }))).toEqual(
        encode(t, { disallowedSpecial: new Set() }),
      );
    }
    expect(checked).toBeGreaterThan(250);
  });

  it('the counts of the pieces add up to the count of the whole, long runs (counted in slices) included', async () => {
    const count = await tokenCounter();
    const rand = prng(3);
    for (let i = 0; i < 300; i++) {
      const t = text(rand, true);
      const pieces = cachePieces(t, { min: 1, spread: 1 });
      expect(pieces.reduce((n, p) => n + count(p), 0)).toBe(count(t));
    }
  });

  it('makes pieces of at least 4096 characters, and a change to one line leaves the pieces away from it as they were', () => {
    const rand = prng(4);
    const lines = Array.from(
      { length: 3000 },
      (_, i) =>
        `- skill-${i}-${rand(1e6)}: ${WORDS[rand(WORDS.length)]} things. Use when asked (/s/skill-${i}/SKILL.md)`,
    );
    const before = cachePieces(`# Available Skills\n\n${lines.join('\n')}\n`);
    expect(before.length).toBeGreaterThan(10);
    for (const p of before.slice(0, -1)) expect(p.length).toBeGreaterThanOrEqual(4096);
    lines[1500] = '- a-new-skill: with another description (/s/a-new-skill/SKILL.md)';
    const after = new Set(cachePieces(`# Available Skills\n\n${lines.join('\n')}\n`));
    expect(before.filter((p) => !after.has(p)).length).toBeLessThanOrEqual(2);
  });

  it("cuts before each section, so that a selected skill's block is the same pieces whoever comes before and after it", () => {
    const catalog = Array.from({ length: 500 }, (_, i) => ({
      name: `skill-${i}`,
      description: `Does thing ${i}. Use when asked about ${i}.`,
      location: `/s/skill-${i}/SKILL.md`,
    }));
    const active = (name: string, body: string): PromptSkill => ({
      name,
      title: name,
      root: `/s/${name}`,
      instructions: body,
      files: ['scripts/run.sh'],
      tools: [{ path: 'scripts/run.sh' }],
      mcpServers: [],
    });
    const a = active('alpha', `# Alpha\n\n${'Step one, then step two.\n'.repeat(400)}\n## Notes\n\nKeep it.\n`);
    const b = active('beta', '# Beta\n\nShort.\n');
    const c = active('gamma', `# Gamma\n\n${'Another line of text.\n'.repeat(100)}`);
    for (const format of ['markdown', 'xml'] as const) {
      /** The pieces that cut alpha's block out of the prompt, from its heading to its closing tag. */
      const piecesOfAlpha = (list: PromptSkill[]) => {
        const prompt = renderPrompt({ tier: 'full', catalog, active: list }, format);
        const from = prompt.indexOf(format === 'markdown' ? '## alpha' : '<skill_content name="alpha">');
        const to = prompt.indexOf('</skill_content>', from) + '</skill_content>'.length;
        const out: string[] = [];
        let at = 0;
        for (const p of cachePieces(prompt)) {
          if (at >= from && at < to) out.push(p);
          at += p.length;
        }
        // Cut right at the block's start, and right after its end (but for the blank line between blocks).
        expect(prompt.slice(from, from + out[0]!.length)).toBe(out[0]);
        expect(out.join('')).toBe(`${prompt.slice(from, to)}\n\n`);
        return out;
      };
      const first = piecesOfAlpha([a, b]);
      expect(first.length).toBeGreaterThan(1);
      // Selected with other skills, before or after them (but for the last block, which ends the prompt).
      expect(piecesOfAlpha([b, a, c])).toEqual(first);
      expect(piecesOfAlpha([c, a, b])).toEqual(first);
      expect(piecesOfAlpha([a, c])).toEqual(first);
    }
  });

  it('gives short texts, and texts with no safe cut, as one piece', () => {
    expect(cachePieces('')).toEqual(['']);
    expect(cachePieces('one line\nand another\n')).toEqual(['one line\nand another\n']);
    const indented = `${'  indented code\n'.repeat(10000)}`;
    expect(cachePieces(indented)).toEqual([indented]);
  });
});

/** A TokenCache in memory that records what it was asked and told. */
function memoryCache(initial: Record<string, number> = {}) {
  const counts = new Map(Object.entries(initial));
  const log = { gets: 0, hits: 0, sets: 0 };
  const cache: TokenCache = {
    get(key) {
      log.gets++;
      const n = counts.get(key);
      if (n !== undefined) log.hits++;
      return n;
    },
    set(key, n) {
      log.sets++;
      counts.set(key, n);
    },
    save() {},
  };
  return { cache, counts, log };
}

describe('cachedTokenCounter', () => {
  it('counts exactly what tokenCounter counts, texts ending in whitespace, newlines and punctuation included', async () => {
    const count = await tokenCounter();
    const { cache } = memoryCache();
    const counted = cachedTokenCounter(cache);
    const rand = prng(5);
    const endings = ['', ' ', '\n', '\n\n', '\r\n', '\n/', '.', '.\n', '\n-', ' \n ', '\u0085', '😀', 'x'.repeat(1200)];
    for (let i = 0; i < 120; i++) {
      // Long enough to be cut with the default piece sizes.
      let t = '';
      while (t.length < 20000) t += text(rand, i % 3 === 0);
      t += endings[i % endings.length];
      expect(await counted(t)).toBe(count(t));
      // A second time from the cache alone, still exact.
      expect(await counted(t)).toBe(count(t));
    }
  });

  it('asks the cache for every piece and counts none of those it holds', async () => {
    const t = Array.from(
      { length: 4000 },
      (_, i) => `- skill-${i}: does thing ${i}. Use when asked. (/x/${i}/SKILL.md)`,
    ).join('\n');
    const pieces = cachePieces(t);
    expect(pieces.length).toBeGreaterThan(5);
    // Counts no tokenizer would give: the cache's word is taken as is.
    const { cache, log } = memoryCache(Object.fromEntries(pieces.map((p) => [pieceKey(p), 1])));
    expect(await cachedTokenCounter(cache)(t)).toBe(pieces.length);
    expect(log).toEqual({ gets: pieces.length, hits: pieces.length, sets: 0 });
  });

  it('counts only the pieces the cache lacks, and adds them to it', async () => {
    const count = await tokenCounter();
    const t = Array.from(
      { length: 4000 },
      (_, i) => `- skill-${i}: does thing ${i}. Use when asked. (/x/${i}/SKILL.md)`,
    ).join('\n');
    const pieces = cachePieces(t);
    const known = Object.fromEntries(pieces.slice(1).map((p) => [pieceKey(p), count(p)]));
    const { cache, counts, log } = memoryCache(known);
    expect(await cachedTokenCounter(cache)(t)).toBe(count(t));
    expect(log.sets).toBe(1);
    expect(counts.get(pieceKey(pieces[0]!))).toBe(count(pieces[0]!));
  });

  it('keys pieces by their text', () => {
    expect(pieceKey('abc')).toBe(pieceKey('abc'));
    expect(pieceKey('abc')).not.toBe(pieceKey('abd'));
    expect(pieceKey('abc')).toMatch(/^[\w-]{22}$/);
  });
});

it('COUNTER_ID names the gpt-tokenizer installed, so that a new version never meets old counts', () => {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'node_modules/gpt-tokenizer/package.json'), 'utf8')) as {
    version: string;
  };
  expect(COUNTER_ID).toContain(`gpt-tokenizer@${version} `);
  expect(COUNTER_ID).toContain('o200k_base');
});
