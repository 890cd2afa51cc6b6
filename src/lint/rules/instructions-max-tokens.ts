import type { Skill } from '../../model/skill.js';
import { tokenCounter, type CountTokens } from '../../tokens/tokens.js';
import type { Rule } from '../types.js';

// Loaded by prepare, and only when some skill is big enough to need it: the encoding's tables take a while to load.
let countTokens: CountTokens | undefined;

/** UTF-8 bytes of the instructions: an upper bound on their tokens, since every token covers at least one byte. */
function instructionBytes(skill: Skill): number {
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
  async prepare(skills, options) {
    if (countTokens) return;
    const max = options.maxTokens as number;
    if (!skills.some((s) => instructionBytes(s) > max)) return;
    countTokens = await tokenCounter();
  },
  check(skill, ctx) {
    const max = ctx.options.maxTokens as number;
    if (instructionBytes(skill) <= max || !countTokens) return;
    let total = 0;
    for (const part of skill.instructionParts) total += countTokens(part.text);
    if (total > max) {
      const first = skill.instructionParts[0];
      ctx.report({
        message: `instructions are ${total} tokens long (o200k_base); keep them under ${max}`,
        file: first?.file,
        line: first?.line,
        column: 1,
        hint: 'move detail into references/ files that the instructions link to, so agents load it only when needed',
      });
    }
  },
} satisfies Rule;
