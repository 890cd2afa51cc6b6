import {
  NON_ASCII,
  forEachWordHolding,
  words,
  isStopWord,
  joinedWords,
  normalizeForMatch,
  stem,
} from './text-match.js';
import {
  LEARNED_SHARE,
  SYMBOL,
  firstWord,
  lastWord,
  literalIn,
  matchTerm,
  type Query,
  type TermMatch,
} from './select-query.js';
import { matchBudget, patternFor } from './trigger-patterns.js';
import { MAX_MATCH_WORK, MAX_PATTERNS_PER_SKILL } from '../formats/trigger-limits.js';
import type { SelectionCandidate } from './select.js';
import { BODY, DF_FIELDS, FIELDS, HEADINGS, NF, fieldValue, headingsOf, type Reach } from './select-fields.js';

export { DF_FIELDS, FIELDS, NF, headingsOf, type Reach };
import { joinedLength, strings } from './selection-terms.js';

// Characters NFKC or the folding of accents changes in Latin text (normalizeForMatch).
// eslint-disable-next-line no-misleading-character-class -- a range of combining marks, alone, on purpose
const FOLDED = /[\u00c0-\u024f\u0300-\u036f\u1e00-\u1eff\ufb00-\ufb06\uff00-\uffef]/;

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
   * Per candidate and field ([i * NF + field]), its length in characters (0 when absent): BM25 needs only lengths
   * relative to the average.
   */
  readonly len: Float64Array;
  /** Per field, the sum of the lengths noted that are not 0, and how many they are (BM25's average lengths). */
  readonly lenSum = new Float64Array(NF);
  readonly lenCount = new Float64Array(NF);
  /**
   * Per query term, how many candidates hold it, or a word related to it, in a field of DF_FIELDS (its document
   * frequency): counted as the words are, so that no pass over every candidate and term is needed after.
   */
  readonly df: Int32Array;
  /** Per candidate and query term ([i * T + t]), 1 once it is counted in df. */
  private readonly dfSeen: Uint8Array;
  /**
   * Where candidate i's term frequencies start in tf ([at + term * NF + field]); -1 when no query term occurs in it.
   * Terms 0..T-1 count the query's own words, T..2T-1 the words related to them (synonyms.ts).
   */
  readonly tfAt: Int32Array;
  protected tfPool: Float32Array;
  protected tfUsed = 0;
  readonly mention: (string | undefined)[];
  /** How many words of the name the query mentions (0 when none): the more, the more specific the mention. */
  readonly mentionWords: Uint8Array;
  /** The one word of a mention in one word (a name, an acronym): mentioned, it says which skill only if rare. */
  readonly mentionTerm: (string | undefined)[];
  /**
   * A part of a longer name mentioned (two words of it or more in sequence): the query's pairs (Query.pairs) it is
   * made of, in order; undefined when a word of it is no term (a stop word) or the mention is another kind.
   */
  readonly mentionPairs: (number[] | undefined)[];
  /** Per candidate, a bit for each field that holds a term (1 << field): ranking reads those fields only. */
  readonly fields: Uint8Array;
  /**
   * Per candidate, the query's pairs (Query.pairs) it holds side by side: for each pair, a bit for each field that
   * holds it (1 << field); undefined when it holds none.
   */
  readonly pairs: (Uint8Array | undefined)[];
  readonly phrase: (string | undefined)[];
  readonly triggers: (string[] | undefined)[];
  /** The matching work left for trigger patterns, and the patterns not tried once it was spent. */
  private readonly budget = matchBudget();
  private unmatched = { patterns: 0, skills: 0 };
  /** Which candidates' lengths are in the sums already (Reach.summed): setLen notes only their own. */
  protected summed: Uint8Array | undefined;
  /** The candidate and field whose words countWord is given. */
  private at = { i: 0, f: 0 };

  constructor(
    protected readonly q: Query,
    private readonly warnings: string[],
    n: number,
  ) {
    this.len = new Float64Array(n * NF);
    this.df = new Int32Array(q.terms.length);
    this.dfSeen = new Uint8Array(n * q.terms.length);
    this.tfAt = new Int32Array(n).fill(-1);
    this.tfPool = new Float32Array(Math.max(1, q.terms.length) * 2 * NF * Math.min(n, 1024));
    this.mention = new Array(n);
    this.mentionWords = new Uint8Array(n);
    this.mentionTerm = new Array(n);
    this.mentionPairs = new Array(n);
    this.pairs = new Array(n);
    this.fields = new Uint8Array(n);
    this.phrase = new Array(n);
    this.triggers = new Array(n);
  }

  /** The term frequencies of every candidate (read after the pass: the pool grows as it goes). */
  get tf(): Float32Array {
    return this.tfPool;
  }

  /** Word → the query term it stems to, or -1 (a stop word, another stem): a word recurs across candidates. */
  private readonly wordTerms = new Map<string, number>();

  /** While a field is read for pairs: each own term found, as term, start, end (see countPairs). */
  private spans: number[] | undefined;

  private readonly countWord = (w: string, start: number, end: number): void => {
    let t = this.wordTerms.get(w);
    if (t === undefined) {
      const s = isStopWord(w) ? undefined : stem(w);
      const own = s === undefined ? undefined : this.q.termIndex.get(s);
      const rel = s === undefined || own !== undefined ? undefined : this.q.related.get(s);
      // A word only the learned table relates (Query.learned) is noted past 2T: it counts LEARNED_SHARE.
      t = own ?? (rel === undefined ? -1 : rel + this.q.terms.length * (this.q.learned.has(s!) ? 2 : 1));
      this.wordTerms.set(w, t);
    }
    if (t < 0) return;
    let inc = 1;
    if (t >= 2 * this.q.terms.length) {
      t -= this.q.terms.length;
      inc = LEARNED_SHARE;
    }
    if (this.spans && t < this.q.terms.length && start >= 0) this.spans.push(t, start, end);
    const { i, f } = this.at;
    this.fields[i] |= 1 << f;
    let at = this.tfAt[i]!;
    if (at < 0) at = this.newTf(i);
    const cell = at + t * NF + f;
    // A word only the learned table relates ranks, but is not counted in the term's document frequency: a loose
    // neighbour ("wind" for "rain") would make a rare word look common.
    if (f < DF_FIELDS && inc === 1) this.countDf(i, t);
    this.tfPool[cell] += inc;
  };

  /** At a count of term (or related word) t in a field of DF_FIELDS: a candidate more, if its first. */
  protected countDf(i: number, t: number): void {
    const nTerms = this.q.terms.length;
    const own = t < nTerms ? t : t - nTerms;
    if (this.dfSeen[i * nTerms + own]) return;
    this.dfSeen[i * nTerms + own] = 1;
    this.df[own]!++;
  }

  /**
   * Note the length of field f of candidate i (0: absent). A registry skill's lengths of the fields every skill has
   * are in the selection index's sums already (Reach.summed); its body's, read for this query, are not.
   */
  protected setLen(i: number, f: number, length: number): void {
    this.len[i * NF + f] = length;
    if (length > 0 && (f >= DF_FIELDS || !this.summed?.[i])) {
      this.lenSum[f] += length;
      this.lenCount[f]++;
    }
  }

  protected newTf(i: number): number {
    const size = this.q.terms.length * 2 * NF;
    if (this.tfUsed + size > this.tfPool.length) {
      const grown = new Float32Array(Math.max(this.tfPool.length * 2, this.tfUsed + size));
      grown.set(this.tfPool);
      this.tfPool = grown;
    }
    const at = this.tfUsed;
    this.tfUsed += size;
    this.tfAt[i] = at;
    return at;
  }

  /**
   * What a candidate's name and triggers say of the query: a mention of its name, the triggers that fire (keywords,
   * verbs, patterns). True when the whole query is inside a keyword or verb (a phrase in its keywords).
   */
  protected named(
    i: number,
    c: SelectionCandidate,
    name: string,
    nameNorm: string,
    keywords: string[],
    verbs: string[],
  ): boolean {
    const q = this.q;
    // Mention: the name, or its words in sequence ("web-scraping", "web scraping"); a name of stop words only
    // ("it") would be mentioned by nearly every query.
    if (q.text.includes(firstWord(nameNorm)) && q.text.includes(lastWord(nameNorm))) {
      const key = joinedWords(nameNorm);
      if (
        key &&
        q.rawJoined.includes(` ${key} `) &&
        key.split(' ').some((w) => !isStopWord(w)) &&
        (!SYMBOL.test(nameNorm) || literalIn(nameNorm, q.text))
      ) {
        this.mention[i] = `name "${name}" mentioned`;
        this.mentionWords[i] = Math.min(255, key.split(' ').length);
        if (this.mentionWords[i] === 1) this.mentionTerm[i] = key;
      }
    }
    // An acronym of a name of three words or more, written in capitals (TDD for test-driven-development).
    // (Most names fail on their first letter: no word list is made for them.)
    if (!this.mention[i] && q.acronyms.size && this.acronymStart(nameNorm)) {
      const ws = joinedWords(nameNorm).split(' ');
      const initials = ws.length >= 3 && ws.length <= 6 ? ws.map((w) => w.charAt(0)).join('') : '';
      if (initials && q.acronyms.has(initials)) {
        this.mention[i] = `name "${name}" mentioned as ${initials.toUpperCase()}`;
        this.mentionWords[i] = 1;
        this.mentionTerm[i] = initials;
      }
    }

    // Triggers: keywords and verbs as whole words in sequence, as written or stemmed, so "api" never matches
    // inside "capital" and verb "scrape" matches "scraping".
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

    return phraseInKeywords;
  }

  candidate(i: number, c: SelectionCandidate): void {
    const q = this.q;
    const name = typeof c.name === 'string' ? c.name : String(c.name ?? '');
    const nameNorm = normalizeForMatch(name);
    const keywords = strings(c.keywords);
    const verbs = strings(c.verbs);
    const phraseInKeywords = this.named(i, c, name, nameNorm, keywords, verbs);

    // Relevance and phrase: only the fields that may hold a query term are read word by word.
    let phraseIn: string[] | undefined = phraseInKeywords ? ['keywords'] : undefined;
    const body = typeof c.body === 'string' ? c.body : '';
    // The body is read only where it pays: it ranks the skills whose name, triggers or descriptions hold a word of
    // the query (or a related one), and finds none of its own (a skill found only in its body could not be selected:
    // see EVIDENCE_WEIGHT in select.ts). Its headings are looked for only when it may hold a term at all.
    let bodyMayMatch = false;
    for (let f = 0; f < NF; f++) {
      if (f === HEADINGS) {
        bodyMayMatch = this.bodyMayMatch(i, body);
      }
      const value = fieldValue(f, name, keywords, verbs, c, body, bodyMayMatch);
      if (typeof value !== 'string' || value === '') continue;
      if (this.field(i, f, value, bodyMayMatch)) (phraseIn ??= []).push(FIELDS[f]!);
    }
    if (phraseIn) this.phrase[i] = `phrase "${q.raw.join(' ')}" in ${phraseIn.join(', ')}`;
    // A part of a longer name, two of its words or more in sequence ("semgrep rule" of semgrep-rule-creator), as
    // written or stemmed: says more than a shorter name that the query holds whole ("semgrep"). Looked for only
    // when the name holds two of the query's words.
    if (!this.mention[i] && this.tfAt[i]! >= 0 && this.nameTerms(i) >= 2) this.partialMention(i, nameNorm);
  }

  /**
   * Read field f of candidate i (its text `value`, not empty): its length, the query's terms and pairs in it; true
   * when it is a description that holds the query as a phrase.
   */
  private field(i: number, f: number, value: string, bodyMayMatch: boolean): boolean {
    const q = this.q;
    // A body's length counts whether or not it matches (BM25's average); its headings only when looked for.
    this.setLen(i, f, value.length);
    if (f === BODY && !bodyMayMatch) return false;
    if (!q.probe) return false;
    // ASCII text needs no normalising to be tested: the probe ignores case.
    // A body is long and its non-ASCII is mostly punctuation and symbols (— → ✅): it is normalised in full only
    // when it holds what normalising changes for matching (accented Latin, combining marks, full-width forms).
    const ascii = f >= HEADINGS ? !FOLDED.test(value) : !NON_ASCII.test(value);
    if (ascii && !q.probe.test(value)) return false;
    const norm = ascii ? value.toLowerCase() : normalizeForMatch(value);
    this.at.i = i;
    this.at.f = f;
    // Pairs are looked for in every field read, the body's text too (as evidence for "none fits" only: select.ts).
    this.spans = q.pairs.size ? [] : undefined;
    forEachWordHolding(norm, q.probeAll!, this.countWord);
    // Two terms next to each other here as in the query ("code graph", "root cause") say more than both apart.
    if (this.spans && this.spans.length >= 6) this.countPairs(i, f, norm, this.spans);
    this.spans = undefined;
    return (
      f > 1 &&
      f < HEADINGS &&
      q.phrase !== undefined &&
      this.tfAt[i]! >= 0 &&
      q.raw.every((w) => norm.includes(w)) &&
      ` ${joinedWords(norm)} `.includes(q.phrase)
    );
  }

  /** Whether candidate i's body may hold a term: read only where its other fields hold one (see candidate()). */
  private bodyMayMatch(i: number, body: string): boolean {
    return body !== '' && this.tfAt[i]! >= 0 && this.bodyProbe().test(body);
  }

  /**
   * The body of candidate i, read as candidate() reads a body (its headings, its text): for a registry skill whose
   * other fields the selection index counted, its body read for this query (Reach.bodies). After those fields.
   */
  body(i: number, body: string): void {
    if (body === '') return;
    const bodyMayMatch = this.bodyMayMatch(i, body);
    if (bodyMayMatch) {
      const headings = headingsOf(body);
      if (headings !== '') this.field(i, HEADINGS, headings, true);
    }
    this.field(i, BODY, body, bodyMayMatch);
  }

  /**
   * A candidate known to hold nothing of the query (no word of its name, triggers or descriptions stems to a word of
   * the query or a related one, no trigger pattern, no name an acronym of the query may stand for: a registry's
   * selection index tells, see selection-prefilter.ts): candidate() would note only the lengths of its fields, which
   * BM25's averages count.
   */
  lengths(i: number, c: SelectionCandidate): void {
    // fieldValue's lengths, without building its texts (the keywords' joined text is made for its length alone).
    const name = typeof c.name === 'string' ? c.name : String(c.name ?? '');
    const keywords = strings(c.keywords);
    const verbs = strings(c.verbs);
    this.setLen(i, 0, name.length);
    if (keywords.length + verbs.length > 0) this.setLen(i, 1, joinedLength(keywords) + 3 + joinedLength(verbs));
    if (typeof c.briefDescription === 'string') this.setLen(i, 2, c.briefDescription.length);
    if (typeof c.description === 'string') this.setLen(i, 3, c.description.length);
    if (typeof c.body === 'string') this.setLen(i, BODY, c.body.length);
  }

  private acronymStarts: string | undefined;

  /** Whether a normalised name starts with the first letter of an acronym of the query. */
  private acronymStart(nameNorm: string): boolean {
    this.acronymStarts ??= [...this.q.acronyms].map((a) => a.charAt(0)).join('');
    return this.acronymStarts.includes(nameNorm.charAt(0));
  }

  private bodyProbeRe: RegExp | undefined;

  /** The probe, or a character normalising changes (which may hide a term): one pass over a body says both. */
  private bodyProbe(): RegExp {
    return (this.bodyProbeRe ??= new RegExp(`${this.q.probe!.source}|${FOLDED.source}`, 'i'));
  }

  /** Note the query's pairs found side by side in field f, from the terms found in it (term, start, end). */
  private countPairs(i: number, f: number, norm: string, spans: number[]): void {
    for (let k = 3; k < spans.length; k += 3) {
      const a = spans[k - 3]!;
      const b = spans[k]!;
      // Side by side: nothing but spaces, punctuation and stop words between them ("code graph", "graph of code"),
      // at most 40 characters (tested first: in a body most terms found are far apart).
      if (a === b || spans[k + 1]! - spans[k - 1]! > 40) continue;
      const p = this.q.pairs.get(a < b ? `${a},${b}` : `${b},${a}`);
      if (p === undefined) continue;
      const gap = norm.slice(spans[k - 1]!, spans[k + 1]!);
      // Headings are one a line: two of them are not side by side.
      if (f === HEADINGS && gap.includes('\n')) continue;
      if (/[a-z0-9]/.test(gap) && !words(gap).every(isStopWord)) continue;
      (this.pairs[i] ??= new Uint8Array(this.q.pairs.size))[p]! |= 1 << f;
    }
  }

  /** How many of the query's own terms candidate i's name holds. */
  protected nameTerms(i: number): number {
    const at = this.tfAt[i]!;
    let k = 0;
    for (let t = 0; t < this.q.terms.length; t++) if (this.tfPool[at + t * NF]! > 0) k++;
    return k;
  }

  protected partialMention(i: number, nameNorm: string): void {
    const q = this.q;
    const ws = joinedWords(nameNorm).split(' ');
    if (ws.length < 3) return;
    const stems = ws.map(stem);
    let best: [number, number] | undefined;
    for (let a = 0; a < stems.length - 1; a++) {
      for (let b = stems.length; b >= a + 2; b--) {
        if (best && b - a <= best[1] - best[0]) break;
        const part = stems.slice(a, b);
        if (part.every((w) => isStopWord(w))) continue;
        if (q.stemsJoined.includes(` ${part.join(' ')} `)) best = [a, b];
      }
    }
    if (!best) return;
    this.mention[i] = `name words "${ws.slice(best[0], best[1]).join(' ')}" mentioned`;
    this.mentionWords[i] = best[1] - best[0];
    const pairs: number[] = [];
    for (let k = best[0] + 1; k < best[1]; k++) {
      const a = q.termIndex.get(stems[k - 1]!);
      const b = q.termIndex.get(stems[k]!);
      const p = a === undefined || b === undefined ? undefined : q.pairs.get(a < b ? `${a},${b}` : `${b},${a}`);
      if (p === undefined) return;
      pairs.push(p);
    }
    this.mentionPairs[i] = pairs;
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
