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
