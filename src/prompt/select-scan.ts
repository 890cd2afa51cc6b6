import { NON_ASCII, forEachWordHolding, isStopWord, joinedWords, normalizeForMatch, stem } from './text-match.js';
import { SYMBOL, firstWord, lastWord, literalIn, matchTerm, type Query, type TermMatch } from './select-query.js';
import { matchBudget, patternFor } from './trigger-patterns.js';
import { MAX_MATCH_WORK, MAX_PATTERNS_PER_SKILL } from '../formats/trigger-limits.js';
import type { SelectionCandidate } from './select.js';

/** The fields relevance reads, in the order of their columns. */
export const FIELDS = ['name', 'keywords', 'brief_description', 'description'] as const;

/**
 * The per-candidate pass, with what it learns about the query kept across candidates. What it finds is kept
 * column by column (typed arrays, sparse lists), not in an object per candidate: ten thousand objects whose
 * shapes vary with what matched made the ranking several times slower.
 */
export class Scan {
  private readonly terms = new Map<string, TermMatch>();
  /** Pattern → whether it matches the query, or why it is skipped; a set often repeats a pattern. */
  private readonly patterns = new Map<string, boolean | string>();
  /**
   * Per candidate and field ([i * 4 + field]), its length in characters (0 when absent): BM25 needs only lengths
   * relative to the average.
   */
  readonly len: Float64Array;
  /** Where candidate i's term frequencies start in tf ([at + term * 4 + field]); -1 when no query term occurs in it. */
  readonly tfAt: Int32Array;
  private tfPool: Float64Array;
  private tfUsed = 0;
  readonly mention: (string | undefined)[];
  readonly phrase: (string | undefined)[];
  readonly triggers: (string[] | undefined)[];
  /** The matching work left for trigger patterns, and the patterns not tried once it was spent. */
  private readonly budget = matchBudget();
  private unmatched = { patterns: 0, skills: 0 };
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
      if (
        key &&
        q.rawJoined.includes(` ${key} `) &&
        key.split(' ').some((w) => !isStopWord(w)) &&
        (!SYMBOL.test(nameNorm) || literalIn(nameNorm, q.text))
      ) {
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
    let patterns = strings(c.patterns);
    if (patterns.length > MAX_PATTERNS_PER_SKILL) {
      this.warnings.push(
        `${name}: only the first ${MAX_PATTERNS_PER_SKILL} of its ${patterns.length} trigger patterns are tried`,
      );
      patterns = patterns.slice(0, MAX_PATTERNS_PER_SKILL);
    }
    let missed = false;
    for (const p of patterns) {
      let hit = this.patterns.get(p);
      if (hit === undefined) {
        const re = patternFor(p, q, this.budget);
        if (re === null) {
          this.unmatched.patterns++;
          missed = true;
          continue;
        }
        hit = typeof re === 'string' ? re : !!re?.test(q.nfkc);
        this.patterns.set(p, hit);
      }
      if (typeof hit === 'string')
        this.warnings.push(`${name}: trigger pattern /${p.length > 80 ? `${p.slice(0, 80)}…` : p}/ is skipped: ${hit}`);
      else if (hit) (triggers ??= []).push(`pattern /${p}/`);
    }
    if (missed) this.unmatched.skills++;
    if (triggers) this.triggers[i] = triggers;

    // Relevance and phrase: only the fields that may hold a query term are read word by word.
    let phraseIn: string[] | undefined = phraseInKeywords ? ['keywords'] : undefined;
    for (let f = 0; f < 4; f++) {
      const value =
        f === 0
          ? name
          : f === 1
            ? keywords.length + verbs.length
              ? `${keywords.join(' ; ')} ; ${verbs.join(' ; ')}`
              : ''
            : f === 2
              ? c.briefDescription
              : c.description;
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
      if (
        f > 1 &&
        q.phrase !== undefined &&
        this.tfAt[i]! >= 0 &&
        q.raw.every((w) => norm.includes(w)) &&
        ` ${joinedWords(norm)} `.includes(q.phrase)
      ) {
        (phraseIn ??= []).push(FIELDS[f]!);
      }
    }
    if (phraseIn) this.phrase[i] = `phrase "${q.raw.join(' ')}" in ${phraseIn.join(', ')}`;
  }

  /** After the pass: say how many patterns the matching work limit left untried. */
  finish(): void {
    const { patterns, skills } = this.unmatched;
    if (patterns === 0) return;
    this.warnings.push(
      `${patterns} trigger pattern${patterns === 1 ? '' : 's'} of ${skills} skill${skills === 1 ? '' : 's'} not tried: ` +
        `the patterns tried before them used up the matching work allowed for one query (${MAX_MATCH_WORK.toLocaleString('en')} ` +
        'units of pattern size × query length); shorten the query, or the patterns (lint reports costly ones)',
    );
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

const NONE: string[] = [];
function strings(v: unknown): string[] {
  if (!Array.isArray(v) || v.length === 0) return NONE;
  for (const s of v)
    if (typeof s !== 'string' || s === '')
      return v.filter((s): s is string => typeof s === 'string' && s.trim() !== '');
  return v as string[];
}
