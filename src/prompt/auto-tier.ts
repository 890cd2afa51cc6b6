import type { TokenCache } from '../tokens/token-cache.js';
import {
  fitBudget,
  TIERS,
  type Fitted,
  type PromptEntry,
  type PromptFormat,
  type PromptInput,
  type Tier,
} from './render.js';
import { countsApart, tierTokens, type CatalogRun } from './tier-tokens.js';

// A tier chosen automatically never yields a prompt no agent can take (the catalog of 100,000 skills is millions of
// tokens): over the automatic limit, the full tier lists only the selected skills, else the next smaller tier is
// rendered, and a warning says how to choose. A tier only counted is not rendered whole when its catalog ends with a
// long run of the registry's entries (tier-tokens.ts).

/** The prompt's input at a tier, but its catalog. */
export type TierParts = Omit<PromptInput, 'catalog'>;

export interface AutoTierOptions {
  chosen: Tier;
  /** The input at the chosen tier. */
  parts: TierParts;
  /** The input at a tier (at the full tier, the selected skills' instructions). */
  partsAt: (t: Tier) => TierParts;
  /** The catalog as the prompt shows it, whole, and its entry i (made alone when the whole is not). */
  shown: () => PromptEntry[];
  entry: (i: number) => PromptEntry;
  length: number;
  run: CatalogRun | undefined;
  /** The catalog of the selected skills alone, in order. */
  narrowed: () => { list: PromptEntry[]; selected: number };
  format: PromptFormat;
  count: (text: string) => Promise<number> | number;
  cache: TokenCache | undefined;
  limit: number;
}

/** The prompt of the automatic tier within the limit, the tier rendered, and the warning when it is not `chosen`. */
export async function fitAutomatic(o: AutoTierOptions): Promise<{ fitted: Fitted; tier: Tier; warning?: string }> {
  const fit = (p: TierParts, list = o.shown()) => fitBudget({ ...p, catalog: list }, o.format, o.count, undefined);
  const tokensAt = async (p: TierParts): Promise<number> =>
    o.cache && countsApart(p.tier, o.length, o.run)
      ? tierTokens(p, o.entry, o.length, o.run!, o.format, o.count, o.cache)
      : (await fit(p)).tokens;
  let tier = o.chosen;
  let parts = o.parts;
  const first = await tokensAt(parts);
  let tokens = first;
  let list: PromptEntry[] | undefined;
  let how: string | undefined;
  // The full tier keeps what the request needs: the selected skills, listed and in full, without the others.
  if (tokens > o.limit && tier === 'full') {
    const { list: narrowed, selected } = o.narrowed();
    const f = await fit(parts, narrowed);
    if (f.tokens <= o.limit) {
      tokens = f.tokens;
      list = narrowed;
      how = `listed only the ${selected} selected skill${selected === 1 ? '' : 's'} of ${o.length}`;
    }
  }
  while (tokens > o.limit && tier !== 'none') {
    tier = TIERS[TIERS.indexOf(tier) - 1]!;
    parts = o.partsAt(tier);
    tokens = await tokensAt(parts);
    how = `rendered the ${tier} tier instead`;
  }
  const fitted = await fit(parts, list);
  const warning =
    how === undefined
      ? undefined
      : `the ${o.chosen} tier is ~${first} tokens, over the ${o.limit}-token limit of an automatic choice (SKILLS_PROMPT_LIMIT): ${how}; choose with --tier ${o.chosen} (or --budget <tokens>), or read fewer skills (name the folders, or --no-registry)`;
  return { fitted, tier, ...(warning !== undefined ? { warning } : {}) };
}
