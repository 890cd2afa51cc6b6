import { isSkillsError } from '../errors.js';
import type { Skill } from '../model/skill.js';
import { real } from '../fs/walk.js';
import { findSkills, type FolderScope } from '../skill/folders.js';
import { loadSkill } from '../skill/load.js';
import { validateSkills, type SkillReport } from '../skill/validate.js';

// One folder's skills, loaded and validated once per run: several agents read the same folder (.agents/skills is
// read by Codex, Amp and the generic agent), and each must not load it again.

export interface FolderRead {
  /** Every skill of the folder, in the order found; two of one name both (the agent's view decides which wins). */
  skills: Skill[];
  /** Validation of each skill, by skill folder. */
  reports: Map<string, SkillReport>;
  /** Skill folders that could not be read, with why. */
  unreadable: { path: string; message: string }[];
  /** Set when the search stopped at its limits. */
  cut?: string;
}

export type FolderReader = (dir: string, scope: FolderScope) => Promise<FolderRead>;

/** A reader that loads and validates each folder (by its real path) once. */
export function folderReader(): FolderReader {
  const cache = new Map<string, Promise<FolderRead>>();
  return (dir, scope) => {
    const key = real(dir);
    let read = cache.get(key);
    if (!read) {
      read = readFolder(dir, scope);
      cache.set(key, read);
    }
    return read;
  };
}

async function readFolder(dir: string, scope: FolderScope): Promise<FolderRead> {
  const found = findSkills([{ dir, scope }]);
  const skills = found.skills.map((f) => f.skill);
  const unreadable = [...found.skipped];
  // findSkills keeps the first skill of a name; an agent skips that one when it is invalid and may then load the
  // next, so the others are loaded too (rare: two skills of one name in one folder).
  for (const s of found.shadowed) {
    try {
      skills.push(loadSkill(s.path));
    } catch (err) {
      if (!isSkillsError(err)) throw err;
      unreadable.push({ path: s.path, message: err.message });
    }
  }
  const reports = await validateSkills(skills);
  return {
    skills,
    reports: new Map(reports.map((r) => [r.skill.root, r])),
    unreadable,
    ...(found.cut ? { cut: found.cut } : {}),
  };
}
