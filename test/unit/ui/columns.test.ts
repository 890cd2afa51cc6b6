import { describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { WINDOW, columns, cutColumns, eachGrapheme, padColumns } from '../../../src/ui/columns.js';
import { seeded } from '../../helpers/seeded.js';

// Terminal columns, not code points: the widths a terminal gives (East Asian Width wide = 2, marks and joiners = 0).

describe('columns', () => {
  it('counts wide characters as two, marks and joiners as none, ASCII by its length', () => {
    expect(columns('abc def')).toBe(7);
    expect(columns('数据分析')).toBe(8);
    expect(columns('翻訳ツール')).toBe(10);
    expect(columns('e\u0301')).toBe(1);
    expect(columns('👨‍👩‍👧')).toBe(2);
    expect(columns('한국어')).toBe(6);
    expect(columns('')).toBe(0);
  });

  it('pads to a width in columns, and leaves what is as wide or wider', () => {
    expect(padColumns('数据', 6)).toBe('数据  ');
    expect(padColumns('ab', 4)).toBe('ab  ');
    expect(padColumns('数据分析', 4)).toBe('数据分析');
  });

  it('cuts to at most the room, whole characters and an ellipsis', () => {
    expect(cutColumns('short', 10)).toBe('short');
    expect(cutColumns('abcdefghij', 5)).toBe('abcd…');
    expect(cutColumns('数据分析数据分析', 8)).toBe('数据分…');
    expect(columns(cutColumns('数据分析数据分析', 8))).toBe(7);
    // A wide character that would pass the room by one column is left out whole.
    expect(cutColumns('a数据分析', 5)).toBe('a数…');
    // A letter and its mark, and an emoji sequence, are never split.
    expect(cutColumns('e\u0301e\u0301e\u0301e\u0301', 3)).toBe('e\u0301e\u0301…');
    expect(cutColumns('👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧', 5)).toBe('👨‍👩‍👧👨‍👩‍👧…');
    for (const s of ['数据分析CSV和Excel数据，生成图表', 'naïve café résumé', '🎉🎉🎉 party', 'डेटा फ़ाइलों का विश्लेषण'])
      for (let room = 1; room <= 30; room++)
        expect(columns(cutColumns(s, room)), `${s} ${room}`).toBeLessThanOrEqual(room);
  });
});

// The clusters of a text as the segmenter finds them in the text whole.
const wholeClusters = (s: string) =>
  [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(s)].map((g) => g.segment);
// Pieces that test the cluster rules at a window's edge: marks, joiners, emoji sequences and skin tones, flags
// (regional indicators in pairs), Hangul jamo, Indic conjuncts, Prepend, CR LF, surrogate pairs.
const CLUSTER_PIECES = [
  'a',
  'é',
  'e\u0301',
  '\u0301',
  '\u0301\u0302',
  '中',
  '数据',
  'の',
  '한',
  '\u1100',
  '\u1161',
  '\u11a8',
  '👍',
  '🏽',
  '\u200d',
  '👨‍👩‍👧',
  '❤️',
  '\ufe0f',
  '🇫',
  '🇷',
  '🇫🇷',
  'क',
  '्',
  'ष',
  'क्ष',
  'ि',
  '\u0600',
  '\r',
  '\n',
  '\r\n',
  ' ',
  '\t',
  '𝒜',
  '😀',
  'z',
];

describe('long texts, read a window at a time', () => {
  it('give the clusters and widths of the text whole, on 3,000 generated texts across windows', () => {
    const rand = seeded(31);
    for (let k = 0; k < 3000; k++) {
      const n = WINDOW / 4 + rand(WINDOW * 3);
      let s = '';
      for (let i = 0; i < n; i++) s += CLUSTER_PIECES[rand(CLUSTER_PIECES.length)];
      const got: string[] = [];
      let at = 0;
      eachGrapheme(s, (g, index) => {
        expect(index).toBe(at);
        at += g.length;
        got.push(g);
      });
      expect(got, JSON.stringify(s)).toEqual(wholeClusters(s));
      expect(columns(s)).toBe(stringWidth(s));
      const room = 5 + rand(200);
      const cut = cutColumns(s, room);
      expect(columns(cut)).toBeLessThanOrEqual(room);
    }
  });

  it('a cluster longer than a window (a letter under a thousand marks) is read whole', () => {
    const s = `ab${'\u0301'.repeat(WINDOW * 4)}cd`;
    const got: string[] = [];
    eachGrapheme(s, (g) => {
      got.push(g);
    });
    expect(got).toEqual(wholeClusters(s));
    expect(got).toHaveLength(4);
  });

  it('stops when told', () => {
    const seen: string[] = [];
    eachGrapheme('数据'.repeat(WINDOW), (g) => {
      seen.push(g);
      return seen.length < 3;
    });
    expect(seen).toEqual(['数', '据', '数']);
  });

  // The limit is a hang guard, hundreds of times what the run takes.
  it(
    'measures and cuts a text of 200,000 wide characters in time that grows with its length',
    { timeout: 5000 },
    () => {
      // Whole, V8 copies the text for every cluster it makes: 40,000 characters took 0.4 s, 200,000 would take
      // minutes; in windows, at once.
      const s = '所有者'.repeat(70_000);
      expect(columns(s)).toBe(420_000);
      expect(cutColumns(s, 11)).toBe('所有者所有…');
    },
  );
});
