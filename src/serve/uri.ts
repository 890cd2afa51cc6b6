// skill:// URIs (SEP-2640): skill://<skill-path>/<file-path>. Here every skill path is one segment, the skill's
// name (names are unique among the skills served: the first of a name wins, as in render-prompt's catalog).
// Parsing is strict and happens before anything touches the disk: `..`, `.`, empty segments, encoded separators
// (%2F, %5C), backslashes, NUL, queries and fragments are refused, never normalised away.

import { describeChar, unsafeChars } from '../formats/unsafe-text.js';

export const SCHEME = 'skill://';

/** What a skill:// URI names: a skill (by name) and a path in it ('' for the skill's root folder). */
export interface SkillUri {
  skill: string;
  /** Forward slashes, no leading or trailing slash; '' for the skill's root. */
  path: string;
}

/** Why a URI was refused, for the error the client gets. */
export class UriProblem extends Error {}

/** Parse a skill:// URI; throws UriProblem naming what is wrong. */
export function parseSkillUri(uri: string): SkillUri {
  if (!uri.startsWith(SCHEME))
    throw new UriProblem(
      `"${shown(uri)}" is not a skill:// URI; expected skill://<skill>/<file>, e.g. skill://pdf/SKILL.md`,
    );
  const rest = uri.slice(SCHEME.length);
  if (/[?#]/.test(rest)) throw new UriProblem(`"${shown(uri)}": a skill:// URI has no query or fragment`);
  if (rest.includes('\\')) throw new UriProblem(`"${shown(uri)}": a backslash is not a path separator here; use /`);
  const raw = rest.split('/');
  // A directory URI has no trailing slash (SEP-2640), but one is forgiven on the skill's root.
  if (raw.length === 2 && raw[1] === '') raw.pop();
  const segments = raw.map((s, i) => decodeSegment(s, i, uri));
  const [skill, ...path] = segments;
  return { skill: skill!, path: path.join('/') };
}

function decodeSegment(segment: string, index: number, uri: string): string {
  if (segment === '')
    throw new UriProblem(`"${shown(uri)}": ${index === 0 ? 'no skill name' : 'an empty path segment (//)'}`);
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    throw new UriProblem(`"${shown(uri)}": "${shown(segment)}" is not valid percent-encoding`);
  }
  if (/[/\\]/.test(decoded))
    throw new UriProblem(`"${shown(uri)}": an encoded separator (%2F or %5C) in "${shown(segment)}" is refused`);
  if (decoded.includes('\0')) throw new UriProblem(`"${shown(uri)}": a NUL character is refused`);
  if (decoded === '..' || decoded === '.')
    throw new UriProblem(`"${shown(uri)}": "${decoded}" segments are refused; name a file inside the skill`);
  return decoded;
}

/**
 * Why a skill of this name is not served (undefined: it is): a name that cannot be one URI segment, so that its
 * listed URI would be refused when read, and that must never be taken as a path: one holding `/` or `\`, one of dots
 * (and spaces) alone (`.`, `..`, `...`: Windows drops trailing dots and spaces), a control character (C0 with tab
 * and newline, DEL, C1, the line and paragraph separators), or a bidirectional or invisible one (formats/unsafe-text).
 */
export function unservableName(name: string): string | undefined {
  if (/[/\\]/.test(name)) return `it holds "${name.includes('/') ? '/' : '\\'}", a path separator`;
  if (/^[. ]*$/.test(name)) return 'it is made of dots alone, which a path may read as a folder (. or ..)';
  // eslint-disable-next-line no-control-regex
  const control = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.exec(name);
  if (control) return `it holds the control character ${describeChar(control[0].codePointAt(0)!)}`;
  // Bidirectional and invisible characters (U+202E, U+200B …): a client could not type the name it is listed under,
  // and render-prompt's catalog shows the name without them.
  const [unsafe] = unsafeChars(name, 1);
  if (unsafe)
    return `it holds the ${unsafe.kind === 'bidi' ? 'bidirectional' : 'invisible'} character ${describeChar(unsafe.cp)}`;
  return undefined;
}

/** The URI of a file (or folder, or with path '' the root) of a skill. */
export function skillUri(skill: string, path = ''): string {
  const parts = [skill, ...(path === '' ? [] : path.split('/'))];
  return SCHEME + parts.map(encodeSegment).join('/');
}

/** Percent-encode what a URI segment may not hold, leaving the usual file-name characters readable. */
function encodeSegment(s: string): string {
  if (/^[A-Za-z0-9._~-]+$/.test(s)) return s;
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A URI in an error: control characters escaped, long ones cut. */
function shown(s: string): string {
  // eslint-disable-next-line no-control-regex
  const t = s.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return t.length > 200 ? `${t.slice(0, 199)}…` : t;
}
