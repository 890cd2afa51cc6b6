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
 * 2 ms a run): the finding gives an estimate at 4 bytes a token, and says so.
 */
export const LONGEST_TOKEN = 128;
/** Bytes per token for the estimate of instructions too long to count (English prose runs 4 to 5). */
const ESTIMATE_BYTES = 4;

/** The instructions' UTF-8 bytes. */
function bytesOf(skill: Skill): number {
  let n = 0;
  for (const part of skill.instructionParts) n += Buffer.byteLength(part.text, 'utf8');
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
          counted.set(skill, { tokens: Math.round(bytes / ESTIMATE_BYTES), bytes });
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
