// unsafeChars scans a text for candidates with one plain class and tries the candidates' pattern only where it stops:
// it must find exactly what trying the pattern at every place finds, on any text (here: seeded random texts drawn
// from every kind of candidate, lone and paired surrogates, and plain text around them).
import { describe, expect, it } from 'vitest';
import { isSafeText, stripUnsafe, unsafeChars } from '../../../src/formats/unsafe-text.js';

// Candidates no context rule spares (controls, bidi controls, invisible characters, tag characters outside a flag,
// musical formatting characters), and characters beside them that the scan must step over (lone surrogates too).
const ALWAYS = [
  ...'\u0000\u0007\u0008\u000b\u000d\u001b\u001f\u007f\u0085\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4',
  ...'\u180e\u200b\u200e\u200f\u2028\u2029\u202a\u202e\u2060\u2066\u2069\u206f\u2800\u3164\ufeff\ufff9',
  ...'\ufffb\uffa0',
  '\udb40\udc20',
  '\udb40\udc7f',
  '\ud834\udd73',
  '\ud834\udd7a',
];
const BESIDE = ['\udb40', '\ud834', '\udc20', '👍', 'é', '—', 'ب', 'a', ' ', '\t', '\n', '~', 'Z'];
// Candidates a context rule may spare: joiners, variation selectors, a flag's tags.
const CONTEXT = ['\u200c', '\u200d', '\ufe00', '\ufe0f', '🏴', '\udb40\udc7f'];

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The pattern as unsafeChars held it before, tried from every place in turn (the reference).
const PATTERN =
  // eslint-disable-next-line no-control-regex, no-misleading-character-class
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\u2800\u3164\ufe00-\ufe0f\ufeff\ufff9-\ufffb\uffa0]|\udb40[\udc00-\udfff]|\ud834[\udd73-\udd7a]/g;

describe('unsafeChars', () => {
  const texts = (pieces: string[], seed: number): string[] => {
    const rand = mulberry32(seed);
    return Array.from({ length: 3000 }, () => {
      let text = '';
      const len = Math.floor(rand() * 40);
      for (let i = 0; i < len; i++) text += pieces[Math.floor(rand() * pieces.length)];
      return text;
    });
  };

  it('finds every candidate a scan from every place finds, on 3,000 random texts', () => {
    for (const text of texts([...ALWAYS, ...BESIDE], 17)) {
      const found = unsafeChars(text).map((c) => [c.index, c.length]);
      const expected = [...text.matchAll(PATTERN)].map((m) => [m.index, m[0].length]);
      expect(found, JSON.stringify(text)).toEqual(expected);
      expect(isSafeText(text)).toBe(expected.length === 0);
      expect(stripUnsafe(text)).toBe(text.replace(PATTERN, ''));
    }
  });

  it('finds only candidates where context rules apply, and says the text is safe exactly when it finds none', () => {
    for (const text of texts([...ALWAYS, ...BESIDE, ...CONTEXT], 23)) {
      const found = unsafeChars(text);
      const candidates = [...text.matchAll(PATTERN)].map((m) => m.index);
      for (const c of found) expect(candidates, JSON.stringify(text)).toContain(c.index);
      expect(isSafeText(text)).toBe(found.length === 0);
    }
  });

  it('finds in long texts said to be ASCII what a scan from every place finds, on 3,000 random texts', () => {
    const rand = mulberry32(29);
    // Every ASCII character, controls included, and a few others: most texts are ASCII alone, some with controls.
    const ascii = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c));
    const prose = 'the skill reads a file and writes the result\n';
    const others = [...ALWAYS, ...BESIDE, '\u0080', '\u00ff', '\u0100'];
    for (let n = 0; n < 3000; n++) {
      const parts: string[] = [];
      const len = 4000 + Math.floor(rand() * 8000);
      for (let size = 0; size < len;) {
        const p = rand() < 0.9 ? prose : ascii[Math.floor(rand() * 128)]!;
        parts.push(p);
        size += p.length;
      }
      // A third stay as they are; the others get one or two characters anywhere: ASCII (a control, maybe) or not.
      for (let k = n % 3; k > 0; k--) {
        const c = rand() < 0.5 ? ascii[Math.floor(rand() * 128)]! : others[Math.floor(rand() * others.length)]!;
        parts.splice(Math.floor(rand() * (parts.length + 1)), 0, c);
      }
      const text = parts.join('');
      const expected = [...text.matchAll(PATTERN)].map((m) => [m.index, m[0].length]);
      // The caller says ASCII only of a text that is (as load does, from the bytes).
      // eslint-disable-next-line no-control-regex
      const isAscii = /^[\u0000-\u007f]*$/.test(text);
      for (const said of isAscii ? [true, false] : [false]) {
        const found = unsafeChars(text, Infinity, said).map((c) => [c.index, c.length]);
        expect(found, JSON.stringify(text.slice(0, 80))).toEqual(expected);
      }
    }
    // Every control and DEL, alone in long plain text, at its start, middle and end.
    const plain = prose.repeat(200);
    for (let c = 0; c < 128; c++) {
      if ((c >= 0x20 && c < 0x7f) || c === 9 || c === 10) continue;
      const ch = String.fromCharCode(c);
      for (const text of [ch + plain, plain + ch + plain, plain + ch]) {
        expect(unsafeChars(text, Infinity, true).map((u) => u.index)).toEqual([text.indexOf(ch)]);
      }
    }
    expect(unsafeChars(plain, Infinity, true)).toEqual([]);
  });

  it('finds candidates that lie after long plain text, and none in plain text', () => {
    const plain = 'x'.repeat(100_000);
    expect(unsafeChars(plain)).toEqual([]);
    expect(unsafeChars(`${plain}\u202e${plain}\udb40\udc41`).map((c) => [c.index, c.kind, c.length])).toEqual([
      [100_000, 'bidi', 1],
      [200_001, 'invisible', 2],
    ]);
    expect(unsafeChars(`${'é'.repeat(5000)}\u0007\t\n`).map((c) => c.index)).toEqual([5000]);
  });
});
