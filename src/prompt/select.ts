import { DF_FIELDS, FIELDS, NF } from './select-scan.js';
import { twoWords } from './select-fields.js';
import { CountedScan } from './select-counted.js';
import { isWeakWord, stem } from './text-match.js';
import { parseQuery, type Query } from './select-query.js';
import { LACKED_TOPIC, bm25Idf, lackedWeight, rankingIdf, smallCatalogIdf } from './background-idf.js';
import { COVER, COVER_AIM, MIN_CATALOG, NAME_PART, NAME_PART_COVER, RELATED_COVERS, noneFitsBar } from './none-fits.js';

export { NONE_FITS } from './none-fits.js';
export {
  candidateOf,
  type MatchKind,
  type Scored,
  type SelectOptions,
  type SelectResult,
  type SelectionCandidate,
} from './select-types.js';
import type { MatchKind, Scored, SelectOptions, SelectResult, SelectionCandidate } from './select-types.js';

/** Longer queries are cut here: a prompt, not a document, is what selection is for. */
export const MAX_QUERY_CHARS = 2000;

const CLASS: Record<MatchKind, number> = { mention: 3, phrase: 2, trigger: 1, relevance: 0 };
// BM25F: each field's term frequency, length-normalised and weighted, is summed before saturation (fields: see FIELDS:
// name, keywords, brief description, description, the body's headings, the body's text). The body ranks, lightly:
// it holds the words a description leaves out, and most words of any request somewhere.
const WEIGHT = [3, 2, 1.5, 1, 0.5, 0.1];
const B = [0.3, 0.5, 0.75, 0.75, 0.75, 0.75];
// The same for "none fits" (EVIDENCE): what a skill says about itself in its name, triggers and descriptions, and in
// its body's headings at a fifth of a description's weight: a heading names a task the skill covers ("Accepting
// Tracked Changes", "Merge PDFs") that the description leaves out, while the body's text holds most words of any
// request somewhere, and its words are no evidence (a pair of them side by side is: BODY_PAIR_EVIDENCE). (With the
// headings read, the bar NONE_FITS is a little higher.)
const EVIDENCE_WEIGHT = [3, 2, 1.5, 1, 0.2, 0];
// A pair of request words side by side in a heading of the body ("Root cause", "Write a failing test") weighs more:
// half a description's. (In the body's text: BODY_PAIR_EVIDENCE.)
const PAIR_EVIDENCE_WEIGHT = [3, 2, 1.5, 1, 0.5, 0];
// A pair of request words side by side in the body's text ("fuzz target", "tracked changes", "reverse proxy") is
// evidence at half a description's weight, as in a heading: one request word in a long body is chance, two next to
// each other are a topic the body treats. Its IDF is over the bodies (how many bodies hold the pair side by side: one
// most bodies hold, "read the input", says nothing), not over the descriptions, where the pair is mostly absent. It
// does not rank: the words rank already, and ranking by the pair too moved the sets by a request either way. On the
// four real sets (README): top-1 rose on all four (the fourth, written from the bodies, by 5 requests), no-fit held on
// the first and fourth and fell by one request on the second and third. The body's words alone as evidence, even
// rare ones, two in one body, lifted fit requests and sank no-fit (README). A pair of two generic words ("check the
// file", "step two", "find open") is not: any body of steps holds such pairs (on the ten sets, no-fit of the eighth +1,
// "nmap command to find open ports on my home network" no longer selects gh-address-comments; nothing else moved).
const BODY_PAIR_EVIDENCE = 0.5;
const K1 = 1.2;
// A word related to a query word (synonyms.ts) counts for this share of the word itself.
const RELATED = 0.3;
// A word that a phrase of the request means (synonyms.ts PHRASES: "carry out" means "execute") counts this share.
const PHRASE_MEANS = 1;
// A generic word of requests ("write", "check", "file": text-match.ts) counts for this share of its IDF.
const WEAK = 0.3;
// In ranking, though, a skill whose name holds the generic word as written has it at its whole IDF: among
// skills that share a topic the name's verb or object says which is meant ("write a plan": writing-plans, not
// executing-plans; "checks fail, fix": gh-fix-ci; "turn a rule into the same check": semgrep-rule-variant-creator).
// As evidence for "none fits" it stays weak. On the four sets, top-1 146 -> 148 of 161 (second), 158 -> 160 of 191
// (third), 119 -> 121 of 157 (fourth); the first set, no-fit and every expected held, unchanged.
// In the body a word counts only past this many times the occurrences per average body length that any word has by
// chance: a long body holds most words of any request once or twice.
const BODY_FLOOR = 1;
// A pair of query words found side by side in a field ("project update", "code graph", "root cause") is a term of its
// own, with its own document frequency: two generic words together can name one thing. It counts this share of a
// word found in the same fields: a third, since its two words count already (at a full share, pairs of common words
// such as "failing tests" outweighed the one word that told the skill). As evidence for "none fits" it counts whole.
const PAIR = 0.3;
// Document frequency counts the fields every skill has (name to description): select-scan.ts DF_FIELDS.
const DF_MASK = (1 << DF_FIELDS) - 1;
const BODY = NF - 1;
const BODY_BIT = 1 << BODY;
// A name mentioned whole, in one word, that more skills than this use in their name or description is shared
// (a tool's name: "semgrep", "trailmark"): it does not say which of them is meant, so it counts as relevance.
const SHARED_NAME_DF = 3;
// Among mentions, each word of the name mentioned counts like a well-matched rare word: the longer name first.
const MENTION_POINTS = 2;
// A whole name that more skills use (SHARED_NAME_DF) counts among them for this much (see sharedName).
const SHARED_NAME_POINTS = 0.5;
// Each trigger that fires is worth about one well-matched rare word, so among skills of the trigger class the
// one whose triggers say more about the query comes first.
const TRIGGER_POINTS = 2;
// A skill found by relevance alone must score at least this share of the best relevance in the set.
const RELATIVE_FLOOR = 0.25;
// A skill found by relevance alone is selected after a better one found so only when its score within the class is at
// least this share of that one's: a second and a third a little less relevant are what the request also needs, much
// less are words shared by chance. Mentions, phrases and triggers are never cut. Measured on the four evaluation sets
// (bench/selection-real.mjs): 0.8 halves to two-thirds the selected skills not expected, keeps top-1, top-3, MRR and
// no-fit as they were, and loses one request of 256 and one of 161 whose selection held every expected skill; 0.85
// lost top-3 on three sets.
export const RELEVANCE_CUT = 0.8;

