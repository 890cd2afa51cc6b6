import { codePoints } from '../formats/text.js';

/** The outcome of a name check: the rule that failed, why, and a valid name close to it. */
export type NameCheck = { ok: true } | { ok: false; rule: NameRule; message: string; suggestion: string };

export type NameRule =
  'name-required' | 'name-length' | 'name-lowercase' | 'name-hyphens' | 'name-characters' | 'id-format';

/**
 * Check a skill name against the Agent Skills rules (after NFKC): 1-64 code points, lowercase, only letters,
 * digits and hyphens, no leading, trailing or doubled hyphen. The first failing rule is reported.
 */
export function checkName(name: string): NameCheck {
  const n = name.normalize('NFKC');
  const fail = (rule: NameRule, message: string): NameCheck => ({
    ok: false,
    rule,
    message,
    suggestion: suggestName(n),
  });
  if (n === '')
    return fail('name-required', 'the name is empty: expected lowercase letters, digits and hyphens, e.g. my-skill');
  const len = codePoints(n);
  if (len > 64) return fail('name-length', `the name is ${len} characters long; at most 64 are allowed`);
  if (n !== n.toLowerCase()) return fail('name-lowercase', `the name "${n}" must be lowercase`);
  if (!/^[\p{L}\p{N}-]+$/u.test(n))
    return fail('name-characters', `the name "${n}" may hold only letters, digits and hyphens`);
  if (n.startsWith('-') || n.endsWith('-'))
    return fail('name-hyphens', `the name "${n}" must not start or end with a hyphen`);
  if (n.includes('--')) return fail('name-hyphens', `the name "${n}" must not contain consecutive hyphens`);
  return { ok: true };
}

/** The most bytes a file system allows a name (NAME_MAX on Linux, macOS and Windows alike). */
const NAME_MAX = 255;

/**
 * Why a name (of 64 characters at most) is too long for the files named after it, or undefined: in UTF-8 a
 * letter takes up to four bytes, and the longest such name, the archive `pack` writes (`<name>-<version>.tgz`;
 * the registry's `<name>@<version>` and an agent's `<name>/` are shorter), must fit NAME_MAX bytes.
 */
export function nameTooLongFor(name: string, version = '0.0.0'): string | undefined {
  const archive = `${name}-${version}.tgz`;
  const bytes = Buffer.byteLength(archive);
  if (bytes <= NAME_MAX) return undefined;
  return `name is ${Buffer.byteLength(name)} bytes long in UTF-8: the archive named after it (${archive}) would be ${bytes} bytes, and a file name holds at most ${NAME_MAX}; use a shorter name (or version)`;
}

/**
 * Check a name as a manifest.json id, which seed 000 limits to ASCII: a valid skill name made only of a-z, 0-9
 * and hyphens. The suggestion drops accents (café → cafe).
 */
export function checkManifestId(name: string): NameCheck {
  const base = checkName(name);
  if (!base.ok) return { ...base, suggestion: asciiName(base.suggestion) };
  const n = name.normalize('NFKC');
  if (!/^[a-z0-9-]+$/.test(n)) {
    return {
      ok: false,
      rule: 'id-format',
      message: `the name "${n}" is used as the manifest id, which may hold only a-z, 0-9 and hyphens`,
      suggestion: asciiName(n),
    };
  }
  return { ok: true };
}

function asciiName(name: string): string {
  const plain = name.normalize('NFD').replace(/\p{M}+/gu, '');
  return suggestName(plain.replace(/[^a-z0-9-]+/g, '-'));
}

/** A valid name close to the given text: lowercase, letters/digits/hyphens, single hyphens, 64 at most. */
export function suggestName(text: string): string {
  const s = text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return s || 'my-skill';
}

export { closest } from '../formats/did-you-mean.js';

/** The words Anthropic reserves in a skill's name (its Claude API and claude.ai refuse them; other agents do not). */
export const RESERVED_NAME_WORDS = ['anthropic', 'claude'] as const;

/** The reserved word a name holds, if any (see RESERVED_NAME_WORDS). */
export function reservedWordIn(name: string): string | undefined {
  const lower = name.toLowerCase();
  return RESERVED_NAME_WORDS.find((w) => lower.includes(w));
}
