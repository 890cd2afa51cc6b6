import type { Layout } from '../model/skill.js';
import type { SkillsError } from '../errors.js';

export interface ResolvedSkill {
  id: string;
  version: string;
  layout: Layout;
  path: string;
  /** The resolved dependencies, as `id@version`, in the order the skill lists them. */
  dependencies: string[];
}

/**
 * unknown-id, missing-version and no-match concern a spec given to resolve; conflict, cycle and too-many-steps (the
 * search went past its step budget) the registry.
 */
export type ResolveFailureKind =
  'unknown-id' | 'missing-version' | 'no-match' | 'conflict' | 'cycle' | 'too-many-steps';

/**
 * A failure to resolve is a finding about the skills, not a crash: it comes back as data (with a SkillsError
 * the command may print or throw) and the command exits 1.
 */
export type Resolution =
  | { ok: true; resolved: ResolvedSkill[]; roots: string[]; warnings: string[] }
  | { ok: false; kind: ResolveFailureKind; error: SkillsError; warnings: string[] };

export interface ResolveOptions {
  /** The running Node's version, for the skills' nodeVersion. */
  nodeVersion: string;
  /** Whether a system package is installed; undefined when there is no way to know. */
  hasPackage?: (name: string) => boolean | undefined;
  /** How many decisions and conflicts the search may take (SKILLS_RESOLVE_MAX_STEPS); DEFAULT_MAX_STEPS if unset. */
  maxSteps?: number;
}
