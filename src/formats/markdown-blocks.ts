// The block structure of Markdown text, as the reference scanner needs it: which lines are fenced code, and
// which are illustrations (a line saying "e.g.", a list item saying "example", anything under an Example heading).
// Pure: text in, one flag per line out.
import { nextOfTwo } from './text.js';

const HEADING = /^ {0,3}(#{1,6})(?:[ \t]|$)/;
const LIST_ITEM = /^([ \t]*)(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$)/;
// Words that introduce an illustration, not a file of the skill; never part of a path (`examples/a.py`).
// A sentence that proposes a file rather than names one: "`scripts/validate.sh` … would be helpful", "consider
// adding references/schema.md" (a skill about writing skills lists what one could hold).
const EXAMPLE_WORDS =
  /(?<![\p{L}\p{N}_./\\-])(?:examples?|e\.g\.|for instance|such as|i\.e\.|would be (?:helpful|useful)|consider (?:adding|creating|including))(?![\p{L}\p{N}_/\\-])/iu;
const EXAMPLE_HEADING = /(?<![\p{L}\p{N}_./\\-])examples?(?![\p{L}\p{N}_/\\-])/iu;

/**
 * One Markdown text, its lines found once (where each starts; split into strings only when all are asked for); its
 * fences and its illustrations are computed when first asked for, and kept, so the reference scanner and every
 * rule that reads the same text share one pass of each. Lines asked for one after another (a line's number, a line
 * by its number) are found by counting line breaks from the last one asked for, without a table of line starts,
 * unless a long text's lines are counted first (SK100): that pass keeps their starts, and later lines are looked up.
 */
export class MarkdownText {
  #lines?: string[];
  #starts?: ArrayLike<number>;
  #fences?: Uint8Array;
  #blocks?: Int32Array;
  #examples?: Uint8Array;
  // The counting cursor: line #row starts at #pos, and its line break is at #nl (the text's length for the last line).
  #row = 0;
  #pos = 0;
  #nl = -1;
  // Where every 256th line starts, as far as the cursor has gone.
  readonly #marks: number[] = [0];

  constructor(readonly text: string) {}

  /** The lines, split on \n. */
  get lines(): string[] {
    return (this.#lines ??= this.text.split('\n'));
  }

  /** Where each line starts in the text. */
  get starts(): ArrayLike<number> {
    return (this.#starts ??= lineStarts(this.text));
  }

  /** How many lines there are (a text ending in \n has an empty last one). */
  get lineCount(): number {
    if (this.#lines) return this.#lines.length;
    if (this.#starts) return this.#starts.length;
    // Counting a long text's lines from near its start passes over all of them: their starts are kept from that pass,
    // so that the lines asked for after (SK100 counts before the reference scan asks) are looked up, not counted again.
    if (
      this.text.length >= TABLE_FROM &&
      Math.max(this.#pos, this.#marks[this.#marks.length - 1]!) < this.text.length / 2
    )
      return this.starts.length;
    return this.lineOf(this.text.length) + 1;
  }

  /** Line `i` (0-based), without its \n; undefined past the last. */
  line(i: number): string | undefined {
    if (this.#lines) return this.#lines[i];
    if (this.#starts) {
      const s = this.#starts;
      if (i < 0 || i >= s.length) return undefined;
      return this.text.slice(s[i], i + 1 < s.length ? s[i + 1]! - 1 : this.text.length);
    }
    if (i < 0 || !this.#seek(-1, i)) return undefined;
    return this.text.slice(this.#pos, this.#nl);
  }

  /** The line (0-based) that holds offset `at` (a line break belongs to the line it ends). */
  lineOf(at: number): number {
    const s = this.#starts;
    // From the line last found when `at` is not before it (the scan asks in order), else from the first.
    if (s) return (this.#row = lineAt(s, this.#row < s.length && s[this.#row]! <= at ? this.#row : 0, at));
    this.#seek(at, -1);
    return this.#row;
  }

  /**
   * Move the cursor to the line that holds offset `at` or, when `at` is -1, to line `i`, counting line breaks from
   * where it is or from the nearest checkpoint before that line, when nearer (one every 256 lines, kept as the cursor
   * first passes them): a text's breaks are counted about once, however its lines are asked for.
   * False when the text has no line `i`.
   */
  #seek(at: number, i: number): boolean {
    const t = this.text;
    const byOffset = at >= 0;
    const marks = this.#marks;
    // The nearest checkpoint at or before the line asked for: a start when it is nearer than the cursor.
    let k: number;
    if (byOffset) {
      let lo = 0;
      let hi = marks.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (marks[mid]! <= at) lo = mid + 1;
        else hi = mid;
      }
      k = lo - 1;
    } else k = Math.min(i >>> MARK_SHIFT, marks.length - 1);
    if (this.#nl < 0 || (byOffset ? at < this.#pos : i < this.#row) || marks[k]! > this.#pos) {
      this.#pos = marks[k]!;
      this.#row = k << MARK_SHIFT;
      this.#nl = lineBreak(t, this.#pos);
    }
    let pos = this.#pos;
    let row = this.#row;
    let nl = this.#nl;
    while (byOffset ? nl < at : row < i) {
      if (nl >= t.length) return false;
      pos = nl + 1;
      row++;
      nl = lineBreak(t, pos);
      if ((row & MARK_MASK) === 0 && row >>> MARK_SHIFT === marks.length) marks.push(pos);
    }
    this.#pos = pos;
    this.#row = row;
    this.#nl = nl;
    return true;
  }

  /** fences() of the lines. */
  get fences(): Uint8Array {
    return (this.#fences ??= fencesAt(this.text, this.starts, this.blocks));
  }

  /** fenceBlocks() of the text. */
  get blocks(): Int32Array {
    return (this.#blocks ??= fenceBlocks(this.text));
  }

  /** What fences() says of line `i` (0: nothing, past the last line too), without a table of every line. */
  lineKind(i: number): number {
    if (this.#fences) return this.#fences[i] ?? 0;
    if (this.#starts) return i >= 0 && i < this.#starts.length ? kindAt(this.blocks, this.#starts[i]!) : 0;
    return i >= 0 && this.#seek(-1, i) ? kindAt(this.blocks, this.#pos) : 0;
  }

  /** examples() of the lines. */
  get examples(): Uint8Array {
    return (this.#examples ??= examples(this.lines, this.fences));
  }
}

/** Where in `blocks` (fenceBlocks) the last block that opens at or before offset `at` starts; -1: none does. */
export function blockAt(blocks: Int32Array, at: number): number {
  let lo = 0;
  let hi = blocks.length >>> 2;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (blocks[mid << 2]! <= at) lo = mid + 1;
    else hi = mid;
  }
  return (lo - 1) << 2;
}

/** What fences() says of the line that starts at offset `start`, read from its text's `blocks` (fenceBlocks). */
export function kindAt(blocks: Int32Array, start: number): number {
  const k = blockAt(blocks, start);
  if (k < 0 || start >= blocks[k + 3]!) return 0;
  if (start === blocks[k]!) return FENCE_OPEN;
  return start < blocks[k + 2]! ? FENCED : FENCE_CLOSE;
}

// How long a text is before counting all its lines keeps their starts (a table of 4 bytes a line).
const TABLE_FROM = 64 * 1024;

// The cursor's checkpoints: every 256th line.
const MARK_SHIFT = 8;
const MARK_MASK = (1 << MARK_SHIFT) - 1;

/** Where the line break at or after `from` is; the text's length when there is none. */
function lineBreak(text: string, from: number): number {
  const nl = text.indexOf('\n', from);
  return nl < 0 ? text.length : nl;
}

/** Where each line of `text` starts (a text ending in \n has an empty last line). */
function lineStarts(text: string): ArrayLike<number> {
  // A short text's few lines fit a plain array best; a long one's, a typed array grown by doubling.
  if (text.length < 4096) {
    const few: number[] = [];
    for (let at = 0; ;) {
      few.push(at);
      const nl = text.indexOf('\n', at);
      if (nl < 0) return few;
      at = nl + 1;
    }
  }
  let out = new Int32Array(1024);
  let n = 0;
  for (let at = 0; ;) {
    if (n === out.length) {
      const more = new Int32Array(n * 2);
      more.set(out);
      out = more;
    }
    out[n++] = at;
    const nl = text.indexOf('\n', at);
    if (nl < 0) break;
    at = nl + 1;
  }
  return out.subarray(0, n);
}

/** What fences() says of a line: fenced code, a fence's opening line, its closing line (0: none of these). */
export const FENCED = 1;
export const FENCE_OPEN = 2;
export const FENCE_CLOSE = 3;

/** Which lines are fenced code (FENCED), open a fence or close one; an unclosed fence runs to the end. */
export function fences(lines: string[]): Uint8Array {
  const starts = new Int32Array(lines.length);
  for (let i = 1; i < lines.length; i++) starts[i] = starts[i - 1]! + lines[i - 1]!.length + 1;
  const text = lines.join('\n');
  return fencesAt(text, starts, fenceBlocks(text));
}

/** fences() of a text whose lines start at `starts` and whose fenced blocks are `blocks`. */
function fencesAt(text: string, starts: ArrayLike<number>, blocks: Int32Array): Uint8Array {
  const kind = new Uint8Array(starts.length);
  let i = 0;
  for (let k = 0; k < blocks.length; k += 4) {
    i = lineAt(starts, i, blocks[k]!);
    kind[i] = FENCE_OPEN;
    if (blocks[k + 2]! > text.length) {
      kind.fill(FENCED, i + 1);
      break;
    }
    const close = lineAt(starts, i, blocks[k + 2]!);
    kind.fill(FENCED, i + 1, close);
    kind[close] = FENCE_CLOSE;
    i = close;
  }
  return kind;
}

/**
 * The fenced code blocks of a text, four offsets a block: where its opening line starts, where its code starts (the
 * line after the opening one), where its closing line starts and where the line after that starts; an unclosed
 * block's closing line and the line after it start past the end (length + 1): its code runs to the end.
 */
export function fenceBlocks(text: string): Int32Array {
  const out: number[] = [];
  let char = '';
  let len = 0;
  // Only a line holding ``` or ~~~ can open or close a fence: those are found in the text, and the lines between
  // an opening and its closing are passed over at once.
  const nextMark = nextOfTwo(text, '```', '~~~');
  let from = 0;
  for (;;) {
    const at = nextMark(from);
    if (at < 0) break;
    const start = text.lastIndexOf('\n', at) + 1;
    const end = lineBreak(text, at);
    from = end + 1;
    // A fence is a run of three or more backticks or tildes after nothing but spaces and tabs: read in the text, not
    // cut out of it.
    let k = start;
    while (k < at && (text.charCodeAt(k) === 32 || text.charCodeAt(k) === 9)) k++;
    if (k < at) continue;
    const c = text[at]!;
    let runEnd = at + 3;
    while (runEnd < end && text[runEnd] === c) runEnd++;
    if (len > 0) {
      if (c === char && runEnd - at >= len && text.slice(runEnd, end).trim() === '') {
        out.push(start, from);
        len = 0;
      }
    } else if (c === '~' || text.indexOf('`', runEnd) < 0 || text.indexOf('`', runEnd) >= end) {
      out.push(start, from);
      char = c;
      len = runEnd - at;
    }
  }
  if (len > 0) out.push(text.length + 1, text.length + 1);
  return Int32Array.from(out);
}

/**
 * The last line at or after `i` that starts at or before `at` (`starts` ascending, and `starts[i] <= at`). Galloping
 * from `i`, then halving: the fence marks of a long text lie many lines apart, and a step a line cost more than the
 * search for the marks (20 texts of 1 MB: 40M instructions of 870M with reading and line starts).
 */
export function lineAt(starts: ArrayLike<number>, i: number, at: number): number {
  const n = starts.length;
  let lo = i;
  let hi = i + 1;
  for (let step = 2; hi < n && starts[hi]! <= at; step *= 2) {
    lo = hi;
    hi = lo + step;
  }
  if (hi > n) hi = n;
  // starts[lo] <= at, and hi is n or a line that starts after `at`.
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (starts[mid]! <= at) lo = mid;
    else hi = mid;
  }
  return lo;
}

interface Unit {
  /** An example word is in one of its own lines (a list item's, not its children's). */
  kw: boolean;
  /** Under an Example heading, or in a list led in by a paragraph such as "Example: … shows:". */
  scope: boolean;
  parent: number;
}

/**
 * One pass over the lines: which are illustrations (a line saying "e.g.", a list item saying it in any of its
 * lines or inheriting it from its parent item, a list led in by such a paragraph ending in ":", anything under a
 * heading saying "Example"); fenced code counts as part of the list item it is indented into.
 */
export function examples(lines: string[], kind: Uint8Array): Uint8Array {
  const n = lines.length;
  const example = new Uint8Array(n);
  const unitOf = new Int32Array(n).fill(-1);
  const units: Unit[] = [];
  const headings: { level: number; ex: boolean }[] = [];
  let headingEx = false;
  let items: { markerIndent: number; contentIndent: number; unit: number }[] = [];
  let para = -1;
  let leadIn: { unit: number; colon: boolean } | undefined;
  let runScope: boolean | undefined;
  let prevBlank = true;
  let fenceUnit = -1;
  const endBlocks = () => {
    items = [];
    para = -1;
    leadIn = undefined;
    runScope = undefined;
  };
  for (let i = 0; i < n; i++) {
    let line = lines[i]!;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    const k = kind[i]!;
    if (k === FENCED) {
      unitOf[i] = fenceUnit;
      if (headingEx) example[i] = 1;
      continue;
    }
    if (k === FENCE_CLOSE) {
      prevBlank = false;
      continue;
    }
    if (isBlank(line)) {
      prevBlank = true;
      continue;
    }
    const indent = indentOf(line);
    const lineKw = EXAMPLE_WORDS.test(line);
    // A heading starts (after at most three spaces) with #, a list item with its marker or a digit: other lines are
    // not put to the two regexes.
    const first = line.charCodeAt(firstVisible(line));
    if (k === FENCE_OPEN) {
      // A fence indented into the current list item belongs to it; any other ends the paragraph and the list.
      while (items.length > 0 && items[items.length - 1]!.contentIndent > indent) items.pop();
      fenceUnit = items.length > 0 ? items[items.length - 1]!.unit : -1;
      if (fenceUnit < 0) endBlocks();
      prevBlank = false;
      continue;
    }
    const h = first === 35 ? HEADING.exec(line) : null;
    if (h) {
      const level = h[1]!.length;
      while (headings.length > 0 && headings[headings.length - 1]!.level >= level) headings.pop();
      headings.push({ level, ex: EXAMPLE_HEADING.test(line) });
      headingEx = headings.some((x) => x.ex);
      endBlocks();
      if (lineKw || headingEx) example[i] = 1;
      prevBlank = false;
      continue;
    }
    const li =
      first === 45 || first === 42 || first === 43 || (first >= 48 && first <= 57) ? LIST_ITEM.exec(line) : null;
    if (li) {
      const markerIndent = indentOf(li[1]!);
      while (items.length > 0 && items[items.length - 1]!.markerIndent >= markerIndent) items.pop();
      if (items.length === 0 && runScope === undefined) runScope = !!leadIn && leadIn.colon && units[leadIn.unit]!.kw;
      const unit = units.length;
      units.push({
        kw: lineKw,
        scope: headingEx || !!runScope,
        parent: items.length > 0 ? items[items.length - 1]!.unit : -1,
      });
      items.push({ markerIndent, contentIndent: markerIndent + li[0].length - li[1]!.length, unit });
      unitOf[i] = unit;
      para = -1;
      leadIn = undefined;
    } else {
      if (prevBlank) {
        while (items.length > 0 && items[items.length - 1]!.contentIndent > indent) items.pop();
        if (items.length === 0) para = -1;
      }
      if (para < 0 && items.length > 0) {
        const unit = items[items.length - 1]!.unit;
        unitOf[i] = unit;
        if (lineKw) units[unit]!.kw = true;
      } else {
        if (para < 0) {
          // A new paragraph: it ends any list, and may lead in the next one.
          runScope = undefined;
          para = units.length;
          units.push({ kw: false, scope: false, parent: -1 });
        }
        if (lineKw) units[para]!.kw = true;
        leadIn = { unit: para, colon: endsWithColon(line) };
      }
    }
    if (lineKw || headingEx) example[i] = 1;
    prevBlank = false;
  }
  // A list item is an illustration when it, an item it is nested in, or its lead-in says so.
  const ex = new Uint8Array(units.length);
  units.forEach((u, k) => {
    ex[k] = u.kw || u.scope || (u.parent >= 0 && ex[u.parent] === 1) ? 1 : 0;
  });
  // Paragraphs are read line by line (set above; their lines have no unit); list items as a whole.
  for (let i = 0; i < n; i++) {
    const u = unitOf[i]!;
    if (u >= 0 && ex[u] === 1) example[i] = 1;
  }
  return example;
}

/** "Examples:", "**Example**:", "the analysis shows:" — emphasis and spaces after the colon allowed. */
function endsWithColon(line: string): boolean {
  let e = line.length;
  while (e > 0 && (line[e - 1] === '*' || line[e - 1] === '_' || line[e - 1] === ' ' || line[e - 1] === '\t')) e--;
  return line[e - 1] === ':';
}

function indentOf(s: string): number {
  let w = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 32) w++;
    else if (c === 9) w += 4 - (w % 4);
    else break;
  }
  return w;
}

/** Where the first character that is neither a space nor a tab stands (the line's length when none). */
function firstVisible(s: string): number {
  let i = 0;
  while (i < s.length && (s.charCodeAt(i) === 32 || s.charCodeAt(i) === 9)) i++;
  return i;
}

/** Whether a line holds only white space (as \s reads it), without a regex for the usual line that starts visibly. */
function isBlank(line: string): boolean {
  const c = line.charCodeAt(0);
  if (c > 32 && c < 127) return false;
  return !/\S/.test(line);
}
