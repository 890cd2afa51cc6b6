import { expect, it } from 'vitest';
import { seeded } from '../../helpers/seeded.js';
import { MarkdownText, lineAt } from '../../../src/formats/markdown-blocks.js';
import { positionFinder } from '../../../src/formats/text.js';

// fencesAt as it was before lineAt (a step a line from one mark to the next), the reference the fences must match.
const FENCE = /^[ \t]*(`{3,}|~{3,})/;
function oldFences(text: string, starts: ArrayLike<number>): Uint8Array {
  const n = starts.length;
  const kind = new Uint8Array(n);
  let fence: { char: string; len: number } | undefined;
  let open = -1;
  let i = 0;
  let from = 0;
  for (;;) {
    const a = text.indexOf('```', from);
    const b = text.indexOf('~~~', from);
    const at = a < 0 ? b : b < 0 ? a : Math.min(a, b);
    if (at < 0) break;
    while (i + 1 < n && starts[i + 1]! <= at) i++;
    const end = i + 1 < n ? starts[i + 1]! - 1 : text.length;
    from = end + 1;
    let line = text.slice(starts[i], end);
    if (line.endsWith('\r')) line = line.slice(0, -1);
    const f = FENCE.exec(line);
    if (!f) continue;
    if (fence) {
      if (f[1]![0] === fence.char && f[1]!.length >= fence.len && line.slice(f[0].length).trim() === '') {
        kind.fill(1, open + 1, i);
        kind[i] = 3;
        fence = undefined;
      }
    } else if (!(f[1]![0] === '`' && line.slice(f[0].length).includes('`'))) {
      kind[i] = 2;
      open = i;
      fence = { char: f[1]![0]!, len: f[1]!.length };
    }
  }
  if (fence) kind.fill(1, open + 1);
  return kind;
}

it('lineAt finds the line a step-by-step walk finds, from every line, on thousands of generated line starts', () => {
  const next = seeded(77);
  for (let n = 0; n < 3000; n++) {
    const count = 1 + next(n % 50 === 0 ? 3000 : 60);
    const starts = new Int32Array(count);
    for (let k = 1; k < count; k++) starts[k] = starts[k - 1]! + 1 + next(n % 3 === 0 ? 3 : 90);
    const plain = [...starts];
    for (let t = 0; t < 20; t++) {
      const i = next(count);
      const at = starts[i]! + next(starts[count - 1]! - starts[i]! + 200);
      let want = i;
      while (want + 1 < count && starts[want + 1]! <= at) want++;
      expect(lineAt(starts, i, at)).toBe(want);
      expect(lineAt(plain, i, at)).toBe(want);
    }
  }
  expect(lineAt([0], 0, 5)).toBe(0);
  expect(lineAt([0, 4, 9], 0, 4)).toBe(1);
  expect(lineAt([0, 4, 9], 1, 8)).toBe(1);
  expect(lineAt([0, 4, 9], 0, 100)).toBe(2);
});

it('finds the fences the step-by-step walk finds, on thousands of generated Markdown texts', () => {
  const pieces = [
    ...['```', '````', '~~~', '~~~~', '``` py', '```a`b', '  ```', '    ~~~', '\t```', ' ``` x', '~~~ ```'],
    ...['words', 'a `code` b', '- item', '# Head', '', ' ', '\t', 'é😀', '\ud800', '\udc00', '\u0000', '\u001b[1m'],
    ...['\u0085', '\u2028', 'x\r', '\r', 'tail ```', '~~', '``'],
  ];
  const seps = ['\n', '\n', '\n', '\r\n', '\r', ''];
  const next = seeded(78);
  for (let n = 0; n < 4000; n++) {
    const len = next(n % 40 === 0 ? 1500 : 40);
    let text = '';
    for (let k = 0; k < len; k++) {
      // Long runs of prose lines between fences, as in a long skill, now and then.
      text += next(8) === 0 ? 'prose line\n'.repeat(next(200)) : pieces[next(pieces.length)];
      text += seps[next(seps.length)];
    }
    const md = new MarkdownText(text);
    expect([...md.fences], JSON.stringify(text.slice(0, 300))).toEqual([...oldFences(text, md.starts)]);
  }
  // A fence closed on the last line, or opened there, after every number of lines (the search runs to the end).
  for (let k = 0; k < 300; k++) {
    for (const text of [
      `\`\`\`\n${'x\n'.repeat(k)}\`\`\``,
      `${'x\n'.repeat(k)}~~~`,
      `~~~\n${'x\r\n'.repeat(k)}~~~~\r\n`,
    ]) {
      const md = new MarkdownText(text);
      expect([...md.fences], JSON.stringify(text)).toEqual([...oldFences(text, md.starts)]);
    }
  }
});

