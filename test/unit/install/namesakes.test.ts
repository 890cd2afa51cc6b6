import { describe, expect, it } from 'vitest';
import { insideOf, namesakesOf, someOf } from '../../../src/install/namesakes.js';
import type { InvalidSource, Prepared } from '../../../src/install/types.js';

// Only the fields namesakes.ts reads: the skill's id, its content's integrity, where it is.
function at(path: string, id: string, integrity: string): Prepared {
  return { typed: `repo/${path}`, source: 'repo', origin: { commit: 'c', path }, skill: { id }, integrity } as Prepared;
}

describe('namesakesOf', () => {
  it('ties namesakes of different content at the shallowest depth, and leaves every one of that name out', () => {
    const a = at('plugins/a/skills/x', 'x', 'sha-1');
    const b = at('plugins/b/skills/x', 'x', 'sha-2');
    const deeper = at('plugins/b/more/skills/x', 'x', 'sha-3');
    const y = at('skills/y', 'y', 'sha-4');
    const n = namesakesOf([a, b, deeper, y]);
    expect([...n.tied.keys()]).toEqual(['x']);
    expect(n.tied.get('x')).toEqual([a, b, deeper]);
    expect(n.outranked.size).toBe(0);
  });

  it('takes the one alone at the shallowest depth and outranks the deeper ones of other content', () => {
    const top = at('.agents/skills/x', 'x', 'sha-1');
    const fr = at('translations/fr/.agents/skills/x', 'x', 'sha-2');
    const copy = at('translations/en/.agents/skills/x', 'x', 'sha-1');
    const n = namesakesOf([fr, top, copy]);
    expect(n.tied.size).toBe(0);
    // The same content deeper is the same skill: not outranked, installed once by the plan.
    expect([...n.outranked]).toEqual([[fr, top]]);
  });

  it('takes two copies of one content at the top as one, and ignores invalid skills and names held once', () => {
    const one = at('a/x', 'x', 'sha-1');
    const two = at('b/x', 'x', 'sha-1');
    const other = at('c/d/x', 'x', 'sha-2');
    const invalid: InvalidSource = { source: 'repo', id: 'x', message: 'bad', diagnostics: [] };
    const n = namesakesOf([one, two, other, invalid, at('y', 'y', 'sha-9')]);
    expect(n.tied.size).toBe(0);
    expect([...n.outranked]).toEqual([[other, one]]);
    expect(namesakesOf([one, two]).outranked.size).toBe(0);
  });

  it('outranks invalid copies deeper than the one taken, and leaves an invalid one at its depth or at a tie alone', () => {
    const top = at('.agents/skills/x', 'x', 'sha-1');
    const bad = (path: string): InvalidSource => ({ source: `repo/${path}`, id: 'x', message: 'bad', diagnostics: [] });
    const pl = bad('translations/pl/.agents/skills/x');
    const beside = bad('.agents/other/x');
    const n = namesakesOf([top, pl, beside]);
    expect([...n.outranked]).toEqual([[pl, top]]);
    const tie = namesakesOf([at('a/x', 'x', 'sha-1'), at('b/x', 'x', 'sha-2'), bad('c/d/x')]);
    expect(tie.outranked.size).toBe(0);
    // No valid one of the name: nothing is taken, the invalid ones are said as invalid.
    expect(namesakesOf([bad('a/x'), bad('b/c/x')]).outranked.size).toBe(0);
  });

  it('measures folder sources by their typed paths, and names them under the source', () => {
    const folder = (rel: string, integrity: string) =>
      ({ typed: `./src/${rel}`, source: 'folder', skill: { id: 'x' }, integrity }) as Prepared;
    const n = namesakesOf([folder('deep/er/x', 'sha-1'), folder('x', 'sha-2')]);
    expect([...n.outranked.values()].map((p) => insideOf('./src/', p))).toEqual(['x']);
    expect(insideOf('./src', folder('deep/er/x', 'sha-1'))).toBe('deep/er/x');
  });
});

describe('someOf', () => {
  it('names up to three and counts the rest', () => {
    expect(someOf(['a', 'b'])).toBe('a, b');
    expect(someOf(['a', 'b', 'c'])).toBe('a, b, c');
    expect(someOf(['a', 'b', 'c', 'd', 'e'])).toBe('a, b, c and 2 more');
  });
});
