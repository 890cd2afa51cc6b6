import stringWidth from 'string-width';

// Text measured in terminal columns, not code points: a Chinese or Japanese character takes two columns, a combining
// mark, a zero-width joiner or a variation selector none, an emoji sequence two (string-width's East Asian Width and
// emoji tables). Tables pad and cut their cells by these, so columns line up and lines fit the terminal whatever
// script a skill is written in. Printable ASCII, most cells, is measured by its length.

const PRINTABLE_ASCII = /^[ -~]*$/;

/** The columns `s` takes on a terminal (ANSI escapes count none). */
export function columns(s: string): number {
  if (PRINTABLE_ASCII.test(s)) return s.length;
  if (s.length <= WINDOW || s.includes('\u001b')) return stringWidth(s);
  // string-width walks the grapheme clusters of the whole text: a long one is measured a piece of whole clusters
  // at a time (see eachGrapheme), summed, since a cluster's width is its own.
  let n = 0;
  let start = 0;
  eachGrapheme(s, (_, index) => {
    if (index - start < WINDOW) return;
    n += stringWidth(s.slice(start, index));
    start = index;
  });
  return n + stringWidth(s.slice(start));
}

let graphemes: Intl.Segmenter | undefined;

/** Code units of text given to the segmenter at once. */
export const WINDOW = 256;

/**
 * Call `fn` with each grapheme cluster of `s` and where it starts, in order, until it returns false. The segmenter
 * is given a window of the text at a time, never all of it: V8 makes each segment with its own copy of the text it
 * was given, so one long text takes time that grows with the square of its length (40,000 characters of Chinese:
 * 0.4 s; a skill's 90,000-character owner kept list busy 40 s). Each window starts where the last one's last whole
 * cluster ended, a break of the whole text, after which the rules (UAX #29) decide every break as they would in the
 * whole text: what they look back at (an emoji sequence, a conjunct, regional indicators in pairs) lies inside one
 * cluster. A window's last cluster may be cut by its end, so it is read again at the start of the next; a cluster
 * longer than a window (a letter under hundreds of marks) widens the window until it fits.
 */
export function eachGrapheme(s: string, fn: (g: string, index: number) => boolean | void): void {
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let size = WINDOW;
  for (let from = 0; from < s.length;) {
    let to = Math.min(s.length, from + size);
    // Not between the halves of a surrogate pair: the break before the last cluster is decided by the code point after
    // it, which must be whole.
    if (to < s.length && (s.charCodeAt(to) & 0xfc00) === 0xdc00) to++;
    const piece = s.slice(from, to);
    let last: { segment: string; index: number } | undefined;
    let next = from;
    for (const seg of graphemes.segment(piece)) {
      if (last) {
        if (fn(last.segment, from + last.index) === false) return;
        next = from + seg.index;
      }
      last = seg;
    }
    if (to === s.length) {
      if (last) fn(last.segment, from + last.index);
      return;
    }
    if (next === from) size *= 2;
    else {
      from = next;
      size = WINDOW;
    }
  }
}

/** `s` followed by spaces up to `width` columns (as it is when it is that wide or wider). */
export function padColumns(s: string, width: number): string {
  const n = columns(s);
  return n >= width ? s : s + ' '.repeat(width - n);
}

/**
 * `s` cut to at most `room` columns: whole when it fits, else as many whole characters (grapheme clusters: a letter
 * with its marks, an emoji sequence) as fit with "…" after them.
 */
export function cutColumns(s: string, room: number): string {
  if (PRINTABLE_ASCII.test(s)) return s.length <= room ? s : `${s.slice(0, Math.max(0, room - 1))}…`;
  if (columns(s) <= room) return s;
  let out = '';
  let used = 0;
  eachGrapheme(s, (segment) => {
    const w = stringWidth(segment);
    if (used + w > room - 1) return false;
    out += segment;
    used += w;
  });
  return `${out}…`;
}
