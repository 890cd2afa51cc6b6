import { describe, expect, it } from 'vitest';
import { closest, editDistance } from '../../../src/formats/did-you-mean.js';

describe('editDistance (optimal string alignment)', () => {
  it.each([
    ['lint', 'lint', 0],
    ['lnit', 'lint', 1], // a swap is one edit, not two
    ['brainstroming', 'brainstorming', 1],
    ['ca', 'abc', 3], // OSA edits no substring twice (full Damerau would say 2)
    ['', 'abc', 3],
    ['kitten', 'sitting', 3],
    ['pdf', 'pfd', 1],
  ])('%j to %j is %i', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });
});

describe('closest', () => {
  it('finds a short name with two letters swapped, which plain edit distance put out of reach', () => {
    // init and lint are both 1 away: the one of the same letters wins, else the first.
    expect(closest('lnit', ['init', 'lint', 'list'])).toBe('lint');
    expect(closest('hint', ['mint', 'lint'])).toBe('mint');
    expect(closest('pfd', ['docx', 'pdf'])).toBe('pdf');
    expect(closest('brainstroming', ['writing-plans', 'brainstorming'])).toBe('brainstorming');
    expect(closest('SK210', ['SK120', 'SK999'])).toBe('SK120');
  });
  it('ignores case, and offers nothing far off', () => {
    expect(closest('SKILLDIRS', ['skillDirs'])).toBe('skillDirs');
    expect(closest('zzz', ['name', 'description'])).toBeUndefined();
    expect(closest('x', [])).toBeUndefined();
  });
});

describe('closest on large inputs', () => {
  // Every pair's table was filled: 10,000 names of 200 characters against one of 300 took 8.7 s, and a SKILL.md's
  // unknown frontmatter keys, each measured against the 24 known ones, made 3,000 skills' validate 1 s slower.
  it('answers a 300-character name against 10,000 candidates of 200 characters in seconds, not minutes (the old measure took 118 s)', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => `${'x'.repeat(200)}${i}`);
    const started = performance.now();
    expect(closest('y'.repeat(300), many)).toBeUndefined();
    expect(closest(`${'x'.repeat(200)}9999`.replace('9999', '9989'), many)).toBe(`${'x'.repeat(200)}9989`);
    expect(closest(`${'x'.repeat(199)}z5000`, many)).toBe(`${'x'.repeat(200)}5000`);
    // Half a second here; the bound is loose, so that a busy machine does not fail it, and far below the old 118 s.
    expect(performance.now() - started).toBeLessThan(20_000);
  });
  it('gives what measuring every candidate gives, the first of the nearest (of the same letters if any)', () => {
    // Measured in full: the nearest, the first of them, then one of the same letters; offered within a third.
    const plain = (word: string, candidates: string[]) => {
      const d = candidates.map((c) => editDistance(word.toLowerCase(), c.toLowerCase()));
      const near = Math.min(...d);
      const sorted = (w: string) => [...w.toLowerCase()].sort().join('');
      const ties = candidates.filter((_, k) => d[k] === near);
      const pick = ties.find((c) => sorted(c) === sorted(word)) ?? ties[0];
      return pick !== undefined && near <= Math.max(1, Math.floor(pick.length / 3)) ? pick : undefined;
    };
    const alphabet = 'abcdeABCDE-_İßé';
    let seed = 7;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
    const word = () => Array.from({ length: next(14) }, () => alphabet[next(alphabet.length)]).join('');
    const typo = (w: string) => {
      const s = [...w];
      for (let k = next(4); k > 0; k--) {
        const i = next(s.length + 1);
        if (k % 2) s.splice(i, 0, alphabet[next(alphabet.length)]!);
        else if (i + 1 < s.length) [s[i], s[i + 1]] = [s[i + 1]!, s[i]!];
        else s.splice(i, 1);
      }
      return s.join('');
    };
    for (let t = 0; t < 5000; t++) {
      const w = word();
      const candidates = Array.from({ length: next(8) }, () => (next(2) ? typo(w) : word()));
      expect(closest(w, candidates), JSON.stringify([w, candidates])).toBe(plain(w, candidates));
    }
  });
});
