import { join } from 'node:path';
import type { Rule } from '../types.js';

// Skills are copied onto every system their agents run on. Names that Linux keeps apart or accepts are lost or
// refused elsewhere: macOS (APFS, HFS+) and Windows (NTFS) compare names without case, macOS also without Unicode
// normalization, so `skill.md` beside `SKILL.md` leaves one file where there were two; Windows refuses its device
// names (CON, aux.md), the characters < > : " | ? * and control characters, and drops a name's trailing dots and
// spaces. Microsoft, "Naming Files, Paths, and Namespaces".

/** Windows' device names, with or without an extension (`aux.md` is AUX). */
const DEVICE = /^(?:con|prn|aux|nul|com[1-9¹²³]|lpt[1-9¹²³])(?:\..*)?$/i;
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[<>:"|?*\\\x00-\x1f]/;

/** Why one name (a path segment) cannot be kept on Windows, or undefined. */
export function windowsProblem(name: string): string | undefined {
  if (DEVICE.test(name)) return `"${name}" is a device name on Windows (${name.split('.')[0]!.toUpperCase()})`;
  const bad = FORBIDDEN.exec(name);
  if (bad) {
    const c = bad[0];
    const shown = c.charCodeAt(0) < 32 ? `control character U+${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c;
    if (c === '\\')
      return `"${name}" holds a backslash, a folder separator on Windows, which Windows refuses in a name (skills pack refuses it, as skills install would)`;
    return `"${name}" holds ${shown === c ? `"${c}"` : `a ${shown}`}, which Windows refuses in a name`;
  }
  if (/[. ]$/.test(name))
    return `"${name}" ends in a ${name.endsWith('.') ? 'full stop' : 'space'}, which Windows drops`;
  return undefined;
}

/** Which Unicode form a name is written in: composed (NFC), decomposed (NFD), or neither. */
const form = (name: string) =>
  name === name.normalize('NFC') ? 'composed, NFC' : name === name.normalize('NFD') ? 'decomposed, NFD' : 'mixed';

/** A name as macOS and Windows compare it: without case, macOS also without Unicode normalization. */
const folded = (name: string) => name.normalize('NFC').toLowerCase();

export default {
  names: ['SK129', 'portable-file-names'],
  description:
    'file and folder names survive a copy to macOS and Windows: none differ only in case or Unicode form, none is a Windows device name or holds a character Windows refuses',
  tags: ['files', 'portability'],
  layouts: ['skill-md', 'manifest'],
  severity: 'warning',
  sources: [
    'Microsoft, Naming Files, Paths, and Namespaces (reserved names and characters)',
    'Apple, APFS: case-insensitive and normalization-insensitive by default',
  ],
  fixable: false,
  check(skill, ctx) {
    // Siblings whose names fold to one name: the first of them (in path order) is kept, each other is reported.
    const seen = new Map<string, string>();
    for (const e of [...skill.entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
      const slash = e.path.lastIndexOf('/');
      const name = e.path.slice(slash + 1);
      const key = `${e.path.slice(0, slash + 1)}\0${folded(name)}`;
      const first = seen.get(key);
      if (first === undefined) seen.set(key, e.path);
      else {
        const message =
          first.normalize('NFC') === e.path.normalize('NFC')
            ? `${e.path} (${form(name)}) and ${first} (${form(first.slice(slash + 1))}) are one name in two Unicode forms: on macOS one takes the other's place`
            : `${e.path} and ${first} differ only in case: on macOS and Windows one takes the other's place`;
        ctx.report({
          message,
          file: join(skill.root, e.path),
          hint: `rename one of them${/^skill\.md$/i.test(name) && slash < 0 ? ' (agents read SKILL.md: remove the other)' : ''}`,
        });
        continue;
      }
      const problem = windowsProblem(name);
      if (problem)
        ctx.report({
          message: `${e.path}: ${problem}`,
          file: join(skill.root, e.path),
          hint: 'rename it to letters, digits, "-", "_" and "." (not at the end)',
        });
    }
  },
} satisfies Rule;
