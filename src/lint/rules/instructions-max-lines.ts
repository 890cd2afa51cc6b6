import type { Rule } from '../types.js';

/** Lines of a text, a last line ending in \n counted once: what `text.replace(/\n$/, '').split('\n')` holds. */
function lineCount(text: string): number {
  if (text === '') return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < text.length - 1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

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
    for (const part of skill.instructionParts) total += lineCount(part.text);
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
