// What pack leaves out of a skill, decided for one entry by its name and path, and for a symlink inside the skill by
// what it leads to: a link is packed as its target, so a link to .env, to a .git, or into a folder the ignore files
// leave out is left out as its target is (npm pack leaves every link out; pack keeps the others, as the README says).
import { readdirSync, readlinkSync, statSync, type Dirent } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { SkillsError } from '../errors.js';
import { isLeftover, isMacFile, isNeverKept, isSecretFile } from '../fs/walk.js';
import { IGNORE_FILE, ignoreLevel, ignoredBy, type IgnoreLevel, type IgnoreRuleAt } from './ignore-rules.js';

/** Why an entry is left out: never kept silently (.git, .DS_Store, a .skillignore), or told as what it is. */
export type LeftOut =
  { why: 'never' } | { why: 'leftover' } | { why: 'secret' } | { why: 'ignored'; rule: IgnoreRuleAt };

/** Why the entry `name` at `path` (relative to the skill's root), under the ignore rules `levels`, is left out. */
export function leftOutBy(
  name: string,
  path: string,
  isDir: boolean,
  levels: readonly IgnoreLevel[],
): LeftOut | undefined {
  if (name === IGNORE_FILE || isNeverKept(name, isDir) || (!isDir && isMacFile(name))) return { why: 'never' };
  if (!isDir && isLeftover(name)) return { why: 'leftover' };
  if (!isDir && isSecretFile(name)) return { why: 'secret' };
  const rule = levels.length > 0 ? ignoredBy(levels, path, isDir) : undefined;
  return rule ? { why: 'ignored', rule } : undefined;
}

/** The entries of a folder of the skill; one that cannot be read stops the pack (E_IO). */
export function listFolder(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    throw new SkillsError('E_IO', `cannot read ${dir}: ${(err as Error).message}`, { cause: err });
  }
}

/** What an entry reached through a link leads to, when that is left out: its path in the skill, and why. */
export interface LeftOutTarget {
  /** The path in the skill, forward slashes: the target itself or the folder above it that is left out. */
  target: string;
  leftOut: LeftOut;
}

/**
 * A judge of real places in the skill at `realRoot`: `(realPath, isDir)` says whether that path, at its own place
 * (no link on its way), would be left out, and by what: the path itself or a folder above it. Each folder's ignore
 * rules are read once.
 */
export function realPlaceJudge(realRoot: string): (realPath: string, isDir: boolean) => LeftOutTarget | undefined {
  const levelsOf = new Map<string, IgnoreLevel[]>();
  const levelsAt = (rel: string): IgnoreLevel[] => {
    const known = levelsOf.get(rel);
    if (known) return known;
    const slash = rel.lastIndexOf('/');
    const above = rel === '' ? [] : levelsAt(slash < 0 ? '' : rel.slice(0, slash));
    const dir = join(realRoot, rel);
    const own = ignoreLevel(dir, rel, listFolder(dir));
    const levels = own ? [...above, own] : above;
    levelsOf.set(rel, levels);
    return levels;
  };
  return (realPath, isDir) => {
    const rel = relative(realRoot, realPath).split(sep).join('/');
    if (rel === '') return undefined;
    const names = rel.split('/');
    for (let i = 0; i < names.length; i++) {
      const path = names.slice(0, i + 1).join('/');
      const leftOut = leftOutBy(names[i]!, path, i < names.length - 1 || isDir, levelsAt(names.slice(0, i).join('/')));
      if (leftOut) return { target: path, leftOut };
    }
    return undefined;
  };
}

/** Why a link is left out, told by what it leads to. */
export function linkReason(leftOut: LeftOut): string {
  if (leftOut.why === 'secret') return 'and secrets are never packed';
  if (leftOut.why === 'leftover') return 'a temp file an interrupted write of skills left';
  if (leftOut.why === 'never') return 'which is never packed';
  const { file, line, pattern } = leftOut.rule;
  return `which ${file}:${line} ("${pattern}") leaves out`;
}

/** Whether the link at `abs` leads to a folder (so `dir/` patterns match it); false when it leads nowhere. */
export function leadsToFolder(abs: string): boolean {
  try {
    return statSync(abs).isDirectory();
  } catch {
    return false;
  }
}

/** What a link that leads nowhere points to, for its message. */
export function readLinkText(abs: string): string {
  try {
    return `it points to ${readlinkSync(abs)}, which is missing`;
  } catch {
    return 'its target is missing';
  }
}
