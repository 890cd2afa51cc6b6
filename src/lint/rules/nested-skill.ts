import { isSkillMdName } from '../../skill/skill-file.js';
import type { Rule } from '../types.js';

// A SKILL.md below a folder of samples the skill ships (a skill-creator's template, a test's fixture, an example) is a
// file of this skill, not a skill of its own.
const SAMPLES = /^(?:assets|templates?|examples?|fixtures?|__fixtures__|tests?|testdata|node_modules)$/i;

/** How many nested skills the message names. */
const NAMED = 3;

export default {
  names: ['SK133', 'nested-skill'],
  description:
    'a skill folder holds no other skill below it: a search stops at a skill, so the skills below it go unchecked, and an agent that loads the skill does not load them',
  tags: ['structure', 'files'],
  layouts: ['skill-md', 'manifest'],
  severity: 'warning',
  sources: [
    'agentskills.io specification: a skill is a folder with a SKILL.md file',
    'Claude Code skills: a skill is found at .claude/skills/<name>/SKILL.md, one level down',
  ],
  fixable: false,
  check(skill, ctx) {
    // The folders below the skill that hold a SKILL.md, each only once and only the topmost of a nest.
    const folders = skill.entries
      .filter(
        (e) => e.kind === 'file' && e.path.includes('/') && isSkillMdName(e.path.slice(e.path.lastIndexOf('/') + 1)),
      )
      .map((e) => e.path.slice(0, e.path.lastIndexOf('/')))
      .filter((dir) => !dir.split('/').some((part) => SAMPLES.test(part)))
      .sort();
    const top = folders.filter((dir, i) => !folders.slice(0, i).some((above) => dir.startsWith(`${above}/`)));
    if (top.length === 0) return;
    const parents = [
      ...new Set(top.map((dir) => (dir.includes('/') ? `${dir.slice(0, dir.lastIndexOf('/'))}/*/` : '*/'))),
    ];
    const named = top.slice(0, NAMED).map((dir) => `${dir}/`);
    const more = top.length > NAMED ? `, and ${top.length - NAMED} more` : '';
    ctx.report({
      message: `holds ${top.length === 1 ? 'a skill' : `${top.length} skills`} of its own below it (${named.join(', ')}${more}): a search stops at a skill folder, so ${top.length === 1 ? 'it was' : 'they were'} not checked, and an agent that loads this skill does not load ${top.length === 1 ? 'it' : 'them'}`,
      hint: `to check them, name them (from this skill's folder: skills lint ${parents.slice(0, 2).join(' ')}); if this folder is a collection, move its SKILL.md into a folder of its own`,
    });
  },
} satisfies Rule;
