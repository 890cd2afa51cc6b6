import { relative } from 'node:path';
import { isSkillsError, SkillsError } from '../errors.js';
import { discoverSkills, type DiscoveryBudget } from './discover.js';
import { loadSkill } from './load.js';
import type { Skill } from '../model/skill.js';

// The folder that pack and publish are given is one skill. Given a collection instead (`skills pack .` at the top of
// a repository of skills), "it holds no SKILL.md: create one with skills init" sent the author to make a skill where
// there are dozens: the error names the skills below it and how to take one.

/** How much of the tree the error may read to find the skills below: a few folders, a moment. */
const LOOK_FOLDERS = 2_000;
const LOOK_MS = 1_000;

/**
 * The skill at `root`, loaded; when `root` is no skill but holds skills in its folders, an error naming them and
 * `skills <command> <the first one>` (paths relative to `cwd`).
 */
export function loadOneSkill(root: string, command: string, cwd: string): Skill {
  try {
    return loadSkill(root);
  } catch (err) {
    if (!isSkillsError(err) || err.code !== 'E_NOT_FOUND') throw err;
    const below = skillsBelow(root, cwd);
    if (below.length === 0) throw err;
    const rel = (p: string) => relative(cwd, p) || '.';
    const shown = below.slice(0, 3).map(rel).join(', ');
    const more = below.length > 3 ? ` and ${below.length - 3} more` : '';
    const count = below.length === 1 ? 'a skill' : `${below.length} skills`;
    throw new SkillsError(
      'E_NOT_FOUND',
      `${root} is not a skill: it holds no SKILL.md or manifest.json, but ${count} in its folders (${shown}${more})`,
      { hint: `${command} one skill at a time: skills ${command} ${rel(below[0]!)}`, cause: err },
    );
  }
}

/** The skill folders below `root` that a small budget finds (a search cut short gives what it found). */
function skillsBelow(root: string, cwd: string): string[] {
  const budget: DiscoveryBudget = {
    foldersLeft: LOOK_FOLDERS,
    skillsLeft: LOOK_FOLDERS,
    deadline: Date.now() + LOOK_MS,
    limits: { folders: LOOK_FOLDERS, skills: LOOK_FOLDERS, seconds: LOOK_MS / 1000 },
  };
  try {
    return discoverSkills([root], { cwd, budget }).roots.filter((r) => r !== root);
  } catch {
    return [];
  }
}
