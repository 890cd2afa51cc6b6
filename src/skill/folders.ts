import { statSync, type Dirent } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { isSkillsError } from '../errors.js';
import { SIDE_LOCKFILE_NAME } from '../formats/foreign-lock.js';
import { LOCKFILE_NAME } from '../formats/lockfile.js';
import type { Skill } from '../model/skill.js';
import {
  discoverSkills,
  discoveryBudget,
  type DiscoverOptions,
  type Discovery,
  type DiscoveryBudget,
} from './discover.js';
import { isInside, present } from '../fs/walk.js';
import { loadSkill } from './load.js';
import { shadowFinder } from './plugin.js';
import { homeVariableWarnings, userHomePath } from './agents.js';
import { counted } from '../formats/text.js';

// Where agents look for skill folders when they are not told, and which copy wins when two folders hold a skill
// of the same name. The project's folders come first (an agent run in a project sees its skills), then the
// user's; within a scope the first folder listed wins.

export type FolderScope = 'project' | 'user';

export interface SkillFolder {
  dir: string;
  scope: FolderScope;
}

/** Project folders, in precedence order: the Agent Skills convention, Claude Code's, seed 004's, seed 002's. */
export const PROJECT_SKILL_DIRS = ['.agents/skills', '.claude/skills', '.agent/skills', 'skills'];
/**
 * User folders below HOME, in precedence order: the Agent Skills convention, Claude Code's, then seed 004's. Each is
 * read where the agents read it (userHomePath): `.claude/skills` below CLAUDE_CONFIG_DIR when that is set.
 */
export const USER_SKILL_DIRS = ['.agents/skills', '.claude/skills', '.agent/skills'];

export interface FolderOptions {
  cwd: string;
  home: string;
  env: Record<string, string | undefined>;
  /** Folders given on the command line (relative to cwd); they replace every default. */
  given?: string[];
  /** `skillDirs` from skills.config.json, already absolute; they replace the defaults when nothing is given. */
  configured?: string[];
  /** A folder above cwd whose project folders are read too (the folder of the file `render-prompt --write` fills). */
  reach?: string;
}

/**
 * The folders whose project skill folders are read, nearest first: from `cwd` up to the project's top, which is the
 * nearest folder holding a skills lockfile, else the repository root (the first holding `.git`), as Codex reads
 * `.agents/skills` from the working folder up to the repository root. With neither above, `cwd` alone, and up to
 * `reach` when that is a folder above `cwd`.
 */
export function projectChain(cwd: string, reach?: string): string[] {
  const start = resolve(cwd);
  const chain: string[] = [];
  for (let d = start, prev = ''; d !== prev; prev = d, d = dirname(d)) {
    chain.push(d);
    if ([LOCKFILE_NAME, SIDE_LOCKFILE_NAME, '.git'].some((m) => present(join(d, m)))) return extend(chain, reach);
  }
  return extend([start], reach);
}

/** `chain` continued up to `reach` when `reach` lies above its last folder. */
function extend(chain: string[], reach: string | undefined): string[] {
  if (reach === undefined) return chain;
  const top = resolve(reach);
  if (!isInside(top, chain.at(-1)!) || chain.includes(top)) return chain;
  for (let d = dirname(chain.at(-1)!), prev = ''; d !== prev; prev = d, d = dirname(d)) {
    chain.push(d);
    if (d === top) break;
  }
  return chain;
}

/**
 * The skill folders to read: those given, else those configured, else the defaults — the project's, in each folder
 * of `projectChain` nearest first (`SKILLS_DIR` replacing `./skills`, seed 002), then the user's. A folder below a
 * user folder counts as user scope.
 */
export function skillFolders(opts: FolderOptions): SkillFolder[] {
  const userDirs = USER_SKILL_DIRS.map((d) => userHomePath(d, opts));
  const scoped = (dir: string): SkillFolder => ({
    dir,
    scope: userDirs.some((u) => isInside(u, dir)) ? 'user' : 'project',
  });
  if (opts.given && opts.given.length > 0) return dedupe(opts.given.map((d) => scoped(resolve(opts.cwd, d))));
  if (opts.configured) return dedupe(opts.configured.map(scoped));
  // SKILLS_DIR replaces `./skills`: it is read once, where the working folder's `skills` would be.
  const skillsDir = opts.env.SKILLS_DIR;
  const project = projectChain(opts.cwd, opts.reach).flatMap((base, i) =>
    PROJECT_SKILL_DIRS.flatMap((d) =>
      d !== 'skills' || !skillsDir
        ? [resolve(base, d)]
        : i > 0
          ? []
          : [isAbsolute(skillsDir) ? skillsDir : resolve(opts.cwd, skillsDir)],
    ),
  );
  // A chain that reaches HOME (a dotfiles repository) meets the user folders there: they stay user scope.
  return dedupe([...project.map(scoped), ...userDirs.map((dir) => ({ dir, scope: 'user' as const }))]);
}

/**
 * The warnings of a relative CLAUDE_CONFIG_DIR (CODEX_HOME, …) when the folders read hold a user folder: it is not
 * used (agentHomePath). With only folders given, nothing is said. Every command that reads the folders says it so.
 */
export function userFolderWarnings(folders: readonly SkillFolder[], env: Record<string, string | undefined>): string[] {
  return folders.some((f) => f.scope === 'user') ? homeVariableWarnings(env) : [];
}

