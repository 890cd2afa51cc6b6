import { RE2JS } from 're2js';
import { NON_ASCII, forEachWordHolding, isStopWord, joinedWords, normalizeForMatch, stem, stemProbe, words } from './text-match.js';

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
  /** Human-readable list of what matched, e.g. ['name "web-scraping" mentioned', 'keyword "scrape"', 'pattern /price(s)?/', 'relevance: scrap (description), price (keywords)']. */
  matched: string[];
}
export interface SelectOptions { max: number }
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
/** Longer trigger patterns are skipped with a warning. */
export const MAX_PATTERN_CHARS = 500;

const CLASS: Record<MatchKind, number> = { mention: 3, phrase: 2, trigger: 1, relevance: 0 };
// BM25F: each field's term frequency, length-normalised and weighted, is summed before saturation.
const FIELDS = ['name', 'keywords', 'brief_description', 'description'] as const;
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

interface Query {
  /** NFKC only: what trigger patterns see (they match case-insensitively); lower-cased for their prefilter. */
  nfkc: string;
  nfkcLower: string;
  /** The query normalised for matching (see normalizeForMatch). */
  text: string;
  /** Words of the normalised query and their stems, each also joined as ' a b c ' for sequence tests. */
  raw: string[];
  stems: string[];
  rawJoined: string;
  stemsJoined: string;
  /** Relevance terms: each distinct stem that is no stop word, and the word the query wrote it as. */
  terms: string[];
  surface: string[];
  termIndex: Map<string, number>;
  /** Matches any text that may hold one of the terms (see stemProbe); undefined when there are none. */
  probe?: RegExp;
  probeAll?: RegExp;
  /** ' words of the query ' when it can be looked for as a phrase (two words or more, not all stop words). */
  phrase?: string;
}

