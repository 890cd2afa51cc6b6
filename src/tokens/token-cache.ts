import { join } from 'node:path';
import { currentUid, readOwnJson, userCacheDir, writeOwnFile } from '../fs/user-cache.js';

export { userCacheDir };

// Token counts of text already counted, kept between runs in a small file of the user's cache folder (the one
// bin/skills.js keeps its code cache in), so that a prompt counted before needs no tokenizer. The same care as
// the code cache: the folder is the user's own (mode 0700) and is used only when it belongs to the user and
// nobody else can write to it; the file is replaced by a rename, never rewritten in place. A file that is not
// ours, too large, unreadable or not what this module writes is ignored, and replaced on the next write.

/** A count store, keyed by a hash of the text counted. */
export interface TokenCache {
  get(key: string): number | undefined;
  set(key: string, tokens: number): void;
  /** Write the file when something was added; never throws. */
  save(): void;
  /** Every count it holds, by key (lint hands them to its worker threads, which read no file). */
  counts?(): Map<string, number>;
}

/** Most entries kept: about 250 KB, the counts of a few prompts of 10,000 skills and their --budget variants. */
export const MAX_ENTRIES = 8192;
/** A larger file is not read. */
export const MAX_FILE_BYTES = 1 << 20;
const KEY = /^[\w-]{1,64}$/;

export interface TokenCacheOptions {
  /** Who must own the folder and the file; the current user by default. */
  uid?: number;
}

/** The counts kept in `file` for `counter` (a tokenizer and its version): read now, written by save(). */
export function openTokenCache(file: string, counter: string, options: TokenCacheOptions = {}): TokenCache {
  const uid = options.uid ?? currentUid();
  const old = readCounts(file, counter, uid);
  // This run's counts come first in the file, so that the oldest unused ones are the first to go.
  const used = new Map<string, number>();
  let added = false;
  return {
    get(key) {
      const n = used.get(key) ?? old.get(key);
      if (n !== undefined) used.set(key, n);
      return n;
    },
    set(key, tokens) {
      if (!KEY.test(key) || !Number.isSafeInteger(tokens) || tokens < 0) return;
      used.set(key, tokens);
      added = true;
    },
    counts() {
      return new Map([...old, ...used]);
    },
    save() {
      if (!added) return;
      added = false;
      const counts: Record<string, number> = {};
      let n = 0;
      for (const map of [used, old]) {
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

function readCounts(file: string, counter: string, uid: number | undefined): Map<string, number> {
  const out = new Map<string, number>();
  const data = readOwnJson(file, MAX_FILE_BYTES, uid);
  if (data === undefined) return out;
  const { counter: written, counts } = data;
  // Counts of another tokenizer, or of another version of it, are of no use.
  if (written !== counter || !counts || typeof counts !== 'object' || Array.isArray(counts)) return out;
  for (const [k, v] of Object.entries(counts as Record<string, unknown>)) {
    if (out.size >= MAX_ENTRIES) break;
    if (KEY.test(k) && typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) out.set(k, v);
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
