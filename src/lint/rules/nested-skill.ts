import { nestedSkillFolders } from '../helpers/nested.js';
import type { Rule } from '../types.js';

/** How many nested skills the message names. */
const NAMED = 3;

export default {
  names: ['SK133', 'nested-skill'],
  description:
    'a skill folder holds no other skill below it: a search stops at a skill, so the skills below it go unchecked, and agents read them only as files of the skill, when its instructions point there',
  tags: ['structure', 'files'],
  layouts: ['skill-md', 'manifest'],
  severity: 'warning',
  sources: [
    'agentskills.io specification: a skill is a folder with a SKILL.md file',
    'Claude Code skills: a skill is found at .claude/skills/<name>/SKILL.md, one level down',
  ],
  fixable: false,
  check(skill, ctx) {
    const top = nestedSkillFolders(skill);
    if (top.length === 0) return;
    // Few are named as they are; many by a glob of their SKILL.md files, which matches no other folder (`*/` took in
    // src/ and scripts/ too, and lint read this skill again for each).
    const paths =
      top.length <= NAMED + 1
        ? top.map((dir) => `${dir}/`)
        : [
            ...new Set(
              top.map((dir) => `${dir.includes('/') ? `${dir.slice(0, dir.lastIndexOf('/'))}/` : ''}*/SKILL.md`),
            ),
          ].slice(0, 2);
    const named = top.slice(0, NAMED).map((dir) => `${dir}/`);
    const more = top.length > NAMED ? `, and ${top.length - NAMED} more` : '';
    ctx.report({
      message: `holds ${top.length === 1 ? 'a skill' : `${top.length} skills`} of its own below it (${named.join(', ')}${more}): a search stops at a skill folder, so ${top.length === 1 ? 'it was' : 'they were'} not checked, and agents read ${top.length === 1 ? 'it' : 'them'} only as files of this skill`,
      hint: `to check them, name them (from this skill's folder: skills lint ${paths.join(' ')}); if this folder is a collection, move its SKILL.md into a folder of its own`,
    });
  },
} satisfies Rule;
