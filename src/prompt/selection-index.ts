import { createHash } from 'node:crypto';
import { closeSync, readSync } from 'node:fs';
import { join, sep } from 'node:path';
import { STORE_PATH, byId, type IndexEntry, type RegistryIndex } from '../formats/index-file.js';
import { writeAtomic } from '../fs/atomic.js';
import { readRegularText } from '../fs/read.js';
import { openRegularFile } from '../fs/walk.js';
import { isSkillId } from '../model/spec.js';
import { indexIdentity } from '../registry/index-io.js';
import type { CatalogEntry } from '../skill/light.js';
import { SELECTION_INDEX_VERSION } from './text-match.js';
import { TermLines, addLengths, type RowFields } from './selection-terms.js';
import { decodeCounts, decodeRows, encodeRows, remapRows } from './selection-rows.js';

// A registry's selection index, `<registry>/selection-index`: what render-prompt reads of a registry instead of
// index.json (7 MB for 10,000 skills, most of it versions and dates), and which skills hold each stem of a query.
// Written beside index.json under the registry's lock by every change of it (the follower main.ts registers), and by
// render-prompt when it finds none that fits (a registry written by another tool or version).
//
// Line 1 (JSON): {"format", "version": SELECTION_INDEX_VERSION, "index": identity, "skills": rows, "rowsLength": the
//   length of line 2, "stems": the SHA-1 of the lines after it, "lengths": per field of relevance the sum of the rows'
//   lengths that are not 0 and how many they are}. The identity is index.json's device, inode, size,
//   and modification and change times in nanoseconds: a file written from another index.json (an older one, another
//   registry's, a copy) does not match, and is not trusted. Rows are checked one by one as they are read, the stems'
//   lines by their digest (0.3 ms for 10,000 skills): a damaged line would rule out skills a query reaches.
// Line 2 (JSON): a row per skill, in index.json's order: [id, latestVersion, layout, name, description, path,
//   briefDescription or null, triggers or null, 1 when hidden else 0]. One JSON array parses faster than the same
//   rows as tab-separated lines (measured on 10,000 rows: 12–37 ms against 18–39 ms), and holds any text.
// Then a line per key, "<key>\t<rows>" (selection-terms.ts): "t<stem>" the stems of the words (stop words aside) of
//   each skill's name, keywords, verbs and descriptions, with how often each field holds them; "p<stem> <stem>" two
//   such words side by side; "k<stem>" those of every word of its keywords and verbs; "s" the skills counted only in
//   part. Lines in the order of their keys (code units), rows ascending, each written as its difference from the one
//   before in base 36 and what the line holds for it, comma-separated (selection-rows.ts). Only the lines of a
//   query's stems and pairs are decoded (selection-prefilter.ts).
// A registry write updates the file written from the index.json it replaced: a skill whose fields are unchanged keeps
// the stems the old file gives it, only the others are read again. The text is a function of the rows and their
// stems alone, so an update writes exactly what a rebuild would.

export { indexIdentity };

export const SELECTION_INDEX_FILE = 'selection-index';
const FORMAT = 'skills-selection-index';

/** One skill of the index: what the catalog shows of its latest version, and what selection reads. */
export type Row = [
  id: string,
  version: string,
  layout: 'skill-md' | 'manifest',
  name: string,
  description: string,
  path: string,
  brief: string | null,
  triggers: { keywords?: string[]; verbs?: string[]; patterns?: string[] } | null,
  hidden: 0 | 1,
];

export interface SelectionIndex {
  /** Its first line as written: what it was written from (the index.json's identity) and of what. */
  header: string;
  rows: Row[];
  /**
   * Per field of relevance (name, keywords and verbs, brief, description): the sum of the rows' lengths that are not
   * 0, then how many they are.
   */
  lengths: readonly number[];
  /**
   * The rows whose fields hold stem `s` ("t" + s: a word that is no stop word, in any field; "k" + s: any word of the
   * triggers); [] when none do; null when the line is damaged (then nothing can be ruled out).
   */
  holding(key: string): number[] | null;
  /**
   * The rows of a key's line as `holding` gives them, with each row's counts (selection-terms.ts packedOf: 8 bits a
   * field; 0 for a row counted only in part); null when the line is damaged.
   */
  counts(key: string): { rows: number[]; packed: number[] } | null;
  /** The stems' lines, whole (their digest checked). */
  stemsText(): string;
}

