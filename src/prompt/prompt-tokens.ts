import type { TokenCache } from '../tokens/token-cache.js';
import { pieceKey } from '../tokens/tokens.js';

// The catalog of a large registry is one long block of the prompt (2 MB for 10,000 skills), the same from run to run
// while the selected skills after it change. Counted piece by piece (tokens.ts cachePieces: every newline weighed as a
// cut, a hash per piece) it took a tenth of a query's run, only to say how far over the limit the full tier is. So a
// long block's count is also kept whole, under the key of its text (the key space of cachedWholeCounter: a text's
// hash → its count), and a later run finds it with one hash. The prompt is cut only where cachePieces always cuts
// (a selected skill's block, the rule before a section): there a pre-token ends, so the counts add up exactly.

/** A block at least this long is counted whole as well as by pieces. */
export const WHOLE_BLOCK = 1 << 16;

// After a newline: a selected skill's heading over its `<skill_content>`, the `<skill_content>` itself, or a rule
// before a section (tokens.ts startsBlock).
const BLOCK_START = /\n(?=## [^\n]*\n\n<skill_content name=|<skill_content name=|---\n\n# )/g;

/** The text cut where a block starts (see above); the pieces, joined, are the text. */
export function promptBlocks(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  BLOCK_START.lastIndex = 0;
  for (let m = BLOCK_START.exec(text); m !== null; m = BLOCK_START.exec(text)) {
    const end = m.index + 1;
    if (end > start && end < text.length) {
      out.push(text.slice(start, end));
      start = end;
    }
  }
  out.push(text.slice(start));
  return out;
}

/**
 * `byPieces` (cachedTokenCounter over `cache`), with each block of WHOLE_BLOCK characters or more counted from its
 * whole count in `cache` when there is one, and that count added when not. The same count, to the token.
 */
export function blockTokenCounter(
  cache: TokenCache,
  byPieces: (text: string) => Promise<number>,
): (text: string) => Promise<number> {
  return async (text) => {
    if (text.length < WHOLE_BLOCK) return byPieces(text);
    let n = 0;
    for (const block of promptBlocks(text)) {
      if (block.length < WHOLE_BLOCK) {
        n += await byPieces(block);
        continue;
      }
      const key = pieceKey(block);
      let count = cache.get(key);
      if (count === undefined) {
        count = await byPieces(block);
        cache.set(key, count);
      }
      n += count;
    }
    return n;
  };
}
