import type { Rule } from '../types.js';
import { namesToCheck } from './name-vague.js';

const RESERVED = ['anthropic', 'claude'];

function suggest(lower: string, word: string): string {
  const rest = lower
    .split(word)
    .join('-')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .join('-');
  return rest === '' || RESERVED.some((w) => rest.includes(w)) ? 'pdf-processing' : rest;
}

export default {
  names: ['SK106', 'name-reserved-word'],
  description: 'the name holds no reserved word ("anthropic", "claude"), which Anthropic refuses',
  tags: ['name', 'compatibility'],
  layouts: ['skill-md', 'manifest'],
  severity: 'error',
  sources: ['Anthropic, Skill authoring best practices: name cannot contain reserved words "anthropic" or "claude"'],
  fixable: false,
  check(skill, ctx) {
    for (const { field, value } of namesToCheck(skill)) {
      const lower = value.toLowerCase();
      const word = RESERVED.find((w) => lower.includes(w));
      if (!word) continue;
      const pos = skill.positions[field];
      ctx.report({
        message: `${field} "${value}" contains the reserved word "${word}"; expected a name without "anthropic" or "claude"`,
        file: skill.file,
        line: pos?.line,
        column: pos?.column,
        hint: `rename it without the reserved word, e.g. "${suggest(lower, word)}"`,
      });
    }
  },
} satisfies Rule;
