import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { SkillsError } from '../errors.js';
import type { Skill } from '../model/skill.js';
import { skillRootOf } from '../skill/discover.js';
import { loadSkill } from '../skill/load.js';
import { findSkillById, registrySkills } from '../registry/find-skills.js';
import { locateRegistry } from '../registry/locate.js';
import { findSkills, skillFolders, userFolderWarnings, type FolderScope, type SkillFolder } from '../skill/folders.js';
import { closest } from '../skill/names.js';

export type SkillSource = 'path' | FolderScope | 'registry';

export interface FoundSkillFor {
  skill: Skill;
  source: SkillSource;
}

export interface FindSkillOptions {
  cwd: string;
  home: string;
  env: Record<string, string | undefined>;
  /** --registry: also puts the registry ahead of the skill folders. */
  registry?: string;
  /** skillDirs from skills.config.json (absolute), as `list` reads them; asked only when an id is looked up. */
  configured?: () => string[] | undefined;
  /** Told the warnings of the folders once they are read (a relative CLAUDE_CONFIG_DIR: userFolderWarnings). */
  warn?: (line: string) => void;
}

/**
 * The skill an argument names: an existing path (a skill folder or a file inside one), else an id (`id@version`
 * only in the registry) from the project and user skill folders, then the registry — or the registry first when
 * --registry is given.
 */
export function findSkillFor(arg: string, opts: FindSkillOptions): FoundSkillFor {
  const looksLikePath = arg.includes('/') || arg.includes('\\') || arg === '.' || arg === '..' || arg.startsWith('~');
  const abs = resolve(opts.cwd, arg.startsWith('~/') ? join(opts.home, arg.slice(2)) : arg);
  const fromPath = skillAtPath(abs);
  if (fromPath) return { skill: loadSkill(fromPath), source: 'path' };
  if (looksLikePath) {
    throw new SkillsError(
      'E_NOT_FOUND',
      existsSync(abs)
        ? `${arg} is not a skill and not inside one: no SKILL.md or manifest.json at or above it`
        : `${arg}: no such file or folder`,
      {
        hint: 'give a skill folder, a file inside one, or a skill id (skills list shows them)',
      },
    );
  }
  const at = arg.lastIndexOf('@');
  // Typed ids are read as skill names are (NFKC), as parseSpec reads them: `café` however the terminal composed it.
  const id = (at > 0 ? arg.slice(0, at) : arg).normalize('NFKC');
  const version = at > 0 ? arg.slice(at + 1) : undefined;
  const registry = locateRegistry({ registry: opts.registry, cwd: opts.cwd, env: opts.env, home: opts.home });
  let read: SkillFolder[] | undefined;
  const folders = () => {
    if (read) return read;
    read = skillFolders({ cwd: opts.cwd, home: opts.home, env: opts.env, configured: opts.configured?.() });
    for (const w of userFolderWarnings(read, opts.env)) opts.warn?.(w);
    return read;
  };
  const hit = findSkillById(id, version, {
    folders,
    registry,
    registryFirst: opts.registry !== undefined && opts.registry.trim() !== '',
    versionHint: `run the latest with skills run-script ${id} <script>`,
  });
  if (hit) return hit;
  const near = closest(id, knownIds(folders, registry));
  throw new SkillsError(
    'E_NOT_FOUND',
    `no skill "${arg}": it is no path, and neither the skill folders nor the registry (${registry}) hold it${near ? `; did you mean "${near}"?` : ''}`,
    {
      hint: 'skills list shows the skills found; or give the path of the skill folder',
    },
  );
}

/** Every id the skill folders and the registry hold, for "did you mean" (only read once an id is not found). */
function knownIds(folders: () => SkillFolder[], registry: string): string[] {
  const ids = new Set(findSkills(folders()).skills.map((f) => f.skill.id));
  for (const r of registrySkills(registry)) ids.add(r.entry.id);
  return [...ids];
}

/** The skill folder a path is, or is inside of; undefined when it is neither (or does not exist). */
function skillAtPath(abs: string): string | undefined {
  let st;
  try {
    st = statSync(abs);
  } catch {
    return undefined;
  }
  return skillRootOf(st.isDirectory() ? abs : dirname(abs));
}
