import type { Skill } from '../../model/skill.js';
import type { Rule } from '../types.js';

// Counted by prepare (through the user's token cache: the tokenizer's tables are loaded only for text it has not
// counted before), and only for skills whose instructions have more bytes than the budget has tokens. Instructions
// too long to fit the budget whatever they say are not counted: they get an estimate (see LONGEST_TOKEN).
const counted = new WeakMap<Skill, { tokens: number; bytes?: number }>();

/**
 * The most UTF-8 bytes one o200k_base token covers (128 spaces; read from gpt-tokenizer's ranks, checked by a test).
 * Instructions of more than this many bytes per token of the budget hold more tokens than the budget however they
 * are cut, so they are not counted (a 1 MB body takes the tokenizer about 0.4 s, and hashing it for the token cache
 * 2 ms a run): the finding gives an estimate (see estimate), and says so.
 */
export const LONGEST_TOKEN = 128;
/** Bytes per token for the estimate of mostly-ASCII instructions too long to count (English prose runs 4 to 5). */
const ESTIMATE_BYTES = 4;
/** Past this share of bytes beyond one a UTF-16 unit, the estimate is measured on a sample (SAMPLES slices). */
const MULTI_BYTE_SHARE = 0.05;
const SAMPLES = 16;
const SAMPLE_UNITS = 2048;

/**
 * The tokens of instructions too long to count. Mostly ASCII: 4 bytes a token, with no tokenizer to load. Other text
 * runs from about 8 bytes a token (Cyrillic prose) through 4 (Chinese and Japanese prose) to 1 (rare scripts), so its
 * rate is measured with o200k_base on SAMPLES slices spread through the text (32 KB of 3-byte text: a few ms, and the
 * tokenizer's load when the token cache lacks them).
 */
async function estimate(skill: Skill, bytes: number, count: (text: string) => Promise<number>): Promise<number> {
  const text = skill.instructionParts.map((p) => p.text).join('\n');
  if (bytes - text.length <= bytes * MULTI_BYTE_SHARE) return Math.round(bytes / ESTIMATE_BYTES);
  // A text of fewer units than the slices hold is measured whole.
  const sample = text.length <= SAMPLES * SAMPLE_UNITS ? text : spread(text);
  return Math.round(((await count(sample)) * bytes) / Buffer.byteLength(sample, 'utf8'));
}

/** SAMPLES slices of SAMPLE_UNITS, from the start of the text to its end, evenly spaced. */
function spread(text: string): string {
  const slices: string[] = [];
  const step = (text.length - SAMPLE_UNITS) / (SAMPLES - 1);
  for (let i = 0; i < SAMPLES; i++) {
    let start = Math.round(i * step);
    let end = start + SAMPLE_UNITS;
    // Never cut a surrogate pair in two.
    if ((text.charCodeAt(start) & 0xfc00) === 0xdc00) start++;
    if ((text.charCodeAt(end) & 0xfc00) === 0xdc00) end++;
    slices.push(text.slice(start, end));
  }
  return slices.join('\n');
}

/**
 * The instructions' UTF-8 bytes. A part whose file was ASCII alone (load knows it from the bytes) has one a
 * character: Buffer.byteLength would walk it again (a 1 MB body: 1.6M instructions).
 */
function bytesOf(skill: Skill): number {
  let n = 0;
  for (const part of skill.instructionParts) n += part.ascii ? part.text.length : Buffer.byteLength(part.text, 'utf8');
  return n;
}

export default {
  names: ['SK101', 'instructions-max-tokens'],
  description:
    'instructions stay under a token budget (o200k_base tokenizer), so the skill does not crowd the context window',
  tags: ['instructions', 'size', 'best-practice'],
  layouts: ['skill-md', 'manifest'],
  severity: 'warning',
  sources: [
    'Anthropic, Skill authoring best practices: keep SKILL.md under 5,000 tokens',
    'agentskills.io specification: progressive disclosure',
  ],
  fixable: false,
  options: {
    maxTokens: {
      default: 5000,
      description: 'most tokens of instructions (SKILL.md body, or all context files), counted with o200k_base',
    },
  },
  prepare(skills, options, tools) {
    const max = options.maxTokens as number;
    // More UTF-8 bytes than `max` (an upper bound on their tokens, since every token covers at least one byte): the
    // others are never measured.
    const long = skills.map((skill) => ({ skill, bytes: bytesOf(skill) })).filter((s) => s.bytes > max);
    if (long.length === 0) return;
    return (async () => {
      for (const { skill, bytes } of long) {
        if (bytes > max * LONGEST_TOKEN) {
          counted.set(skill, { tokens: await estimate(skill, bytes, tools.countTokens), bytes });
          continue;
        }
        let total = 0;
        for (const part of skill.instructionParts) total += await tools.countTokens(part.text);
        counted.set(skill, { tokens: total });
      }
    })();
  },
  check(skill, ctx) {
    const max = ctx.options.maxTokens as number;
    const total = counted.get(skill);
    if (total !== undefined && total.tokens > max) {
      const first = skill.instructionParts[0];
      ctx.report({
        message:
          total.bytes === undefined
            ? `instructions are ${total.tokens} tokens long (o200k_base); keep them under ${max}`
            : `instructions are about ${total.tokens} tokens long (${total.bytes} bytes, too long to count: over ${max} however they are tokenized); keep them under ${max}`,
        file: first?.file,
        line: first?.line,
        column: 1,
        hint: 'move detail into references/ files that the instructions link to, so agents load it only when needed',
      });
    }
  },
} satisfies Rule;
