import { isStopWord, isWeakWord, joinedWords, normalizeForMatch, stem, stemProbe, words } from './text-match.js';
import { learnedStems, phrasesIn, relatedStems, writtenAs } from './related-terms.js';

/**
 * A word the learned table (related-learned.ts: words used alike in skills) relates to a query word counts this share
 * of what a word of the curated table (synonyms.ts) counts: it knows many more words, and less surely which of them
 * mean the same ("pdf": docx, odt, pptx are used alike, and are other formats).
 */
export const LEARNED_SHARE = 0.5;

// A query as selection reads it, and how one keyword, verb or name matches it.

export interface Query {
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
  /**
   * Relevance terms: each distinct stem that is no stop word, and the word the query wrote it as; then each phrase
   * of the table the query holds (related-terms.ts phrasesIn), as '"the phrase"', which only its meanings match.
   */
  terms: string[];
  surface: string[];
  termIndex: Map<string, number>;
  /** How many of the terms are words (the phrases come after them). */
  wordTerms: number;
  /** Stems of words related to a term (synonyms.ts) → that term; a term's own stem and other terms' are not here. */
  related: Map<string, number>;
  /** Those of the related stems that only the learned table gives (related-learned.ts): LEARNED_SHARE each. */
  learned: Set<string>;
  /**
   * The word terms widened by the learned table (none of the curated one): a skill holding only such a related word
   * ranks higher, but is neither covered by it nor has it as evidence to be selected (select.ts).
   */
  learnedTerms: Set<number>;
  /** Matches any text that may hold one of the terms (see stemProbe); undefined when there are none. */
  probe?: RegExp;
  probeAll?: RegExp;
  /** ' words of the query ' when it can be looked for as a phrase (two words or more, not all stop words). */
  phrase?: string;
  /**
   * Words of three to six capitals in the query ("TDD"), or of three to six lower-case consonants ("tdd"),
   * lower-cased: they may be a name's acronym.
   */
  acronyms: Set<string>;
  /**
   * Terms the query writes only as names (capitalised inside a sentence: "Lisbon", "Moby Dick") or inside quotes
   * ("translate 'thank you'"): the material of the request, not what it asks to do.
   */
  material: Set<number>;
  /**
   * Pairs of terms next to each other in the query, stop words aside, as 'a,b' with a < b (term indexes) → the
   * pair's index: each pair is a term of its own in ranking ("project update", "code graph", "root cause").
   */
  pairs: Map<string, number>;
  /** The pairs in index order, as the query wrote them ("project update"). */
  pairSurface: string[];
  /** Each word term that is part of a phrase of the table the query holds → the phrase terms it is part of. */
  inPhrases: Map<number, number[]>;
}

/** The query's words, stems and relevance terms, worked out once per selection. */
export function parseQuery(text: string): Query {
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
    wordTerms: 0,
    related: new Map(),
    learned: new Set(),
    learnedTerms: new Set(),
    material: new Set(),
    pairs: new Map(),
    pairSurface: [],
    inPhrases: new Map(),
    acronyms: new Set([...nfkc.matchAll(ACRONYM)].map((m) => m[0].toLowerCase())),
  };
  raw.forEach((w, i) => {
    const s = stems[i]!;
    if (isStopWord(w) || q.termIndex.has(s)) return;
    q.termIndex.set(s, q.terms.length);
    q.terms.push(s);
    q.surface.push(w);
  });
  const named = namesAndQuoted(nfkc);
  if (named.size) {
    const plain = new Set<string>();
    for (const w of raw) if (!named.has(w)) plain.add(stem(w));
    q.terms.forEach((t, i) => {
      if (!plain.has(t)) q.material.add(i);
    });
  }
  let last = -1;
  raw.forEach((w, i) => {
    if (isStopWord(w)) return;
    const t = q.termIndex.get(stems[i]!)!;
    const key = last < t ? `${last},${t}` : `${t},${last}`;
    if (last >= 0 && last !== t && !q.pairs.has(key)) {
      q.pairs.set(key, q.pairSurface.length);
      q.pairSurface.push(`${q.surface[last]} ${q.surface[t]}`);
    }
    last = t;
  });
  // A phrase of the table is one unit: its words keep their sense in it (not widened by the groups), and it is a
  // term of its own whose related words are what it means (it matches no single word itself).
  const found = phrasesIn(q.stemsJoined);
  const inPhrase = new Set(found.flatMap((p) => p.stems));
  const wordTerms = (q.wordTerms = q.terms.length);
  q.terms.forEach((t, i) => {
    if (inPhrase.has(t)) return;
    for (const r of relatedStems(t)) if (!q.termIndex.has(r) && !q.related.has(r)) q.related.set(r, i);
  });
  for (const p of found) {
    const means = p.means.filter((m) => !q.termIndex.has(m) && !q.related.has(m));
    if (!means.length) continue;
    for (const m of means) q.related.set(m, q.terms.length);
    for (const w of p.stems) {
      const t = q.termIndex.get(w);
      if (t !== undefined) q.inPhrases.set(t, [...(q.inPhrases.get(t) ?? []), q.terms.length]);
    }
    q.terms.push(`"${p.text}"`);
    q.surface.push(p.text);
  }
  // The learned neighbours of a word the curated table does not know (where it does, it wins), after every curated
  // word: where both give a word, the curated table's term has it.
  q.terms.slice(0, wordTerms).forEach((t, i) => {
    if (inPhrase.has(t) || isWeakWord(q.surface[i]!) || relatedStems(t).length) return;
    for (const r of learnedStems(t))
      if (!q.termIndex.has(r) && !q.related.has(r)) {
        q.related.set(r, i);
        q.learned.add(r);
        q.learnedTerms.add(i);
      }
  });
  if (q.terms.length) {
    // A stem of three letters or fewer is looked for as a word of its own, so a longer word the stemmer cut that
    // short ("harness" → "har") is looked for as written too, or "harnesses" would never be read.
    const stems = [...q.terms.slice(0, wordTerms), ...q.related.keys()];
    const probes = stems.map(probeOf);
    for (const s of stems) {
      if (s.length > 3) continue;
      const t = q.termIndex.get(s);
      const w = t !== undefined && t < wordTerms ? q.surface[t]! : writtenAs(s);
      if (w && w.length > s.length + 3) probes.push(escapeRegExp(stemProbe(w)));
    }
    const source = [...new Set(probes)].join('|');
    q.probe = new RegExp(source, 'i');
    q.probeAll = new RegExp(source, 'g');
  }
  if (raw.length >= 2 && q.terms.length > 0) q.phrase = q.rawJoined;
  return q;
}

