import type { Postings } from './selection-rows.js';
import { NON_ASCII, forEachWordHolding, isStopWord, joinedWords, normalizeForMatch, stem } from './text-match.js';

// What a registry's selection index keeps of each skill's words (selection-index.ts), so that a query scores most
// skills it reaches without reading their fields word by word (select-scan.ts Scan.counted):
// - "t<stem>": the skills whose name, keywords and verbs, brief or full description hold a word (no stop word) of this
//   stem; for a skill counted in full, how many in each field ("A" name, "B" keywords and verbs, "C" brief, "D"
//   description, each letter followed by its count when over 1: "AD2").
// - "p<stem> <stem>": the skills with two words of these stems next to each other in a field, nothing but spaces,
//   punctuation and stop words between (at most PAIR_GAP characters): a query's pairs (select-query.ts); the letters
//   of those fields.
// - "k<stem>": the skills whose keywords or verbs hold a word of this stem, stop words too (a trigger "how to").
// - "s": the skills counted only in part, which selection reads word by word: a field with characters outside ASCII
//   or an apostrophe (normalising and the word splitter are more than lower case and runs of letters there), or a
//   word the scan's probe would not see (its stem not inside it as select-query.ts probeOf looks for it).
// The fields are those of select-scan.ts FIELDS 0 to 3, as the candidate of the catalog's entry holds them
// (select.ts candidateOf, selection-index.ts catalogEntryOf): name (the id), keywords and verbs joined, brief and
// full description.

/** The letter of each field in a count ("A": name … "D": description). */
const FIELD_LETTERS = 'ABCD';
/** How far apart two words may be and still be side by side (select-scan.ts countPairs). */
export const PAIR_GAP = 40;
/** The key of the skills counted only in part. */
export const PARTIAL = 's';
// A count is kept in 8 bits per field (packed), so a skill with a word 256 times in a field is counted in part.
const MAX_COUNT = 255;

// Any letter, mark or digit: forEachWordHolding then yields every word of a text.
const ANY_WORD = /[\p{L}\p{M}\p{N}]/gu;
const SHORT_STEM = /^[a-z0-9]{1,3}$/;
const LETTERS = /^[a-z]*$/;

/** A list of strings as selection reads it: empty ones (and any that is no string) left out when there are some. */
export function strings(v: unknown): string[] {
  if (!Array.isArray(v) || v.length === 0) return NONE;
  for (const s of v)
    if (typeof s !== 'string' || s === '')
      return v.filter((s): s is string => typeof s === 'string' && s.trim() !== '');
  return v as string[];
}
const NONE: string[] = [];

/** The length of `list.join(' ; ')`. */
export function joinedLength(list: readonly string[]): number {
  let n = list.length > 0 ? 3 * (list.length - 1) : 0;
  for (const s of list) n += s.length;
  return n;
}

/**
 * Add the lengths of a row's fields (select-scan.ts Scan.lengths: name, keywords and verbs joined, brief and full
 * description) to `sums`: per field, the sum of those that are not 0, then how many they are ([sum, count] × 4);
 * `sign` -1 takes them out.
 */
export function addLengths(r: RowFields, sums: number[], sign = 1): void {
  const kw = strings(r.keywords);
  const vb = strings(r.verbs);
  const lengths = [
    r.name.length,
    kw.length + vb.length > 0 ? joinedLength(kw) + 3 + joinedLength(vb) : 0,
    r.brief ? r.brief.length : 0,
    r.description.length,
  ];
  lengths.forEach((n, f) => {
    if (n === 0) return;
    sums[2 * f] += sign * n;
    sums[2 * f + 1] += sign;
  });
}

/** Whether the scan's probe for `s` (select-query.ts probeOf) finds word `w` of that stem. */
function probeSees(w: string, s: string): boolean {
  if (s.length > 3) return w.includes(s.slice(0, -1));
  if (SHORT_STEM.test(s)) return w.length <= s.length + 3 && w.startsWith(s) && LETTERS.test(w.slice(s.length));
  return w.includes(s.length > 2 ? s.slice(0, -1) : s);
}

const NOT_WORD = /([^a-z0-9]+)/;

/** The fields of a row that TermLines reads (select-scan.ts FIELDS 0 to 3), each undefined or a string. */
export interface RowFields {
  name: string;
  keywords: readonly string[] | undefined;
  verbs: readonly string[] | undefined;
  brief: string | null;
  description: string;
}

/**
 * A line of the index being built (see above): its key, its rows and what it holds for each; the last row that
 * touched it and what it holds for that row so far (a count per field packed 8 bits a field, or a pair's field bits).
 */
export interface Line extends Postings {
  key: string;
  row: number;
  packed: number;
  /** The pairs that start with this "t" line's stem, by the stem after it. */
  next?: Map<string, Line>;
}

/** What a word is to the index, found once per distinct word of all the rows. */
interface Word {
  stem: string;
  stop: boolean;
  /** The scan's probe finds it (probeSees). */
  seen: boolean;
  t?: Line;
  k?: Line;
}

/**
 * The lines of a selection index, built row by row: each row's keys (see above) are added to their lines as the row
 * is read, and each distinct word is normalised, stemmed and probed once for all the rows (a registry write reads
 * every skill's fields: no map of keys per row, no key built per word).
 */
export class TermLines {
  /** Every line by its key; a line may have no rows (a pair of a row that was then counted only in part). */
  readonly lines = new Map<string, Line>();
  private readonly words = new Map<string, Word>();
  private readonly touched: Line[] = [];
  private row = -1;
  private readonly counts = new Map<number, string>();

