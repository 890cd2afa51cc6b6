import { join } from 'node:path';
import { isSkillsError } from '../errors.js';
import type { Layout, Skill } from '../model/skill.js';
import type { SkillSource } from './find.js';
import { readHead, scriptDescription } from '../skill/script-info.js';
import { chooseInterpreter } from './interpreter.js';
import { listScripts, type ScriptInfo } from './scripts.js';

export interface ScriptListing extends ScriptInfo {
  /** The interpreter's label, or undefined when it cannot be told (see `problem`). */
  interpreter?: string;
  via?: 'shebang' | 'extension';
  description?: string;
  /** Why the interpreter cannot be told. */
  problem?: string;
}

/** --list: each script with its interpreter and the description its leading comment or docstring gives. */
export function describeScripts(skill: Skill): ScriptListing[] {
  return listScripts(skill).map((s) => {
    const row: ScriptListing = { ...s };
    if (s.refused && (s.refused.includes('outside') || s.refused.includes('does not exist'))) return row;
    let head: string;
    try {
      head = readHead(join(skill.root, s.path), undefined, skill.root);
    } catch (err) {
      row.problem = `cannot be read: ${(err as Error).message}`;
      return row;
    }
    try {
      const it = chooseInterpreter(s.path, head.split('\n', 1)[0] ?? '');
      row.interpreter = it.label;
      row.via = it.via;
    } catch (err) {
      if (!isSkillsError(err)) throw err;
      row.problem = err.message;
    }
    const d = scriptDescription(head, s.path);
    if (d !== undefined) row.description = d;
    return row;
  });
}

/** What `--list --json` prints. */
export interface ScriptsDocument {
  skill: string;
  path: string;
  layout: Layout;
  source: SkillSource;
  scripts: ScriptListing[];
}

/** --list: the skill and each of its scripts. */
export function scriptsDocument(skill: Skill, source: SkillSource): ScriptsDocument {
  return { skill: skill.id, path: skill.root, layout: skill.layout, source, scripts: describeScripts(skill) };
}
