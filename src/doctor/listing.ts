import { codePoints } from '../formats/text.js';
import type { SeenSkill } from './agent-view.js';
import type { BudgetUnit, ListingBudget, ListingRule } from './listing-rules.js';

// The size of an agent's skill listing (one line per skill it lists, as listing-rules.ts writes it), in characters
// and in o200k tokens, against the agent's budget; when it is over, the skills whose entries to trim first.

export type CountTokens = (text: string) => Promise<number>;

export interface Size {
  characters: number;
  tokens: number;
}

export interface ListingEntry extends Size {
  name: string;
  descriptionCharacters: number;
}

export interface TrimSuggestion {
  name: string;
  descriptionCharacters: number;
  /** What leaving its entry out of the listing (disabling or removing the skill) saves. */
  saves: Size;
}

export interface Listing extends Size {
  entries: ListingEntry[];
  /** Null when the agent documents none. */
  budget: ListingBudget | null;
  /** How far over the budget, in its unit; 0 when within it or without one. */
  over: number;
  /** The entries that save most in the budget's unit first, as many as bring the listing within the budget. */
  trim: TrimSuggestion[];
}

/** Measure the listing of `skills`, line by line (each line with its newline), as the agents count it. */
export async function measureListing(skills: SeenSkill[], rule: ListingRule, count: CountTokens): Promise<Listing> {
  const entries: ListingEntry[] = [];
  for (const s of skills) {
    const line = `${rule.line(s.name, s.description, s.file)}\n`;
    entries.push({
      name: s.name,
      descriptionCharacters: codePoints(s.description),
      characters: codePoints(line),
      tokens: await count(line),
    });
  }
  const total = (unit: BudgetUnit) => entries.reduce((n, e) => n + e[unit], 0);
  const listing: Listing = {
    characters: total('characters'),
    tokens: total('tokens'),
    entries,
    budget: rule.budget ?? null,
    over: 0,
    trim: [],
  };
  const budget = rule.budget;
  if (!budget || listing[budget.unit] <= budget.limit) return listing;
  listing.over = listing[budget.unit] - budget.limit;
  // Ordered by what each suggestion shows, its saving in the budget's unit: a long name or path, or a description of
  // many tokens in few characters, can save more than the longest description does.
  const unit = budget.unit;
  const most = [...entries].sort((a, b) => b[unit] - a[unit] || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  let saved = 0;
  for (const e of most) {
    if (saved >= listing.over) break;
    listing.trim.push({
      name: e.name,
      descriptionCharacters: e.descriptionCharacters,
      saves: { characters: e.characters, tokens: e.tokens },
    });
    saved += e[unit];
  }
  return listing;
}
