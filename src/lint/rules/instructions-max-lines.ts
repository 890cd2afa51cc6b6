import { instructionDocs, type RefDoc } from '../references.js';
import type { Rule } from '../types.js';

/** Lines of a text (its MarkdownText's lines), a last line ending in \n counted once. */
function lineCount(doc: RefDoc): number {
  if (doc.text === '') return 0;
  return doc.md.lineCount - (doc.text.endsWith('\n') ? 1 : 0);
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
    for (const doc of instructionDocs(skill)) total += lineCount(doc);
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
