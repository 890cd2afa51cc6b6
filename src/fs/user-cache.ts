import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NO_HOME } from '../context.js';
import { cleanStale, tempName, writeAll } from './atomic.js';
import { readOpenFile } from './read.js';

// The files of the user's cache folder (the one bin/skills.js keeps its code cache in): the token counts, the
// list's record of valid skills. The folder is the user's own (mode 0700) and is used only when it belongs to the
// user and nobody else can write to it; a file is read only when it is the user's, not a link and not writable by
// others, and is replaced by a rename, never rewritten in place. Nothing here throws: a cache that cannot be read
// or written costs the next run some work, nothing more.

/** The folder of the user's caches: `$XDG_CACHE_HOME/skills`, else `~/.cache/skills` (as bin/skills.js). */
export function userCacheDir(env: Record<string, string | undefined>, home: string): string {
  // With no home (NO_HOME), a folder under /dev/null, which can never be made: the caches are skipped.
  if (!env.XDG_CACHE_HOME && home === NO_HOME) return '/dev/null/skills-no-home';
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
 * The bytes of a cache file of `uid`'s in a folder of its own, or undefined: a missing, foreign, linked, shared or
 * larger than `maxBytes` file is not read, nor one that is not a regular file (a FIFO, which is not waited on).
 */
export function readOwnBytes(file: string, maxBytes: number, uid: number | undefined): Buffer | undefined {
  if (!ownFolder(dirname(file), uid)) return undefined;
  let fd: number | undefined;
  try {
    // Not through a symlink, and not waiting for a writer (a FIFO); checked on the open file, so that what is
    // checked is what is read: a FIFO or a device is no cache.
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
    const st = fstatSync(fd);
    if (!st.isFile() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o022) !== 0 || st.size > maxBytes)
      return undefined;
    return readOpenFile(fd, st.size);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The text of a cache file, as readOwnBytes reads it. */
export function readOwnFile(file: string, maxBytes: number, uid: number | undefined): string | undefined {
  return readOwnBytes(file, maxBytes, uid)?.toString('utf8');
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

/** Checks of what a cache file holds. */
export const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
export const isStr = (v: unknown): v is string => typeof v === 'string';
export const optStr = (v: unknown): v is string | null => v === null || typeof v === 'string';

/**
 * Replace a cache file with `text` (mode 0600, through a temp file named `tempPrefix`… and a rename), creating the
 * folder (0700); nothing is written into a folder that is not the user's own. `text` may come in pieces, each made
 * as it is written (a large file is then never one string).
 */
export function writeOwnFile(
  file: string,
  text: string | Iterable<string>,
  tempPrefix: string,
  uid: number | undefined,
): void {
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
      if (typeof text === 'string') writeAll(fd, text);
      else for (const piece of text) writeAll(fd, piece);
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
