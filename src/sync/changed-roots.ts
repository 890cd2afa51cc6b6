// Which skills a burst of file changes touches, for sync --watch.
import { readdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { isSkillsError } from '../errors.js';
import { isInside } from '../fs/walk.js';
import { skillFileIn } from '../skill/skill-file.js';

function listing(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * The skill folders a set of changed paths touches, below `root`: the skill holding each path, or the skills
 * below a folder that appeared. Paths inside `exclude` (the registry itself) are ignored.
 */
export async function changedSkillRoots(root: string, paths: string[], exclude?: string): Promise<string[]> {
  const out = new Set<string>();
  const { discoverSkills } = await import('../skill/discover.js');
  for (const p of paths) {
    if (exclude && isInside(exclude, p)) continue;
    let holder: string | undefined;
    for (let d = p; isInside(root, d); d = dirname(d)) {
      if (skillFileIn(listing(d))) {
        holder = d;
        break;
      }
      if (d === root) break;
    }
    if (holder) {
      out.add(holder);
      continue;
    }
    let isDir = false;
    try {
      isDir = statSync(p).isDirectory();
    } catch {
      /* gone */
    }
    if (!isDir) continue;
    try {
      for (const r of discoverSkills([p], { cwd: root }).roots) if (!exclude || !isInside(exclude, r)) out.add(r);
    } catch (err) {
      if (!isSkillsError(err)) throw err;
    }
  }
  return [...out];
}
