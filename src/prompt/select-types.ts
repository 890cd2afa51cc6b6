import type { Reach } from './select-fields.js';
import type { Query } from './select-query.js';
import type { CatalogEntry } from '../skill/light.js';

// What selection (select.ts) takes and gives: the candidates, the options, the scored skills.

export interface SelectionCandidate {
  name: string;
  description: string;
  briefDescription?: string;
  /** triggers.keywords */ keywords?: string[];
  /** triggers.verbs */ verbs?: string[];
  /** triggers.patterns (regex sources as written) */ patterns?: string[];
  /** The SKILL.md body (instructions), when the catalog has it: its headings and text are fields of relevance. */
  body?: string;
}

/** What selection reads of a catalog entry (or any skill shaped like one): its fields, triggers and body. */
export function candidateOf(
  e: Pick<CatalogEntry, 'name' | 'description' | 'briefDescription' | 'triggers' | 'body'>,
): SelectionCandidate {
  const t = e.triggers;
  return {
    name: e.name,
    description: e.description,
    briefDescription: e.briefDescription || undefined,
    keywords: t?.keywords,
    verbs: t?.verbs,
    patterns: t?.patterns,
    body: e.body,
  };
}

export type MatchKind = 'mention' | 'phrase' | 'trigger' | 'relevance';
export interface Scored {
  name: string;
  /** The rank class that decided its place, best first: mention > phrase > trigger > relevance. */
  kind: MatchKind;
  /** A number for --explain and JSON; higher is better; comparable within one query. */
  score: number;
  /**
   * Human-readable list of what matched, e.g. ['name "web-scraping" mentioned', 'keyword "scrape"', 'pattern
   * /price(s)?/', 'relevance: scrap (description), price (keywords)'].
   */
  matched: string[];
  /** Ranked but not selected: why the match is too weak to select (relevance alone, under the threshold). */
  below?: string;
}
export interface SelectOptions {
  max: number;
  /**
   * Which candidates may match the query (1) and which surely hold nothing of it (0: only their lengths are noted);
   * undefined: every candidate is read. A registry's selection index answers it (selection-prefilter.ts).
   */
  mayMatch?: (q: Query) => Reach | undefined;
}
export interface SelectResult {
  /** Top `max` of the candidates that matched anything, in rank order. */
  selected: Scored[];
  /**
   * Every candidate that matched anything, in rank order (for --explain); those under the threshold of "none fits"
   * say why in `below`, and come after the selectable ones. Put in order on first read.
   */
  ranked: Scored[];
  /**
   * Patterns that could not be compiled (RE2 has no lookaround/backreferences) — one message each, naming the
   * skill and the pattern; the pattern is skipped. Also a query cut to MAX_QUERY_CHARS, and patterns longer
   * than MAX_PATTERN_CHARS (skipped).
   */
  warnings: string[];
}
