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
  if (!env.XDG_CACHE_HOME && home === NO_HOME) throw noCache();
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), 'skills');
}

/**
 * cacheHome, or undefined when there is no home to put it in (HOME empty or relative, no XDG_CACHE_HOME or
 * SKILLS_CACHE_DIR): a local folder or archive is installed without one, and what downloads asks needCache.
 */
export function cacheHomeIfAny(env: Record<string, string | undefined>, home: string): string | undefined {
  return !env.SKILLS_CACHE_DIR && !env.XDG_CACHE_HOME && home === NO_HOME ? undefined : cacheHome(env, home);
}

/** The cache a download goes through (cacheHomeIfAny's): with none, the E_CONFIG naming HOME and SKILLS_CACHE_DIR. */
export function needCache(cacheDir: string | undefined): string {
  if (cacheDir === undefined) throw noCache();
  return cacheDir;
}

function noCache(): SkillsError {
  return new SkillsError('E_CONFIG', 'no folder to cache downloads in: HOME is empty or not an absolute path', {
    hint: 'set HOME to the absolute path of your home folder, or SKILLS_CACHE_DIR to a folder for the cache',
  });
}
