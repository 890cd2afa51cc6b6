import { PHRASES, SYNONYM_GROUPS } from './synonyms.js';
import { stem, words } from './text-match.js';
import { LEARNED_RELATED } from './related-learned.js';

// The synonym table (synonyms.ts) by stem: each word's stem → the stems of every word it shares a group with.

let table: Map<string, readonly string[]> | undefined;

/** The stems related to this stem by the synonym table (none when it is in no group); never the stem itself. */
export function relatedStems(stemmed: string): readonly string[] {
  table ??= buildTable(SYNONYM_GROUPS);
  return table.get(stemmed) ?? NONE;
}

const NONE: readonly string[] = [];

let learned: string | undefined;

/**
 * The stems used alike in skills to this stem (related-learned.ts, written by scripts/related-from-skills.mjs), best
 * first; none when it has none. A second, weaker source than the curated table. A query has a few words: each is
 * looked up in the table's text (microseconds), which is never parsed whole (a Map of it costs ~6 ms).
 */
export function learnedStems(stemmed: string): readonly string[] {
  if (!stemmed || /[;:,]/.test(stemmed)) return NONE;
  learned ??= `;${LEARNED_RELATED};`;
  const key = `;${stemmed}:`;
  const at = learned.indexOf(key);
  if (at < 0) return NONE;
  const start = at + key.length;
  return learned.slice(start, learned.indexOf(';', start)).split(',');
}

/** The table as related-learned.ts writes it, 'stem:a,b;stem:c', as a Map: for the tests. */
export function parseLearned(encoded: string): Map<string, readonly string[]> {
  const out = new Map<string, readonly string[]>();
  for (const entry of encoded.split(';')) {
    const colon = entry.indexOf(':');
    if (colon > 0) out.set(entry.slice(0, colon), entry.slice(colon + 1).split(','));
  }
  return out;
}

let written: Map<string, string> | undefined;

/** A word of the table as written, by its stem ("harness" for "har"): how a stem cut short is looked for. */
export function writtenAs(stemmed: string): string | undefined {
  written ??= new Map(SYNONYM_GROUPS.flat().map((w) => [stem(w.toLowerCase()), w.toLowerCase()] as const));
  return written.get(stemmed);
}

/** Stem → related stems, from groups of words; exported for the tests of the table. */
export function buildTable(groups: readonly (readonly string[])[]): Map<string, readonly string[]> {
  const sets = new Map<string, Set<string>>();
  for (const group of groups) {
    const stems = [...new Set(group.map((w) => stem(w.toLowerCase())))];
    for (const s of stems) {
      let set = sets.get(s);
      if (!set) sets.set(s, (set = new Set()));
      for (const other of stems) if (other !== s) set.add(other);
    }
  }
  return new Map([...sets].map(([s, set]) => [s, [...set]]));
}

export interface Phrase {
  /** The phrase as the table writes it. */
  text: string;
  /** Its words' stems, joined ' a b c ' as Query.stemsJoined is. */
  key: string;
  /** The stems of its words. */
  stems: readonly string[];
  /** The stems of the words it means. */
  means: readonly string[];
}

let phrases: Phrase[] | undefined;

/** The phrases of the table (synonyms.ts PHRASES) that text, as stems joined ' a b c ', holds. */
export function phrasesIn(stemsJoined: string): Phrase[] {
  phrases ??= PHRASES.map(([text, ...means]) => {
    const stems = words(text!).map(stem);
    return { text: text!, key: ` ${stems.join(' ')} `, stems, means: means.map((m) => stem(m)) };
  });
  return phrases.filter((p) => stemsJoined.includes(p.key));
}
