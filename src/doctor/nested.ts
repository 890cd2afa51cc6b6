import { readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import { isFolder, isNeverKept } from '../fs/walk.js';
import { counted } from '../formats/text.js';

// Skill folders below the project's top, in its packages: Claude Code loads `packages/web/.claude/skills` when it
// works with files in packages/web ("automatic discovery from nested directories"), and Codex reads `.agents/skills`
// from the folder it starts in up to the repository root, so it loads them when started in packages/web or below.
// doctor finds them with one bounded walk of the project's folders.

/** The most folders the walk reads, and how deep it goes below the top. */
export const NESTED_FOLDERS = 20_000;
export const NESTED_DEPTH = 12;

export interface NestedFolders {
  /** For each project path asked for (`.claude/skills`), the folders below the top holding one (`X/.claude/skills`). */
  found: Map<string, string[]>;
  /** Set when the walk stopped at its limits, for a warning. */
  cut?: string;
}

/**
 * The folders below `top` (not `top` itself) that hold one of `projects` (paths relative to a folder, such as
 * `.claude/skills`), in walk order (sorted names, depth first). Folders git and package managers keep
 * (isNeverKept) and folders whose name starts with a dot are not walked into, nor are the skill folders found.
 */
export function nestedFolders(
  top: string,
  projects: readonly string[],
  limits = { folders: NESTED_FOLDERS, depth: NESTED_DEPTH },
): NestedFolders {
  const found = new Map<string, string[]>(projects.map((p) => [p, []]));
  let left = limits.folders;
  let cut: string | undefined;
  const visit = (dir: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(dir, { withFileTypes: true })
        .filter((d) => d.isDirectory() && !d.name.startsWith('.') && !isNeverKept(d.name, true))
        .map((d) => d.name)
        .sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (cut) return;
      if (left-- <= 0) {
        cut = `the search for nested skill folders stopped after ${counted(limits.folders, 'folder')} of ${top}`;
        return;
      }
      const sub = join(dir, name);
      for (const p of projects) if (isFolder(join(sub, p))) found.get(p)!.push(join(sub, p));
      if (depth < limits.depth) visit(sub, depth + 1);
    }
  };
  visit(top, 1);
  return cut === undefined ? { found } : { found, cut };
}

/** The folder an agent works in to read the nested skill folder `dir` (`X` of `X/.claude/skills`). */
export function workingFolder(dir: string, project: string): string {
  const tail = project.split('/').join(sep);
  return dir.endsWith(sep + tail) ? dir.slice(0, -(tail.length + 1)) : dir;
}
