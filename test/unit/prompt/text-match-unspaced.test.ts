import { describe, expect, it } from 'vitest';
import { MAX_RUN, forEachWord, forEachWordHolding, words } from '../../../src/prompt/text-match.js';
import { seeded } from '../../helpers/seeded.js';

// The words of a text as the segmenter finds them in the text whole (the code before runs were segmented apart).
const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });
const WORD = /[\p{L}\p{M}\p{N}]+(?:['’][\p{L}\p{M}\p{N}]+)*/gu;
function reference(text: string, keep: (index: number) => boolean = () => true): string[] {
  const out: string[] = [];
  for (const seg of segmenter.segment(text)) {
    if (!seg.isWordLike || !keep(seg.index)) continue;
    for (const m of seg.segment.matchAll(WORD)) {
      const w = m[0];
      out.push(w.includes("'") || w.includes('’') ? w.replace(/['’]s$/, '').replace(/['’]/g, '') : w);
    }
  }
  return out;
}

// Where words end for certain: spaces, line ends, the ideographic comma and full stop, full-width ! and ?.
const BREAK = /[\t\n\v\f\r \u0085\u1680\u2000-\u200a\u2028\u2029\u205f\u3000\u3001\u3002\uff01\uff1f]/;

// Pieces of text that test the word rules at a run's edges: scripts with and without spaces, marks, digits,
// apostrophes, joiners, emoji (with ZWJ and skin tones), flags, format characters, and every kind of break.
const PIECES = [
  'a',
  'b',
  'z',
  'é',
  'e\u0301',
  '\u0301',
  '1',
  '9',
  '.',
  ',',
  "'",
  '’',
  '-',
  '_',
  ':',
  '中',
  '文',
  '编',
  '辑',
  '器',
  '的',
  '测',
  '试',
  'の',
  'を',
  'カ',
  'ー',
  'タ',
  '한',
  '국',
  'ไ',
  'ท',
  'ย',
  'ກ',
  'ខ',
  'မ',
  '😀',
  '👍🏽',
  '\u200d',
  '🇫',
  '🇷',
  '\ufeff',
  '\u00a0',
  '\u202f',
  '\u200b',
  ' ',
  ' ',
  '  ',
  '\n',
  '\r\n',
  '\t',
  '\u3000',
  '\u2028',
  '\u0085',
  '\u2003',
  '、',
  '。',
  '！',
  '？',
  '，',
  '．',
  '(',
  ')',
  '#',
  '/',
  '"',
  '·',
  'editor',
  '编辑器',
  'データ',
  'ภาษาไทย',
  "user's",
  '１２',
  '1,000',
  '1，000',
];

function text(rand: (n: number) => number, length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) s += PIECES[rand(PIECES.length)];
  return s;
}

describe('words of unspaced scripts, segmented a run at a time', () => {
  it('are the words the segmenter finds in the whole text, on 20,000 generated texts', () => {
    const rand = seeded(20);
    for (let k = 0; k < 20_000; k++) {
      // Always some Han, so that the text is read as unspaced.
      const t = `${text(rand, rand(40))}中${text(rand, rand(40))}`;
      expect(words(t), JSON.stringify(t)).toEqual(reference(t));
    }
  });

  it('are those words on real sentences of Chinese, Japanese, Thai and Korean mixed with English', () => {
    const sentences = [
      '使用 Photoshop 编辑照片，然后导出为 PNG。请检查每一个图层！',
      '这个技能读取 PDF 文件并提取表格。它支持中文和英文。',
      'スキルはファイルを読み、結果を表に書きます。データを確認してください？',
      'ทักษะนี้อ่านไฟล์และเขียนผลลัพธ์ลงในตาราง',
      '이 스킬은 파일을 읽고 표에 결과를 씁니다. Use when the user asks.',
      "Run `scripts/run.sh` 然后阅读 [the guide](references/guide.md)。User's request：编辑器。",
    ];
    for (const s of sentences) expect(words(s), s).toEqual(reference(s));
    expect(words(sentences.join('\n'))).toEqual(reference(sentences.join('\n')));
  });

  it('given with a probe: the words of every run a match touches, as the whole text has them, no run twice', () => {
    const rand = seeded(21);
    for (let k = 0; k < 5_000; k++) {
      const t = `${text(rand, rand(60))}中${text(rand, rand(60))}`;
      const all = reference(t);
      // A probe of one or two of the text's words as written, cut as stemProbe cuts (the last letter off a long one).
      const picks = [all[rand(all.length)], all[rand(all.length)]].filter(
        (w): w is string => w !== undefined && t.includes(w),
      );
      const parts = picks.map((w) => (w.length > 2 ? w.slice(0, -1) : w).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      if (!parts.length) continue;
      const probe = new RegExp(parts.join('|'), 'g');
      // The runs (between breaks) that a match of the probe touches, and the whole text's words that lie in them.
      const touched = new Uint8Array(t.length);
      for (const m of t.matchAll(probe)) {
        let a = m.index;
        while (a > 0 && !BREAK.test(t[a - 1]!)) a--;
        let b = m.index + Math.max(1, m[0].length);
        while (b < t.length && !BREAK.test(t[b]!)) b++;
        touched.fill(1, a, b);
      }
      const want = reference(t, (index) => touched[index] === 1);
      const got: string[] = [];
      forEachWordHolding(t, probe, (w, start, end) => {
        expect([start, end]).toEqual([-1, -1]);
        got.push(w);
      });
      expect(got, JSON.stringify([t, probe.source])).toEqual(want);
    }
  });

  it('reads only the runs that hold a match', () => {
    const t = '第一段没有匹配。 second run 编辑器 here。 第三段也没有';
    const got: string[] = [];
    forEachWordHolding(t, /编辑/g, (w) => got.push(w));
    expect(got).toEqual(words('编辑器'));
  });

  // The limit is a hang guard, hundreds of times what the run takes; whole, it took 42 s.
  it(
    'a run with no break longer than MAX_RUN is segmented in pieces, in time that grows with its length',
    { timeout: 5000 },
    () => {
      // 200,000 characters of Han with no break: whole, V8 copies the text for every segment it makes (70,000
      // characters took 6 s); in pieces of MAX_RUN it is read at once.
      const han = '编辑照片导出图层检查每一个表格'.repeat(Math.ceil(200_000 / 15)).slice(0, 200_000);
      let n = 0;
      forEachWord(han, () => n++);
      // Every character belongs to a word of one piece; a piece's end may cut at most one word in two.
      const some = reference(han.slice(0, MAX_RUN * 2)).length;
      expect(n).toBeGreaterThan(((some * han.length) / (MAX_RUN * 2)) * 0.95);
      const joined: string[] = [];
      forEachWord(han, (w) => joined.push(w));
      expect(joined.join('')).toBe(han);
    },
  );
});
