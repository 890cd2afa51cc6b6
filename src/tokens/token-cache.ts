import { join } from 'node:path';
import { currentUid, readOwnJson, userCacheDir, writeOwnFile } from '../fs/user-cache.js';

export { userCacheDir };

// Token counts of text already counted, kept between runs in a small file of the user's cache folder (the one
// bin/skills.js keeps its code cache in), so that a prompt counted before needs no tokenizer. The same care as
// the code cache: the folder is the user's own (mode 0700) and is used only when it belongs to the user and
// nobody else can write to it; the file is replaced by a rename, never rewritten in place. A file that is not
// ours, too large, unreadable or not what this module writes is ignored, and replaced on the next write.

const KEY = /^[\w-]{1,64}$/;

/** A count store, keyed by a hash of the text counted. */
export interface TokenCache {
  get(key: string): number | undefined;
  set(key: string, tokens: number): void;
  /** Write the file when something was added; never throws. */
  save(): void;
  /** What it holds, for lint's worker threads, which read no file (tokenLookup answers from it as get() does). */
  snapshot?(): TokenSnapshot;
}

/**
 * The counts of a cache file as read: the file's object, each entry checked only when it is asked for (a file of
 * ours holds at most MAX_ENTRIES), or, for a larger file, the first MAX_ENTRIES valid entries.
 */
export type KeptCounts = Record<string, unknown> | Map<string, number>;

/** A cache's counts: those of its file, and those this run used or made. */
export interface TokenSnapshot {
  kept: KeptCounts;
  used: Map<string, number>;
}

const validCount = (key: string, v: unknown): v is number =>
  KEY.test(key) && typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** The count kept for `key`, or undefined when there is none (or none valid). */
export function keptCount(kept: KeptCounts, key: string): number | undefined {
  if (kept instanceof Map) return kept.get(key);
  if (!Object.hasOwn(kept, key)) return undefined;
  const v = kept[key];
  return validCount(key, v) ? v : undefined;
}

/** The count a snapshot holds for `key`: this run's first, then the file's. */
export function snapshotCount(s: TokenSnapshot, key: string): number | undefined {
  return s.used.get(key) ?? keptCount(s.kept, key);
}

/** Most entries kept: about 250 KB, the counts of a few prompts of 10,000 skills and their --budget variants. */
export const MAX_ENTRIES = 8192;
/** A larger file is not read. */
export const MAX_FILE_BYTES = 1 << 20;

export interface TokenCacheOptions {
  /** Who must own the folder and the file; the current user by default. */
  uid?: number;
}

/**
 * The counts kept in `file` for `counter` (a tokenizer and its version): read when first asked for (a lint of short
 * skills counts nothing, and reading a full file is 5 to 8 ms), written by save().
 */
export function openTokenCache(file: string, counter: string, options: TokenCacheOptions = {}): TokenCache {
  const uid = options.uid ?? currentUid();
  let read: KeptCounts | undefined;
  const kept = () => (read ??= readCounts(file, counter, uid));
  // This run's counts come first in the file, so that the oldest unused ones are the first to go.
  const used = new Map<string, number>();
  let added = false;
  return {
    get(key) {
      const n = used.get(key) ?? keptCount(kept(), key);
      if (n !== undefined) used.set(key, n);
      return n;
    },
    set(key, tokens) {
      if (!KEY.test(key) || !Number.isSafeInteger(tokens) || tokens < 0) return;
      used.set(key, tokens);
      added = true;
    },
    snapshot() {
      return { kept: kept(), used: new Map(used) };
    },
    save() {
      if (!added) return;
      added = false;
      const counts: Record<string, number> = {};
      let n = 0;
      for (const map of [used, validCounts(kept())]) {
        for (const [k, v] of map) {
          if (n >= MAX_ENTRIES) break;
          if (k in counts) continue;
          counts[k] = v;
          n++;
        }
      }
      writeOwnFile(file, `${JSON.stringify({ counter, counts })}\n`, '.tokens-tmp-', uid);
    },
  };
}

/**
 * The counts of the file (see KeptCounts). Checking each of 8,192 entries when the file is read doubled the time
 * to open a full cache (22 ms, now 8), and a run asks for a few of them.
 */
function readCounts(file: string, counter: string, uid: number | undefined): KeptCounts {
  const data = readOwnJson(file, MAX_FILE_BYTES, uid);
  if (data === undefined) return new Map();
  const { counter: written, counts } = data;
  // Counts of another tokenizer, or of another version of it, are of no use.
  if (written !== counter || !counts || typeof counts !== 'object' || Array.isArray(counts)) return new Map();
  const kept = counts as Record<string, unknown>;
  // Past MAX_ENTRIES keys (no file of ours), which entries are kept depends on the others: all are checked now.
  return Object.keys(kept).length > MAX_ENTRIES ? validCounts(kept) : kept;
}

/** Every valid count kept, in the file's order, up to MAX_ENTRIES. */
function validCounts(kept: KeptCounts): Map<string, number> {
  if (kept instanceof Map) return kept;
  const out = new Map<string, number>();
  for (const [k, v] of Object.entries(kept)) {
    if (out.size >= MAX_ENTRIES) break;
    if (validCount(k, v)) out.set(k, v);
  }
  return out;
}

/** The one file the counts of o200k_base are kept in, shared by render-prompt, lint and doctor. */
export const TOKEN_CACHE_FILE = 'tokens-o200k_base.json';

/**
 * The user's token cache (`~/.cache/skills/tokens-o200k_base.json`) for `counter`, or undefined when
 * SKILLS_TOKEN_CACHE=0 turns it off.
 */
export function userTokenCache(
  env: Record<string, string | undefined>,
  home: string,
  counter: string,
): TokenCache | undefined {
  return env.SKILLS_TOKEN_CACHE === '0'
    ? undefined
    : openTokenCache(join(userCacheDir(env, home), TOKEN_CACHE_FILE), counter);
}
