import type { Rule } from '../types.js';

export default {
  names: ['SK100', 'instructions-max-lines'],
  description: 'instructions stay under a line budget, so the skill does not crowd the context window',
  tags: ['instructions', 'size', 'best-practice'],
  layouts: ['skill-md', 'manifest'],
  severity: 'warning',
  sources: ['Anthropic, Skill authoring best practices: keep SKILL.md under 500 lines'],
  fixable: false,
  options: {
    maxLines: { default: 500, description: 'most lines of instructions (SKILL.md body, or all context files)' },
  },
  check(skill, ctx) {
    const max = ctx.options.maxLines as number;
    let total = 0;
    for (const part of skill.instructionParts)
      total += part.text === '' ? 0 : part.text.replace(/\n$/, '').split('\n').length;
    if (total > max) {
      const first = skill.instructionParts[0];
      ctx.report({
        message: `instructions are ${total} lines long; keep them under ${max}`,
        file: first?.file,
        line: first?.line,
        column: 1,
        hint: 'move detail into references/ files that the instructions link to, so agents load it only when needed',
      });
    }
  },
} satisfies Rule;
