import type { Rule } from '../types.js';

export default {
  names: ['SK105', 'description-angle-brackets'],
  description: 'the description holds no < or >, which some clients refuse and which break XML-like prompts',
  tags: ['description', 'compatibility'],
  layouts: ['skill-md', 'manifest'],
  severity: 'warning',
  sources: [
    'Anthropic, Skill authoring best practices: the description cannot contain XML tags',
    'agentskills.io specification',
  ],
  fixable: false,
  check(skill, ctx) {
    const text = skill.description;
    const lt = text.indexOf('<');
    const gt = text.indexOf('>');
    if (lt < 0 && gt < 0) return;
    const found = [lt >= 0 ? '"<"' : '', gt >= 0 ? '">"' : ''].filter(Boolean).join(' and ');
    const first = lt < 0 ? gt : gt < 0 ? lt : Math.min(lt, gt);
    const pos = skill.positions['description'];
    ctx.report({
      message: `description contains ${found} (first at character ${[...text.slice(0, first)].length + 1}); expected plain text without angle brackets`,
      file: skill.file,
      line: pos?.line,
      column: pos?.column,
      hint: 'write the placeholder without brackets (FILE instead of <file>) and comparisons in words ("more than")',
    });
  },
} satisfies Rule;
