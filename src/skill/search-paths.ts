// The paths a search of skill folders builds and matches as it walks (skill/discover.ts), and where each folder lies.
import type { Dirent } from 'node:fs';
import { relative, sep } from 'node:path';

/**
 * `dir`/`name` for a folder that is already a normal absolute path and a name read from its listing: what join gives,
 * without normalizing again (ten thousand joins are a noticeable share of a large search).
 */
export function childPath(dir: string, name: string): string {
  return dir.endsWith(sep) ? dir + name : dir + sep + name;
}

/**
 * `path` relative to `base`, with "/" between names, as .gitignore patterns are matched. The walk builds every path
 * below a matcher's folder from it (childPath), so that is a slice; path.relative, which resolves both against the
 * working folder, was a tenth of the CPU of validating the real collections (a call per folder walked).
 */
export function relativeBelow(base: string, path: string): string {
  const prefix = base.endsWith(sep) ? base : base + sep;
  // A path with a `.` or `..` name in it (none the walk makes) goes through path.relative, which normalizes it.
  const plain = path.startsWith(prefix) && !path.includes(`${sep}..`) && !path.includes(`${sep}.${sep}`);
  const rel = plain ? path.slice(prefix.length) : relative(base, path);
  return sep === '/' ? rel : rel.split(sep).join('/');
}

/**
 * Where a folder lies below the start of a search: below a folder named `skills` (an agent's `.claude/skills`, a
 * collection's `skills/.curated`), below a hidden folder and no `skills` folder (`.wiki/`, `.obsidian/`: no agent
 * reads skills there, and a wiki's page about skills may be named skill.md), or neither. In a hidden place only
 * SKILL.md, as the specification names it, makes a skill folder (manifest.json and skill.md do not).
 */
export type Place = 'open' | 'hidden' | 'skills';

/** The place of a folder named `name` in a folder at `place`. */
export const placeOf = (place: Place, name: string): Place =>
  place === 'skills' || name === 'skills' ? 'skills' : name.startsWith('.') ? 'hidden' : place;

/** Whether a folder at `at` may be a skill by its listing: in a hidden place, only when it holds SKILL.md so named. */
export const mayBeSkillAt = (at: Place, listing: Dirent[]): boolean =>
  at !== 'hidden' || listing.some((e) => e.name === 'SKILL.md');
