import stringWidth from 'string-width';

// Text measured in terminal columns, not code points: a Chinese or Japanese character takes two columns, a combining
// mark, a zero-width joiner or a variation selector none, an emoji sequence two (string-width's East Asian Width and
// emoji tables). Tables pad and cut their cells by these, so columns line up and lines fit the terminal whatever
// script a skill is written in. Printable ASCII, most cells, is measured by its length.

const PRINTABLE_ASCII = /^[ -~]*$/;

/** The columns `s` takes on a terminal (ANSI escapes count none). */
export function columns(s: string): number {
  return PRINTABLE_ASCII.test(s) ? s.length : stringWidth(s);
}

/** `s` followed by spaces up to `width` columns (as it is when it is that wide or wider). */
export function padColumns(s: string, width: number): string {
  const n = columns(s);
  return n >= width ? s : s + ' '.repeat(width - n);
}

let graphemes: Intl.Segmenter | undefined;

/**
 * `s` cut to at most `room` columns: whole when it fits, else as many whole characters (grapheme clusters: a letter
 * with its marks, an emoji sequence) as fit with "…" after them.
 */
export function cutColumns(s: string, room: number): string {
  if (PRINTABLE_ASCII.test(s)) return s.length <= room ? s : `${s.slice(0, Math.max(0, room - 1))}…`;
  if (stringWidth(s) <= room) return s;
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let out = '';
  let used = 0;
  for (const { segment } of graphemes.segment(s)) {
    const w = stringWidth(segment);
    if (used + w > room - 1) break;
    out += segment;
    used += w;
  }
  return `${out}…`;
}
