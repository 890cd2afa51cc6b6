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

/** The stems of the words of a text: into `words` those of words that are no stop words, into `all` every one. */
function addStems(text: unknown, words: Set<string>, all?: Set<string>): void {
  if (typeof text !== 'string' || text === '') return;
  const visit = (w: string) => {
    const s = stem(w);
    all?.add(s);
    if (!isStopWord(w)) words.add(s);
  };
  const norm = normalizeForMatch(text);
  // ASCII without apostrophes: its words are the runs of letters and digits, which joinedWords finds at native speed
  // (a registry write reads every skill's fields).
  if (!NON_ASCII.test(norm) && !norm.includes("'")) {
    for (const w of joinedWords(norm).split(' ')) if (w !== '') visit(w);
  } else forEachWordHolding(norm, ANY_WORD, visit);
}

/** Whether the scan's probe for `s` (select-query.ts probeOf) finds word `w` of that stem. */
function probeSees(w: string, s: string): boolean {
  if (s.length > 3) return w.includes(s.slice(0, -1));
  if (SHORT_STEM.test(s)) return w.length <= s.length + 3 && w.startsWith(s) && LETTERS.test(w.slice(s.length));
  return w.includes(s.length > 2 ? s.slice(0, -1) : s);
}

const WORD_RUN = /[a-z0-9]+/g;

/**
 * Count the words of field f (ASCII without apostrophes) into `counts` (stem → a count per field, packed 8 bits a
 * field) and `pairs` (key → field bits); false when the field cannot be counted in full.
 */
function countField(
  value: string,
  f: number,
  counts: Map<string, number>,
  pairs: Map<string, number>,
  stems: Set<string>,
): boolean {
  const norm = value.toLowerCase();
  let last: string | undefined;
  let lastEnd = 0;
  WORD_RUN.lastIndex = 0;
  for (let m = WORD_RUN.exec(norm); m !== null; m = WORD_RUN.exec(norm)) {
    const w = m[0];
    if (isStopWord(w)) continue;
    const s = stem(w);
    if (!probeSees(w, s)) return false;
    stems.add(s);
    const before = counts.get(s) ?? 0;
    if (((before >>> (8 * f)) & 0xff) === MAX_COUNT) return false;
    counts.set(s, before + (1 << (8 * f)));
    if (last !== undefined && last !== s && m.index - lastEnd <= PAIR_GAP) {
      const key = `p${last} ${s}`;
      pairs.set(key, (pairs.get(key) ?? 0) | (1 << f));
    }
    last = s;
    lastEnd = m.index + w.length;
  }
  return true;
}

/** A field's counts (packed) as letters and counts ("AD2"); for pairs (`bits`), the letters alone. */
function payloadOf(packed: number, bits = false): string {
  let out = '';
  for (let f = 0; f < FIELD_LETTERS.length; f++) {
    const c = bits ? (packed >> f) & 1 : (packed >>> (8 * f)) & 0xff;
    if (c > 0) out += c > 1 ? `${FIELD_LETTERS[f]}${c}` : FIELD_LETTERS[f];
  }
  return out;
}

/** The fields of a row that keysOf reads (select-scan.ts FIELDS 0 to 3), each undefined or a string. */
export interface RowFields {
  name: string;
  keywords: readonly string[] | undefined;
  verbs: readonly string[] | undefined;
  brief: string | null;
  description: string;
}

/** The keys of a row (see above), each with what its line holds for the row after the row's number ('' for none). */
export function keysOf(r: RowFields): Map<string, string> {
  const keywords = r.keywords ?? [];
  const verbs = r.verbs ?? [];
  // The counts, from the fields as the scan reads them (select-scan.ts fieldValue). A field of ASCII without
  // apostrophes is split into words as addStems splits it: when every field is, the stems counted are all it finds.
  const kw = strings(r.keywords);
  const vb = strings(r.verbs);
  const fields = [r.name, kw.length + vb.length ? `${kw.join(' ; ')} ; ${vb.join(' ; ')}` : '', r.brief, r.description];
  const counts = new Map<string, number>();
  const pairs = new Map<string, number>();
  const counted = new Set<string>();
  let full = true;
  for (let f = 0; f < fields.length && full; f++) {
    const value = fields[f];
    if (typeof value !== 'string' || value === '') continue;
    full = !NON_ASCII.test(value) && !value.includes("'") && countField(value, f, counts, pairs, counted);
  }
  // The stems of every word (no stop word) of the fields, and those of the triggers' words (stop words too): the
  // keywords and verbs one by one (as a trigger is matched) and joined (as ranking reads them).
  const words = full ? counted : new Set<string>();
  const triggers = new Set<string>();
  if (!full) addStems(r.name, words);
  if (keywords.length + verbs.length > 0)
    for (const k of [...keywords, ...verbs, `${keywords.join(' ; ')} ; ${verbs.join(' ; ')}`])
      addStems(k, full ? new Set() : words, triggers);
  if (!full) {
    addStems(r.brief, words);
    addStems(r.description, words);
  }
  const keys = new Map<string, string>();
  for (const w of words) keys.set(`t${w}`, full ? payloadOf(counts.get(w) ?? 0) : '');
  for (const w of triggers) keys.set(`k${w}`, '');
  if (full) for (const [key, bits] of pairs) keys.set(key, payloadOf(bits, true));
  else keys.set(PARTIAL, '');
  return keys;
}
