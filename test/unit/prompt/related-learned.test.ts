import { describe, expect, it } from 'vitest';
import { LEARNED_RELATED } from '../../../src/prompt/related-learned.js';
import { learnedStems, parseLearned, relatedStems } from '../../../src/prompt/related-terms.js';
import { parseQuery } from '../../../src/prompt/select-query.js';
import { selectSkills, type SelectionCandidate } from '../../../src/prompt/select.js';
import { stem } from '../../../src/prompt/text-match.js';
import {
  DEFAULTS,
  cooccur,
  cosine,
  encodeTable,
  isDuplicate,
  nearest,
  ppmi,
  splitSkill,
  svdVectors,
  symmetricEigen,
  units,
} from '../../../scripts/related-from-skills.mjs';

describe('the table of words used alike in skills (data)', () => {
  const table = parseLearned(LEARNED_RELATED);

  it('maps lower-case stems to a few other stems, each once, and stays small', () => {
    expect(table.size).toBeGreaterThan(1000);
    expect(LEARNED_RELATED.length).toBeLessThan(200_000);
    // Thousands of entries: the ones that break a rule are gathered, and checked once.
    const bad: string[] = [];
    for (const [key, list] of table) {
      const ok =
        /^[a-z]+$/.test(key) &&
        list.length >= 1 &&
        list.length <= DEFAULTS.k &&
        new Set(list).size === list.length &&
        !list.includes(key) &&
        list.every((s) => /^[a-z]+$/.test(s));
      if (!ok) bad.push(`${key}:${list.join(',')}`);
    }
    expect(bad).toEqual([]);
  });

  it('looks a stem up as the parsed table has it, and finds nothing for one it lacks', () => {
    for (const [key, list] of table) expect(learnedStems(key), key).toEqual(list);
    for (const s of ['', 'zzzz', 'a:b', 'deck;x']) expect(learnedStems(s), s).toEqual([]);
  });

  it('knows words of the domain the curated table does not', () => {
    expect(relatedStems(stem('tweet'))).toEqual([]);
    expect(learnedStems(stem('tweet'))).toContain(stem('twitter'));
    expect(learnedStems(stem('frontend'))).toContain(stem('react'));
  });

  it('parses its encoding, and the generator writes that encoding', () => {
    const t = new Map([
      ['a', ['b', 'c']],
      ['b', ['a']],
    ]);
    expect(encodeTable(t)).toBe('a:b,c;b:a');
    expect(parseLearned(encodeTable(t))).toEqual(t);
  });

  it('widens only a query word the curated table does not know, and marks those words as the weaker kind', () => {
    const q = parseQuery('a tweet about the deck');
    // "deck" is curated (slides, presentation): the learned table adds nothing to it.
    expect(q.related.get(stem('presentation'))).toBe(q.termIndex.get('deck'));
    expect(q.learned.has(stem('presentation'))).toBe(false);
    expect(q.learnedTerms.has(q.termIndex.get('deck')!)).toBe(false);
    expect(q.related.get(stem('twitter'))).toBe(q.termIndex.get('tweet'));
    expect(q.learned.has(stem('twitter'))).toBe(true);
    expect(q.learnedTerms.has(q.termIndex.get('tweet')!)).toBe(true);
  });
});

describe('selection with the learned table', () => {
  // Twenty skills about other things: a catalog large enough for "none fits" to apply.
  const filler: SelectionCandidate[] = [
    'mail',
    'calendar',
    'weather',
    'stocks',
    'translate',
    'resize',
    'docker',
  ].flatMap((w, k) =>
    Array.from({ length: 3 }, (_, i) => ({
      name: `${w}-${k}-${i}`,
      description: `Work with ${w} ${i ? 'tasks' : 'jobs'} for the team.`,
    })),
  );
  const c: SelectionCandidate[] = [
    ...filler,
    { name: 'notes', description: 'Draft short notes for a team and post them.' },
    { name: 'social', description: 'Draft short posts for Twitter and post them.' },
  ];

  it('ranks first the skill that holds a word only the learned table relates to a request word', () => {
    const ranked = selectSkills('draft a short tweet', c, { max: 3 }).ranked;
    expect(ranked[0]?.name).toBe('social');
    expect(ranked[0]?.matched.join(' ')).toContain('tweet ~ a related word (description)');
  });

  it('still selects nothing for a request no skill fits', () => {
    expect(selectSkills('a tweet about my cat', c, { max: 3 }).ranked[0]?.name).toBe('social');
    expect(selectSkills('a tweet about my cat', c, { max: 3 }).selected).toEqual([]);
    expect(selectSkills('write a haiku about autumn', c, { max: 3 }).selected).toEqual([]);
  });
});

