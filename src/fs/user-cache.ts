import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanStale, tempName, writeAll } from './atomic.js';

// The files of the user's cache folder (the one bin/skills.js keeps its code cache in): the token counts, the
// list's record of valid skills. The folder is the user's own (mode 0700) and is used only when it belongs to the
// user and nobody else can write to it; a file is read only when it is the user's, not a link and not writable by
// others, and is replaced by a rename, never rewritten in place. Nothing here throws: a cache that cannot be read
// or written costs the next run some work, nothing more.

/** The folder of the user's caches: `$XDG_CACHE_HOME/skills`, else `~/.cache/skills` (as bin/skills.js). */
export function userCacheDir(env: Record<string, string | undefined>, home: string): string {
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), 'skills');
}

/** The current user's id, where there are user ids. */
export function currentUid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined;
}

/** True when `dir` is a folder of `uid`'s that nobody else may write to (a missing folder is not). */
export function ownFolder(dir: string, uid: number | undefined): boolean {
  try {
    const st = statSync(dir);
    return st.isDirectory() && (uid === undefined || st.uid === uid) && (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/**
 * The text of a cache file of `uid`'s in a folder of its own, or undefined: a missing, foreign, linked, shared or
 * larger than `maxBytes` file is not read.
 */
export function readOwnFile(file: string, maxBytes: number, uid: number | undefined): string | undefined {
  if (!ownFolder(dirname(file), uid)) return undefined;
  let fd: number | undefined;
  try {
    // Not through a symlink; checked on the open file, so that what is checked is what is read.
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    const st = fstatSync(fd);
    if (!st.isFile() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o022) !== 0 || st.size > maxBytes)
      return undefined;
    const buf = Buffer.allocUnsafe(st.size);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, got);
      if (n === 0) break;
      got += n;
    }
    return buf.toString('utf8', 0, got);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The JSON object a cache file of `uid`'s holds (as readOwnFile reads it), or undefined: unreadable, not JSON, or
 * not an object.
 */
export function readOwnJson(
  file: string,
  maxBytes: number,
  uid: number | undefined,
): Record<string, unknown> | undefined {
  const text = readOwnFile(file, maxBytes, uid);
  if (text === undefined) return undefined;
  try {
    const data: unknown = JSON.parse(text);
    return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

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
   * The file's list of rows: `{build, base, [field]: rows}`, each row's key written without `base`, the start all
   * the keys share (the skill folders' path, said once instead of ten thousand times).
   */
  field: string;
  /** The cache's kind (`list`, `catalog`): its temp files and the stale files removed beside it. */
  kind: string;
  maxBytes: number;
  maxEntries: number;
  uid: number | undefined;
  codec: RowCodec<K>;
}

/** The keyed rows of a user cache file, each decoded and checked the first time it is asked for. */
export interface KeptRows<K extends object> {
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
 * The rows kept in `file` for `build`, read now (at most `maxEntries`; nothing when the file is missing, foreign, of
 * another build or malformed) and written by save().
 */
export function openKeptRows<K extends object>(file: string, opts: KeptRowsOptions<K>): KeptRows<K> {
  // One slot a key: its row as read, until it is decoded into its value (or replaced by this run's). A hit costs a
  // lookup, not a Map insertion: ten thousand of each are a noticeable share of a warm run.
  const kept = new Map<string, { row?: unknown[]; value?: K }>();
  const data = readOwnJson(file, opts.maxBytes, opts.uid);
  const rows = data?.[opts.field];
  const base = typeof data?.base === 'string' ? data.base : '';
  const table = data?.strings;
  const strings: readonly string[] = Array.isArray(table) && table.every(isStr) ? (table as string[]) : [];
  if (data?.build === opts.build && Array.isArray(rows))
    for (const row of rows as unknown[]) {
      if (kept.size >= opts.maxEntries) break;
      if (!Array.isArray(row) || typeof row[0] !== 'string') continue;
      // The row as the codec wrote it: its whole key first.
      row[0] = base + row[0];
      kept.set(row[0] as string, { row });
    }
  // The keys this run used or made, in that order: written first.
  const used: string[] = [];
  let changed = false;
  const get = (key: string): K | undefined => {
    const slot = kept.get(key);
    if (!slot || slot.row === undefined) return slot?.value;
    const value = opts.codec.decode(slot.row, key, strings);
    slot.row = undefined;
    if (value) slot.value = value;
    else kept.delete(key);
    return value;
  };
  const set = (key: string, value: K) => {
    const slot = kept.get(key);
    if (slot) {
      slot.row = undefined;
      slot.value = value;
    } else kept.set(key, { value });
    used.push(key);
  };
  return {
    get,
    use: set,
    put(key, value) {
      set(key, value);
      changed = true;
    },
    drop(key) {
      const had = kept.delete(key);
      if (had) changed = true;
      return had;
    },
    save() {
      if (!changed) return;
      changed = false;
      const out: unknown[][] = [];
      let shared: string | undefined;
      const numbers = new Map<string, number>();
      const intern = (text: string) => {
        let n = numbers.get(text);
        if (n === undefined) numbers.set(text, (n = numbers.size));
        return n;
      };
      for (const key of new Set([...used, ...kept.keys()])) {
        if (out.length >= opts.maxEntries) break;
        const value = get(key);
        if (!value) continue;
        out.push(opts.codec.encode(key, value, intern));
        shared = shared === undefined ? key : sharedStart(shared, key);
      }
      // Up to a path separator, so that each row's key starts with a name of its own.
      const cut = shared === undefined ? 0 : Math.max(shared.lastIndexOf('/'), shared.lastIndexOf(sep)) + 1;
      // Each row's key shortened in place while the text is made, and put back: no copy of every row (a hundred
      // thousand rows are tens of megabytes).
      const keys = out.map((row) => row[0] as string);
      let text: string;
      try {
        for (const row of out) row[0] = (row[0] as string).slice(cut);
        const table = numbers.size > 0 ? { strings: [...numbers.keys()] } : {};
        text = JSON.stringify({ build: opts.build, base: shared?.slice(0, cut) ?? '', ...table, [opts.field]: out });
      } finally {
        out.forEach((row, i) => (row[0] = keys[i]));
      }
      writeOwnFile(file, `${text}\n`, `.${opts.kind}-tmp-`, opts.uid);
      removeStaleCaches(dirname(file), opts.kind);
    },
  };
}

/** The longest start `a` and `b` share. */
function sharedStart(a: string, b: string): string {
  let i = 0;
  const n = Math.min(a.length, b.length);
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i === a.length ? a : a.slice(0, i);
}

/** Checks of what a cache file holds. */
export const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
export const isStr = (v: unknown): v is string => typeof v === 'string';
export const optStr = (v: unknown): v is string | null => v === null || typeof v === 'string';

/**
 * Replace a cache file with `text` (mode 0600, through a temp file named `tempPrefix`… and a rename), creating the
 * folder (0700); nothing is written into a folder that is not the user's own.
 */
export function writeOwnFile(file: string, text: string, tempPrefix: string, uid: number | undefined): void {
  const dir = dirname(file);
  let tmp: string | undefined;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // A folder that was there already and is not the user's own is left alone.
    if (!ownFolder(dir, uid)) return;
    cleanStale(dir, [tempPrefix]);
    tmp = join(dir, tempName(tempPrefix, 'w'));
    const fd = openSync(tmp, 'wx', 0o600);
    try {
      writeAll(fd, text);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
    tmp = undefined;
  } catch {
    // A cache that cannot be written costs the next run some work, nothing more.
  } finally {
    if (tmp !== undefined) rmSync(tmp, { force: true });
  }
}

/**
 * What a cached result made from a path is checked against: the device, inode, size, mtime and ctime of the path
 * (ms). ctime changes with every write, rename and chmod, and cannot be set back.
 */
export type FileIdentity = [number, number, number, number, number];

/** The identity of what is at `path` (symlinks followed), or undefined when nothing is. */
export function identityOf(path: string): FileIdentity | undefined {
  try {
    const st = statSync(path, { throwIfNoEntry: false });
    return st ? [st.dev, st.ino, st.size, st.mtimeMs, st.ctimeMs] : undefined;
  } catch {
    return undefined;
  }
}

export function sameIdentity(a: FileIdentity | undefined, b: readonly unknown[]): boolean {
  return a !== undefined && a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3] && a[4] === b[4];
}

/**
 * True when what is at `path` (symlinks followed) has the identity kept at `row[at]` … `row[at + 4]`: as
 * sameIdentity(identityOf(path), …), without an array made for each of the ten thousand paths a run checks.
 */
export function hasIdentity(path: string, row: readonly unknown[], at: number): boolean {
  try {
    const st = statSync(path, { throwIfNoEntry: false });
    return (
      st !== undefined &&
      st.dev === row[at] &&
      st.ino === row[at + 1] &&
      st.size === row[at + 2] &&
      st.mtimeMs === row[at + 3] &&
      st.ctimeMs === row[at + 4]
    );
  } catch {
    return false;
  }
}

/**
 * A result is kept only from paths that changed at least this long before the run began: a file system's clock is
 * coarse (and some round down by seconds), so a change in the same tick as the run's read could leave the
 * identity as it was.
 */
export const TOO_RECENT_MS = 2000;

/** True when the path of `id` changed long enough before `start` for a result made from it to be kept. */
export function settled(id: FileIdentity, start: number): boolean {
  return Math.max(id[3], id[4]) < start - TOO_RECENT_MS;
}

/**
 * This build of skills: the version, and the size and mtime of the file this code runs from (a build rewrites every
 * file of dist/), and the platform. A result made by another build is not used: its rules may judge otherwise.
 */
export function buildOf(version: string): string {
  let self = '';
  try {
    const st = statSync(fileURLToPath(import.meta.url));
    self = `${st.size}:${st.mtimeMs}`;
  } catch {
    /* a build we cannot tell apart: the version alone */
  }
  return `${version}:${self}:${process.platform}`;
}

/** How long a cache file no run has written stays: one of a project gone, or of another build. */
export const STALE_AFTER_MS = 30 * 24 * 3600 * 1000;

/**
 * The cache file of `kind` for one set of skill folders (`<kind>-<hash>.json`): a run reads only the file of the
 * folders it reads, not what every project of the user ever kept.
 */
export function cacheFileFor(dir: string, kind: string, folders: readonly string[]): string {
  // FNV-1a, twice over (two seeds): a name, not a secret; two sets of folders sharing a file is still correct.
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (const f of folders) {
    for (let i = 0; i < f.length; i++) {
      const c = f.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x811c9dc5);
    }
    a = Math.imul(a ^ 0, 0x01000193);
    b = Math.imul(b ^ 0, 0x811c9dc5);
  }
  const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0');
  return join(dir, `${kind}-${hex(a)}${hex(b)}.json`);
}

/** Remove the `<kind>-….json` files of `dir` that no run has written for STALE_AFTER_MS; never throws. */
export function removeStaleCaches(dir: string, kind: string, now = Date.now()): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const own = new RegExp(`^${kind}-[0-9a-f]{16}\\.json$`);
  for (const name of names) {
    if (!own.test(name)) continue;
    try {
      const p = join(dir, name);
      if (now - statSync(p).mtimeMs > STALE_AFTER_MS) rmSync(p, { force: true });
    } catch {
      /* gone already, or not ours to remove */
    }
  }
}
