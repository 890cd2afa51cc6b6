import { expect, it } from 'vitest';
import { tokenEnd, tokenStart } from '../../../src/formats/path-words.js';

// The reference: a token is a run of code points each matching TOKEN, read by code points (a lone surrogate is none).
const TOKEN = /^[\p{L}\p{N}_.\-/\\{}$@+~]$/u;
const codePoints = (s: string) => {
  const out: [number, number][] = [];
  for (let i = 0; i < s.length;) {
    const cp = s.codePointAt(i)!;
    const n = cp > 0xffff ? 2 : 1;
    out.push([i, n]);
    i += n;
  }
  return out;
};
const isToken = (s: string, at: number, n: number) => TOKEN.test(s.slice(at, at + n));

it('tokenStart and tokenEnd find the run of token characters around a place, by code points', () => {
  let seed = 3;
  const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff), seed / 0x7fffffff);
  const parts = ['a', 'Z', '9', '_', '.', '-', '/', '\\', '{', '$', '@', '+', '~', ' ', ':', '#', '"', '(', '\n'];
  parts.push('é', 'ü', '—', '𝒜', '😀', '\ud835', '\udc9c', '中', '٣', '\u00a0');
  const wrong: string[] = [];
  for (let n = 0; n < 20_000; n++) {
    let s = '';
    const len = 1 + Math.floor(rand() * 12);
    for (let i = 0; i < len; i++) s += parts[Math.floor(rand() * parts.length)];
    const cps = codePoints(s);
    for (let k = 0; k < cps.length; k++) {
      const [at] = cps[k]!;
      // From a place (its first unit), the reference walks code points out both ways while they are token ones.
      let start = at;
      for (let j = k - 1; j >= 0 && isToken(s, cps[j]![0], cps[j]![1]); j--) start = cps[j]![0];
      let end = at;
      for (let j = k; j < cps.length && isToken(s, cps[j]![0], cps[j]![1]); j++) end = cps[j]![0] + cps[j]![1];
      if (tokenStart(s, at) !== start || tokenEnd(s, at) !== end) wrong.push(JSON.stringify([s, at]));
    }
  }
  expect(wrong).toEqual([]);
});
