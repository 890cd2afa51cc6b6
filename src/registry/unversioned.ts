// The unversioned policy: a skill without a version is kept as 0.0.0, and a changed copy replaces it.
import { SkillsError } from '../errors.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Skill } from '../model/skill.js';
import { isStrictSemver, semverLike } from '../model/spec.js';

/**
 * The version a skill is kept under: 0.0.0 when it has none. The Agent Skills standard has no version field, so
 * most public skills have none; they are registered, packed and installed as 0.0.0, and a changed copy replaces
 * the registered one (there is no version to bump).
 */
export const UNVERSIONED = '0.0.0';

/** True when the skill declares no version (see UNVERSIONED). */
export function isUnversioned(skill: Skill): boolean {
  return skill.version === undefined || skill.version.trim() === '';
}

/** The skill's version as the registry keeps it: its own (as it plainly means one: looseVersion), else UNVERSIONED. */
export function registryVersion(skill: Skill): string {
  return isUnversioned(skill) ? UNVERSIONED : (looseVersion(skill) ?? skill.version!);
}

/**
 * The version a SKILL.md skill's loose version (`version: "1.0"`, `v1.2`) plainly means, which install and sync keep
 * it under: the standard has no version, and 702 of 14,891 mirrored public skills write one so. Undefined for a
 * strict one, none, one that means nothing plain (`beta`), and any of a manifest.json skill (whose format requires
 * MAJOR.MINOR.PATCH).
 */
export function looseVersion(skill: Skill): string | undefined {
  if (skill.layout !== 'skill-md' || isUnversioned(skill) || isStrictSemver(skill.version!)) return undefined;
  // Plain: numbers written as semver writes them (`1.0.01` is not: which of 1.0.1 and 1.0.10 was meant?).
  return PLAIN_LOOSE.test(skill.version!) ? semverLike(skill.version!) : undefined;
}

const PLAIN_LOOSE = /^\s*[vV=]?(?:0|[1-9]\d*)(?:\.(?:0|[1-9]\d*)){0,2}\s*$/;

/** The warning for a skill kept under its looseVersion. */
export function looseVersionWarning(skill: Skill): string {
  return `${skill.id}'s version "${skill.version}" is kept as ${looseVersion(skill)} (write it as MAJOR.MINOR.PATCH in its SKILL.md to keep it as written)`;
}

/** The warning for a skill kept as UNVERSIONED. */
export function unversionedWarning(skill: Skill): string {
  const how = skill.layout === 'skill-md' ? 'metadata.version to its SKILL.md' : '"version" to its manifest.json';
  return `${skill.id} has no version; it is kept as ${UNVERSIONED}, and a changed copy replaces it (to version it, add ${how})`;
}

/** The version a skill is registered under; E_INVALID when it is not MAJOR.MINOR.PATCH. */
export function versionOf(skill: Skill): string {
  const v = registryVersion(skill);
  if (!isStrictSemver(v)) {
    throw new SkillsError(
      'E_INVALID',
      `${skill.id}: version "${v}" is not a semantic version: expected MAJOR.MINOR.PATCH, e.g. "1.0.0"`,
      {
        hint: `fix metadata.version (or version) in ${skill.file}`,
      },
    );
  }
  return v;
}

/**
 * Whether a finding keeps a skill out of the registry and the agent folders: an error, but not a folder named
 * otherwise than the skill (SK010). Every copy install and the store make is named by the skill's name (the store's
 * `<id>@<version>/`, an agent folder's `<id>/`), so the copy is right whatever the source's folder is called
 * (vercel-labs/agent-skills keeps `vercel-react-best-practices` in `react-best-practices/`).
 */
export function blocksCopying(d: Diagnostic): boolean {
  return d.severity === 'error' && d.rule !== 'name-matches-folder';
}
