// What keeps a skill from being packed as it is: validation errors, or (for a .tgz, named <id>-<version>) a version
// that is not MAJOR.MINOR.PATCH. No version packs as 0.0.0, with a warning.
import { relative } from 'node:path';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Skill } from '../model/skill.js';
import { isStrictSemver } from '../model/spec.js';
import { validateSkills } from '../skill/validate.js';
import { isUnversioned } from '../registry/unversioned.js';
import type { PackFormat } from './pack.js';

export interface PackRefusal {
  message: string;
  hint?: string;
  diagnostics: Diagnostic[];
}

/** Why the skill cannot be packed in this format (paths named relative to cwd), or undefined when it can. */
export async function packRefusal(skill: Skill, format: PackFormat, cwd: string): Promise<PackRefusal | undefined> {
  const rel = (p: string) => relative(cwd, p) || '.';
  const [report] = await validateSkills([skill]);
  const errors = report!.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) {
    return {
      message: `${rel(skill.root)} is not a valid skill (${errors.length} error${errors.length === 1 ? '' : 's'}); nothing was packed`,
      hint: `run skills validate ${rel(skill.root)}`,
      diagnostics: errors,
    };
  }
  if (format === 'tgz' && !isUnversioned(skill) && !isStrictSemver(skill.version!)) {
    return {
      message: `${skill.id} has the version "${skill.version}", which is not MAJOR.MINOR.PATCH: the archive is named <id>-<version>.tgz; nothing was packed`,
      hint: `fix it in ${skill.file} (or pack with --format skill, which needs no version)`,
      diagnostics: [],
    };
  }
  return undefined;
}
