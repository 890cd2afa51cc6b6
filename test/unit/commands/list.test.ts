import { describe, expect, it } from 'vitest';
import { formatList, usedByCell } from '../../../src/commands/list.js';
import type { ListRow } from '../../../src/registry/list.js';
import { paint } from '../../../src/ui/color.js';
import { columns } from '../../../src/ui/columns.js';

const row = (id: string, description: string): ListRow => ({
  id,
  versions: [],
  layout: 'skill-md',
  scope: 'project',
  usedBy: [],
  description,
  path: `/p/${id}`,
  valid: true,
});

describe('formatList', () => {
  it('shows each description on one line, its whitespace flattened, cut to the width', () => {
    const descriptions = [
      'Plain one line.',
      'Two  spaces,\ta tab,\nand a newline.',
      ' Leading and trailing ',
      'No\u00a0break\u00a0\u00a0space.',
      `${'long '.repeat(40)}end`,
    ];
    const out = formatList(
      descriptions.map((d, i) => row(`s${i}`, d)),
      { long: false, width: 80, c: paint(false) },
    ).split('\n');
    const shown = out.slice(1, -1).map((l) => l.split(/ {2,}/).at(-1));
    expect(shown).toEqual([
      'Plain one line.',
      'Two spaces, a tab, and a newlin…',
      'Leading and trailing',
      'No break space.',
      `${'long '.repeat(6)}l…`,
    ]);
  });

  it('gives the mark of an invalid skill a column of its own, so every row starts its columns where the header does', () => {
    const out = formatList([{ ...row('bad-skill', 'Broken.'), valid: false }, row('real', 'Fine.')], {
      long: false,
      width: 80,
      c: paint(false),
    }).split('\n');
    expect(out[1]).toMatch(/^bad-skill ✖ {2}- /);
    // ✖ is one code unit and one terminal column: string offsets are the columns' offsets.
    const starts = (l: string) => [...l.matchAll(/\S+(?: \S+)*/g)].map((m) => m.index);
    expect(starts(out[0]!)).toHaveLength(7);
    expect(starts(out[1]!)).toEqual(starts(out[0]!));
    expect(starts(out[2]!)).toEqual(starts(out[0]!));
    expect(out[3]).toBe('✖ invalid: run skills validate <path> to see why');
  });

  it('lines up its columns and fits the width in terminal columns, whatever the script', () => {
    const rows = [
      row(
        'emoji-party',
        'Plan parties with friends and family members and guests. Use when the user asks for a party.',
      ),
      row('数据分析', '分析CSV和Excel数据，生成图表和统计摘要。当用户要求分析数据、制作图表或计算统计量时使用。'),
      row('翻訳ツール', '日本語と英語の間で文書を翻訳します。ユーザーが翻訳を依頼したときに使用してください。'),
      row('한국어-도구', '한국어 문서를 요약합니다. 사용자가 요약을 요청할 때 사용하세요. 긴 설명입니다.'),
    ];
    const lines = formatList(rows, { long: false, width: 100, c: paint(false) })
      .split('\n')
      .slice(0, -1);
    // Where the LAYOUT column starts, in columns: the same on every line.
    const at = lines.map((l) => columns(l.slice(0, l.indexOf(l.startsWith('ID') ? 'LAYOUT' : 'skill-md'))));
    expect(new Set(at).size).toBe(1);
    for (const l of lines) expect(columns(l), l).toBeLessThanOrEqual(100);
    expect(lines.slice(2).every((l) => l.endsWith('…'))).toBe(true);
  });
  it("cuts a long owner, so that one skill's author does not leave every description a few columns", () => {
    const owner = 'Shopify App Review Brief - independent, not affiliated with or endorsed by Shopify Inc.';
    const lines = formatList(
      [{ ...row('shopify-review-triage', 'Triages reviews.'), owner }, row('b', 'Bee things.')],
      {
        long: false,
        width: 120,
        c: paint(false),
      },
    ).split('\n');
    expect(lines[1]).toContain('Shopify App Review Brie…');
    expect(lines[1]).not.toContain('independent');
    expect(lines[1]!.endsWith('Triages reviews.')).toBe(true);
    expect(lines[2]!.endsWith('Bee things.')).toBe(true);
  });
});

describe('usedByCell', () => {
  it('shows the consumers that fit in 40 columns and counts the rest; a name too long is cut', () => {
    expect(usedByCell([])).toBe('-');
    expect(usedByCell(['a', 'b'])).toBe('a, b');
    const names = ['content-creator', 'manager-bee', 'reviewer', 'tester', 'writer'];
    expect(usedByCell(names)).toBe('content-creator, manager-bee, +3');
    expect(usedByCell(['z'.repeat(5000)])).toBe(`${'z'.repeat(39)}…`);
    expect(usedByCell(['z'.repeat(5000), 'a'])).toBe(`${'z'.repeat(35)}…, +1`);
  });

  it('keeps one long consumer from widening the rows of a list', () => {
    const rows = [{ ...row('used', 'Used a lot.'), usedBy: ['z'.repeat(5000)] }, row('free', 'Used by nobody.')];
    const out = formatList(rows, { long: false, width: 120, c: paint(false) })
      .trimEnd()
      .split('\n');
    for (const line of out) expect(columns(line)).toBeLessThanOrEqual(120);
    expect(out.find((l) => l.startsWith('free'))!.length).toBeLessThan(100);
  });
});
