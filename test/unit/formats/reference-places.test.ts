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
