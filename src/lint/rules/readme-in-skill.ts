import { join } from 'node:path';
import type { Rule } from '../types.js';

const README = /^readme(?:\.(?:md|markdown|txt|rst))?$/i;

export default {
  names: ['SK122', 'readme-in-skill'],
  description: 'a SKILL.md skill has no README: agents read SKILL.md, and a README is clutter they may load by mistake',
  tags: ['files', 'structure', 'best-practice'],
  layouts: ['skill-md'],
  severity: 'warning',
  sources: [
    'agentskills.io specification: SKILL.md is the entry point',
    'Anthropic, Skill authoring best practices: avoid auxiliary documentation files',
  ],
  fixable: false,
  check(skill, ctx) {
    for (const e of skill.entries) {
      if (e.kind === 'dir' || e.path.includes('/') || !README.test(e.path)) continue;
      ctx.report({
        message: `${e.path} in a SKILL.md skill: agents read SKILL.md, not a README`,
        file: join(skill.root, e.path),
        hint: 'move what agents need into SKILL.md or references/, and notes for people next to the skill (the repository README)',
      });
    }
  },
} satisfies Rule;
