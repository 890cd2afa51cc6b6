import type { Rule } from '../types.js';
import descriptionTooShort from './description-too-short.js';

// A lead that says nothing about what the skill does. Optional groups each start with a distinct literal word.
const VAGUE_LEAD =
  /^(?:(?:a|an|the|this)\s+)?(?:skill\s+(?:that\s+)?)?(?:helps?\s+(?:with|you)\b|helpers?\s+(?:for|to|with)\b|utility\s+(?:for|to)\b|utilities\b|utils?\b|various\b|misc(?:ellaneous)?\b|stuff\b|does\s+(?:things|stuff)\b|things\b|skill\s+(?:for|that|to)\b)/i;
const MIN_WORDS = 4;
// SK103 reports descriptions shorter than this; one finding is enough.
const SHORT = descriptionTooShort.options.minLength.default;
// Scripts written without spaces between words: a run of them is many words, which ICU's word segmenter finds.
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const WORDISH = /[\p{L}\p{N}]/u;
const LETTER = /\p{L}/u;
const LATIN = /\p{Script=Latin}/u;
// Made on first use: ICU's word segmenter takes about 15 ms to make, and most descriptions need none.
let segmenter: Intl.Segmenter | undefined;

/**
 * Words in `text`, counted up to `enough`: whitespace-separated tokens, except that tokens in unspaced scripts
 * (Chinese, Japanese, Thai, …) are segmented.
 */
function countWords(text: string, enough: number): number {
  let n = 0;
  // The whitespace-separated tokens, read only as far as needed.
  for (const [token] of text.matchAll(/\S+/g)) {
    if (n >= enough) return n;
    if (!WORDISH.test(token)) continue;
    if (!UNSPACED.test(token)) {
      // "Spreadsheet-analysis-toolkit" stays one word, as written.
      n++;
      continue;
    }
    segmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' });
    // Only as far as needed here too: V8 gives each segment its own copy of the token, so reading all of a long
    // one takes time that grows with the square of its length (100,000 characters of Chinese: 8 s).
    for (const s of segmenter.segment(token)) if (s.isWordLike && ++n >= enough) return n;
  }
  return n;
}

/** Whether most letters of `text` are Latin: the vague leads are English, and other text cannot be judged by them. */
function mostlyLatin(text: string): boolean {
  let letters = 0;
  let latin = 0;
  for (const c of text) {
    if (!LETTER.test(c)) continue;
    letters++;
    if (LATIN.test(c)) latin++;
  }
  return latin * 2 >= letters;
}

export default {
  names: ['SK104', 'description-vague'],
  description:
    'the description is specific: no vague lead ("Helps with …", "Various tools") and at least four words (words in Chinese, Japanese, Thai and other unspaced scripts are found by word segmentation; the lead is only judged in text written mostly in Latin letters)',
  tags: ['description', 'best-practice'],
  layouts: ['skill-md', 'manifest'],
  severity: 'warning',
  sources: ['Anthropic, Skill authoring best practices: avoid vague descriptions such as "Helps with documents"'],
  fixable: false,
  check(skill, ctx) {
    const text = skill.description;
    const chars = [...text];
    if (text === '' || chars.length < SHORT) return;
    const reasons: string[] = [];
    const lead = VAGUE_LEAD.exec(text);
    if (lead && mostlyLatin(text)) reasons.push(`it starts with "${lead[0]}"`);
    // Only a count under MIN_WORDS is reported, so counting stops there.
    const words = countWords(text, MIN_WORDS);
    if (words < MIN_WORDS) reasons.push(`it has ${words} word${words === 1 ? '' : 's'}`);
    if (reasons.length === 0) return;
    const pos = skill.positions['description'];
    const shown = chars.length > 60 ? `${chars.slice(0, 57).join('')}…` : text;
    ctx.report({
      message: `description "${shown}" is vague: ${reasons.join(' and ')}; expected what the skill does and when to use it`,
      file: skill.file,
      line: pos?.line,
      column: pos?.column,
      hint: 'name the task and the inputs, e.g. "Extract text and tables from PDF files and fill PDF forms. Use when the user mentions PDFs."',
    });
  },
} satisfies Rule;