const NO_PHRASES: number[] = [];

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
  const scan = new CountedScan(q, warnings, n);
  scan.pass(candidates, opts.mayMatch?.(q));
  scan.finish();
  const { len, tf, tfAt, mention, mentionWords, mentionTerm, mentionPairs, phrase, triggers, pairs, fields, df } = scan;
  const stride = nTerms * NF;
  const avg = [...scan.lenSum].map((sum, f) => (scan.lenCount[f] ? sum / scan.lenCount[f]! : 1));
  const nPairs = q.pairs.size;
  // A pair's document frequency over the fields every skill has, and over the bodies read (a body is read only where
  // the skill's metadata holds a query word: select-scan.ts), against the number of bodies.
  const pairDf = new Array<number>(nPairs).fill(0);
  const bodyPairDf = new Array<number>(nPairs).fill(0);
  for (let i = 0; i < n; i++) {
    const p = pairs[i];
    if (p)
      for (let k = 0; k < nPairs; k++) {
        if (p[k]! & DF_MASK) pairDf[k]++;
        if (p[k]! & BODY_BIT) bodyPairDf[k]++;
      }
  }
  const pairIdf = pairDf.map((d) => bm25Idf(n, d));
  const bodies = scan.lenCount[BODY]!;
  const bodyPairIdf = bodyPairDf.map((d) => bm25Idf(bodies, d));
  const pairInformative = pairDf.map((d) => n < 4 || d <= n / 2);
  const weak = q.surface.map((w) => isWeakWord(w));
  // Two generic words side by side in the body ("check the file", "step two") are no evidence (BODY_PAIR_EVIDENCE).
  const bodyPairTells = [...q.pairs.keys()].map((key) => key.split(',').some((t) => !weak[Number(t)]));
  const fullIdf = Array.from(df, (d) => bm25Idf(n, d));
  const idf = fullIdf.map((x, t) => x * (weak[t] ? WEAK : 1));
  // In a small set every word is in half the skills; only in a larger one does "common" mean uninformative.
  const informative = Array.from(df, (d, t) => (n < 4 || d <= n / 2) && !weak[t]);
  // What one rare word scores here: the IDF of a word that one skill has.
  const ceiling = bm25Idf(n, 1);
  // Ranking weighs a word by its IDF here and over public skills at large (background-idf.ts); a phrase's term
  // (past wordTerms) by its IDF here.
  const rankFull = fullIdf.map((x, t) => (t < q.wordTerms ? rankingIdf(x, q.terms[t]!, ceiling) : x));
  const rankIdf = rankFull.map((x, t) => x * (weak[t] ? WEAK : 1));
  // "None fits" weighs a word by its IDF here, or in a small catalog, where that says little, mostly by its IDF over
  // public skills (SMALL_CATALOG_BAR).
  const small = n < MIN_CATALOG;
  const smallIdf = (x: number, t: number) =>
    t < q.wordTerms ? smallCatalogIdf(df[t]!, q.terms[t]!, ceiling, MIN_CATALOG) : x;
  const evIdf = small ? fullIdf.map((x, t) => smallIdf(x, t) * (weak[t] ? WEAK : 1)) : idf;

  const learnedOnly = Array.from({ length: nTerms }, (_, t) => q.learnedTerms.has(t));
  // Per term, 1 when some skill holds it as written (any field, a body read included): see `coverage`.
  const somewhere = new Uint8Array(nTerms);
  // NAME_PART when the request holds one word of the skill's name (a word of it, or a word related to it), and the name
  // has two words or more; else 1.
  const namePart = (i: number, at: number): number => {
    let hit = 0;
    for (let t = 0; t < nTerms && hit < 2; t++) if (tf[at + t * NF]! > 0 || tf[at + stride + t * NF]! > 0) hit++;
    return hit === 1 && twoWords(String(candidates[i]!.name)) ? NAME_PART : 1;
  };
  const relevance = new Float64Array(n);
  const evidence = new Float64Array(n);
  // What the evidence loses when the name's one word counts at NAME_PART (0 or less), applied in the end only to a
  // skill that holds little of the request (NAME_PART_COVER).
  const nameLoss = new Float64Array(n);
  const hasInformative = new Uint8Array(n);
  let best = 0;
  for (let i = 0; i < n; i++) {
    const at = tfAt[i]!;
    if (at < 0) continue;
    let r = 0;
    let e = 0;
    let eNamePart = 0;
    const mask = fields[i]!;
    const nameShare = mask & 1 ? namePart(i, at) : 1;
    for (let t = 0; t < nTerms; t++) {
      let tfw = 0;
      let tfe = 0;
      for (let f = 0; f < NF; f++) {
        if (!((mask >> f) & 1)) continue;
        const own = tf[at + t * NF + f]!;
        if (own) somewhere[t] = 1;
        let x = own + (t < q.wordTerms ? RELATED : PHRASE_MEANS) * tf[at + stride + t * NF + f]!;
        // A word widened by the learned table only: its related words rank the skill, and are no evidence to select it.
        let xe = learnedOnly[t] ? own : x;
        if (f === NF - 1) {
          const floor = BODY_FLOOR * (len[i * NF + f]! / avg[f]!);
          if (x) x = Math.max(0, x - floor);
          if (xe) xe = Math.max(0, xe - floor);
        }
        if (x) {
          const lenNorm = 1 - B[f]! + (B[f]! * len[i * NF + f]!) / avg[f]!;
          tfw += (WEIGHT[f]! * x) / lenNorm;
          tfe += (EVIDENCE_WEIGHT[f]! * xe) / lenNorm;
        }
      }
      if (tfw > 0) {
        // A generic word the name holds as written counts whole in ranking (see WEAK).
        r += ((weak[t] && tf[at + t * NF]! > 0 ? rankFull[t]! : rankIdf[t]!) * tfw) / (K1 + tfw);
        if (informative[t]) hasInformative[i] = 1;
      }
      if (tfe > 0) e += (evIdf[t]! * tfe) / (K1 + tfe);
      if (nameShare < 1 && tfe > 0) {
        // The same with the name's weight at nameShare (outside the loop above: it is rare, the loop is not).
        const own = tf[at + t * NF]!;
        const xe = learnedOnly[t] ? own : own + (t < q.wordTerms ? RELATED : PHRASE_MEANS) * tf[at + stride + t * NF]!;
        const part =
          tfe - ((1 - nameShare) * EVIDENCE_WEIGHT[0]! * xe) / (1 - B[0]! + (B[0]! * len[i * NF]!) / avg[0]!);
        if (part > 0) eNamePart += (evIdf[t]! * part) / (K1 + part);
      }
    }
    if (nameShare < 1) nameLoss[i] = eNamePart - e;
    // The floor compares with the best word matches alone: a pair lifts a skill, never lowers the others.
    if (r > best) best = r;
    const p = pairs[i];
    if (p)
      for (let k = 0; k < nPairs; k++) {
        const inBody = p[k]! & BODY_BIT;
        if (inBody && bodyPairTells[k]) {
          const tfe = BODY_PAIR_EVIDENCE / (1 - B[BODY]! + (B[BODY]! * len[i * NF + BODY]!) / avg[BODY]!);
          e += (bodyPairIdf[k]! * tfe) / (K1 + tfe);
        }
        const m = p[k]! & ~BODY_BIT;
        if (!m) continue;
        let tfw = 0;
        let tfe = 0;
        for (let f = 0; f < NF; f++) {
          if (!((m >> f) & 1)) continue;
          const norm = 1 / (1 - B[f]! + (B[f]! * len[i * NF + f]!) / avg[f]!);
          tfw += WEIGHT[f]! * norm;
          tfe += PAIR_EVIDENCE_WEIGHT[f]! * norm;
        }
        r += (PAIR * pairIdf[k]! * tfw) / (K1 + tfw);
        e += (pairIdf[k]! * tfe) / (K1 + tfe);
        if (pairInformative[k] && m & DF_MASK) hasInformative[i] = 1;
      }
    relevance[i] = r;
    evidence[i] = e;
  }

  // How much of what the request says this skill holds, anywhere (a field or its body), by information: its words
  // other than generic ones, each weighted by IDF (a word no skill has weighing as one rare word), a word the skill
  // holds only as a related word counting half (only as a word the learned table relates: nothing). A request is
  // rarely about a skill that holds a small part of it: the word they share is chance ("host my blog on Netlify",
  // "configure nginx as a reverse proxy"). Names and quoted text that no skill holds are the request's material
  // ("in Lisbon"), and count on neither side; a name some skill holds ("Django", "Helm") is what the request is about,
  // and a skill that lacks it holds less of the request (on the four sets: no-fit 26 -> 27 of 36 on the third, 24 ->
  // 25 on the fourth; nothing else moved).
  const telling: number[] = [];
  const lackedOf: (number | undefined)[] = [];
  for (let t = 0; t < q.wordTerms; t++) if (!weak[t]) telling.push(t);
  // The share; with `lacks`, the request's words the skill holds nothing of are put there (for the "below" text).
  const coverage = (i: number, lacks?: string[], topics?: string[]): number => {
    const at = tfAt[i]!;
    const mask = fields[i]!;
    let all = 0;
    let held = 0;
    for (const t of telling) {
      let own = 0;
      let near = 0;
      for (let f = 0; f < NF && !own; f++) {
        if (!((mask >> f) & 1)) continue;
        if (tf[at + t * NF + f]! > 0) own = 1;
        else if (tf[at + stride + t * NF + f]! > 0) near = learnedOnly[t] ? 0 : 1;
        // A word of a phrase whose meaning the skill holds ("figure" of "figure out why", which means debug).
        else for (const p of q.inPhrases.get(t) ?? NO_PHRASES) if (tf[at + stride + p * NF + f]! > 0) own = 1;
      }
      if (!own && !near && q.material.has(t) && !somewhere[t]) continue;
      // A topic no skill here holds and skills at large do (a neighbouring tool) weighs more (lackedWeight).
      const lacked = somewhere[t] || small ? 1 : (lackedOf[t] ??= lackedWeight(q.terms[t]!));
      const w = Math.min(evIdf[t]!, ceiling) * lacked;
      all += w;
      held += own ? w : near ? RELATED_COVERS * w : 0;
      if (!own && !near) lacks?.push(q.surface[t]!);
      if (lacked > 1) topics?.push(q.surface[t]!);
    }
    return all > 0 ? held / all : 0;
  };
  // A one-word name that other skills' descriptions use too (a tool's name: "semgrep", "trailmark") does not say
  // which of them is meant: its mention counts as relevance only. So does a part of a longer name ("entry point" of
  // entry-point-analyzer) that another skill's name, triggers or descriptions hold side by side too (the Trailmark
  // skills say entry points), unless the skill holds the whole request: the part is then the request ("semgrep rule").
  const sharedName = (i: number): boolean => {
    if (n < MIN_CATALOG) return false;
    const part = mentionPairs[i];
    if (part) return part.every((p) => pairDf[p]! > 1) && coverage(i) < 1;
    const word = mentionTerm[i];
    const t = word === undefined ? undefined : q.termIndex.get(stem(word));
    return t !== undefined && df[t]! > SHARED_NAME_DF;
  };
  // The evidence a skill found by relevance needed to be selected ("none fits"); 0 when it is not judged by it.
  const { bar, long } = noneFitsBar(small, telling.length);
  const neededOf = (i: number, kind: MatchKind): number =>
    kind === 'relevance' ? bar * (1 + COVER * (COVER_AIM - coverage(i))) : 0;
  // The most neededOf gives (a skill that holds none of the request): the least coverage, 0, needs the most.
  const mostNeeded = bar * (1 + COVER * (COVER_AIM - 0));
  // Why a skill under the threshold is not selected: written only for the skills --explain and JSON show.
  const belowText = (i: number, needed: number): string => {
    const lacks: string[] = [];
    const topics: string[] = [];
    const share = coverage(i, lacks, topics);
    return (
      `its name, triggers, descriptions and headings match ${(evidence[i]! / ceiling).toFixed(2)} of one rare word, ` +
      `under the ${needed.toFixed(2)} needed (generic words, related words and the body's text rank a skill but do ` +
      `not select it, but for two of the request's words side by side in the body, not both generic;` +
      `${topics.length ? ` no skill here holds ${topics.join(', ')}, and public skills do: each weighs ${LACKED_TOPIC};` : ''}` +
      ` it holds ${Math.round(share * 100)}% of what the request says${lacks.length ? `, not: ${lacks.join(', ')}` : ''}` +
      `${long > 1 ? `; a request of ${telling.length} words asks ${long.toFixed(2)} times as much` : ''}` +
      `${nameLoss[i]! < 0 ? "; the one word of its name it holds counts as a description's" : ''})`
    );
  };
  // Every match (what --explain and JSON list), and the best `max` of those selectable, found without sorting them all:
  // the thousands a common word matches in a large registry are put in order only when `ranked` is read.
  const hits: Hit[] = [];
  const max = opts.max >= 0 ? Math.floor(opts.max) : 0;
  const top: Hit[] = [];
  for (let i = 0; i < n; i++) {
    const r = relevance[i]!;
    const kind: MatchKind | undefined =
      mention[i] && !sharedName(i)
        ? 'mention'
        : phrase[i]
          ? 'phrase'
          : triggers[i]
            ? 'trigger'
            : r > 0 && hasInformative[i] && r >= RELATIVE_FLOOR * best
              ? 'relevance'
              : undefined;
    if (!kind) continue;
    // A name that several skills share, mentioned whole ("trailmark"), still says this skill before its siblings.
    const named = kind === 'mention' ? MENTION_POINTS * mentionWords[i]! : mention[i] ? SHARED_NAME_POINTS : 0;
    const within = r + TRIGGER_POINTS * (triggers[i]?.length ?? 0) + named;
    // At or above what a skill holding none of the request needs, the evidence is enough: its coverage is not read.
    // (Only where the loss could bring it under the most any skill needs is its coverage read.)
    if (nameLoss[i]! < 0) {
      const loses =
        kind === 'relevance' &&
        n >= MIN_CATALOG &&
        evidence[i]! + nameLoss[i]! < mostNeeded * ceiling &&
        coverage(i) < NAME_PART_COVER;
      if (loses) evidence[i] += nameLoss[i]!;
      else nameLoss[i] = 0;
    }
    const needed = evidence[i]! < mostNeeded * ceiling ? neededOf(i, kind) : 0;
    const below = needed > 0 && evidence[i]! < needed * ceiling ? needed : 0;
    // The class is the integer part, the strength within it the fraction: higher is better across classes; a match
    // under the threshold comes after every selectable one.
    const key = CLASS[kind] + within / (within + 4) - (below ? 1 : 0);
    const hit: Hit = { i, kind, key, name: String(candidates[i]!.name), below };
    hits.push(hit);
    if (below || max === 0 || (top.length === max && byRank(hit, top[max - 1]!) >= 0)) continue;
    // After the last that ranks before it or with it (the order a stable sort of every hit gives).
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (byRank(top[mid]!, hit) <= 0) lo = mid + 1;
      else hi = mid;
    }
    top.splice(lo, 0, hit);
    if (top.length > max) top.pop();
  }
  // The cut (RELEVANCE_CUT), against the best skill found by relevance, whatever `max` is.
  let bestRelevance: Hit | undefined;
  for (const h of hits)
    if (h.kind === 'relevance' && !h.below && (!bestRelevance || byRank(h, bestRelevance) < 0)) bestRelevance = h;
  const isCut = (h: Hit): boolean =>
    h.kind === 'relevance' && !h.below && h !== bestRelevance && h.key < RELEVANCE_CUT * bestRelevance!.key;
  const kept = bestRelevance ? top.filter((h) => !isCut(h)) : top;
  const cutText = (h: Hit): string =>
    `it scores ${scoreOf(h.key).toFixed(2)}, under ${RELEVANCE_CUT} of the ${scoreOf(bestRelevance!.key).toFixed(2)} of ${bestRelevance!.name}, the best skill found by relevance: a skill much less relevant than one selected is left out`;
  const describe = (i: number): string[] => {
    const matched: string[] = [];
    // A name shared with other skills (sharedName) is said so: it ranks as relevance.
    if (mention[i]) matched.push(sharedName(i) ? `${mention[i]}, as other skills say it: relevance` : mention[i]!);
    if (phrase[i]) matched.push(phrase[i]!);
    if (triggers[i]) matched.push(...triggers[i]!);
    if (relevance[i]! > 0) matched.push(`relevance: ${describeRelevance(tf, tfAt[i]!, q, pairs[i])}`);
    return matched;
  };
  const selected: Scored[] = kept.map(({ i, kind, key, name }) => ({
    name,
    kind,
    score: scoreOf(key),
    matched: describe(i),
  }));
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
  let ranked: Scored[] | undefined;
  const rank = (): Scored[] => {
    hits.sort(byRank);
    const chosen = new Map(kept.map((h, k) => [h, selected[k]!]));
    return hits.map((hit) => {
      const { i, kind, key, name, below } = hit;
      const picked = chosen.get(hit);
      if (picked) return picked;
      const scored = { name, kind, score: scoreOf(key) } as Scored;
      rowOf.set(scored, i);
      Object.defineProperty(scored, 'matched', lazy);
      if (below) scored.below = belowText(i, below);
      else if (isCut(hit)) scored.below = cutText(hit);
      return scored;
    });
  };
  const result = { selected, warnings } as unknown as SelectResult;
  Object.defineProperty(result, 'ranked', {
    enumerable: true,
    configurable: true,
    get: () => (ranked ??= rank()),
  });
  return result;
}