it('reads lines, line numbers and fences without a table of line starts as the table reads them', () => {
  const pieces = ['```', '~~~~', '``` py', '  ```', 'words', '- item', '', 'é😀', 'x\r', '\r', 'tail ```'];
  const seps = ['\n', '\n', '\r\n', '\r', ''];
  const next = seeded(79);
  for (let n = 0; n < 1500; n++) {
    const len = next(n % 30 === 0 ? 600 : 30);
    let text = '';
    for (let k = 0; k < len; k++) text += pieces[next(pieces.length)]! + seps[next(seps.length)]!;
    const table = new MarkdownText(text);
    const lines = text.split('\n');
    const fences = table.fences;
    // A fresh text for each kind of question, asked in random order, so the cursor moves both ways.
    const byOffset = new MarkdownText(text);
    const byLine = new MarkdownText(text);
    const byKind = new MarkdownText(text);
    for (let q = 0; q < 40; q++) {
      const at = next(text.length + 1);
      expect(byOffset.lineOf(at), JSON.stringify(text)).toBe(text.slice(0, at).split('\n').length - 1);
      const i = next(lines.length + 2) - 1;
      expect(byLine.line(i)).toBe(lines[i]);
      expect(byKind.lineKind(i)).toBe(fences[i] ?? 0);
    }
    expect(new MarkdownText(text).lineCount).toBe(lines.length);
    expect(byOffset.lineCount).toBe(lines.length);
  }
});

it('reads a long text counted first (its line starts kept) as a text read line by line', () => {
  const pieces = ['```', '~~~~', '``` py', 'words of a line', '- item', '', 'é😀', 'x\r', 'tail ```'];
  const seps = ['\n', '\n', '\r\n', ''];
  const next = seeded(83);
  for (let n = 0; n < 6; n++) {
    let text = '';
    while (text.length < 70_000 + n * 20_000) text += pieces[next(pieces.length)]! + seps[next(seps.length)]!;
    if (n % 2) text += '\n';
    const lines = text.split('\n');
    // positionFinder (formats/text.ts) finds lines from a table of their starts.
    const position = positionFinder(text);
    const lineAtOffset = (at: number) => position(at).line - 1;
    const fences = new MarkdownText(text).fences;
    const md = new MarkdownText(text);
    expect(md.lineCount).toBe(lines.length);
    // In order (as the reference scan asks), then anywhere; lines and their kinds by number.
    const offsets = Array.from({ length: 300 }, () => next(text.length + 1));
    for (const at of [...offsets].sort((a, b) => a - b).concat(offsets, [0, text.length]))
      expect(md.lineOf(at)).toBe(lineAtOffset(at));
    for (let q = 0; q < 300; q++) {
      const i = next(lines.length + 2) - 1;
      expect(md.line(i)).toBe(lines[i]);
      expect(md.lineKind(i)).toBe(fences[i] ?? 0);
    }
    // Counted after the cursor went most of the way: from there, with no table.
    const late = new MarkdownText(text);
    expect(late.lineOf(text.length - 10)).toBe(lineAtOffset(text.length - 10));
    expect(late.lineCount).toBe(lines.length);
    expect(late.lineOf(5)).toBe(lineAtOffset(5));
  }
});