/** Rank the candidates for a query. Pure (no fs, no printing). */
export function selectSkills(query: string, candidates: readonly SelectionCandidate[], opts: SelectOptions): SelectResult {
  const warnings: string[] = [];
  let text = typeof query === 'string' ? query : '';
  if (text.length > MAX_QUERY_CHARS) {
    warnings.push(`the query is ${text.length} characters long; only the first ${MAX_QUERY_CHARS} are used for selection`);
    // Cut on a code point boundary.
    text = text.slice(0, /[\uD800-\uDBFF]/.test(text.charAt(MAX_QUERY_CHARS - 1)) ? MAX_QUERY_CHARS - 1 : MAX_QUERY_CHARS);
  }
  const q = parseQuery(text);
  if (q.raw.length === 0) return { selected: [], ranked: [], warnings };

  // One pass over the candidates finds mentions, phrases and triggers, and counts the query's terms per field;
  // BM25 needs the document frequencies and average lengths of the whole set before it can score.
  const n = candidates.length;
  const nTerms = q.terms.length;
  const scan = new Scan(q, warnings, n);
  for (let i = 0; i < n; i++) scan.candidate(i, candidates[i]!);
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
    if (at >= 0) for (let t = 0; t < nTerms; t++) if (tf[at + t * 4]! + tf[at + t * 4 + 1]! + tf[at + t * 4 + 2]! + tf[at + t * 4 + 3]! > 0) df[t]++;
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

function parseQuery(text: string): Query {
  const nfkc = text.normalize('NFKC');
  const norm = normalizeForMatch(text);
  const raw = words(norm);
  const stems = raw.map(stem);
  const q: Query = {
    nfkc,
    nfkcLower: nfkc.toLowerCase(),
    text: norm,
    raw,
    stems,
    rawJoined: ` ${raw.join(' ')} `,
    stemsJoined: ` ${stems.join(' ')} `,
    terms: [],
    surface: [],
    termIndex: new Map(),
  };
  raw.forEach((w, i) => {
    const s = stems[i]!;
    if (isStopWord(w) || q.termIndex.has(s)) return;
    q.termIndex.set(s, q.terms.length);
    q.terms.push(s);
    q.surface.push(w);
  });
  if (q.terms.length) {
    const source = [...new Set(q.terms.map(stemProbe))].map(escapeRegExp).join('|');
    q.probe = new RegExp(source, 'i');
    q.probeAll = new RegExp(source, 'g');
  }
  if (raw.length >= 2 && q.terms.length > 0) q.phrase = q.rawJoined;
  return q;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where the words of `seq` (joined ' a b ') occur in order in `joined`, as a word index, or -1. */
function wordIndexOf(seq: string, joined: string): number {
  const at = joined.indexOf(seq);
  if (at === -1) return -1;
  let words = 0;
  for (let i = 0; i < at; i++) if (joined.charCodeAt(i) === 32) words++;
  return words;
}

// Characters that words drop: a name or trigger holding one ("c++", "c#") must also appear as written.
const SYMBOL = /[^\p{L}\p{M}\p{N}\s\-_'’.,/]/u;
const WORD_CHAR = /^[\p{L}\p{N}]$/u;

/** The text as written appears in the query with no letter or digit on either side. */
function literalIn(needle: string, hay: string): boolean {
  for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + 1)) {
    if (!WORD_CHAR.test(hay.charAt(i - 1)) && !WORD_CHAR.test(hay.charAt(i + needle.length))) return true;
  }
  return false;
}

/**
 * The per-candidate pass, with what it learns about the query kept across candidates. What it finds is kept
 * column by column (typed arrays, sparse lists), not in an object per candidate: ten thousand objects whose
 * shapes vary with what matched made the ranking several times slower.
 */
class Scan {
  private readonly terms = new Map<string, TermMatch>();
  /** Pattern → whether it matches the query, or why it is skipped; a set often repeats a pattern. */
  private readonly patterns = new Map<string, boolean | string>();
  /** Per candidate and field ([i * 4 + field]), its length in characters (0 when absent): BM25 needs only lengths relative to the average. */
  readonly len: Float64Array;
  /** Where candidate i's term frequencies start in tf ([at + term * 4 + field]); -1 when no query term occurs in it. */
  readonly tfAt: Int32Array;
  private tfPool: Float64Array;
  private tfUsed = 0;
  readonly mention: (string | undefined)[];
  readonly phrase: (string | undefined)[];
  readonly triggers: (string[] | undefined)[];
  /** The candidate and field whose words countWord is given. */
  private at = { i: 0, f: 0 };

  constructor(
    private readonly q: Query,
    private readonly warnings: string[],
    n: number,
  ) {
    this.len = new Float64Array(n * 4);
    this.tfAt = new Int32Array(n).fill(-1);
    this.tfPool = new Float64Array(Math.max(1, q.terms.length) * 4 * Math.min(n, 4096));
    this.mention = new Array(n);
    this.phrase = new Array(n);
    this.triggers = new Array(n);
  }

  /** The term frequencies of every candidate (read after the pass: the pool grows as it goes). */
  get tf(): Float64Array {
    return this.tfPool;
  }

  /** Word → the query term it stems to, or -1 (a stop word, another stem): a word recurs across candidates. */
  private readonly wordTerms = new Map<string, number>();

  private readonly countWord = (w: string): void => {
    let t = this.wordTerms.get(w);
    if (t === undefined) {
      t = isStopWord(w) ? -1 : (this.q.termIndex.get(stem(w)) ?? -1);
      this.wordTerms.set(w, t);
    }
    if (t < 0) return;
    const { i, f } = this.at;
    let at = this.tfAt[i]!;
    if (at < 0) at = this.newTf(i);
    this.tfPool[at + t * 4 + f]!++;
  };

  private newTf(i: number): number {
    const size = this.q.terms.length * 4;
    if (this.tfUsed + size > this.tfPool.length) {
      const grown = new Float64Array(Math.max(this.tfPool.length * 2, this.tfUsed + size));
      grown.set(this.tfPool);
      this.tfPool = grown;
    }
    const at = this.tfUsed;
    this.tfUsed += size;
    this.tfAt[i] = at;
    return at;
  }

  candidate(i: number, c: SelectionCandidate): void {
    const q = this.q;
    const name = typeof c.name === 'string' ? c.name : String(c.name ?? '');

    // Mention: the name, or its words in sequence ("web-scraping", "web scraping"); a name of stop words only
    // ("it") would be mentioned by nearly every query.
    const nameNorm = normalizeForMatch(name);
    if (q.text.includes(firstWord(nameNorm)) && q.text.includes(lastWord(nameNorm))) {
      const key = joinedWords(nameNorm);
      if (key && q.rawJoined.includes(` ${key} `) && key.split(' ').some((w) => !isStopWord(w)) && (!SYMBOL.test(nameNorm) || literalIn(nameNorm, q.text))) {
        this.mention[i] = `name "${name}" mentioned`;
      }
    }

    // Triggers: keywords and verbs as whole words in sequence, as written or stemmed, so "api" never matches
    // inside "capital" and verb "scrape" matches "scraping".
    const keywords = strings(c.keywords);
    const verbs = strings(c.verbs);
    let phraseInKeywords = false;
    let triggers: string[] | undefined;
    for (let l = 0; l < 2; l++) {
      const list = l === 0 ? keywords : verbs;
      for (const term of list) {
        const { hit, phrase } = this.term(term);
        if (phrase) phraseInKeywords = true;
        if (hit === null) continue;
        const what = list === keywords ? 'keyword' : 'verb';
        (triggers ??= []).push(hit === '' ? `${what} "${term}"` : `${what} "${term}" (as "${hit}")`);
      }
    }
    for (const p of strings(c.patterns)) {
      let hit = this.patterns.get(p);
      if (hit === undefined) {
        const re = patternFor(p, q);
        hit = typeof re === 'string' ? re : !!re?.test(q.nfkc);
        this.patterns.set(p, hit);
      }
      if (typeof hit === 'string') this.warnings.push(`${name}: trigger pattern /${p.length > 80 ? `${p.slice(0, 80)}…` : p}/ is skipped: ${hit}`);
      else if (hit) (triggers ??= []).push(`pattern /${p}/`);
    }
    if (triggers) this.triggers[i] = triggers;

    // Relevance and phrase: only the fields that may hold a query term are read word by word.
    let phraseIn: string[] | undefined = phraseInKeywords ? ['keywords'] : undefined;
    for (let f = 0; f < 4; f++) {
      const value = f === 0 ? name : f === 1 ? (keywords.length + verbs.length ? `${keywords.join(' ; ')} ; ${verbs.join(' ; ')}` : '') : f === 2 ? c.briefDescription : c.description;
      if (typeof value !== 'string' || value === '') continue;
      this.len[i * 4 + f] = value.length;
      if (!q.probe) continue;
      // ASCII text needs no normalising to be tested: the probe ignores case.
      const ascii = !NON_ASCII.test(value);
      if (ascii && !q.probe.test(value)) continue;
      const norm = ascii ? value.toLowerCase() : normalizeForMatch(value);
      this.at.i = i;
      this.at.f = f;
      forEachWordHolding(norm, q.probeAll!, this.countWord);
      if (f > 1 && q.phrase !== undefined && this.tfAt[i]! >= 0 && q.raw.every((w) => norm.includes(w)) && ` ${joinedWords(norm)} `.includes(q.phrase)) {
        (phraseIn ??= []).push(FIELDS[f]!);
      }
    }
    if (phraseIn) this.phrase[i] = `phrase "${q.raw.join(' ')}" in ${phraseIn.join(', ')}`;
  }

  /** How a keyword or verb matches the query, worked out once per distinct term. */
  private term(term: string): TermMatch {
    let hit = this.terms.get(term);
    if (hit === undefined) {
      hit = matchTerm(term, this.q);
      this.terms.set(term, hit);
    }
    return hit;
  }
}

interface TermMatch {
  /** '' when the term's words occur in the query as written, the query's words when only their stems do. */
  hit: string | null;
  /** The whole query occurs inside the term. */
  phrase: boolean;
}

const NO_MATCH: TermMatch = { hit: null, phrase: false };

const NONE: string[] = [];
function strings(v: unknown): string[] {
  if (!Array.isArray(v) || v.length === 0) return NONE;
  for (const s of v) if (typeof s !== 'string' || s === '') return v.filter((s): s is string => typeof s === 'string' && s.trim() !== '');
  return v as string[];
}

/** The text up to the first character that is not a-z or 0-9 (all of it when there is none). */
function firstWord(norm: string): string {
  for (let i = 0; i < norm.length; i++) {
    const c = norm.charCodeAt(i);
    if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57))) return norm.slice(0, i);
  }
  return norm;
}

