import { FIELDS, Scan } from './select-scan.js';
import { parseQuery, type Query } from './select-query.js';

export interface SelectionCandidate {
  name: string;
  description: string;
  briefDescription?: string;
  /** triggers.keywords */ keywords?: string[];
  /** triggers.verbs */ verbs?: string[];
  /** triggers.patterns (regex sources as written) */ patterns?: string[];
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
}
export interface SelectOptions {
  max: number;
}
export interface SelectResult {
  /** Top `max` of the candidates that matched anything, in rank order. */
  selected: Scored[];
  /** Every candidate that matched anything, in rank order (for --explain). */
  ranked: Scored[];
  /**
   * Patterns that could not be compiled (RE2 has no lookaround/backreferences) — one message each, naming the
   * skill and the pattern; the pattern is skipped. Also a query cut to MAX_QUERY_CHARS, and patterns longer
   * than MAX_PATTERN_CHARS (skipped).
   */
  warnings: string[];
}

/** Longer queries are cut here: a prompt, not a document, is what selection is for. */
export const MAX_QUERY_CHARS = 2000;

const CLASS: Record<MatchKind, number> = { mention: 3, phrase: 2, trigger: 1, relevance: 0 };
// BM25F: each field's term frequency, length-normalised and weighted, is summed before saturation (fields: see FIELDS).
const WEIGHT = [3, 2, 1.5, 1];
const B = [0.3, 0.5, 0.75, 0.75];
const K1 = 1.2;
// Each trigger that fires is worth about one well-matched rare word, so among skills of the trigger class the
// one whose triggers say more about the query comes first.
const TRIGGER_POINTS = 2;
// A skill found by relevance alone must score at least this share of the best relevance in the set.
const RELATIVE_FLOOR = 0.25;

/** True when any candidate declares triggers (decides the breadcrumb tier). */
export function hasTriggers(c: readonly SelectionCandidate[]): boolean {
  return c.some((s) => !!(s.keywords?.length || s.verbs?.length || s.patterns?.length));
}

