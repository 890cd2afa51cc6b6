import type { Skill } from '../../model/skill.js';
import type { Rule } from '../types.js';

type CountTokens = (text: string) => number;

// Loaded by prepare, and only when some skill is big enough to need it: the encoding's tables take a while to load.
let countTokens: CountTokens | undefined;

// BPE time grows with the square of a pre-token's length: one 100 KB run without a break (a data URI, a line of
// spaces) takes seconds, and a skill file may hold 4 MiB. Longer runs are counted in slices of this many characters,
// which can put the count off by about a token per slice, on text that is far over any budget anyway.
const RUN = 1000;

const isSpace = (c: number) =>
  (c >= 9 && c <= 13) || c === 32 || c === 0x85 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;

/** Tokens of a text, with runs of only spaces or only non-spaces longer than RUN counted slice by slice. */
function tokens(text: string, count: CountTokens): number {
  let total = 0;
  let from = 0;
  let runStart = 0;
  let runSpace = false;
  for (let i = 0; i <= text.length; i++) {
    const space = i < text.length && isSpace(text.charCodeAt(i));
    if (i < text.length && space === runSpace) continue;
    if (i - runStart > RUN) {
      total += count(text.slice(from, runStart));
      for (let j = runStart; j < i; ) {
        let end = Math.min(i, j + RUN);
        // Never cut a surrogate pair in two.
        if (end < i && (text.charCodeAt(end) & 0xfc00) === 0xdc00) end++;
        total += count(text.slice(j, end));
        j = end;
      }
      from = i;
    }
    runStart = i;
    runSpace = space;
  }
  return total + count(text.slice(from));
}

/** UTF-8 bytes of the instructions: an upper bound on their tokens, since every token covers at least one byte. */
function instructionBytes(skill: Skill): number {
  let n = 0;
  for (const part of skill.instructionParts) n += Buffer.byteLength(part.text, 'utf8');
  return n;
}

export default {
  names: ['SK101', 'instructions-max-tokens'],
  description: 'instructions stay under a token budget (o200k_base tokenizer), so the skill does not crowd the context window',
  tags: ['instructions', 'size', 'best-practice'],
  layouts: ['skill-md', 'manifest'],
  severity: 'warning',
  sources: ['Anthropic, Skill authoring best practices: keep SKILL.md under 5,000 tokens', 'agentskills.io specification: progressive disclosure'],
  fixable: false,
  options: { maxTokens: { default: 5000, description: 'most tokens of instructions (SKILL.md body, or all context files), counted with o200k_base' } },
  async prepare(skills, options) {
    if (countTokens) return;
    const max = options.maxTokens as number;
    if (!skills.some((s) => instructionBytes(s) > max)) return;
    const { countTokens: count } = await import('gpt-tokenizer/encoding/o200k_base');
    // Special tokens such as <|endoftext|> are counted as the plain text they are in a skill, never thrown on.
    const plain = { disallowedSpecial: new Set<string>() };
    countTokens = (text) => count(text, plain);
  },
  check(skill, ctx) {
    const max = ctx.options.maxTokens as number;
    if (instructionBytes(skill) <= max || !countTokens) return;
    let total = 0;
    for (const part of skill.instructionParts) total += tokens(part.text, countTokens);
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
