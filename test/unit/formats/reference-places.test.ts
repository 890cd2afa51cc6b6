import { expect, it } from 'vitest';
import { mayHold } from '../../../src/formats/reference-places.js';

/** Every place mayHold finds in the text, in order. */
function places(text: string): number[] {
  const next = mayHold(text);
  const out: number[] = [];
  for (let p = next(0); p !== Infinity; p = next(p + 1)) out.push(p);
  return out;
}

it('finds slashes, backslashes, ]: and ]( and known extensions, in order, and nothing else', () => {
  const text = 'a/b c\\d [x](y) [r]: z ]x FORMS.md a.mdx b.Sh c.ſh d. e.g. f.json';
  const at = (s: string, from = 0) => text.indexOf(s, from);
  expect(places(text)).toEqual([at('/'), at('\\'), at(']('), at(']:'), at('.md'), at('.Sh'), at('.ſh'), at('.json')]);
  expect(places('plain words. More words, no paths.')).toEqual([]);
});

it('asks from any place on, as often as the scanner needs, and stays in order', () => {
  const text = `${'words and words.\n'.repeat(100)}see guide.md and a/b\n`;
  const next = mayHold(text);
  const md = text.indexOf('.md');
  expect(next(0)).toBe(md);
  expect(next(md)).toBe(md);
  expect(next(md + 1)).toBe(text.indexOf('/'));
  expect(next(text.indexOf('/') + 1)).toBe(Infinity);
});

/** A small seeded generator (mulberry32), so that a failing case can be run again. */
function seeded(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

// The definition, read character by character: `](`, `]:`, a slash, a backslash, or a full stop that starts a known
// extension ending a word.
const EXTENSION_HERE =
  /\.(?:md|markdown|txt|py|sh|bash|js|mjs|cjs|ts|json|ya?ml|toml|csv|html|xml|sql|rb|pl|ps1)(?![\p{L}\p{N}_])/iuy;
function plainPlaces(text: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '/' || c === '\\' || (c === ']' && (text[i + 1] === '(' || text[i + 1] === ':'))) out.push(i);
    else if (c === '.') {
      EXTENSION_HERE.lastIndex = i;
      if (EXTENSION_HERE.test(text)) out.push(i);
    }
  }
  return out;
}

it('finds the places that a reading of every character finds, on thousands of generated texts', () => {
  const pieces = [
    ...'abcXYZ .,;:()[]<>`~#*-_/\\\t\r\n',
    '.md',
    '.MD',
    '.mdx',
    '.ſh',
    '.Ts',
    '.yml',
    '.yaml.',
    '.json5',
    '.py_',
    '.pé',
    '.sh😀',
    '😀',
    'é',
    '\ud800',
    '\udc00',
    '](',
    ']:',
    '```',
    '~~~',
    '\r\n',
    'e.g.',
    'a.b.c',
    'scripts/run.sh',
    '[x](y.md)',
    '`a/b`',
  ];
  const next = seeded(18);
  for (let n = 0; n < 4000; n++) {
    const len = next(n % 100 === 0 ? 2000 : 40);
    let text = '';
    for (let k = 0; k < len; k++) text += pieces[next(pieces.length)];
    expect(places(text), JSON.stringify(text)).toEqual(plainPlaces(text));
  }
  // A very long line of full stops that start no extension, with one place at its end.
  const long = `${'a.b e.g. c.d '.repeat(20_000)}x.md`;
  expect(places(long)).toEqual([long.length - 3]);
});
