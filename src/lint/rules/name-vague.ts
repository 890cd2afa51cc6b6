import type { Skill } from '../../model/skill.js';
import type { Rule } from '../types.js';

const VAGUE = new Set([
  'helper',
  'helpers',
  'utils',
  'util',
  'utility',
  'utilities',
  'tools',
  'tool',
  'misc',
  'stuff',
  'common',
  'general',
  'data',
  'files',
  'documents',
  'things',
  'skill',
  'skills',
]);

const slug = (s: string) =>
  s
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/**
 * The names a skill goes by: a SKILL.md name; a manifest id, and its display name too when that says something
 * else (so "pdf-utils" / "PDF Utils" is one finding, not two).
 */
export function namesToCheck(skill: Skill): { field: 'name' | 'id'; value: string }[] {
  // Without a name field, load fell back on the folder's name, and validate reports the missing field.
  if (skill.layout === 'skill-md')
    return typeof skill.raw['name'] === 'string' && skill.name !== '' ? [{ field: 'name', value: skill.name }] : [];
  const out: { field: 'name' | 'id'; value: string }[] = [];
  if (typeof skill.raw['id'] === 'string' && skill.id !== '') out.push({ field: 'id', value: skill.id });
  if (
    typeof skill.raw['name'] === 'string' &&
    skill.name !== '' &&
    slug(skill.name).join('-') !== slug(skill.id).join('-')
  ) {
    out.push({ field: 'name', value: skill.name });
  }
  return out;
}

export default {
  names: ['SK107', 'name-vague'],
  description: 'the name says what the skill does, not only generic words such as "helper", "utils" or "tools"',
  tags: ['name', 'best-practice'],
  layouts: ['skill-md', 'manifest'],
  severity: 'warning',
  sources: ['Anthropic, Skill authoring best practices: avoid vague names such as helper, utils, tools'],
  fixable: false,
  check(skill, ctx) {
    for (const { field, value } of namesToCheck(skill)) {
      const words = slug(value);
      if (words.length === 0 || !words.every((w) => VAGUE.has(w))) continue;
      const pos = skill.positions[field];
      ctx.report({
        message: `${field} "${value}" is vague: it is made only of generic words; expected a name that says what the skill does`,
        file: skill.file,
        line: pos?.line,
        column: pos?.column,
        hint: 'name the activity, preferably in gerund form, e.g. "processing-pdfs" or "analyzing-spreadsheets"',
      });
    }
  },
} satisfies Rule;
