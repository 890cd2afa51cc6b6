import type { Rule } from '../types.js';

export default {
  names: ['SK103', 'description-too-short'],
  description: 'the description is long enough to say what the skill does and when to use it',
  tags: ['description', 'best-practice'],
  layouts: ['skill-md', 'manifest'],
  severity: 'warning',
  sources: ['Anthropic, Skill authoring best practices: write a specific description', 'seed 000 (BuzyBeez skills)'],
  fixable: false,
  options: { minLength: { default: 20, description: 'fewest characters (code points) in the description' } },
  check(skill, ctx) {
    const min = ctx.options.minLength as number;
    // An empty description is validate's (SK011).
    if (skill.description === '') return;
    const length = [...skill.description].length;
    if (length >= min) return;
    const pos = skill.positions['description'];
    ctx.report({
      message: `description is ${length} character${length === 1 ? '' : 's'} long; expected at least ${min} that say what the skill does and when to use it`,
      file: skill.file,
      line: pos?.line,
      column: pos?.column,
      hint: 'write what the skill does and when to use it, e.g. "Extract text and tables from PDF files. Use when the user mentions PDFs."',
    });
  },
} satisfies Rule;
