import { SKILL_ID_MAX } from '../model/spec.js';
import { DF_FIELDS, FIELDS, HEADINGS, NF, type Reach } from './select-fields.js';
import { Scan } from './select-scan.js';
import { LEARNED_SHARE } from './select-query.js';
import type { SelectionCandidate } from './select.js';
import { strings } from './selection-terms.js';
import { isStopWord, joinedWords, normalizeForMatch } from './text-match.js';

// The pass of selection over a catalog whose registry skills its selection index counts (selection-prefilter.ts,
// Reach): those are scored from the counts, without reading their fields word by word.

// A plain id (lower-case ASCII words and digits, single hyphens between): normalising leaves it as it is, and its
// words are its parts between hyphens.
const PLAIN_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Scan, with the counts of a registry's selection index (Reach) taken before the pass. */
export class CountedScan extends Scan {
  /**
   * Before the pass: the counts of the candidates `reach` counts (counted() reads them), with their document
   * frequencies, and the sums of the lengths of the registry's candidates.
   */
  applyCounts(reach: Reach): void {
    const { counts, pairs, counted } = reach;
    const nTerms = this.q.terms.length;
    for (let f = 0; f < DF_FIELDS; f++) {
      this.lenSum[f] += reach.lenSum[f]!;
      this.lenCount[f] += reach.lenCount[f]!;
    }
    this.summed = reach.summed;
    for (let k = 0; k < counts.length; k += 3) {
      const i = counts[k]!;
      if (!counted[i]) continue;
      const at = this.tfAt[i]! >= 0 ? this.tfAt[i]! : this.newTf(i);
      // A slot past 2T is a word only the learned table relates (selection-prefilter.ts): it counts LEARNED_SHARE.
      const learned = counts[k + 1]! >= 2 * nTerms;
      const slot = learned ? counts[k + 1]! - nTerms : counts[k + 1]!;
      const share = learned ? LEARNED_SHARE : 1;
      const tf = this.tfPool;
      // Every field counted is one of DF_FIELDS: the candidate holds the term (or a related word) in one of them.
      if (!learned) this.countDf(i, slot);
      const cell = at + slot * NF;
      const packed = counts[k + 2]!;
      for (let f = 0; f < DF_FIELDS; f++) {
        const n = (packed >>> (8 * f)) & 0xff;
        if (n === 0) continue;
        this.fields[i] |= 1 << f;
        tf[cell + f] += n * share;
      }
    }
    for (let k = 0; k < pairs.length; k += 3) {
      const i = pairs[k]!;
      if (!counted[i]) continue;
      const packed = pairs[k + 2]!;
      let bits = 0;
      for (let f = 0; f < DF_FIELDS; f++) if ((packed >>> (8 * f)) & 0xff) bits |= 1 << f;
      (this.pairs[i] ??= new Uint8Array(this.q.pairs.size))[pairs[k + 1]!]! |= bits;
    }
  }

  /**
   * A candidate whose terms applyCounts noted (Reach.counted): candidate() without reading its fields word by word.
   */
  counted(i: number, c: SelectionCandidate): void {
    const name = typeof c.name === 'string' ? c.name : String(c.name ?? '');
    const nameNorm = normalizeForMatch(name);
    const phraseInKeywords = this.named(i, c, name, nameNorm, strings(c.keywords), strings(c.verbs));
    // Lengths are read only beside counts (BM25); their sums are the index's.
    if (this.tfAt[i]! >= 0) this.lengths(i, c);
    this.countedTail(i, c, nameNorm, phraseInKeywords);
  }

  /** counted() after its name and triggers: a phrase in its descriptions, a part of its name mentioned. */
  private countedTail(i: number, c: SelectionCandidate, nameNorm: string, phraseInKeywords: boolean): void {
    const q = this.q;
    let phraseIn: string[] | undefined = phraseInKeywords ? ['keywords'] : undefined;
    const at = this.tfAt[i]!;
    // A phrase holds every word of the query: looked for only in a description that holds all its terms.
    if (at >= 0 && q.phrase !== undefined)
      for (let f = 2; f < HEADINGS; f++) {
        let all = true;
        for (let t = 0; t < q.wordTerms && all; t++) all = this.tfPool[at + t * NF + f]! > 0;
        const value = f === 2 ? c.briefDescription : c.description;
        if (!all || typeof value !== 'string') continue;
        const norm = value.toLowerCase();
        if (q.raw.every((w) => norm.includes(w)) && ` ${joinedWords(norm)} `.includes(q.phrase))
          (phraseIn ??= []).push(FIELDS[f]!);
      }
    if (phraseIn) this.phrase[i] = `phrase "${q.raw.join(' ')}" in ${phraseIn.join(', ')}`;
    if (!this.mention[i] && at >= 0 && this.nameTerms(i) >= 2) this.partialMention(i, nameNorm);
  }

  /**
   * The pass over every candidate, `reach` what a registry's selection index says of them. A counted candidate with
   * no triggers and a plain id for a name (a registry's skills, mostly) is scored in this loop: its mention is a
   * run of the query's words, its lengths are read only beside counts.
   */
  pass(candidates: readonly SelectionCandidate[], reach: Reach | undefined): void {
    if (reach) this.applyCounts(reach);
    const runs = reach ? this.runsOf() : undefined;
    const starts = this.q.acronyms.size ? [...this.q.acronyms].map((a) => a.charAt(0)).join('') : '';
    const len = this.len;
    for (let i = 0; i < candidates.length; i++) {
      const c = candidates[i]!;
      if (!reach) this.candidate(i, c);
      else if (!reach.may[i]) {
        if (!reach.summed[i]) this.lengths(i, c);
      } else if (!reach.counted[i]) {
        const body = reach.bodies[i];
        this.candidate(i, body === undefined ? c : { ...c, body });
      } else if (reach.bodies[i] !== undefined) {
        this.counted(i, c);
        this.body(i, reach.bodies[i]!);
      } else if (
        c.keywords !== undefined ||
        c.verbs !== undefined ||
        c.patterns !== undefined ||
        typeof c.name !== 'string' ||
        c.name.length > SKILL_ID_MAX ||
        !PLAIN_ID.test(c.name) ||
        starts.includes(c.name.charAt(0))
      )
        this.counted(i, c);
      else {
        const name = c.name;
        const words = runs!.get(name);
        if (words !== undefined) {
          this.mention[i] = `name "${name}" mentioned`;
          this.mentionWords[i] = words;
          if (words === 1) this.mentionTerm[i] = name;
        }
        if (this.tfAt[i]! < 0) continue;
        len[i * NF] = name.length;
        if (typeof c.briefDescription === 'string') len[i * NF + 2] = c.briefDescription.length;
        if (typeof c.description === 'string') len[i * NF + 3] = c.description.length;
        this.countedTail(i, c, name, false);
      }
    }
  }

  /**
   * The runs of the query's words that name() would find mentioned in a plain id (joined by "-", as the id writes
   * them; with a word that is no stop word), each with its number of words.
   */
  private runsOf(): Map<string, number> {
    const raw = this.q.raw;
    const runs = new Map<string, number>();
    for (let a = 0; a < raw.length; a++) {
      let run = '';
      let telling = false;
      for (let b = a; b < raw.length && run.length <= SKILL_ID_MAX; b++) {
        run += b > a ? `-${raw[b]}` : raw[b];
        telling ||= !isStopWord(raw[b]!);
        if (telling && run.length <= SKILL_ID_MAX) runs.set(run, Math.min(255, b - a + 1));
      }
    }
    return runs;
  }
}
