import type { CatalogEntry } from '../skill/light.js';
import type { Query } from './select-query.js';
import type { Reach } from './select-scan.js';
import { rowFields, type SelectionIndex } from './selection-index.js';
import { PARTIAL, addLengths } from './selection-terms.js';
import { normalizeForMatch } from './text-match.js';
import { REACH_WEIGHTS, registryBodies } from './registry-bodies.js';
import { bm25Idf } from './background-idf.js';

// Which skills of a registry a query may match, from its selection index, so that selection reads only those (the
// others add only their lengths: Scan.lengths). A skill may match when a word of its name, keywords, verbs or
// descriptions stems to a word of the query or a related one (which relevance, phrases, pairs and mentions need),
// when a word of its keywords or verbs stems to any word of the query, stop words too (a trigger "how to"), when it
// has trigger patterns (tried in order, within one budget of work), or when its name starts with the letter of an
// acronym the query holds ("TDD"). Anything else holds nothing selection could find: ranking, --explain and the
// selected skills are the same as from reading every skill (test/unit/prompt/selection-index.test.ts).
// Of the skills it may match, those the index counts in full (selection-terms.ts) are not read word by word: the
// index gives how often each field holds each term, and which fields hold the query's pairs side by side.

/**
 * For `entries` (the catalog's, in order; `rowOf[i]` the row in `index` of entry i, -1 for one not the registry's):
 * the function selectSkills asks (SelectOptions.mayMatch). Entries with no row (folder skills) are always read.
 */
export function prefilter(
  index: SelectionIndex,
  entries: readonly CatalogEntry[],
  rowOf: Int32Array,
): (q: Query) => Reach | undefined {
  return (q) => {
    const nRows = index.rows.length;
    const nTerms = q.terms.length;
    const hit = new Uint8Array(nRows);
    // Row → its entry in the catalog (-1: none), for the counts.
    const entryOf = new Int32Array(nRows).fill(-1);
    for (let i = 0; i < entries.length; i++) if (rowOf[i]! >= 0) entryOf[rowOf[i]!] = i;
    const counts: number[] = [];
    const pairs: number[] = [];
    // Per entry, how much of the query its name, triggers and descriptions hold (registry-bodies.ts).
    const reached = new Float64Array(entries.length);
    /** Mark the rows of a line; with `slot`, note each row's counts in that term slot (or pair, with `pair`). */
    const mark = (key: string, slot = -1, pair = false): boolean => {
      if (slot < 0) {
        const rows = index.holding(key);
        if (rows === null) return false;
        for (const r of rows) hit[r] = 1;
        return true;
      }
      const line = index.counts(key);
      if (line === null) return false;
      const { rows, packed } = line;
      const kind = slot < nTerms ? 0 : slot < 2 * nTerms ? 1 : 2;
      const reach = pair ? 0 : REACH_WEIGHTS[kind] * bm25Idf(nRows, rows.length);
      for (let n = 0; n < rows.length; n++) {
        const r = rows[n]!;
        if (!pair) hit[r] = 1;
        const i = entryOf[r]!;
        if (i < 0) continue;
        if (packed[n]! > 0) (pair ? pairs : counts).push(i, slot, packed[n]!);
        // A row counted only in part (a description with an apostrophe or a dash: packed 0) holds the word as much.
        reached[i] += reach;
      }
      return true;
    };
    for (const [s, t] of q.termIndex) if (!mark(`t${s}`, t)) return undefined;
    // A word only the learned table relates is noted past 2T (select-counted.ts: it counts less).
    for (const [s, t] of q.related) if (!mark(`t${s}`, (q.learned.has(s) ? 2 * nTerms : nTerms) + t)) return undefined;
    for (const s of new Set(q.stems)) if (!mark(`k${s}`)) return undefined;
    for (const [key, p] of q.pairs) {
      const [a, b] = key.split(',').map((t) => q.terms[Number(t)]!);
      if (!mark(`p${a} ${b}`, p, true) || !mark(`p${b} ${a}`, p, true)) return undefined;
    }
    const partial = index.holding(PARTIAL);
    if (partial === null) return undefined;
    const starts = q.acronyms.size ? new Set([...q.acronyms].map((a) => a.charAt(0))) : undefined;
    const may = new Uint8Array(entries.length);
    const counted = new Uint8Array(entries.length);
    const summed = new Uint8Array(entries.length);
    let registry = 0;
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!;
      const row = rowOf[i]!;
      if (row >= 0) {
        registry++;
        summed[i] = 1;
        // A registry skill of the catalog has no body (select-scan.ts Scan.counted reads none).
        if (e.body === undefined) counted[i] = 1;
      }
      if (row < 0 || hit[row] || (e.triggers?.patterns?.length ?? 0) > 0) may[i] = 1;
      else if (starts) {
        const first = normalizeForMatch(e.name).charAt(0);
        if (first === '' || starts.has(first)) may[i] = 1;
      }
    }
    for (const r of partial) if (entryOf[r]! >= 0) counted[entryOf[r]!] = 0;
    const bodies = registryBodies(entries, rowOf, may, counted, reached);
    // The sums of the lengths of the registry's candidates: the index's, less those of rows the catalog left out.
    const sums = [...index.lengths];
    if (registry < nRows)
      for (let r = 0; r < nRows; r++) if (entryOf[r]! < 0) addLengths(rowFields(index.rows[r]!), sums, -1);
    const lenSum = new Float64Array(sums.length / 2);
    const lenCount = new Float64Array(sums.length / 2);
    for (let f = 0; f < lenSum.length; f++) {
      lenSum[f] = sums[2 * f]!;
      lenCount[f] = sums[2 * f + 1]!;
    }
    return { may, counted, counts, pairs, summed, bodies, lenSum, lenCount };
  };
}
