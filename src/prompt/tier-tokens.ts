import type { TokenCache } from '../tokens/token-cache.js';
import { pieceKey } from '../tokens/tokens.js';
import { catalogItems, renderPrompt, type PromptEntry, type PromptFormat, type PromptInput } from './render.js';

// The size of a tier that will not be printed. An automatic tier over a large registry is counted only to learn that
// it is over the limit (the full tier of 10,000 skills is 2 MB, ~550,000 tokens): rendering it, and hashing it to find
// its count in the token cache, took a tenth of a query's run. The registry's entries come last in the catalog and are
// the same from run to run while the selection index is: their items (all but the last) are counted as one run, kept
// in the token cache under a key made of what they are rendered from, and the rest of the prompt (a few skills) is
// rendered and counted as usual. A prompt may be cut before a catalog item (it follows a newline and starts with "-"
// or "<": prompt-tokens.ts), so the two counts add up to the whole prompt's, to the token.

/** The registry's entries at the end of a catalog, and what they are rendered from (Catalog.registryRun). */
export interface CatalogRun {
  /** The first of them in the catalog's entries: the rest, to the end, are the registry's. */
  from: number;
  /** Their rows and where they are stored: the registry folder, its selection index's header, the rows left out. */
  key: string;
}

/** Fewer entries than this are rendered with the rest: the run pays from a few hundred on. */
export const MIN_RUN = 256;

/** Whether the catalog or full tier of `entries` is counted by tierTokens rather than rendered. */
export function countsApart(tier: PromptInput['tier'], length: number, run: CatalogRun | undefined): boolean {
  return run !== undefined && (tier === 'catalog' || tier === 'full') && length - run.from > MIN_RUN;
}

/**
 * The token count of the prompt of `input` with `entries` for its catalog (countsApart says when): the prompt less
 * the run of the registry's items, rendered and counted by `count`, and the run's count, from `cache` when it holds
 * it (else rendered, counted by `count` and kept). What `count(renderPrompt(input))` gives.
 */
export async function tierTokens(
  input: Omit<PromptInput, 'catalog'>,
  entries: readonly PromptEntry[] | ((i: number) => PromptEntry),
  length: number,
  run: CatalogRun,
  format: PromptFormat,
  count: (text: string) => Promise<number> | number,
  cache: TokenCache,
): Promise<number> {
  const at = typeof entries === 'function' ? entries : (i: number) => entries[i]!;
  // The run is every registry item but the last: the item after it starts where a count may be cut.
  const end = length - 1;
  const rest: PromptEntry[] = [];
  for (let i = 0; i < run.from; i++) rest.push(at(i));
  rest.push(at(end));
  const text = renderPrompt({ ...input, catalog: rest }, format);
  const level = input.descriptions ?? 'full';
  const key = pieceKey(`\0catalog run\0${format}\0${level}\0${input.base ?? ''}\0${run.key}`);
  let inRun = cache.get(key);
  if (inRun === undefined) {
    const items: PromptEntry[] = [];
    for (let i = run.from; i < end; i++) items.push(at(i));
    inRun = await count(catalogItems(items, format, level, input.base));
    cache.set(key, inRun);
  }
  return (text === '' ? 0 : await count(text)) + inRun;
}
