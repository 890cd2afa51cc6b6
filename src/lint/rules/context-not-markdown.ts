import type { Rule } from '../types.js';

const MARKDOWN = /\.(?:md|markdown)$/i;

export default {
  names: ['SK126', 'context-not-markdown'],
  description: 'manifest context files are Markdown (.md or .markdown)',
  tags: ['manifest', 'instructions'],
  layouts: ['manifest'],
  severity: 'warning',
  sources: ['seed 000 (BuzyBeez skills): context files are Markdown instructions'],
  fixable: false,
  check(skill, ctx) {
    const context = skill.raw['context'];
    if (!Array.isArray(context)) return;
    for (const [i, entry] of context.entries()) {
      // Entries that are not text are validate's (SK015).
      if (typeof entry !== 'string' || MARKDOWN.test(entry)) continue;
      const pos = skill.positions[`context[${i}]`] ?? skill.positions['context'];
      ctx.report({
        message: `context file "${entry}" is not Markdown; expected a .md or .markdown file`,
        file: skill.file,
        line: pos?.line,
        column: pos?.column,
        hint: 'write the instructions as Markdown and rename the file to .md; keep data files in assets/ and point to them from a Markdown context file',
      });
    }
  },
} satisfies Rule;
