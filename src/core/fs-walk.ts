import { readdirSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { SkillEntry } from '../model/skill.js';

export const SKIP_DIRS = new Set(['.git', 'node_modules', '.hg', '.svn']);
const MAX_DEPTH = 8;
const MAX_ENTRIES = 20_000;

/** True when `child` is `root` or lies below it. */
export function isInside(root: string, child: string): boolean {
  const rel = relative(root, child);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && rel !== '..' && !/^[A-Za-z]:/.test(rel));
}

/**
 * Every file and folder of a skill, bounded in depth and count; symlinks are not followed but resolved, so
 * callers can tell one that leads out of the skill. `top` is the root's listing when the caller already has it.
 */
export function walkSkill(root: string, top?: import('node:fs').Dirent[]): { entries: SkillEntry[]; truncated: boolean } {
  const entries: SkillEntry[] = [];
  let realRoot: string | undefined;
  let truncated = false;
  const visit = (dir: string, rel: string, depth: number, listing?: import('node:fs').Dirent[]) => {
    let list = listing;
    if (!list) {
      try {
        list = readdirSync(dir, { withFileTypes: true });
      } catch {
        return;
      }
    }
    for (const d of list) {
      if (entries.length >= MAX_ENTRIES) {
        truncated = true;
        return;
      }
      const path = rel === '' ? d.name : `${rel}/${d.name}`;
      if (d.isDirectory()) {
        if (SKIP_DIRS.has(d.name)) continue;
        entries.push({ path, kind: 'dir' });
        if (depth < MAX_DEPTH) visit(join(dir, d.name), path, depth + 1);
        else truncated = true;
      } else if (d.isFile()) {
        entries.push({ path, kind: 'file' });
      } else if (d.isSymbolicLink()) {
        realRoot ??= realpathSync.native(root);
        let target: string | undefined;
        let inside = false;
        try {
          target = realpathSync.native(join(dir, d.name));
          inside = isInside(realRoot, target);
        } catch {
          target = undefined;
        }
        let targetIsDir = false;
        try {
          targetIsDir = inside && statSync(join(dir, d.name)).isDirectory();
        } catch {
          /* dangling */
        }
        entries.push({ path, kind: 'symlink', target, inside, ...(targetIsDir ? { mode: 0o040000 } : {}) });
      } else {
        entries.push({ path, kind: 'other' });
      }
    }
  };
  visit(root, '', 1, top);
  return { entries, truncated };
}
