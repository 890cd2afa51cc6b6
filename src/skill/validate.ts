import type { Diagnostic } from '../model/diagnostic.js';
import type { Skill } from '../model/skill.js';
import { diag } from '../model/diagnostic.js';
import { checkSkillMd } from './check-skill-md.js';
import { checkManifest } from './check-manifest.js';
import { checkEncoding, checkExtensions } from './check-extensions.js';

export interface ValidateOptions {
  /** Check against the bare Agent Skills specification, as its reference validator does. */
  spec?: boolean;
}

export interface SkillReport {
  skill: Skill;
  valid: boolean;
  diagnostics: Diagnostic[];
}

export type SafeRegex = (re: string | RegExp) => boolean;

/** Validate loaded skills; `valid` means no errors (warnings are the caller's to weigh). */
export async function validateSkills(skills: Skill[], options: ValidateOptions = {}): Promise<SkillReport[]> {
  let safeRegex: SafeRegex | undefined;
  if (!options.spec && skills.some((s) => (s.triggers?.patterns.length ?? 0) > 0)) {
    safeRegex = ((await import('safe-regex2')) as unknown as { default: SafeRegex }).default;
  }
  return skills.map((skill) => {
    const diagnostics = validateSkill(skill, options, safeRegex);
    return { skill, valid: !diagnostics.some((d) => d.severity === 'error'), diagnostics };
  });
}

/** All findings for one skill: load's and the checks of its layout, in file order. */
export function validateSkill(skill: Skill, options: ValidateOptions = {}, safeRegex?: SafeRegex): Diagnostic[] {
  const out = [...skill.diagnostics];
  const parsed = Object.keys(skill.raw).length > 0 || !out.some((d) => d.severity === 'error');
  if (parsed && !out.some((d) => ['SK001', 'SK002', 'SK003', 'SK004', 'SK019', 'SK020', 'SK038'].includes(d.ruleId))) {
    if (skill.layout === 'skill-md') checkSkillMd(skill, out, options);
    else if (options.spec) {
      out.push(
        diag(
          'frontmatter-missing',
          'error',
          'the Agent Skills specification requires SKILL.md; manifest.json is not part of it',
          skill.file,
          undefined,
          'validate without --spec to check the manifest.json layout',
        ),
      );
    } else checkManifest(skill, out);
    if (!options.spec) checkExtensions(skill, out, safeRegex);
  } else if (!options.spec && out.some((d) => d.ruleId === 'SK003')) {
    // YAML that does not parse may fail on bytes that are not UTF-8: say so, as lint --fix's refusal names it.
    checkEncoding(skill, out);
  }
  if (options.spec) {
    // The reference reads everything as text and reports nothing else: keep only what it would report.
    for (let i = out.length - 1; i >= 0; i--) if (SPEC_IGNORES.has(out[i]!.rule)) out.splice(i, 1);
  }
  return out.sort((a, b) =>
    a.file === b.file ? (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0) : a.file < b.file ? -1 : 1,
  );
}

const SPEC_IGNORES = new Set(['field-type', 'metadata-format', 'scalar-as-text']);