/** The row of an index entry. */
export function rowOf(e: IndexEntry): Row {
  const l = e.latest;
  return [
    e.id,
    e.latestVersion,
    l.layout,
    l.name,
    l.description,
    l.path,
    l.briefDescription ?? null,
    l.triggers ?? null,
    l.hidden === true ? 1 : 0,
  ];
}

/**
 * A registry skill's catalog entry, which is its selection candidate too (select.ts candidateOf gives the same
 * fields): ten thousand rows make one object each, not two.
 */
export interface RegistryEntry extends CatalogEntry {
  scope: 'registry';
  keywords: string[] | undefined;
  verbs: string[] | undefined;
  patterns: string[] | undefined;
}

/** Whether a catalog entry is a registry skill's (catalogEntryOf made it, as it makes every one). */
export const isRegistryEntry = (e: CatalogEntry): e is RegistryEntry => e.scope === 'registry';

/** The catalog's entry of a registry skill, whose latest stored copy is `root`. */
export function catalogEntryOf(r: Row, root: string): RegistryEntry {
  const t = r[7];
  const triggers = t ? { keywords: t.keywords ?? [], verbs: t.verbs ?? [], patterns: t.patterns ?? [] } : undefined;
  const location = `${root}${sep}${r[2] === 'skill-md' ? 'SKILL.md' : 'manifest.json'}`;
  // entryOf's fields in its order, then the candidate's triggers as candidateOf reads them from `triggers`.
  return {
    name: r[0],
    title: r[3],
    description: r[4],
    briefDescription: r[6] || undefined,
    version: r[1],
    triggers,
    layout: r[2],
    location,
    root,
    scope: 'registry',
    hidden: r[8] === 1,
    listing: undefined,
    body: undefined,
    keywords: triggers?.keywords,
    verbs: triggers?.verbs,
    patterns: triggers?.patterns,
  };
}

/** The fields of a row that selection reads word by word (selection-terms.ts). */
export function rowFields(r: Row): RowFields {
  const t = r[7];
  return { name: r[0], keywords: t?.keywords, verbs: t?.verbs, brief: r[6], description: r[4] };
}

/** Whether two rows hold the same fields of TermLines (the id, triggers' keywords and verbs, the descriptions). */
function sameWords(a: Row, b: Row): boolean {
  return (
    a[0] === b[0] &&
    a[4] === b[4] &&
    a[6] === b[6] &&
    sameStrings(a[7]?.keywords, b[7]?.keywords) &&
    sameStrings(a[7]?.verbs, b[7]?.verbs)
  );
}

function sameStrings(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

/** The text of the selection index of these rows (index.json's order), for the index `identity`. */
function indexText(rows: readonly Row[], identity: string): string {
  const terms = new TermLines();
  for (let i = 0; i < rows.length; i++) terms.add(i, rowFields(rows[i]!));
  const lines = [...terms.lines.values()].filter((l) => l.rows.length > 0);
  lines.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  let text = '';
  for (const l of lines) text += `${l.key}\t${encodeRows(l)}\n`;
  return withHeader(rows, text, identity);
}

/** The whole file: the header, the rows, and the stems' lines. */
function withHeader(rows: readonly Row[], lines: string, identity: string): string {
  const rowsText = JSON.stringify(rows);
  const lengths = [0, 0, 0, 0, 0, 0, 0, 0];
  for (const r of rows) addLengths(rowFields(r), lengths);
  const header = {
    format: FORMAT,
    version: SELECTION_INDEX_VERSION,
    index: identity,
    skills: rows.length,
    rowsLength: rowsText.length,
    stems: digestOf(lines),
    lengths,
  };
  return `${JSON.stringify(header)}\n${rowsText}\n${lines}`;
}

/**
 * The text of the selection index of `rows` made from `old`, the one written from the index.json they replace: the
 * rows of unchanged skills keep their stems' lines (renumbered), the others are read (TermLines). Exactly indexText's
 * text; undefined when the old one cannot be used (its rows out of order, a damaged line).
 */
function updatedText(old: SelectionIndex, rows: readonly Row[], identity: string): string | undefined {
  const before = old.rows;
  for (let j = 1; j < before.length; j++) if (!(before[j - 1]![0] < before[j]![0])) return undefined;
  // Old row → its new row, -1 when it went or changed (both lists in id order, so the map keeps the order).
  const moved = new Int32Array(before.length).fill(-1);
  const fresh = new TermLines();
  let j = 0;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    while (j < before.length && before[j]![0] < r[0]) j++;
    if (j < before.length && before[j]![0] === r[0] && sameWords(before[j]!, r)) {
      moved[j] = i;
      continue;
    }
    fresh.add(i, rowFields(r));
  }
  const lines: [string, string][] = [];
  const text = old.stemsText();
  for (let at = 0; at < text.length;) {
    let end = text.indexOf('\n', at);
    if (end === -1) end = text.length;
    const tab = text.indexOf('\t', at);
    if (tab === -1 || tab > end) return undefined;
    const key = text.slice(at, tab);
    const added = fresh.lines.get(key);
    fresh.lines.delete(key);
    const line = remapRows(text, tab + 1, end, moved, added);
    if (line === null) return undefined;
    if (line !== '') lines.push([key, line]);
    at = end + 1;
  }
  for (const [key, added] of fresh.lines) if (added.rows.length > 0) lines.push([key, encodeRows(added)]);
  lines.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  let out = '';
  for (const [key, line] of lines) out += `${key}\t${line}\n`;
  return withHeader(rows, out, identity);
}

