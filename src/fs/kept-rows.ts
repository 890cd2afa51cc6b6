import { dirname, sep } from 'node:path';
import { readOwnBytes, removeStaleCaches, writeOwnFile } from './user-cache.js';

// The keyed rows of a user cache file (lint's results, list's and the catalog's records), read lazily: the file is
// one JSON document, laid out one row a line,
//
//   {"build":"…","base":"/p/skills/","skills":[
//   ["one",…],
//   ["two",…]
//   ],"strings":["…",…]}
//
// so that a run keeps the file's bytes, finds each row's key with no parse, and parses a row only when it is asked
// for. A hundred thousand rows are 24 MB on disk; parsed whole they were ten times that on the heap at once, most of
// it garbage a moment later, and the most memory a warm lint of 100,000 skills held. A file of another layout (any
// JSON document of the same fields) is still read, whole.

/**
 * How the rows of a cache file are read and written: a row is a list whose first item is its key. A codec may say
 * a string by its number in the file's table of strings (`strings`), which holds each once: a hundred thousand rows
 * repeating the same messages and file names are then a hundred thousand small numbers, in the file and in memory.
 */
export interface RowCodec<K extends object> {
  /**
   * The value a row holds, checked; undefined for a malformed row, which is dropped. (K is never an array.) `strings`
   * is the file's table.
   */
  decode(row: unknown[], key: string, strings: readonly string[]): K | undefined;
  /** The row of `value`: its key first; `intern` gives a string's number in the table written with it. */
  encode(key: string, value: K, intern: (s: string) => number): unknown[];
}

export interface KeptRowsOptions<K extends object> {
  build: string;
  /**
   * The file's list of rows: `{build, base, [field]: rows, strings}`, each row's key written without `base`, the
   * start all the keys share (the skill folders' path, said once instead of ten thousand times).
   */
  field: string;
  /** The cache's kind (`list`, `catalog`): its temp files and the stale files removed beside it. */
  kind: string;
  maxBytes: number;
  maxEntries: number;
  uid: number | undefined;
  codec: RowCodec<K>;
}

/** The keyed rows of a user cache file, each parsed, decoded and checked when it is asked for. */
export interface KeptRows<K extends object> {
  /** The value kept for `key` (decoded afresh at each call: a value only read is not held in memory). */
  get(key: string): K | undefined;
  /** This run used `value` for `key` as it was kept. */
  use(key: string, value: K): void;
  /** This run made `value` for `key`: the file is written again. */
  put(key: string, value: K): void;
  /** Forget `key`'s row (it no longer holds); true when there was one. */
  drop(key: string): boolean;
  /** Write the file when something changed, this run's rows first (the longest unused go first); never throws. */
  save(): void;
}

/**
 * A key's slot: the offset in the file's bytes of its row's line (parsed when asked for), its row as read from a
 * file of another layout, or the value this run made or used.
 */
type Slot<K> = number | unknown[] | { value: K };

/** What a file holds for this build: its rows by key, each where it is (see Slot), and its table of strings. */
interface FileRows {
  slots: Map<string, Slot<never>>;
  bytes?: Buffer;
  base: string;
  strings: readonly string[];
}

const NEWLINE = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = 0x5b;

/**
 * The rows kept in `file` for `build`, found now (at most `maxEntries`; nothing when the file is missing, foreign, of
 * another build or malformed) and written by save().
 */
export function openKeptRows<K extends object>(file: string, opts: KeptRowsOptions<K>): KeptRows<K> {
  const found = readRows(file, opts);
  const slots = found.slots as Map<string, Slot<K>>;
  const { bytes, strings } = found;
  // The keys this run used or made, in that order: written first.
  const used: string[] = [];
  let changed = false;
  /** The row of `key` as its slot holds it, with its whole key first; undefined for a value or a broken line. */
  const rowOf = (key: string, slot: Slot<K>): unknown[] | undefined => {
    if (Array.isArray(slot)) return slot;
    if (typeof slot !== 'number') return undefined;
    let end = bytes!.indexOf(NEWLINE, slot);
    if (bytes![end - 1] === 0x2c) end--;
    try {
      const row: unknown = JSON.parse(bytes!.toString('utf8', slot, end));
      if (!Array.isArray(row)) return undefined;
      row[0] = key;
      return row;
    } catch {
      return undefined;
    }
  };
  const get = (key: string): K | undefined => {
    const slot = slots.get(key);
    if (slot === undefined) return undefined;
    if (!Array.isArray(slot) && typeof slot === 'object') return slot.value;
    const row = rowOf(key, slot);
    const value = row && opts.codec.decode(row, key, strings);
    if (!value) slots.delete(key);
    // A row read from a file of another layout is decoded once, as it was before this file's layout.
    else if (Array.isArray(slot)) slots.set(key, { value });
    return value;
  };
  return {
    get,
    use(key, value) {
      // A row of the file stays where it is: its value, used once, is not held.
      if (typeof slots.get(key) !== 'number') slots.set(key, { value });
      used.push(key);
    },
    put(key, value) {
      slots.set(key, { value });
      used.push(key);
      changed = true;
    },
    drop(key) {
      const had = slots.delete(key);
      if (had) changed = true;
      return had;
    },
    save() {
      if (!changed) return;
      changed = false;
      const keys: string[] = [];
      let shared: string | undefined;
      for (const key of new Set([...used, ...slots.keys()])) {
        if (keys.length >= opts.maxEntries) break;
        if (!slots.has(key)) continue;
        keys.push(key);
        shared = shared === undefined ? key : sharedStart(shared, key);
      }
      // Up to a path separator, so that each row's key starts with a name of its own.
      const cut = shared === undefined ? 0 : Math.max(shared.lastIndexOf('/'), shared.lastIndexOf(sep)) + 1;
      const numbers = new Map<string, number>();
      const intern = (text: string) => {
        let n = numbers.get(text);
        if (n === undefined) numbers.set(text, (n = numbers.size));
        return n;
      };
      // Each row made into text as it is written, in pieces: never one string of the whole file.
      function* pieces(): Generator<string> {
        let piece = `{"build":${JSON.stringify(opts.build)},"base":${JSON.stringify(shared?.slice(0, cut) ?? '')},${JSON.stringify(opts.field)}:[`;
        let first = true;
        for (const key of keys) {
          const slot = slots.get(key)!;
          const value = typeof slot === 'object' && !Array.isArray(slot) ? slot.value : get(key);
          if (!value) continue;
          const row = opts.codec.encode(key, value, intern);
          const whole = row[0];
          row[0] = key.slice(cut);
          piece += `${first ? '' : ','}\n${JSON.stringify(row)}`;
          row[0] = whole;
          first = false;
          if (piece.length >= 65_536) {
            yield piece;
            piece = '';
          }
        }
        yield `${piece}\n]${numbers.size > 0 ? `,"strings":${JSON.stringify([...numbers.keys()])}` : ''}}\n`;
      }
      writeOwnFile(file, pieces(), `.${opts.kind}-tmp-`, opts.uid);
      removeStaleCaches(dirname(file), opts.kind);
    },
  };
}

