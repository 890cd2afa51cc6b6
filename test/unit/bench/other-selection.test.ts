import { describe, expect, it } from 'vitest';
// @ts-expect-error: a bench script in plain JavaScript, without types
import * as other from '../../../bench/selection-other.mjs';

const { formatOtherSelection, otherSelection, otherSets } = other;

describe('selection on collections never tuned on (bench/selection-other.mjs)', () => {
  it('reads the sets of other-collections.json in order, blind unless marked open (the first only)', () => {
    const sets = otherSets() as { file: string; folders: string[]; blind: boolean }[];
    expect(sets.map((s) => s.file).slice(0, 2)).toEqual(['other-queries-1.json', 'other-queries-2.json']);
    expect(sets.map((s) => s.blind)).toEqual(sets.map((_, i) => i > 0));
    expect(sets[0]!.folders).toContain('K-Dense-AI+claude-scientific-skills');
  });

  it('says it skipped them without SKILLS_OTHER_CORPORA, and which collection is missing', async () => {
    expect(formatOtherSelection(await otherSelection({}))).toBe(
      'selection on other collections: skipped: SKILLS_OTHER_CORPORA is not set (a folder of the collections other-collections.json names)',
    );
  });

  it('prints each set with its figures, the blind one marked so, a set it could not run with why', () => {
    const m = { fit: 4, top1: 3, top3: 4, mrr: 0.8, fitEmpty: 0, wrong: 0.5, holdsAll: 3, none: 2, noneEmpty: 1 };
    const out = formatOtherSelection({
      sets: [
        { file: 'other-queries-1.json', folders: ['a+b', 'c+d'], blind: false, ...m },
        { file: 'other-queries-2.json', folders: ['e+f'], blind: true, ...m },
        { file: 'other-queries-3.json', folders: ['g+h'], blind: true, skipped: 'g+h not in SKILLS_OTHER_CORPORA=/x' },
      ],
    }) as string;
    expect(out).toContain(
      'selection on other collections, other-queries-1.json (a+b, c+d; open: its misses were read while tuning), 6 requests, 2 that no skill fits:',
    );
    expect(out).toMatch(
      /other-queries-1 top-1 75\.0% \(3\/4\) {2}top-3 100\.0% {2}MRR 0\.800 {2}no-fit selects nothing 50\.0% \(1\/2\)/,
    );
    expect(out).toContain('other-queries-2.json (e+f; blind: figures only), 6 requests');
    expect(out).toContain(
      'other-queries-3.json (g+h; blind: figures only): skipped, g+h not in SKILLS_OTHER_CORPORA=/x',
    );
  });
});