  /** Add the keys of row `row` (rows added in ascending order) and what each line holds for it. */
  add(row: number, r: RowFields): void {
    this.row = row;
    const touched = this.touched;
    touched.length = 0;
    // The counts, from the fields as the scan reads them (select-scan.ts fieldValue). A field of ASCII without
    // apostrophes is split into words as addStems splits it: when every field is, the stems counted are all it finds.
    const kw = strings(r.keywords);
    const vb = strings(r.verbs);
    const fields = [
      r.name,
      kw.length + vb.length ? `${kw.join(' ; ')} ; ${vb.join(' ; ')}` : '',
      r.brief,
      r.description,
    ];
    let full = true;
    for (let f = 0; f < fields.length && full; f++) {
      const value = fields[f];
      if (typeof value !== 'string' || value === '') continue;
      full = !NON_ASCII.test(value) && !value.includes("'") && this.countField(value, f);
    }
    if (!full) {
      // Counted only in part: what was counted is dropped, and every field's words are read as the scan reads them.
      for (const l of touched) l.row = -1;
      touched.length = 0;
      this.addStems(r.name, true, false);
      this.addStems(r.brief, true, false);
      this.addStems(r.description, true, false);
      this.touch(this.lineOf(PARTIAL));
    }
    // The stems of the triggers' words (stop words too): the keywords and verbs one by one (as a trigger is matched)
    // and joined (as ranking reads them); when counted in part, their stems (no stop words) are terms as well. When
    // counted in full, those are the words of field 1, which countField read.
    const keywords = r.keywords ?? [];
    const verbs = r.verbs ?? [];
    if (!full && keywords.length + verbs.length > 0) {
      for (const k of keywords) this.addStems(k, !full, true);
      for (const k of verbs) this.addStems(k, !full, true);
      this.addStems(`${keywords.join(' ; ')} ; ${verbs.join(' ; ')}`, !full, true);
    }
    for (const l of touched) {
      l.rows.push(row);
      l.payloads.push(full && l.packed !== 0 ? this.payloadOf(l) : '');
    }
  }

  private lineOf(key: string): Line {
    let l = this.lines.get(key);
    if (l === undefined) {
      l = { key, rows: [], payloads: [], row: -1, packed: 0 };
      this.lines.set(key, l);
    }
    return l;
  }

  /** The line, first touched by this row: its count starts from 0. */
  private touch(l: Line): Line {
    if (l.row !== this.row) {
      l.row = this.row;
      l.packed = 0;
      this.touched.push(l);
    }
    return l;
  }

  private word(w: string): Word {
    let word = this.words.get(w);
    if (word === undefined) {
      const s = stem(w);
      word = { stem: s, stop: isStopWord(w), seen: probeSees(w, s) };
      this.words.set(w, word);
    }
    return word;
  }

  /** Count the words of field f (ASCII without apostrophes) and its pairs; false when it cannot be counted in full. */
  private countField(value: string, f: number): boolean {
    const norm = value.toLowerCase();
    const shift = 8 * f;
    let last: Line | undefined;
    let lastStem = '';
    let lastEnd = 0;
    // The field split once into its runs of letters and digits and what lies between (at odd places).
    const parts = norm.split(NOT_WORD);
    let at = 0;
    for (let k = 0; k < parts.length; k++) {
      const part = parts[k]!;
      const start = at;
      at += part.length;
      if (k % 2 === 1 || part === '') continue;
      const w = this.word(part);
      if (f === 1) this.touch((w.k ??= this.lineOf(`k${w.stem}`)));
      if (w.stop) continue;
      if (!w.seen) return false;
      const l = this.touch((w.t ??= this.lineOf(`t${w.stem}`)));
      if (((l.packed >>> shift) & 0xff) === MAX_COUNT) return false;
      l.packed += 1 << shift;
      if (last !== undefined && last !== l && start - lastEnd <= PAIR_GAP) {
        const next = (last.next ??= new Map());
        let p = next.get(w.stem);
        if (p === undefined) next.set(w.stem, (p = this.lineOf(`p${lastStem} ${w.stem}`)));
        this.touch(p).packed |= 1 << f;
      }
      last = l;
      lastStem = w.stem;
      lastEnd = at;
    }
    return true;
  }

  /** The words of a text: the stems of those that are no stop words as terms (`terms`), of all as triggers. */
  private addStems(text: unknown, terms: boolean, triggers: boolean): void {
    if (typeof text !== 'string' || text === '') return;
    const visit = (s: string) => {
      const w = this.word(s);
      if (triggers) this.touch((w.k ??= this.lineOf(`k${w.stem}`)));
      if (terms && !w.stop) this.touch((w.t ??= this.lineOf(`t${w.stem}`)));
    };
    const norm = normalizeForMatch(text);
    // ASCII without apostrophes: its words are the runs of letters and digits, which joinedWords finds at native
    // speed.
    if (!NON_ASCII.test(norm) && !norm.includes("'")) {
      for (const w of joinedWords(norm).split(' ')) if (w !== '') visit(w);
    } else forEachWordHolding(norm, ANY_WORD, visit);
  }

  /** A line's counts (packed) as letters and counts ("AD2"); for a pair, the letters of its fields. */
  private payloadOf(l: Line): string {
    const pair = l.key.charCodeAt(0) === 112;
    const memo = pair ? -1 - l.packed : l.packed;
    let out = this.counts.get(memo);
    if (out !== undefined) return out;
    out = '';
    for (let f = 0; f < FIELD_LETTERS.length; f++) {
      const c = pair ? (l.packed >> f) & 1 : (l.packed >>> (8 * f)) & 0xff;
      if (c > 0) out += c > 1 ? `${FIELD_LETTERS[f]}${c}` : FIELD_LETTERS[f];
    }
    this.counts.set(memo, out);
    return out;
  }
}
