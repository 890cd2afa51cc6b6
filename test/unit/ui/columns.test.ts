import { describe, expect, it } from 'vitest';
import { columns, cutColumns, padColumns } from '../../../src/ui/columns.js';

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