/** The text of the selection index of these entries (index.json's, in its order), for the index of `identity`. */
export function selectionIndexText(entries: readonly IndexEntry[], identity: string): string {
  return indexText(entries.map(rowOf), identity);
}

/** The digest of the stems' lines: a line damaged but still well formed would rule out skills a query reaches. */
const digestOf = (lines: string) => createHash('sha1').update(lines).digest('base64url');

/** Write the selection index of `entries` (index.json's, in its order) for the index of `identity`. */
export function writeSelectionIndex(dir: string, entries: readonly IndexEntry[], identity: string): void {
  writeSelectionText(dir, selectionIndexText(entries, identity));
}

/** Write a selection index's text as the registry's, by a rename. */
export function writeSelectionText(dir: string, text: string): void {
  writeAtomic(join(dir, SELECTION_INDEX_FILE), text);
}

/**
 * The follower of the registry's index (registry/followers.ts): under the lock, after index.json was written, the
 * selection index of what it now holds, unless the one there was written from it already. When the one there was
 * written from the index.json this write replaced (`before`), the skills whose fields are unchanged keep their stems
 * from it: only those the write added or changed are read.
 */
export function followRegistryIndex(dir: string, index: RegistryIndex, before?: string): void {
  const identity = indexIdentity(dir);
  if (identity === undefined || headerOf(dir)?.index === identity) return;
  // In the order serializeIndex wrote them.
  const rows = [...index.skills].sort(byId).map(rowOf);
  const old = before === undefined ? undefined : readSelectionIndex(dir, before);
  writeSelectionText(dir, (old && updatedText(old, rows, identity)) ?? indexText(rows, identity));
}

interface Header {
  format: string;
  version: number;
  index: string;
  skills: number;
  rowsLength: number;
  stems: string;
  lengths: number[];
}

const isHeader = (h: unknown, identity: string): h is Header =>
  typeof h === 'object' &&
  h !== null &&
  (h as Header).format === FORMAT &&
  (h as Header).version === SELECTION_INDEX_VERSION &&
  (h as Header).index === identity &&
  Number.isInteger((h as Header).skills) &&
  Number.isInteger((h as Header).rowsLength) &&
  typeof (h as Header).stems === 'string' &&
  Array.isArray((h as Header).lengths) &&
  (h as Header).lengths.length === 8 &&
  (h as Header).lengths.every((n) => Number.isInteger(n) && n >= 0);