/** Rank the candidates for a query. Pure (no fs, no printing). */
export function selectSkills(
  query: string,
  candidates: readonly SelectionCandidate[],
  opts: SelectOptions,
): SelectResult {
  const warnings: string[] = [];
  let text = typeof query === 'string' ? query : '';
  if (text.length > MAX_QUERY_CHARS) {
    warnings.push(
      `the query is ${text.length} characters long; only the first ${MAX_QUERY_CHARS} are used for selection`,
    );
    // Cut on a code point boundary.
    text = text.slice(
      0,
      /[\uD800-\uDBFF]/.test(text.charAt(MAX_QUERY_CHARS - 1)) ? MAX_QUERY_CHARS - 1 : MAX_QUERY_CHARS,
    );
  }
  const q = parseQuery(text);
  if (q.raw.length === 0) return { selected: [], ranked: [], warnings };

  // One pass over the candidates finds mentions, phrases and triggers, and counts the query's terms per field;
  // BM25 needs the document frequencies and average lengths of the whole set before it can score.
  const n = candidates.length;
  const nTerms = q.terms.length;
  const scan = new Scan(q, warnings, n);
  for (let i = 0; i < n; i++) scan.candidate(i, candidates[i]!);
  scan.finish();
  const { len, tf, tfAt, mention, phrase, triggers } = scan;
  const df = new Array<number>(nTerms).fill(0);
  const lenSum = [0, 0, 0, 0];
  const lenCount = [0, 0, 0, 0];
  for (let i = 0; i < n; i++) {
    for (let f = 0; f < 4; f++) {
      const l = len[i * 4 + f]!;
      if (l > 0) {
        lenSum[f] += l;
        lenCount[f]++;
      }
    }
    const at = tfAt[i]!;
    if (at >= 0)
      for (let t = 0; t < nTerms; t++)
        if (tf[at + t * 4]! + tf[at + t * 4 + 1]! + tf[at + t * 4 + 2]! + tf[at + t * 4 + 3]! > 0) df[t]++;
  }
  const avg = lenSum.map((sum, f) => (lenCount[f] ? sum / lenCount[f]! : 1));
  const idf = df.map((d) => Math.log(1 + (n - d + 0.5) / (d + 0.5)));
  // In a small set every word is in half the skills; only in a larger one does "common" mean uninformative.
  const informative = df.map((d) => n < 4 || d <= n / 2);

  const relevance = new Float64Array(n);
  const hasInformative = new Uint8Array(n);
  let best = 0;
  for (let i = 0; i < n; i++) {
    const at = tfAt[i]!;
    if (at < 0) continue;
    let r = 0;
    for (let t = 0; t < nTerms; t++) {
      let tfw = 0;
      for (let f = 0; f < 4; f++) {
        const x = tf[at + t * 4 + f]!;
        if (x) tfw += (WEIGHT[f]! * x) / (1 - B[f]! + (B[f]! * len[i * 4 + f]!) / avg[f]!);
      }
      if (tfw > 0) {
        r += (idf[t]! * tfw) / (K1 + tfw);
        if (informative[t]) hasInformative[i] = 1;
      }
    }
    relevance[i] = r;
    if (r > best) best = r;
  }

  const hits: { i: number; kind: MatchKind; key: number; within: number; name: string }[] = [];
  for (let i = 0; i < n; i++) {
    const r = relevance[i]!;
    const kind: MatchKind | undefined = mention[i]
      ? 'mention'
      : phrase[i]
        ? 'phrase'
        : triggers[i]
          ? 'trigger'
          : r > 0 && hasInformative[i] && r >= RELATIVE_FLOOR * best
            ? 'relevance'
            : undefined;
    if (!kind) continue;
    const within = r + TRIGGER_POINTS * (triggers[i]?.length ?? 0);
    // The class is the integer part, the strength within it the fraction: higher is better across classes.
    hits.push({ i, kind, key: CLASS[kind] + within / (within + 4), within, name: String(candidates[i]!.name) });
  }
  hits.sort((a, b) => b.key - a.key || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const describe = (i: number): string[] => {
    const matched: string[] = [];
    if (mention[i]) matched.push(mention[i]!);
    if (phrase[i]) matched.push(phrase[i]!);
    if (triggers[i]) matched.push(...triggers[i]!);
    if (relevance[i]! > 0) matched.push(`relevance: ${describeRelevance(tf, tfAt[i]!, q)}`);
    return matched;
  };
  const max = opts.max >= 0 ? Math.floor(opts.max) : 0;
  // What matched is said at once for the selected; for the thousands ranked below them (read only by --explain
  // and JSON), on first read, through one getter shared by all (a getter each made each object a shape of its own).
  const rowOf = new WeakMap<Scored, number>();
  const lazy: PropertyDescriptor = {
    enumerable: true,
    configurable: true,
    get(this: Scored) {
      const matched = describe(rowOf.get(this)!);
      Object.defineProperty(this, 'matched', { value: matched, enumerable: true, writable: true, configurable: true });
      return matched;
    },
  };
  const ranked: Scored[] = hits.map(({ i, kind, key, name }, k) => {
    const scored = { name, kind, score: Math.floor(key * 1e4) / 1e4 } as Scored;
    if (k < max) scored.matched = describe(i);
    else {
      rowOf.set(scored, i);
      Object.defineProperty(scored, 'matched', lazy);
    }
    return scored;
  });
  return { selected: ranked.slice(0, max), ranked, warnings };
}

function describeRelevance(tf: Float64Array, at: number, q: Query): string {
  let out = '';
  for (let t = 0; t < q.terms.length; t++) {
    let where = '';
    for (let f = 0; f < 4; f++) if (tf[at + t * 4 + f]! > 0) where += where ? `, ${FIELDS[f]}` : FIELDS[f];
    if (where) out += `${out ? ', ' : ''}${q.surface[t]} (${where})`;
  }
  return out;
}