/** A match, before it is put in order (byRank) and described. */
interface Hit {
  i: number;
  kind: MatchKind;
  key: number;
  name: string;
  /** Under the threshold of "none fits": the evidence it needed (0: not under it). */
  below: number;
}

/** The score shown for a rank key (--explain prints it to two places). */
const scoreOf = (key: number): number => Math.floor(key * 1e4) / 1e4;

/** Rank order: the higher key first, then by name. */
const byRank = (a: Hit, b: Hit): number => b.key - a.key || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

function describeRelevance(tf: Float32Array, at: number, q: Query, pairs: Uint8Array | undefined): string {
  let out = '';
  const stride = q.terms.length * NF;
  for (let t = 0; t < q.terms.length; t++) {
    let where = '';
    let related = '';
    for (let f = 0; f < NF; f++) {
      if (tf[at + t * NF + f]! > 0) where += where ? `, ${FIELDS[f]}` : FIELDS[f];
      else if (tf[at + stride + t * NF + f]! > 0) related += related ? `, ${FIELDS[f]}` : FIELDS[f];
    }
    if (where) out += `${out ? ', ' : ''}${q.surface[t]} (${where})`;
    if (related) out += `${out ? ', ' : ''}${q.surface[t]} ~ a related word (${related})`;
  }
  if (pairs)
    pairs.forEach((m, k) => {
      const where = FIELDS.filter((_, f) => (m >> f) & 1).join(', ');
      if (where) out += `${out ? ', ' : ''}"${q.pairSurface[k]}" side by side (${where})`;
    });
  return out;
}
