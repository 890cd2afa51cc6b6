import validRange from 'semver/ranges/valid.js';
import validVersion from 'semver/functions/valid.js';
import semverParse from 'semver/functions/parse.js';

/** `id`, `id@1.2.3` or `id@<range>`; range is undefined for a bare id. */
export interface DependencySpec {
  raw: string;
  id: string;
  range?: string;
  /** True when range is one exact version. */
  exact: boolean;
  /** A version the lock holds (not one asked for now), which a later install keeps. */
  installed?: true;
}

const ID_SHAPE = /^[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*$/u;
const ASCII_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * The one rule for a skill id, wherever one is typed or read (a spec, index.json, skills-lock.json, the store): a
 * valid skill name, as `load` keeps it (NFKC). 1-64 code points, lowercase Unicode letters and digits, single
 * hyphens between them (`résumé`, `pdf-tools`). A manifest id (ASCII only) is one too.
 */
export function isSkillId(id: string): boolean {
  // The common case without Unicode property classes and NFKC: ASCII is its own lowercase-checked, NFKC form.
  if (ASCII_ID.test(id)) return id.length <= SKILL_ID_MAX;
  return ID_SHAPE.test(id) && id === id.toLowerCase() && id === id.normalize('NFKC') && [...id].length <= SKILL_ID_MAX;
}

/** The longest skill id, in code points (the Agent Skills name limit). */
export const SKILL_ID_MAX = 64;

/** What a skill id is, for messages. */
export const SKILL_ID_RULE =
  'lowercase letters, digits and hyphens (letters of any script; no leading, trailing or doubled hyphen; at most 64)';

/** The longest version range a spec may carry, in characters, and the most `||` alternatives it may list. */
export const RANGE_MAX_LENGTH = 4096;
export const RANGE_MAX_ALTERNATIVES = 256;

/** Parse a skill spec; returns an error message instead of throwing, so callers can locate it. */
export function parseSpec(raw: string): DependencySpec | { error: string } {
  const text = raw.trim();
  const at = text.indexOf('@', 1);
  // Typed ids are read as skill names are (NFKC), so `résumé` matches however the terminal composed it.
  const id = (at === -1 ? text : text.slice(0, at)).normalize('NFKC');
  const range = at === -1 ? undefined : text.slice(at + 1).trim();
  if (!isSkillId(id)) {
    return {
      error: `"${raw}" is not a skill spec: the id must be ${SKILL_ID_RULE} (e.g. basic-tools, résumé, basic-tools@^1.0.0)`,
    };
  }
  if (range !== undefined) {
    // Checked before semver parses it: a hostile registry's huge range would otherwise cost time in every match.
    const alternatives = range.split('||').length;
    if (range.length > RANGE_MAX_LENGTH || alternatives > RANGE_MAX_ALTERNATIVES) {
      return {
        error:
          `"${raw.slice(0, 60)}…" has a version range too long to accept (${range.length} characters, ${alternatives} ` +
          `alternatives; at most ${RANGE_MAX_LENGTH} characters and ${RANGE_MAX_ALTERNATIVES} alternatives)`,
      };
    }
    if (range === '' || validRange(range) === null) {
      return { error: `"${raw}" has no valid version or semver range after @ (e.g. ${id}@1.2.3 or ${id}@^1.2.0)` };
    }
    return { raw, id, range, exact: validVersion(range) !== null };
  }
  return { raw, id, exact: false };
}

/**
 * Whether a dependency entry is a package requirement (pip's `torch>=2.9`, `vllm[all]`, `SciencePlots`, npm's
 * `@scope/pkg`, `node >= 20`) rather than a skill spec: with no `@` before a range, a comparison, brackets, a blank
 * or a name that is no skill id; or a scoped package name. SKILL.md has no dependencies in its standard, and hundreds
 * of public skills list their Python packages there.
 */
export function isPackageRequirement(raw: string): boolean {
  const text = raw.trim();
  if (text.startsWith('@')) return text.includes('/');
  // No `@`: a requirement (`torch>=2.9`), or a name no skill can have (`SciencePlots`, `scikit_learn`).
  return !text.includes('@') && (/[<>=!~[\]\s]/.test(text) || !isSkillId(text.normalize('NFKC')));
}

/**
 * The skill id at the end of a dependency written as a skill's folder path (`admin/health-cloud-patient-setup`, as
 * PranavNagrecha/AwesomeSalesforceSkills lists them), with an optional `@range`: every part a skill id, no dots (a Go
 * module, `github.com/x/y`, has them); else undefined.
 */
export function skillPathId(raw: string): string | undefined {
  const text = raw.trim();
  const at = text.indexOf('@');
  const path = at > 0 ? text.slice(0, at) : text;
  const parts = path.split('/');
  if (parts.length < 2 || !parts.every((p) => isSkillId(p))) return undefined;
  return parts[parts.length - 1]! + (at > 0 ? text.slice(at) : '');
}

/** The semantic version a loose one plainly means ("1.0" → "1.0.0", "v1.2" → "1.2.0"), else undefined. */
export function semverLike(v: string): string | undefined {
  const m = /^\s*[v=]?\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$/i.exec(v);
  if (!m) return undefined;
  const s = `${Number(m[1])}.${Number(m[2] ?? 0)}.${Number(m[3] ?? 0)}`;
  return isStrictSemver(s) ? s : undefined;
}

/** A strict semantic version: 1.2.3, with optional pre-release and build, no "v" or "=" prefix. */
export function isStrictSemver(v: string): boolean {
  // The common case without semver, whose first use builds its regular expressions (a cold start pays for that):
  // MAJOR.MINOR.PATCH with no leading zeros, each well below Number.MAX_SAFE_INTEGER, is one semver parses.
  if (PLAIN_VERSION.test(v)) return true;
  return /^\d/.test(v) && v.trim() === v && semverParse(v) !== null;
}

const PLAIN_VERSION = /^(?:0|[1-9]\d{0,14})\.(?:0|[1-9]\d{0,14})\.(?:0|[1-9]\d{0,14})$/;
