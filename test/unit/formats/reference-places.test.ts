import { expect, it } from 'vitest';
import { seeded } from '../../helpers/seeded.js';
import { NONE, Places, nextExtension } from '../../../src/formats/reference-places.js';

/** Every place Places.any finds in the text, in order. */
function places(text: string): number[] {
  const p = new Places(text);
  const out: number[] = [];
  for (let at = p.any(0); at !== NONE; at = p.any(at + 1)) out.push(at);
  return out;
}

it('finds slashes, backslashes, ]: and ]( and known extensions, in order, and nothing else', () => {
  const text = 'a/b c\\d [x](y) [r]: z ]x FORMS.md a.mdx b.Sh c.ſh d. e.g. f.json';
  const at = (s: string, from = 0) => text.indexOf(s, from);
  expect(places(text)).toEqual([at('/'), at('\\'), at(']('), at(']:'), at('.md'), at('.Sh'), at('.ſh'), at('.json')]);
  expect(places('plain words. More words, no paths.')).toEqual([]);
});

it('asks from any place on, as often as the scanner needs, and stays in order', () => {
  const text = `${'words and words.\n'.repeat(100)}see guide.md and a/b](x)\n`;
  const p = new Places(text);
  const md = text.indexOf('.md');
  expect(p.any(0)).toBe(md);
  expect(p.any(md)).toBe(md);
  expect(p.any(md + 1)).toBe(text.indexOf('/'));
  expect(p.any(text.indexOf('/') + 1)).toBe(text.indexOf(']('));
  expect(p.any(text.indexOf('](') + 1)).toBe(NONE);
});

it('finds paths with or without names, and links, each as a stream of its own', () => {
  const text = 'FORMS.md a/b ](x) c\\d e.md';
  const p = new Places(text);
  // Without names the extension is stepped over, and asked for later it is still found.
  expect(p.path(0, false)).toBe(text.indexOf('/'));
  expect(p.path(0, true)).toBe(text.indexOf('.md'));
  expect(p.link(0)).toBe(text.indexOf(']('));
  expect(p.path(text.indexOf('/') + 1, false)).toBe(text.indexOf('\\'));
  expect(p.path(text.indexOf('\\') + 1, true)).toBe(text.indexOf('e.md') + 1);
  expect(p.path(text.length, true)).toBe(NONE);
  expect(p.link(text.indexOf('](') + 1)).toBe(NONE);
});

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

// The search as it was (one /giu regex run from `from`), which nextExtension must agree with wherever it is asked.
const EXTENSION_G =
  /\.(?:md|markdown|txt|py|sh|bash|js|mjs|cjs|ts|json|ya?ml|toml|csv|html|xml|sql|rb|pl|ps1)(?![\p{L}\p{N}_])/giu;
function regexExtension(text: string, from: number): number {
  EXTENSION_G.lastIndex = from;
  const m = EXTENSION_G.exec(text);
  return m ? m.index : NONE;
}

it('nextExtension finds what one search of the regex finds, from every place of thousands of generated texts', () => {
  const pieces = [
    ...'.aAbcdhjklmprstxyzMTPSBJCYHXRK0_-/ \t\r\n\0\u0001\u001b\u007f\u0085é',
    ...['.md', '.MD', '.Markdown', '.mar\u212adown', '.ſh', '.\u017fql', '.tſ', '.yml', '.YaMl', '.json5', '.py_'],
    ...['.rb', '.pl', '.ps1', '.ps2', '.csv', '.html', '.xml', '.cjs', '.mjs', '.toml', '.txt', '.bash', '.sh😀'],
    ...['😀', '\ud800', '\udc00', '.\ud800', '.\udc00', '\r\n', '\r', 'e.g.', '...', '.é', '.\u0130', '.\u212a'],
  ];
  const next = seeded(181);
  for (let n = 0; n < 4000; n++) {
    const len = next(n % 100 === 0 ? 400 : 30);
    let text = '';
    for (let k = 0; k < len; k++) text += pieces[next(pieces.length)];
    for (let from = 0; from <= text.length + 1; from++)
      expect(nextExtension(text, from), `${JSON.stringify(text)} from ${from}`).toBe(regexExtension(text, from));
  }
});
