import type { Rule } from '../types.js';

const REGISTRY_FIELDS = ['usedBy', 'registeredAt', 'updatedAt'];

export default {
  names: ['SK125', 'registry-fields'],
  description: 'manifest.json leaves usedBy, registeredAt and updatedAt to the registry, which writes them',
  tags: ['manifest', 'registry'],
  layouts: ['manifest'],
  severity: 'warning',
  sources: ['seed 000 (BuzyBeez skills): the registry sets usedBy, registeredAt and updatedAt'],
  fixable: false,
  check(skill, ctx) {
    for (const field of REGISTRY_FIELDS) {
      if (!Object.hasOwn(skill.raw, field)) continue;
      const pos = skill.positions[field];
      ctx.report({
        message: `"${field}" is written by the registry, not by hand; expected manifest.json without it`,
        file: skill.file,
        line: pos?.line,
        column: pos?.column,
        hint: `delete "${field}"; the registry sets it when the skill is registered or updated`,
      });
    }
  },
} satisfies Rule;
