import { stemmer } from 'stemmer';

/**
 * The version of what a registry's selection index keeps of each skill (selection-index.ts): the stems of the words
 * of its name, triggers and descriptions. Bump it when the words or stems a field yields change (here: the
 * normalising, words, stem; select-scan.ts: its FIELDS and what each holds), so that an index written before is
 * rebuilt, not trusted. 3: a run of unspaced script longer than MAX_RUN is segmented in pieces. 4: "skill" and
 * "skills" are no longer stop words (they are generic: WEAK).
 */
export const SELECTION_INDEX_VERSION = 4;

// Words that say nothing about which skill is meant: English function words, plus the phrasing of requests
// ("please help me …", "actually", "someone", "soon") and of skill descriptions ("Use when the user wants …"), which
// every skill shares.
const STOP = `a about above after again against all also am an and any are as at be because been before being below
between both but by can could did do does doing down during each either etc few for from further had has have
having he her here hers herself him himself his how i if in into is it its itself just me more most my myself
no nor not now of off on once only or other our ours ourselves out over own per same she should so some such
than that the their theirs them themselves then there these they this those through to too under until up upon
us very was we were what when where which while who whom why will with within would you your yours yourself
yourselves dont cant wont im ive id youre isnt doesnt s t via e g eg ie
please help want wants wanted need needs needed like let lets get gets got make makes made use uses used using
user users ask asks asked something anything thing things way ways kind may might must shall
say says said actually really soon getting everything sure maybe perhaps honestly someone somebody anyone anybody
everyone everybody stuff lot lots bit quite basically probably already still even much hey hi thanks thank
kindly asap`;

/** Function words and request phrasing, dropped from relevance (never from triggers, which authors chose). */
export const STOP_WORDS: ReadonlySet<string> = new Set(STOP.split(/\s+/));

// Words of nearly every request and every skill's text that say little about which skill is meant on their own:
// generic verbs of work and generic nouns of software; and function words the stop words leave out ("whether",
// "without", "across": a skill selected on "check whether" or "work without" was chance; on the four sets top-1 +1
// on the first three, no-fit +1 on the third). "every", "each" and "never" are not among them: "fails every other
// time", "never reaches" say something, and counted weak the second set lost two of its top-3. And verbs of any
// request ("see", "know", "keep", "take", "pick", "turn": "I want to see which lines it never reaches", "look it
// over"): top-1 of the fourth set +2, nothing else moved but MRR. They count in relevance with a part of their weight
// (select.ts), and a skill they alone match is never selected. "second" is an ordinal and a unit of time, as "first"
// and "day" are ("a 30-second radio jingle" selected second-opinion: no-fit of the fourth set +1, nothing else moved).
// "skill" is in most descriptions ("Use this skill when"), and was a stop word; but the skills about skills have it in
// their names (skill-creator, writing-skills), and a request about making or testing a skill says so: generic, it
// counts whole in those names (top-1 of the six sets +1, +2, -1, +1, +1 on the second to sixth).
const WEAK = `write create make build generate run add check find fix update new code file files data project
tool tools work works working start go going set setup change changes look show give tell explain recommend good
best better help convert edit read open change improve rule rules type thing app application system
support guide guides step steps process result results time day one two three first second last next summary summarize
today tomorrow yesterday tonight morning afternoon evening week weekend monday tuesday wednesday thursday friday
saturday sunday
whether without across several rather another others whole always instead else often usually
around along among toward towards beyond since unless though although yet anyway
see know try keep put take bring turn pick come think mean
skill skills`;

// Words the stemmer folds into a generic word's stem that name a thing of their own: "timing" (a timing leak) is not
// "time", "findings" (of a scanner) not "find", "generative" (art) not "generate", "settings" (a page) not "set".
// Weak by stem, "does my HMAC comparison leak timing" gave constant-time-analysis, which holds "timing" in its
// name and description, a third of the evidence it needed (fourth and seventh sets +1 each, nothing else moved).
const OWN_SENSE: ReadonlySet<string> = new Set(['timing', 'findings', 'generative', 'settings']);

let weakStems: Set<string> | undefined;

/** A generic word of requests (see WEAK), by stem: "writing" is as weak as "write". */
export function isWeakWord(word: string): boolean {
  weakStems ??= new Set(WEAK.split(/\s+/).map(stem));
  if (OWN_SENSE.has(word)) return false;
  return weakStems.has(stem(word)) || /^\d+$/.test(word);
}

// Japanese particles and endings (の, を, ます) are words of one or two hiragana.
const KANA_PARTICLE = /^\p{Script=Hiragana}{1,2}$/u;

/** A word that says nothing about which skill is meant (see STOP_WORDS). */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word) || (word.charCodeAt(0) > 0x3000 && KANA_PARTICLE.test(word));
}

