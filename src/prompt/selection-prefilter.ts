import type { CatalogEntry } from '../skill/light.js';
import type { Query } from './select-query.js';
import type { SelectionIndex } from './selection-index.js';
import { normalizeForMatch } from './text-match.js';

// Which skills of a registry a query may match, from its selection index, so that selection reads only those (the
// others add only their lengths: Scan.lengths). A skill may match when a word of its name, keywords, verbs or
// descriptions stems to a word of the query or a related one (which relevance, phrases, pairs and mentions need),
// when a word of its keywords or verbs stems to any word of the query, stop words too (a trigger "how to"), when it
// has trigger patterns (tried in order, within one budget of work), or when its name starts with the letter of an
// acronym the query holds ("TDD"). Anything else holds nothing selection could find: ranking, --explain and the
// selected skills are the same as from reading every skill (test/unit/prompt/selection-index.test.ts).

/**
 * For `entries` (the catalog's, in order; `rowOf[i]` the row in `index` of entry i, -1 for one not the registry's):
 * the function selectSkills asks (SelectOptions.mayMatch). Entries with no row (folder skills) are always read.
 */
export function prefilter(
  index: SelectionIndex,
  entries: readonly CatalogEntry[],
  rowOf: Int32Array,
): (q: Query) => Uint8Array | undefined {
  return (q) => {
    const hit = new Uint8Array(index.rows.length);
    const mark = (key: string): boolean => {
      const rows = index.holding(key);
      if (rows === null) return false;
      for (const r of rows) hit[r] = 1;
      return true;
    };
    for (const s of q.termIndex.keys()) if (!mark(`t${s}`)) return undefined;
    for (const s of q.related.keys()) if (!mark(`t${s}`)) return undefined;
    for (const s of new Set(q.stems)) if (!mark(`k${s}`)) return undefined;
    const starts = q.acronyms.size ? new Set([...q.acronyms].map((a) => a.charAt(0))) : undefined;
    const may = new Uint8Array(entries.length);
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!;
      const row = rowOf[i]!;
      if (row < 0 || hit[row] || (e.triggers?.patterns?.length ?? 0) > 0) may[i] = 1;
      else if (starts) {
        const first = normalizeForMatch(e.name).charAt(0);
        if (first === '' || starts.has(first)) may[i] = 1;
      }
    }
    return may;
  };
}
