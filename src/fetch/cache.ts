import { isAbsolute, join } from 'node:path';
import { NO_HOME } from '../context.js';
import { SkillsError } from '../errors.js';

/**
 * The folder skills caches downloads in: `SKILLS_CACHE_DIR` when set, else `$XDG_CACHE_HOME/skills`, else
 * `<home>/.cache/skills`: the rule bin/skills.js keeps its code cache by, so both live in one folder.
 */
export function cacheHome(env: Record<string, string | undefined>, home: string): string {
  const own = env.SKILLS_CACHE_DIR;
  if (own) {
    // Relative to what? src/ never reads the working folder: a relative cache would move with it.
    if (!isAbsolute(own))
      throw new SkillsError('E_CONFIG', `SKILLS_CACHE_DIR must be an absolute path, not "${own}"`, {
        hint: 'e.g. SKILLS_CACHE_DIR="$HOME/.cache/skills"',
      });
    return own;
  }
  if (!env.XDG_CACHE_HOME && home === NO_HOME)
    throw new SkillsError('E_CONFIG', 'no folder to cache downloads in: HOME is empty or not an absolute path', {
      hint: 'set HOME to the absolute path of your home folder, or SKILLS_CACHE_DIR to a folder for the cache',
    });
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), 'skills');
}