/** The first line of the selection index, parsed; undefined when there is none or it is not a header. */
function headerOf(dir: string): Header | undefined {
  let fd: number;
  try {
    // A FIFO or a device there is no selection index (never waited on).
    fd = openRegularFile(join(dir, SELECTION_INDEX_FILE)).fd;
  } catch {
    return undefined;
  }
  try {
    const buf = Buffer.alloc(1024);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const text = buf.toString('utf8', 0, n);
    const nl = text.indexOf('\n');
    return nl === -1 ? undefined : (JSON.parse(text.slice(0, nl)) as Header);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * The registry's selection index when it was written from the index.json there now and is whole; undefined
 * otherwise (none, stale, another version's, damaged): then the caller reads index.json.
 */
export function readSelectionIndex(dir: string, identity = indexIdentity(dir)): SelectionIndex | undefined {
  if (identity === undefined) return undefined;
  let text: string;
  try {
    text = readRegularText(join(dir, SELECTION_INDEX_FILE));
  } catch {
    return undefined;
  }
  return parseSelectionIndex(text, identity);
}

/** A selection index's text, as written from the index.json of this identity, read; undefined when it is not one. */
export function parseSelectionIndex(text: string, identity: string): SelectionIndex | undefined {
  const nl = text.indexOf('\n');
  const nl2 = nl === -1 ? -1 : text.indexOf('\n', nl + 1);
  if (nl2 === -1) return undefined;
  let header: unknown;
  let rows: unknown;
  try {
    header = JSON.parse(text.slice(0, nl));
    if (!isHeader(header, identity)) return undefined;
    rows = JSON.parse(text.slice(nl + 1, nl2));
  } catch {
    return undefined;
  }
  if (nl2 - nl - 1 !== header.rowsLength || digestOf(text.slice(nl2 + 1)) !== header.stems) return undefined;
  if (!Array.isArray(rows) || rows.length !== header.skills || !rows.every(isRow)) return undefined;
  // Each id once: in ascending order, as every writer puts them (index.json's order), they are; else counted.
  if (!ascending(rows as Row[]) && new Set(rows.map((r: Row) => r[0])).size !== rows.length) return undefined;
  const checked = rows as Row[];
  return {
    header: text.slice(0, nl),
    rows: checked,
    lengths: header.lengths,
    holding(key) {
      const at = lineOf(key);
      return at === null ? null : at === undefined ? [] : decodeRows(text, at[0], at[1], checked.length);
    },
    counts(key) {
      const at = lineOf(key);
      if (at === null) return null;
      const rows: number[] = [];
      const packed: number[] = [];
      return at === undefined || decodeCounts(text, at[0], at[1], checked.length, rows, packed)
        ? { rows, packed }
        : null;
    },
    stemsText: () => text.slice(nl2 + 1),
  };
  /** Where the rows of a key's line start and end; undefined when there is no line, null when one is damaged. */
  function lineOf(key: string): [number, number] | undefined | null {
    // A query asks for a few stems: each line is found by searching for it (the lines follow line 2's newline). A
    // binary search over the sorted lines was tried, and read more: it walks to the end of each line it passes,
    // and a common word's line is thousands of rows long.
    const at = text.indexOf(`\n${key}\t`, nl2);
    if (at === -1) return undefined;
    const start = at + key.length + 2;
    const end = text.indexOf('\n', start);
    return [start, end === -1 ? text.length : end];
  }
}

/** Whether the rows' ids are in strictly ascending order (so each is there once). */
function ascending(rows: readonly Row[]): boolean {
  for (let i = 1; i < rows.length; i++) if (!(rows[i - 1]![0] < rows[i]![0])) return false;
  return true;
}

// An id of lower-case ASCII letters and digits with single hyphens between is a skill id (isSkillId: its Unicode
// checks are for other ids): 10,000 rows are checked without normalising each.
const ASCII_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const isStrings = (v: unknown) => v === undefined || (Array.isArray(v) && v.every((s) => typeof s === 'string'));

function isRow(r: unknown): r is Row {
  if (!Array.isArray(r) || r.length !== 9) return false;
  const t = r[7] as Row[7];
  return (
    typeof r[0] === 'string' &&
    ((r[0].length <= 64 && ASCII_ID.test(r[0])) || isSkillId(r[0])) &&
    typeof r[1] === 'string' &&
    (r[2] === 'skill-md' || r[2] === 'manifest') &&
    typeof r[3] === 'string' &&
    typeof r[4] === 'string' &&
    typeof r[5] === 'string' &&
    (r[5] === '' || STORE_PATH.test(r[5])) &&
    (r[6] === null || typeof r[6] === 'string') &&
    (t === null ||
      (typeof t === 'object' &&
        !Array.isArray(t) &&
        isStrings(t.keywords) &&
        isStrings(t.verbs) &&
        isStrings(t.patterns))) &&
    (r[8] === 0 || r[8] === 1)
  );
}