describe('the generator (scripts/related-from-skills.mjs)', () => {
  it('computes cosine', () => {
    expect(cosine([1, 0], [1, 0])).toBeCloseTo(1);
    expect(cosine([1, 0], [0, 2])).toBeCloseTo(0);
    expect(cosine([1, 1], [2, 2])).toBeCloseTo(1);
    expect(cosine([0, 0], [1, 0])).toBe(0);
  });

  it('reads the frontmatter, and counts a skill seen by its description or its body as a copy', () => {
    const md = (d: string, body: string) => `---\nname: x\ndescription: >\n  ${d}\n  and more.\n---\n${body}`;
    const a = splitSkill(md('Draft wills', '# Wills\nText.'));
    expect(a).toEqual({ name: 'x', description: 'Draft wills and more.', body: '# Wills\nText.' });
    const seen = new Set<string>();
    expect(isDuplicate(a, seen)).toBe(false);
    // Same description, other body (a copy edited); other description, same body (a copy renamed).
    expect(isDuplicate(splitSkill(md('DRAFT  wills', 'Other.')), seen)).toBe(true);
    expect(isDuplicate(splitSkill(md('Other', '# Wills\n Text.')), seen)).toBe(true);
    expect(isDuplicate(splitSkill(md('New one', 'New body.')), seen)).toBe(false);
    expect(isDuplicate({ name: 'y', description: '', body: '  ' }, seen)).toBe(true);
  });

  it('cuts a skill into its description, headings, paragraphs and list items, code skipped, the body capped', () => {
    const body = ['# Signing', 'One line', 'and its next.', '', '- an item', '```', 'code here', '```', 'Last.'].join(
      '\n',
    );
    expect(units({ name: '', description: 'Desc.', body }, 1000)).toEqual([
      'Desc.',
      'Signing',
      'One line and its next.',
      'an item',
      'Last.',
    ]);
    expect(units({ name: '', description: '', body }, 9)).toEqual(['Signing']);
  });

  it('counts co-occurrence both ways within the window, a word out of the vocabulary keeping its place', () => {
    const counts = cooccur([[0, 1, -1, 2]], 3, 2);
    expect(counts[0]!.get(1)).toBe(1);
    expect(counts[1]!.get(0)).toBe(1);
    expect(counts[1]!.get(2)).toBe(1); // two apart
    expect(counts[0]!.has(2)).toBe(false); // three apart
  });

  it('weights by positive PMI with smoothed context counts', () => {
    // 0 and 1 always together, 2 and 3 always together: PMI > 0 within, nothing across.
    const counts = cooccur(
      [
        [0, 1],
        [0, 1],
        [2, 3],
      ],
      4,
      1,
    );
    const A = ppmi(counts, 1);
    const row0 = [...A.col.slice(A.rowStart[0], A.rowStart[1])];
    expect(row0).toEqual([1]);
    // #(0,1) = 2, #(0) = 2, #(1) = 2, total 6: log(2·6 / (2·2)).
    expect(A.val[A.rowStart[0]!]).toBeCloseTo(Math.log(3));
    expect(ppmi(counts, 0.75).val[0]).toBeGreaterThan(0);
  });

  it('finds eigenvalues of a symmetric matrix, and vectors from a truncated SVD that keep who is alike', () => {
    const { values } = symmetricEigen(Float64Array.from([2, 1, 1, 2]), 2);
    expect([...values].sort()).toEqual([expect.closeTo(1), expect.closeTo(3)]);
    // Two groups of words with the same contexts: 0, 1 share contexts 4, 5; 2, 3 share 6, 7.
    const seqs = [
      [0, 4],
      [0, 5],
      [1, 4],
      [1, 5],
      [2, 6],
      [2, 7],
      [3, 6],
      [3, 7],
    ];
    const rows = svdVectors(ppmi(cooccur(seqs, 8, 1), 1), 4, { seed: 3 });
    expect(cosine(rows[0]!, rows[1]!)).toBeGreaterThan(0.9);
    expect(Math.abs(cosine(rows[0]!, rows[2]!))).toBeLessThan(0.1);
  });

  it('keeps the k nearest at the threshold, best first; mutual keeps only pairs that are both ways', () => {
    const names = ['a', 'b', 'c', 'd'];
    const rows = [
      [1, 0],
      [0.9, 0.1],
      [0.8, 0.3],
      [0, 1],
    ];
    expect(nearest(names, rows, { threshold: 0.9, k: 1, mutual: false })).toEqual(
      new Map([
        ['a', ['b']],
        ['b', ['a']],
        ['c', ['b']],
      ]),
    );
    expect(nearest(names, rows, { threshold: 0.9, k: 1, mutual: true })).toEqual(
      new Map([
        ['a', ['b']],
        ['b', ['a']],
      ]),
    );
    expect(nearest(names, rows, { threshold: 0.9, k: 2, mutual: false }).get('b')).toEqual(['a', 'c']);
  });
});
