// The one way to find skills: the skill folders (in precedence order: given, else configured, else the project's
// then the user's) and the registry (from index.json alone). `list`, render-prompt's catalog and run-script all
// look through here, so they cannot disagree about which skills there are or where a registry skill lives.
import { join, sep } from 'node:path';
import { SkillsError } from '../errors.js';
import type { IndexEntry } from '../formats/index-file.js';
import type { Skill } from '../model/skill.js';
import { loadConfig } from '../config/config.js';
import { findSkills, skillFolders, type FolderScope, type FoundSkills, type SkillFolder } from '../skill/folders.js';
import { loadSkill } from '../skill/load.js';
import { readIndex, readReleases } from './index-io.js';

export interface RegistrySkill {
  entry: IndexEntry;
  /** The latest version's stored copy (absolute); the registry folder itself when the index names none. */
  root: string;
}

/** The registry's skills from index.json alone (no releases file is read): each entry and its latest stored copy. */
export function registrySkills(registry: string): RegistrySkill[] {
  const rootOf = storedRoots(registry);
  return readIndex(registry).skills.map((entry) => ({ entry, root: rootOf(entry.latest.path) }));
}

/**
 * The absolute folder of a stored copy, from its path in the index (`latest.path`); the registry folder itself for
 * none (''). index-file.ts admits only `built-in/<id>@<version>` or `custom/<id>@<version>`: already a normal path.
 */
export function storedRoots(registry: string): (path: string) => string {
  // Ten thousand entries: one concatenation each, no path.join, as this runs on every render from a registry.
  const base = registry.endsWith(sep) ? registry : `${registry}${sep}`;
  return (p) => (p ? `${base}${sep === '/' ? p : p.replace(/\//g, sep)}` : registry);
}

export interface FolderSources {
  cwd: string;
  home: string;
  env: Record<string, string | undefined>;
  /**
   * Folders named on the command line (relative to cwd); none: skillDirs from skills.config.json, else the defaults.
   */
  given?: string[];
  /** The configuration file (relative to cwd) whose skillDirs are read; none: the nearest skills.config.json. */
  config?: string;
}

/**
 * The skill folders to read: those given, else skillDirs from skills.config.json, else the standard project and user
 * folders.
 */
export function skillFoldersFor(opts: FolderSources): SkillFolder[] {
  const given = opts.given ?? [];
  // A file named with -c is read even when folders are given, so that a wrong path is said.
  const config =
    given.length > 0 && opts.config === undefined ? undefined : loadConfig(opts.cwd, opts.config, opts.home);
  const configured = given.length > 0 ? undefined : config?.skillDirs;
  return skillFolders({ cwd: opts.cwd, home: opts.home, env: opts.env, given, configured });
}

export interface FoundEverywhere extends FoundSkills {
  /** The registry's skills, beside (not merged with) the folders'. */
  registry: RegistrySkill[];
}

/**
 * Every skill of the registry (its index; none when `registry` is undefined), then of the folders (loaded; a name
 * found again is shadowed by the first). `folders` may be a function, asked once the registry has been read.
 */
export function findSkillsEverywhere(
  folders: SkillFolder[] | (() => SkillFolder[]),
  registry: string | undefined,
): FoundEverywhere {
  const inRegistry = registry === undefined ? [] : registrySkills(registry);
  return { registry: inRegistry, ...findSkills(typeof folders === 'function' ? folders() : folders) };
}

export interface FindByIdOptions {
  /** The skill folders; asked for only when they are looked in. */
  folders: () => SkillFolder[];
  registry: string;
  /** Look in the registry before the folders. */
  registryFirst?: boolean;
  /** The hint when the registry has the skill but not the version asked for. */
  versionHint?: string;
}

export interface FoundById {
  skill: Skill;
  source: FolderScope | 'registry';
}

/**
 * The skill an id names, loaded: from the folders, then the registry (or the registry first). `id@version` is
 * looked up in the registry only. Undefined when neither holds it; E_NOT_FOUND when the registry lacks the version.
 */
export function findSkillById(id: string, version: string | undefined, opts: FindByIdOptions): FoundById | undefined {
  const { registry } = opts;
  const fromRegistry = (): FoundById | undefined => {
    const entry = readIndex(registry).skills.find((e) => e.id === id);
    if (!entry) return undefined;
    let path = entry.latest.path;
    if (version !== undefined) {
      const release = readReleases(registry, id)[version];
      if (!release) {
        throw new SkillsError(
          'E_NOT_FOUND',
          `${id}@${version} is not in the registry ${registry}; its versions: ${entry.versions.join(', ')}`,
          { hint: opts.versionHint },
        );
      }
      path = release.path;
    }
    return { skill: loadSkill(join(registry, path)), source: 'registry' };
  };
  const fromFolders = (): FoundById | undefined => {
    if (version !== undefined) return undefined;
    const hit = findSkills(opts.folders()).skills.find((f) => f.skill.id === id);
    return hit ? { skill: hit.skill, source: hit.scope } : undefined;
  };
  for (const look of opts.registryFirst ? [fromRegistry, fromFolders] : [fromFolders, fromRegistry]) {
    const hit = look();
    if (hit) return hit;
  }
  return undefined;
}