/** The text after the last character that is not a-z or 0-9 (all of it when there is none). */
function lastWord(norm: string): string {
  for (let i = norm.length - 1; i >= 0; i--) {
    const c = norm.charCodeAt(i);
    if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57))) return norm.slice(i + 1);
  }
  return norm;
}

function matchTerm(term: string, q: Query): TermMatch {
  const norm = normalizeForMatch(term);
  // Cheap refusals first: a term that matches as written starts with a word of the query, and one that matches
  // by stem (or holds the whole query) holds a probe.
  if (!q.text.includes(firstWord(norm)) && !q.probe?.test(norm)) return NO_MATCH;
  const key = joinedWords(norm);
  if (!key) return NO_MATCH;
  const phrase = q.phrase !== undefined && ` ${key} `.includes(q.phrase);
  if (SYMBOL.test(norm) && !literalIn(norm.trim(), q.text)) return { hit: null, phrase };
  if (q.rawJoined.includes(` ${key} `)) return { hit: '', phrase };
  const ws = key.split(' ');
  const at = wordIndexOf(` ${ws.map(stem).join(' ')} `, q.stemsJoined);
  return { hit: at === -1 ? null : q.raw.slice(at, at + ws.length).join(' '), phrase };
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

// RE2 parses what it supports and refuses the rest; these JavaScript constructs are refused whatever the query,
// so they are reported even when the pattern's literal text keeps it from being compiled.
const UNSUPPORTED = /\(\?<?[=!]|\\[1-9]|\\k</;

/**
 * The compiled pattern when the query may match it, undefined when it cannot, or why it is skipped. Compiling
 * and running an RE2 program costs tens of microseconds, so a pattern whose required literal text is absent
 * from the query is not compiled at all.
 */
function patternFor(source: string, q: Query): RE2JS | string | undefined {
  if (source.length > MAX_PATTERN_CHARS) return `it is ${source.length} characters long; at most ${MAX_PATTERN_CHARS}`;
  const cached = patternCache.get(source);
  if (cached !== undefined) return cached;
  if (UNSUPPORTED.test(source)) return compilePattern(source);
  let literal = literalCache.get(source);
  if (literal === undefined) {
    literal = requiredLiteral(source) ?? '';
    if (literalCache.size >= PATTERN_CACHE_MAX) literalCache.clear();
    literalCache.set(source, literal);
  }
  if (!q.nfkcLower.includes(literal)) return undefined;
  return compilePattern(source);
}

const patternCache = new Map<string, RE2JS | string>();
const literalCache = new Map<string, string>();
const PATTERN_CACHE_MAX = 10_000;

/** A compiled, case-insensitive RE2 pattern, or why it cannot be used. Cached across calls. */
function compilePattern(source: string): RE2JS | string {
  const hit = patternCache.get(source);
  if (hit !== undefined) return hit;
  let out: RE2JS | string;
  try {
    out = RE2JS.compile(source, RE2JS.CASE_INSENSITIVE);
  } catch (err) {
    // RE2 has no lookaround and no backreferences; its message names the construct.
    out = (err instanceof Error ? err.message : String(err)).replace(/^error parsing regexp: /, '');
  }
  if (patternCache.size >= PATTERN_CACHE_MAX) patternCache.clear();
  patternCache.set(source, out);
  return out;
}

/**
 * The longest run of ASCII letters and digits that every match of the pattern contains (lower-cased), or
 * undefined. Conservative: only runs outside groups and classes count, in a pattern with no top-level `|`; a
 * letter followed by ?, * or {…} is optional and ends the run before it. `\Q…\E` quoting turns it off.
 */
export function requiredLiteral(source: string): string | undefined {
  if (source.includes('\\Q')) return undefined;
  let depth = 0;
  let inClass = false;
  let run = '';
  let best = '';
  const end = () => {
    if (run.length > best.length) best = run;
    run = '';
  };
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '\\') {
      end();
      i++;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      continue;
    }
    if (ch === '[') {
      end();
      inClass = true;
      // A ] right after [ or [^ is a literal member of the class.
      if (source[i + 1] === '^') i++;
      if (source[i + 1] === ']') i++;
      continue;
    }
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    else if (ch === '|' && depth === 0) return undefined;
    if (depth === 0 && /[A-Za-z0-9]/.test(ch)) {
      run += ch;
      continue;
    }
    if (ch === '?' || ch === '*' || ch === '{') run = run.slice(0, -1);
    end();
    // The counts of a repeat are no literal text.
    if (ch === '{') {
      const close = source.indexOf('}', i);
      if (close !== -1) i = close;
    }
  }
  end();
  return best.length >= 2 ? best.toLowerCase() : undefined;
}
