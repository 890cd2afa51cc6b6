// Skills nested in a skill folder: a source whose top is a skill may hold more below it, installed only by name.
import { readdirSync, type Dirent } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { discoveryBudget, isSkillFolder } from '../skill/discover.js';
import { inSampleFolder, SAMPLE_FOLDER } from '../skill/skill-file.js';
import { skillsBelow } from './sources.js';

/**
 * The skill folders nested in the skill folder `dir`, at any depth (a collection with a SKILL.md of its own at the top:
 * datadog-labs/agent-skills keeps dd-pup/, dd-apm/ and dd-apm/k8s-ssi/enable-ssi/ below its root skill). A search
 * stops at a skill, so these are read only when asked for by name (`--skill dd-pup`). Its searches share one budget
 * (SKILLS_MAX_FOLDERS, …), as one search would, and with those of other skills when given theirs: `cut` says where
 * they stopped.
 */
export function skillsNestedIn(dir: string, budget = discoveryBudget()): { roots: string[]; cut?: string } {
  const roots: string[] = [];
  let cut: string | undefined;
  const below = (at: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(at, { withFileTypes: true });
    } catch {
      return;
    }
    // Not below a folder of samples (a skill-creator's templates/SKILL.md), as lint's SK133 reads nested skills.
    const subs = entries
      .filter((e) => e.isDirectory() && !e.name.startsWith('.') && !SAMPLE_FOLDER.test(e.name))
      .map((e) => join(at, e.name));
    // A search from a folder inside a skill finds that skill: only what lies below the folder counts.
    const found = subs.flatMap((d) => {
      if (isSkillFolder(d)) return [d];
      const b = skillsBelow(d, budget);
      cut ??= b.cut;
      return b.roots.filter((r) => r.startsWith(d + sep) && !inSampleFolder(relative(d, r).split(sep).join('/')));
    });
    for (const r of found) {
      roots.push(r);
      below(r);
    }
  };
  below(dir);
  return { roots, ...(cut ? { cut } : {}) };
}