function dedupe(folders: SkillFolder[]): SkillFolder[] {
  const seen = new Set<string>();
  return folders.filter((f) => !seen.has(f.dir) && seen.add(f.dir));
}

/** A skill as a search reads it: at least its name and folder. */
export interface FolderSkill {
  id: string;
  root: string;
}

export interface FoundSkill<T extends FolderSkill = Skill> {
  skill: T;
  scope: FolderScope;
  /** The folder (of those read) it was found in. */
  folder: string;
}

export interface Shadowed {
  id: string;
  path: string;
  scope: FolderScope;
  /** The folder of the skill that wins. */
  by: string;
  byScope: FolderScope;
}

export interface FoundSkills<T extends FolderSkill = Skill> {
  /** Every skill once, in folder order; a name already found in an earlier folder is left out (see shadowed). */
  skills: FoundSkill<T>[];
  shadowed: Shadowed[];
  /** Folders that could not be read as skills (no skill file, unreadable, a dangling link), with why. */
  skipped: { path: string; message: string }[];
  /** Set when the search stopped at its limits (skill/discover.ts): what was cut, for a warning. */
  cut?: string;
}

/**
 * How a search reads each skill folder it finds: loaded in full by default. `probe` is discovery's (see
 * DiscoverOptions): a folder it takes is read with no listing.
 */
export interface SkillReader<T extends FolderSkill> {
  probe?: DiscoverOptions['probe'];
  /** The skill of a folder; a SkillsError skips it (with its message). */
  read(root: string, listing: Dirent[] | undefined): T;
}

const LOAD: SkillReader<Skill> = { read: (root, listing) => loadSkill(root, { listing }) };

/**
 * Load the skills below each folder, in order, as an agent finds them: a symlink that is a skill folder (`install
 * --link`) is followed. The same folder reached twice (symlinks) counts once; a name found again in a later folder
 * is shadowed by the first, as agents load them (unless the two are in two plugins: see shadowFinder). A folder
 * that does not exist gives nothing.
 */
export function findSkills(folders: SkillFolder[]): FoundSkills;
export function findSkills<T extends FolderSkill>(folders: SkillFolder[], reader: SkillReader<T>): FoundSkills<T>;
export function findSkills(folders: SkillFolder[], reader: SkillReader<FolderSkill> = LOAD): FoundSkills<FolderSkill> {
  const out: FoundSkills<FolderSkill> = { skills: [], shadowed: [], skipped: [] };
  const seenRoots = new Set<string>();
  const byId = new Map<string, FoundSkill<FolderSkill>[]>();
  const shadowerOf = shadowFinder<FoundSkill<FolderSkill>>((f) => f.skill.root);
  // One budget for every folder: a configuration that lists many large folders is bounded as one that lists `/`.
  const budget = discoveryBudget();
  for (const { dir, scope } of folders) {
    for (const { skill: r, real: key } of skillsIn(dir, out, budget, reader)) {
      if (seenRoots.has(key)) continue;
      seenRoots.add(key);
      const found: FoundSkill<FolderSkill> = { skill: r, scope, folder: dir };
      let same = byId.get(r.id);
      if (!same) byId.set(r.id, (same = []));
      const first = shadowerOf(same, found);
      if (first) {
        out.shadowed.push({ id: r.id, path: r.root, scope, by: first.skill.root, byScope: first.scope });
        continue;
      }
      same.push(found);
      out.skills.push(found);
    }
  }
  return out;
}

/**
 * The skill folders below one folder (or the skill a file belongs to), a symlink that is a skill folder followed as
 * agents do; none when it does not exist. Give one budget to every call of a command, so that the limits bound the
 * command and not each folder.
 */
export function discoverIn(dir: string, budget?: DiscoveryBudget, probe?: DiscoverOptions['probe']): Discovery {
  try {
    statSync(dir);
    return discoverSkills([dir], { cwd: dir, budget, followLinks: true, probe });
  } catch (err) {
    if (isSkillsError(err) || (err as NodeJS.ErrnoException).code === 'ENOENT')
      return { roots: [], outside: [], listings: new Map(), reals: new Map(), links: [], notFollowed: [] };
    throw err;
  }
}

function skillsIn<T extends FolderSkill>(
  dir: string,
  found: FoundSkills<FolderSkill>,
  budget: DiscoveryBudget,
  reader: SkillReader<T>,
): { skill: T; real: string }[] {
  const { skipped } = found;
  const discovery = discoverIn(dir, budget, reader.probe);
  if (discovery.cut) found.cut = discovery.cut;
  skipped.push(...discovery.links);
  const out: { skill: T; real: string }[] = [];
  for (const root of discovery.roots) {
    // Loading is bounded by the search's clock too: twenty thousand skills found must not take minutes to read.
    if (Date.now() > budget.deadline) {
      found.cut ??= `reading the skills found stopped at ${root}: it ran for ${counted(budget.limits.seconds, 'second')}, the longest one search runs (SKILLS_MAX_SEARCH_SECONDS raises it); the skills not yet read are left out`;
      budget.cut ??= found.cut;
      break;
    }
    try {
      out.push({ skill: reader.read(root, discovery.listings.get(root)), real: discovery.reals.get(root)! });
    } catch (err) {
      if (!isSkillsError(err)) throw err;
      skipped.push({ path: root, message: err.message });
    }
  }
  return out;
}
