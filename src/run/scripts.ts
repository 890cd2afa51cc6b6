import { realpathSync, statSync } from 'node:fs';
import { basename, extname, isAbsolute, join } from 'node:path';
import { SkillsError, isSkillsError } from '../errors.js';
import type { Skill } from '../model/skill.js';
import { isInside } from '../fs/walk.js';

// Which files of a skill are scripts it may run, and the one a name picks.

export interface ScriptInfo {
  /** Path relative to the skill root, forward slashes (as declared, when a declared path does not exist). */
  path: string;
  /** What to type: the file's name. */
  name: string;
  declared: boolean;
  /** Why it will not run (not declared in a manifest skill, leads outside, missing); undefined when it may run. */
  refused?: string;
}

/**
 * Every script a skill offers: the declared ones, then the files below scripts/ (in a manifest skill these are
 * refused).
 */
export function listScripts(skill: Skill): ScriptInfo[] {
  const out = new Map<string, ScriptInfo>();
  const file = basename(skill.file);
  for (const s of skill.scripts) {
    if (!s.declared) continue;
    const path = s.path.replace(/\\/g, '/').replace(/^\.\//, '');
    const entry = skill.entries.find((e) => e.path === path);
    let refused: string | undefined;
    if (isAbsolute(path) || /^[A-Za-z]:\//.test(path) || path.split('/').includes('..'))
      refused = `its declared path leads outside the skill`;
    else if (entry?.kind === 'symlink' && !entry.inside)
      refused = `it is a symlink that leads outside the skill${entry.target ? ` (to ${entry.target})` : ''}`;
    else if (!entry && linkedOut(skill, path))
      refused = `its folder ${linkedOut(skill, path)} is a symlink that leads outside the skill`;
    else if (!entry) refused = `it is declared in ${file} but does not exist`;
    else if (entry.kind === 'dir' || entry.mode === 0o040000) refused = 'it is a folder, not a file';
    out.set(path, { path, name: basename(path), declared: true, refused });
  }
  for (const e of skill.entries) {
    if (!e.path.startsWith('scripts/') || out.has(e.path)) continue;
    if (e.kind !== 'file' && e.kind !== 'symlink') continue;
    if (e.kind === 'symlink' && e.mode === 0o040000) continue; // a link to a folder inside
    let refused: string | undefined;
    if (e.kind === 'symlink' && !e.inside)
      refused = `it is a symlink that leads outside the skill${e.target ? ` (to ${e.target})` : ''}`;
    else if (skill.layout === 'manifest')
      refused = `it is not declared in ${file} "scripts", and a manifest skill runs only its declared scripts`;
    out.set(e.path, { path: e.path, name: basename(e.path), declared: false, refused });
  }
  return [...out.values()];
}

/** The folder on the way to `path` that is a symlink leading out of the skill (the walk does not enter those). */
function linkedOut(skill: Skill, path: string): string | undefined {
  const parts = path.split('/');
  for (let i = 1; i < parts.length; i++) {
    const dir = parts.slice(0, i).join('/');
    if (skill.entries.some((e) => e.path === dir && e.kind === 'symlink' && !e.inside)) return dir;
  }
  return undefined;
}

const stem = (p: string) => {
  const b = basename(p);
  const ext = extname(b);
  return ext ? b.slice(0, -ext.length) : b;
};

/** A skill's name and folder, for messages. */
export function skillLabel(skill: Skill): string {
  return `${skill.id} (${skill.root})`;
}

export interface PickedScript extends ScriptInfo {
  /** Absolute path, checked to stay inside the skill after every symlink. */
  abs: string;
}

/**
 * The script a name picks: its path in the skill, its file name, or its name without extension. Refused (E_USAGE)
 * when it leads outside the skill or is not declared in a manifest skill; ambiguous names list the candidates.
 */
export function pickScript(skill: Skill, name: string): PickedScript {
  const wanted = name.replace(/\\/g, '/').replace(/^(?:\.\/)+/, '');
  const refuse = (why: string, code: 'E_USAGE' | 'E_NOT_FOUND' = 'E_USAGE', hint?: string) =>
    new SkillsError(code, `refused to run "${name}" of the skill ${skillLabel(skill)}: ${why}`, {
      hint: hint ?? `skills run-script ${skill.id} --list shows the scripts it may run`,
    });
  if (isAbsolute(name) || /^[A-Za-z]:[\\/]/.test(name))
    throw refuse('an absolute path leads outside the skill; name a script inside it');
  if (wanted.split('/').includes('..')) throw refuse('".." leads outside the skill; name a script inside it');
  if (wanted === '')
    throw new SkillsError('E_USAGE', 'the script name is empty', { hint: `skills run-script ${skill.id} --list` });
  const all = listScripts(skill);
  const tiers: ((s: ScriptInfo) => boolean)[] = [
    (s) => s.path === wanted || s.path === `scripts/${wanted}`,
    (s) => !wanted.includes('/') && s.name === wanted,
    (s) => {
      const noExt = s.path.slice(0, s.path.length - (s.name.length - stem(s.path).length));
      return noExt === wanted || noExt === `scripts/${wanted}` || (!wanted.includes('/') && stem(s.path) === wanted);
    },
  ];
  let matches: ScriptInfo[] = [];
  for (const tier of tiers) {
    matches = all.filter(tier);
    if (matches.length > 0) break;
  }
  if (matches.length === 0) {
    const runnable = all.filter((s) => !s.refused).map((s) => s.path);
    throw new SkillsError(
      'E_NOT_FOUND',
      `the skill ${skillLabel(skill)} has no script "${name}"; ${runnable.length > 0 ? `its scripts: ${runnable.join(', ')}` : 'it has no scripts it may run'}`,
      {
        hint:
          skill.layout === 'manifest'
            ? 'a manifest skill runs the scripts its manifest.json declares in "scripts"'
            : 'a script is a file below scripts/ or a path in the frontmatter "scripts"',
      },
    );
  }
  if (matches.length > 1) {
    throw new SkillsError(
      'E_USAGE',
      `"${name}" is ambiguous in the skill ${skillLabel(skill)}: it names ${matches.map((m) => m.path).join(' and ')}`,
      {
        hint: `name one with its extension or path, e.g. skills run-script ${skill.id} ${matches[0]!.name}`,
      },
    );
  }
  const script = matches[0]!;
  if (script.refused)
    throw refuse(
      `${script.path}: ${script.refused}`,
      script.refused.includes('does not exist') ? 'E_NOT_FOUND' : 'E_USAGE',
    );
  // The walk saw each link; check the real path too, so a linked folder on the way cannot lead out either.
  const abs = join(skill.root, script.path);
  let real: string;
  try {
    real = realpathSync.native(abs);
    if (!statSync(real).isFile()) throw refuse(`${script.path} is not a file`);
  } catch (err) {
    if (isSkillsError(err)) throw err;
    throw refuse(`${script.path} cannot be read: ${(err as Error).message}`, 'E_NOT_FOUND');
  }
  if (!isInside(realpathSync.native(skill.root), real))
    throw refuse(`${script.path} leads outside the skill (to ${real})`);
  return { ...script, abs };
}