// A word: letters, marks and digits, with inner apostrophes ("don't", "user's").
const WORD = /[\p{L}\p{M}\p{N}]+(?:['’][\p{L}\p{M}\p{N}]+)*/gu;
// Scripts written without spaces between words: the regex would make a whole clause one word.
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
// eslint-disable-next-line no-control-regex
export const NON_ASCII = /[^\u0000-\u007f]/;
// The blocks of those scripts (and the surrogates of their supplementary planes): a cheap test before UNSPACED,
// whose script classes make V8 walk a long text slowly.
const MAYBE_UNSPACED =
  /[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u2e80-\u2fdf\u3005-\u303b\u3040-\u33ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f\ud82c\ud83c\ud840-\ud8bf]/;

/** Whether text holds a script written without spaces between words (see UNSPACED). */
function unspaced(text: string): boolean {
  return MAYBE_UNSPACED.test(text) && UNSPACED.test(text);
}
const LATIN_MARKS = /(\p{Script=Latin})\p{Mn}+/gu;

let segmenter: Intl.Segmenter | undefined;

/** NFKC, lower case, and accents off Latin letters ("Résumé" → "resume"); other scripts keep their marks. */
export function normalizeForMatch(text: string): string {
  // NFKC leaves ASCII alone; most skill text is ASCII, and this runs on every field of every skill.
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  return text.normalize('NFKC').toLowerCase().normalize('NFD').replace(LATIN_MARKS, '$1').normalize('NFC');
}

/** The words of normalised text joined by single spaces ("web-scraping" → "web scraping"). */
export function joinedWords(norm: string): string {
  if (!NON_ASCII.test(norm) && !norm.includes("'")) return norm.replace(/[^a-z0-9]+/g, ' ').trim();
  return words(norm).join(' ');
}

/**
 * A string that every word with this stem contains: Porter and the spelling folds only ever change the last
 * letter of the stem they keep ("scraping" → scrape, "analysis" → analyz, "deployed" → deploy), so the stem
 * without its last letter is in the word. Lets a caller skip text that cannot hold the word.
 */
export function stemProbe(stemmed: string): string {
  return stemmed.length > 2 ? stemmed.slice(0, -1) : stemmed;
}

/** Call `fn` with each word of already normalised text, in order, apostrophes folded ("user's" → "user"). */
export function forEachWord(text: string, fn: (word: string) => void): void {
  if (unspaced(text)) {
    for (let i = 0; i < text.length;) {
      while (i < text.length && isBreak(text.charCodeAt(i))) i++;
      if (i === text.length) break;
      i = segmentRun(text, i, fn);
    }
    return;
  }
  WORD.lastIndex = 0;
  for (let m = WORD.exec(text); m !== null; m = WORD.exec(text)) fn(foldApostrophe(m[0]));
}

/**
 * Call `fn` with each word of already normalised text that holds a match of `probe` (a global RegExp), in
 * order, with where each lies; the same words forEachWord finds, but without walking the rest of the text.
 * In unspaced scripts, only the segmenter knows where words end: each run between breaks (see isBreak) that holds a
 * match is segmented whole, and all its words are given.
 */
export function forEachWordHolding(
  text: string,
  probe: RegExp,
  fn: (word: string, start: number, end: number) => void,
): void {
  if (unspaced(text)) {
    // Each run (between breaks) that holds a match is segmented whole, so its words are those forEachWord finds
    // there; where a segmented word lies is not kept: -1.
    const each = (w: string) => fn(w, -1, -1);
    // The end of the runs read so far: none is read twice.
    let done = 0;
    probe.lastIndex = 0;
    for (let m = probe.exec(text); m !== null; m = probe.exec(text)) {
      let at = m.index;
      while (at > done && !isBreak(text.charCodeAt(at - 1))) at--;
      // Every run the match touches (a probe of two words spans a break).
      const until = m.index + Math.max(1, m[0].length);
      while (at < until) {
        while (at < text.length && isBreak(text.charCodeAt(at))) at++;
        if (at === text.length) break;
        at = segmentRun(text, at, each);
      }
      done = at;
      probe.lastIndex = Math.max(at, m.index + 1);
    }
    return;
  }
  probe.lastIndex = 0;
  for (let m = probe.exec(text); m !== null; m = probe.exec(text)) {
    let start = m.index;
    let end = m.index + Math.max(1, m[0].length);
    while (start > 0 && isWordChar(text, start - 1)) start--;
    while (end < text.length && isWordChar(text, end)) end++;
    fn(foldApostrophe(text.slice(start, end)), start, end);
    probe.lastIndex = end;
  }
}

/**
 * Where no word goes on: spaces and line ends (Unicode's word rules break at each: UAX #29 WB3a–WB3d, WB999), and the
 * ideographic comma, full stop and the full-width ! and ? (WB999: they are of no class a rule joins across). A text
 * is segmented a run between these at a time, each with the break before it as context: the words are those of the
 * whole text (tested against it), and the segmenter is never given a long text, whose segments V8 makes in time
 * that grows with the square of its length (each segment gets its own copy of the text: 70,000 characters took 6 s).
 * Not U+00A0 (no break), nor U+FEFF (a format character, which words go through).
 */
function isBreak(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0x85) return false;
  return (
    c === 0x85 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0x3001 ||
    c === 0x3002 ||
    c === 0xff01 ||
    c === 0xff1f
  );
}

/**
 * A run longer than this (no break in it) is segmented in pieces of this size: a word that a piece's end cuts is
 * read as two. Only text built to be slow has such runs (a paragraph of Chinese has its full stops).
 */
export const MAX_RUN = 4096;

/** Segment the run of text that starts at `start` (not a break) and call `fn` with its words; returns its end. */
function segmentRun(text: string, start: number, fn: (word: string) => void): number {
  let end = start + 1;
  while (end < text.length && !isBreak(text.charCodeAt(end))) end++;
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' });
  for (let from = start; from < end;) {
    let to = Math.min(end, from + MAX_RUN);
    // Not between the two halves of a surrogate pair.
    if (to < end && (text.charCodeAt(to) & 0xfc00) === 0xdc00) to--;
    // The break before the run is its context (a mark after it belongs to it); a piece of a long run has none.
    const at = from === start && from > 0 ? from - 1 : from;
    for (const seg of segmenter.segment(text.slice(at, to))) {
      if (!seg.isWordLike) continue;
      // The segmenter keeps "web-scraping" apart already but may join letters and digits; split as the regex does.
      for (const m of seg.segment.matchAll(WORD)) fn(foldApostrophe(m[0]));
    }
    from = to;
  }
  return end;
}

const LETTER = /^[\p{L}\p{M}\p{N}]$/u;

/** Whether text[i] belongs to a word as WORD reads it (letters, marks, digits, and an apostrophe between them). */
function isWordChar(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90)) return true;
  if (c === 39 || c === 0x2019)
    return (
      i > 0 && i + 1 < text.length && isWordChar(text, i - 1) && text.charCodeAt(i - 1) !== c && isLetterAt(text, i + 1)
    );
  if (c < 128) return false;
  return isLetterAt(text, i);
}

function isLetterAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90)) return true;
  if (c < 128) return false;
  // A low surrogate belongs to the code point that starts one unit before it.
  if (c >= 0xdc00 && c <= 0xdfff && i > 0) return LETTER.test(String.fromCodePoint(text.codePointAt(i - 1)!));
  return LETTER.test(String.fromCodePoint(text.codePointAt(i)!));
}

/** The words of already normalised text. */
export function words(text: string): string[] {
  const out: string[] = [];
  forEachWord(text, (w) => out.push(w));
  return out;
}

function foldApostrophe(w: string): string {
  if (!w.includes("'") && !w.includes('’')) return w;
  return w.replace(/['’]s$/, '').replace(/['’]/g, '');
}

// British -our where American writes -or ("colour", "behaviour", "neighbours"); not "four", "hour", "your", "detour".
const BRITISH_OUR =
  /(?<=(?:col|behavi|neighb|fav|flav|hum|lab|hon|rum|arm|vap|od|endeav|harb|vig|rig|sav|parl))our(s|ed|ing|ful|able|al|ally|er|ers|hood|ism)?$/;

const stemCache = new Map<string, string>();
const STEM_CACHE_MAX = 100_000;

/**
 * The stem of a normalised word: British spellings folded to American ones (analyse, summarise, colour), then the
 * Porter stemmer, then a final i → y so that "deploy" and "deployed" (deploi) meet "deployment" (deploy).
 * Words that are not plain a–z (digits, other scripts) are their own stem.
 */
export function stem(word: string): string {
  const hit = stemCache.get(word);
  if (hit !== undefined) return hit;
  let s = word;
  if (/^[a-z]{3,}$/.test(word)) {
    if (word.length >= 6) {
      s = s
        .replace(BRITISH_OUR, 'or$1')
        .replace(/ys(is|es)$/, 'yze')
        .replace(/ys(e|ed|ing)$/, 'yz$1')
        .replace(/is(e|es|ed|ing|ation|ations|er|ers)$/, 'iz$1');
    }
    s = stemmer(s);
    if (s.length > 2 && s.endsWith('i')) s = `${s.slice(0, -1)}y`;
  }
  if (stemCache.size >= STEM_CACHE_MAX) stemCache.clear();
  stemCache.set(word, s);
  return s;
}
