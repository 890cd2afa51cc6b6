import { describe, expect, it } from 'vitest';
import { stem } from '../../../src/prompt/text-match.js';
import {
  buildRelated,
  cosine,
  encodeTable,
  isPlainWord,
  skillText,
} from '../../../scripts/related-from-embeddings.mjs';

// The pure parts of the generator of a related-word table from word embeddings (tried, not kept: README, selection).

describe('the generator (scripts/related-from-embeddings.mjs)', () => {
  it('encodes a table as stem:a,b;stem:c', () => {
    expect(
      encodeTable(
        new Map([
          ['a', ['b', 'c']],
          ['b', ['a']],
        ]),
      ),
    ).toBe('a:b,c;b:a');
  });

  it('computes cosine', () => {
    expect(cosine([1, 0], [1, 0])).toBeCloseTo(1);
    expect(cosine([1, 0], [0, 2])).toBeCloseTo(0);
    expect(cosine([1, 1], [2, 2])).toBeCloseTo(1);
    expect(cosine([1, 0], [-1, 0])).toBeCloseTo(-1);
    expect(cosine([0, 0], [1, 0])).toBe(0);
  });

  it('keeps plain English words only', () => {
    expect(isPlainWord('attorney')).toBe(true);
    for (const w of ['ab', 'mp3', 'co-op', 'Paris', 'x'.repeat(21), "don't"]) expect(isPlainWord(w), w).toBe(false);
  });

  it('keeps pairs at the threshold both ways, values only from the vocabulary, k best, other stems only', () => {
    const vocab = new Set(['attorney', 'lawyer', 'poetry', 'lawyers']);
    const table = buildRelated(
      [
        ['attorney', 'lawyer', 0.8],
        ['attorney', 'lawyers', 0.75],
        ['attorney', 'judge', 0.72],
        ['attorney', 'prosecutor', 0.71],
        ['attorney', 'plaintiff', 0.5],
        ['poetry', 'poem', 0.9],
        ['poetry', 'poetic', 0.7],
      ],
      { threshold: 0.7, k: 2, stem, inVocab: (w: string) => vocab.has(w) },
    );
    // "lawyers" and "lawyer" are one stem; "judge" and "prosecutor" are no skill words, so they only point back.
    expect(table.get(stem('attorney'))).toEqual([stem('lawyer')]);
    expect(table.get(stem('judge'))).toEqual([stem('attorney')]);
    expect(table.get(stem('lawyer'))).toEqual([stem('attorney')]);
    expect(table.has(stem('plaintiff'))).toBe(false);
    expect(table.get(stem('poem'))).toEqual([stem('poetry')]);
    // "poetic" stems as "poetry" does not: a neighbour of the key's own stem is dropped, the other kept.
    for (const [key, list] of table) expect(list, key).not.toContain(key);
    for (const list of table.values()) expect(list.length).toBeLessThanOrEqual(2);
  });

  it("reads a SKILL.md's name and description, and its headings outside code", () => {
    const md = [
      '---',
      'name: wills',
      'description: >',
      '  Draft wills',
      '  with an attorney.',
      'license: MIT',
      '---',
      '# Drafting',
      '```',
      '# not a heading',
      '```',
      '## Signing',
    ].join('\n');
    const text = skillText(md, true);
    for (const w of ['wills', 'Draft wills', 'attorney', 'Drafting', 'Signing']) expect(text).toContain(w);
    expect(text).not.toContain('MIT');
    expect(text).not.toContain('not a heading');
    expect(skillText(md, false)).not.toContain('Signing');
  });
});