/** The rows of `file` for this build: found in its lines, or (a file of another layout) parsed whole. */
function readRows(file: string, opts: KeptRowsOptions<object>): FileRows {
  const none: FileRows = { slots: new Map(), base: '', strings: [] };
  const bytes = readOwnBytes(file, opts.maxBytes, opts.uid);
  if (bytes === undefined) return none;
  const lines = lineRows(bytes, opts);
  if (lines) return lines;
  let data: unknown;
  try {
    data = JSON.parse(bytes.toString('utf8'));
  } catch {
    return none;
  }
  if (!isRecord(data) || data.build !== opts.build || !Array.isArray(data[opts.field])) return none;
  const base = typeof data.base === 'string' ? data.base : '';
  const slots = new Map<string, Slot<never>>();
  for (const row of data[opts.field] as unknown[]) {
    if (slots.size >= opts.maxEntries) break;
    if (!Array.isArray(row) || typeof row[0] !== 'string') continue;
    row[0] = base + row[0];
    slots.set(row[0] as string, row);
  }
  return { slots, base, strings: stringsOf(data.strings) };
}

/**
 * The rows of a file laid out as save() writes it, each key found where its line starts; undefined when the file is
 * not laid out so (its first and last lines are not a header and a trailer; then it is parsed whole).
 */
function lineRows(bytes: Buffer, opts: KeptRowsOptions<object>): FileRows | undefined {
  const first = bytes.indexOf(NEWLINE);
  const last = bytes.length >= 2 ? bytes.lastIndexOf(NEWLINE, bytes.length - 2) : -1;
  if (first < 0 || bytes[bytes.length - 1] !== NEWLINE || last < first) return undefined;
  let head: unknown;
  let tail: unknown;
  try {
    head = JSON.parse(`${bytes.toString('utf8', 0, first)}]}`);
    tail = JSON.parse(`{"rows":[${bytes.toString('utf8', last + 1, bytes.length - 1)}`);
  } catch {
    return undefined;
  }
  if (!isRecord(head) || !isRecord(tail) || !Array.isArray(head[opts.field]) || !Array.isArray(tail.rows))
    return undefined;
  const slots = new Map<string, Slot<never>>();
  const base = typeof head.base === 'string' ? head.base : '';
  if (head.build !== opts.build) return { slots, base, strings: [] };
  for (let at = first + 1; at < last && slots.size < opts.maxEntries;) {
    const end = bytes.indexOf(NEWLINE, at);
    const key = keyAt(bytes, at, end);
    // A line that does not start with its key is left out; a row that does is checked whole when it is parsed.
    if (key !== undefined) slots.set(base + key, at);
    at = end + 1;
  }
  return { slots, bytes, base, strings: stringsOf(tail.strings) };
}

/** The key a row's line (`["key",…`, from `at` to `end`) starts with, read without parsing the row. */
function keyAt(bytes: Buffer, at: number, end: number): string | undefined {
  if (bytes[at] !== OPEN || bytes[at + 1] !== QUOTE) return undefined;
  let escaped = false;
  for (let i = at + 2; i < end; i++) {
    const c = bytes[i];
    if (c === BACKSLASH) {
      escaped = true;
      i++;
    } else if (c === QUOTE) {
      if (!escaped) return bytes.toString('utf8', at + 2, i);
      try {
        return JSON.parse(bytes.toString('utf8', at + 1, i + 1)) as string;
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const stringsOf = (v: unknown): readonly string[] =>
  Array.isArray(v) && v.every((s) => typeof s === 'string') ? (v as string[]) : [];

/** The longest start `a` and `b` share. */
function sharedStart(a: string, b: string): string {
  let i = 0;
  const n = Math.min(a.length, b.length);
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i === a.length ? a : a.slice(0, i);
}