// Three to six capitals ("TDD"), or three to six lower-case consonants, which no English word is ("tdd", "pbt");
// not a part of a path ("src/auth", "lib\\x"): a folder's name is no skill's acronym.
const ACRONYM = /(?<![A-Za-z0-9/\\])(?:[A-Z]{3,6}|[b-df-hj-np-tv-xz]{3,6})(?![A-Za-z0-9/\\])/g;
// A capitalised word (not all capitals: "PDF" is no name) that does not start a sentence; text between quotes.
const CAPITALISED = /(?<![.!?:;]\s*|^\s*)(?<![\p{L}\p{N}'’])\p{Lu}\p{Ll}[\p{L}\p{N}]*(?![\p{L}\p{N}])/gu;
const QUOTED = /"[^"]+"|“[^”]+”|(?<![\p{L}\p{N}])'[^']+'(?![\p{L}\p{N}])|‘[^’]+’/gu;

/**
 * The words (normalised) of a request that it writes as names or inside quotes. A name that the skills of the wider
 * world use (the learned table knows it: "MySQL", "Cloudflare", "Django") is a thing of the domain the request is
 * about, not its material ("Lisbon"), even when no skill here holds it.
 */
function namesAndQuoted(nfkc: string): Set<string> {
  const out = new Set<string>();
  for (const m of nfkc.matchAll(CAPITALISED)) {
    const name = normalizeForMatch(m[0]);
    if (!learnedStems(stem(name)).length) out.add(name);
  }
  for (const m of nfkc.matchAll(QUOTED)) for (const w of words(normalizeForMatch(m[0]))) out.add(w);
  return out;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The probe source of one stem: a string every word with this stem holds (stemProbe). A short stem is looked for as
 * a word of its own ("pr", "ci", "pdfs"), or the probe would stop at half the words of a long body ("pr" in
 * "process", "prompt").
 */
export const probeOf = (s: string): string =>
  /^[a-z0-9]{1,3}$/.test(s) ? `(?<![a-z0-9])${s}[a-z]{0,3}(?![a-z0-9])` : escapeRegExp(stemProbe(s));

/** Where the words of `seq` (joined ' a b ') occur in order in `joined`, as a word index, or -1. */
function wordIndexOf(seq: string, joined: string): number {
  const at = joined.indexOf(seq);
  if (at === -1) return -1;
  let words = 0;
  for (let i = 0; i < at; i++) if (joined.charCodeAt(i) === 32) words++;
  return words;
}

// Characters that words drop: a name or trigger holding one ("c++", "c#") must also appear as written.
export const SYMBOL = /[^\p{L}\p{M}\p{N}\s\-_'’.,/]/u;
const WORD_CHAR = /^[\p{L}\p{N}]$/u;

/** The text as written appears in the query with no letter or digit on either side. */
export function literalIn(needle: string, hay: string): boolean {
  for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + 1)) {
    if (!WORD_CHAR.test(hay.charAt(i - 1)) && !WORD_CHAR.test(hay.charAt(i + needle.length))) return true;
  }
  return false;
}

export interface TermMatch {
  /** '' when the term's words occur in the query as written, the query's words when only their stems do. */
  hit: string | null;
  /** The whole query occurs inside the term. */
  phrase: boolean;
}

export const NO_MATCH: TermMatch = { hit: null, phrase: false };

/** The text up to the first character that is not a-z or 0-9 (all of it when there is none). */
export function firstWord(norm: string): string {
  for (let i = 0; i < norm.length; i++) {
    const c = norm.charCodeAt(i);
    if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57))) return norm.slice(0, i);
  }
  return norm;
}

/** The text after the last character that is not a-z or 0-9 (all of it when there is none). */
export function lastWord(norm: string): string {
  for (let i = norm.length - 1; i >= 0; i--) {
    const c = norm.charCodeAt(i);
    if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57))) return norm.slice(i + 1);
  }
  return norm;
}

/** How a keyword or verb matches the query: as written, by its stems, or not at all. */
export function matchTerm(term: string, q: Query): TermMatch {
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
