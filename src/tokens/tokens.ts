import { hash } from 'node:crypto';
import type { TokenCache } from './token-cache.js';

// Token counts with gpt-tokenizer's o200k_base (Claude's tokenizer is not public; o200k_base is a close,
// real BPE). Its tables take a while to load, so it is loaded only when there is something to count, and not
// at all when a cache holds the count of every piece of the text.

export type CountTokens = (text: string) => number;

/** What a cached count was counted with: a new tokenizer, version or slicing must not meet old counts. */
export const COUNTER_ID = 'o200k_base gpt-tokenizer@3.4.0 runs-sliced-at-1000';

// BPE time grows with the square of a pre-token's length: one 100 KB run without a break (a data URI, a line of
// spaces) takes seconds, and a skill file may hold 4 MiB. Longer runs are counted in slices of this many characters,
// which can put the count off by about a token per slice, on text that is far over any budget anyway.
const RUN = 1000;

const isSpace = (c: number) =>
  (c >= 9 && c <= 13) ||
  c === 32 ||
  c === 0x85 ||
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000;

/** The pieces a text is counted in: itself, or around runs longer than RUN, those runs cut into slices of RUN. */
function pieces(text: string): string[] {
  const out: string[] = [];
  let from = 0;
  let runStart = 0;
  let runSpace = false;
  for (let i = 0; i <= text.length; i++) {
    const space = i < text.length && isSpace(text.charCodeAt(i));
    if (i < text.length && space === runSpace) continue;
    if (i - runStart > RUN) {
      out.push(text.slice(from, runStart));
      for (let j = runStart; j < i;) {
        let end = Math.min(i, j + RUN);
        // Never cut a surrogate pair in two.
        if (end < i && (text.charCodeAt(end) & 0xfc00) === 0xdc00) end++;
        out.push(text.slice(j, end));
        j = end;
      }
      from = i;
    }
    runStart = i;
    runSpace = space;
  }
  out.push(text.slice(from));
  return out;
}

let loaded: CountTokens | undefined;

/** The o200k_base counter (loaded on first call); any text is safe to give it, however long its runs. */
export async function tokenCounter(): Promise<CountTokens> {
  if (!loaded) {
    const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
    // Special tokens such as <|endoftext|> in a skill are counted as the plain text they are, never thrown on.
    const plain = { disallowedSpecial: new Set<string>() };
    loaded = (text) => {
      let n = 0;
      for (const p of pieces(text)) if (p !== '') n += countTokens(p, plain);
      return n;
    };
  }
  return loaded;
}

/** Within a section, pieces of at least this many characters: the catalog of 10,000 skills is a few hundred. */
const MIN_PIECE = 4096;
/** A piece is cut at the first safe place past this size, whatever its content. */
const MAX_PIECE = 65_536;
/** Before a section (see startsSection) a piece is cut once it has this many characters. */
const MIN_SECTION = 256;

/**
 * The text cut into pieces whose counts add up to the text's count, exactly. In o200k_base's pre-tokenizer
 * pattern a pre-token that holds a newline is whitespace alone or punctuation followed by `[\r\n/]*`, so none
 * goes on past a newline followed by a character that is neither whitespace nor "/"; BPE never merges across
 * pre-tokens, and such a place also ends a run (see pieces): the text is cut only there. Which of those places is
 * decided by the text around them: before each section of the prompt (so that a selected skill's block is the
 * same pieces whichever skills come before and after it), and, within long sections, where the text after the
 * place hashes to a multiple of `spread` (so that a change to one skill moves no cut far from it). Other pieces
 * keep their cached counts.
 */
export function cachePieces(
  text: string,
  { min = MIN_PIECE, spread = 16, section = MIN_SECTION }: { min?: number; spread?: number; section?: number } = {},
): string[] {
  const out: string[] = [];
  let start = 0;
  let nl = text.indexOf('\n');
  while (nl !== -1 && nl + 1 < text.length) {
    const end = nl + 1;
    const size = end - start;
    if (
      cutsAt(text, end) &&
      (size >= MAX_PIECE ||
        startsBlock(text, end) ||
        (size >= section && startsSection(text, end)) ||
        (size >= min && cutHash(text, end) % spread === 0))
    ) {
      out.push(text.slice(start, end));
      start = end;
    }
    nl = text.indexOf('\n', end);
  }
  out.push(text.slice(start));
  return out;
}

/** A heading or a `---` rule starts at `at`: a section of the prompt, or of a skill's instructions. */
function startsSection(text: string, at: number): boolean {
  return text.charCodeAt(at) === 35 || text.startsWith('---', at);
}

/**
 * A selected skill's block starts at `at`, as render.ts writes it (`## Title` over `<skill_content name=…>`), or a part
 * of the prompt after a rule.
 */
function startsBlock(text: string, at: number): boolean {
  if (text.startsWith('<skill_content name=', at) || text.startsWith('---\n\n# ', at)) return true;
  if (!text.startsWith('## ', at)) return false;
  const eol = text.indexOf('\n', at);
  return eol !== -1 && text.startsWith('\n<skill_content name=', eol + 1);
}

/** After a newline: true when the character at `at` is neither whitespace (to the regex or to pieces) nor "/". */
function cutsAt(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  return c !== 47 && c !== 0xfeff && !isSpace(c);
}

/** FNV-1a of the (at most 32) characters that follow a cut. */
function cutHash(text: string, at: number): number {
  let h = 0x811c9dc5;
  for (let i = at, end = Math.min(text.length, at + 32); i < end; i++)
    h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * The cache key of a piece of text. crypto.hash, one call for one piece, gives createHash's digest at half its cost
 * on the pieces a 1 MB body is cut into (about 700 characters each: 30,000 of them for twenty such bodies).
 */
export function pieceKey(piece: string): string {
  return hash('sha256', piece, 'base64url').slice(0, 22);
}

/**
 * The o200k_base count of a text, piece by piece (cachePieces) from `cache`; the tokenizer is loaded only for
 * pieces the cache lacks, and their counts are added to it. Exactly what tokenCounter() counts.
 */
export function cachedTokenCounter(cache: TokenCache): (text: string) => Promise<number> {
  return async (text) => {
    let n = 0;
    const missing: [string, string][] = [];
    for (const piece of cachePieces(text)) {
      const key = pieceKey(piece);
      const hit = cache.get(key);
      if (hit === undefined) missing.push([key, piece]);
      else n += hit;
    }
    if (missing.length > 0) {
      const count = await tokenCounter();
      for (const [key, piece] of missing) {
        const c = count(piece);
        cache.set(key, c);
        n += c;
      }
    }
    return n;
  };
}

/**
 * The o200k_base count of a text kept in `cache` as one entry (a skill's instructions, which change whole or not
 * at all); the tokenizer is loaded only for a text the cache lacks. Exactly what tokenCounter() counts.
 */
export function cachedWholeCounter(cache: TokenCache): (text: string) => Promise<number> {
  return async (text) => {
    const key = pieceKey(text);
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const n = (await tokenCounter())(text);
    cache.set(key, n);
    return n;
  };
}
