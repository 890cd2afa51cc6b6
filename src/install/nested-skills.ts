// Skills nested in a skill folder: a source whose top is a skill may hold more below it, installed only by name.
import { cpSync, mkdirSync, readdirSync, type Dirent } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { discoveryBudget, isSkillFolder } from '../skill/discover.js';
import { inSampleFolder, SAMPLE_FOLDER } from '../skill/skill-file.js';
import { splitTemplates } from '../skill/template-folders.js';
import { skillsBelow, type Scratch } from './sources.js';
import type { ArchivedSkill } from './types.js';

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

/**
 * The skills of an unpacked archive with, when `--skill` or `--list` asks (`only`), the skills nested in each, as a
 * folder's or a repository's are found (gatherTree). Each nested one is copied out of its outer skill's folder into a
 * scratch folder of its own, so that placing (or moving into the store) one never takes files from the other.
 */
export function nestedArchived(
  found: ArchivedSkill[],
  scratch: Scratch,
  only: readonly string[] | undefined,
): ArchivedSkill[] {
  if (only === undefined) return found;
  const budget = discoveryBudget();
  return found.flatMap((a) => [
    a,
    ...skillsNestedIn(a.root, budget).roots.map((abs): ArchivedSkill => {
      const rel = relative(a.root, abs).split(sep).join('/');
      const home = scratch.folder(basename(abs));
      mkdirSync(home);
      const root = join(home, basename(abs));
      cpSync(abs, root, { recursive: true });
      const files = a.files
        .filter((f) => f.rel.startsWith(`${rel}/`))
        .map((f) => ({ ...f, rel: f.rel.slice(rel.length + 1), abs: join(root, f.rel.slice(rel.length + 1)) }));
      return { root, inner: a.inner === '' ? rel : `${a.inner}/${rel}`, id: basename(abs), files, nestedIn: a.id };
    }),
  ]);
}

/**
 * The skills of an unpacked archive to prepare (nestedArchived), its skeletons (templates/…) only when skills are
 * named or listed (`only`), marked, as a folder's (gatherTree); `several` counts every skill the archive holds.
 */
export function archivedToPrepare(
  unpacked: ArchivedSkill[],
  scratch: Scratch,
  only: readonly string[] | undefined,
): { found: ArchivedSkill[]; several: boolean } {
  const all = nestedArchived(unpacked, scratch, only);
  const { skills, templates } = splitTemplates(all, (a) => a.inner);
  const found =
    only === undefined ? skills : all.map((a) => (templates.includes(a) ? { ...a, template: true as const } : a));
  return { found, several: all.length > 1 };
}
