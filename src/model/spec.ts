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
}

const ID = /^[a-z0-9][a-z0-9-]*$/;

/** Parse a skill spec; returns an error message instead of throwing, so callers can locate it. */
export function parseSpec(raw: string): DependencySpec | { error: string } {
  const text = raw.trim();
  const at = text.indexOf('@', 1);
  const id = at === -1 ? text : text.slice(0, at);
  const range = at === -1 ? undefined : text.slice(at + 1).trim();
  if (!ID.test(id)) {
    return {
      error: `"${raw}" is not a skill spec: the id must be lowercase letters, digits and hyphens (e.g. basic-tools or basic-tools@^1.0.0)`,
    };
  }
  if (range !== undefined) {
    if (range === '' || validRange(range) === null) {
      return { error: `"${raw}" has no valid version or semver range after @ (e.g. ${id}@1.2.3 or ${id}@^1.2.0)` };
    }
    return { raw, id, range, exact: validVersion(range) !== null };
  }
  return { raw, id, exact: false };
}

/** A strict semantic version: 1.2.3, with optional pre-release and build, no "v" or "=" prefix. */
export function isStrictSemver(v: string): boolean {
  return /^\d/.test(v) && v.trim() === v && semverParse(v) !== null;
}
