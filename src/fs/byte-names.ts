// File names that are not UTF-8. Node gives a listing's names as strings, with U+FFFD for each byte that is not
// UTF-8; a path joined from such a name names nothing (ENOENT), though the folder or file is there and an agent that
// reads names as bytes (Codex) finds it. Walks ask here why a listed name could not be read, so it is said, not
// passed over.
import { isUtf8 } from 'node:buffer';
import { readdirSync } from 'node:fs';
import { basename, dirname, sep } from 'node:path';
import { SkillsError } from '../errors.js';

/** The name as bytes, each valid UTF-8 character as itself and every other byte escaped: `bad\xff`. */
export function escapeBytes(raw: Buffer): string {
  let out = '';
  for (let i = 0; i < raw.length;) {
    const b = raw[i]!;
    const n = b < 0x80 ? 1 : b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc2 ? 2 : 0;
    const seq = n > 0 ? raw.subarray(i, i + n) : undefined;
    if (seq && seq.length === n && isUtf8(seq)) {
      out += seq.toString('utf8');
      i += n;
    } else {
      out += `\\x${b.toString(16).padStart(2, '0')}`;
      i++;
    }
  }
  return out;
}

/**
 * The names in `dir` whose bytes are not UTF-8 and that Node's listing gives as `name` (with U+FFFD), escaped
 * (escapeBytes); none for a name that is what it says (a real U+FFFD is valid UTF-8).
 */
export function notUtf8Names(dir: string, name: string): string[] {
  if (!name.includes('\uFFFD')) return [];
  let raw: Buffer[];
  try {
    raw = readdirSync(dir, { encoding: 'buffer' });
  } catch {
    return [];
  }
  return raw.filter((b) => !isUtf8(b) && b.toString('utf8') === name).map(escapeBytes);
}

/** `dir` and an escaped name, as shown in a message. */
export function shownBytePath(dir: string, escaped: string): string {
  return dir.endsWith(sep) ? dir + escaped : dir + sep + escaped;
}

/** Why a name that is not UTF-8 cannot be taken, for a message after its path. */
export const NOT_UTF8 =
  'its name is not UTF-8 (bytes shown escaped): skills cannot open it by that name, though an agent that reads names as bytes would';

/** What to do about such a name in a skill: pack leaves out what .skillignore names, before it looks at names. */
export const NOT_UTF8_HINT = 'rename it with a UTF-8 name, or list it in .skillignore (pack leaves it out then)';

/**
 * The error for `path` when its last name is not UTF-8 (and `err`, the failure of reading it, if given, is the
 * ENOENT that comes of it); undefined when that is not so. `consequence` ends the message (`nothing was packed`).
 */
export function notUtf8Failure(
  path: string,
  consequence: string,
  err?: unknown,
  hint = 'rename it with a UTF-8 name',
): SkillsError | undefined {
  if (err !== undefined && (err as NodeJS.ErrnoException | undefined)?.code !== 'ENOENT') return undefined;
  const [escaped] = notUtf8Names(dirname(path), basename(path));
  if (escaped === undefined) return undefined;
  return new SkillsError('E_INVALID', `${shownBytePath(dirname(path), escaped)}: ${NOT_UTF8}; ${consequence}`, {
    hint,
    ...(err === undefined ? {} : { cause: err }),
  });
}
