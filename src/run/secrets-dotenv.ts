import { dotenvAssignment } from '../formats/dotenv.js';

// A secrets file in dotenv format, the format skills declare their variables in (`.env.example`): `NAME=value`
// lines, `export` allowed, `#` comments. Values as the dotenv packages read them: unquoted (trimmed, ` #` starts a
// comment), in single quotes (literal), or in double quotes (`\n`, `\t`, `\"`, `\\` escapes); quoted values may
// span lines. No `${VAR}` expansion: a secret is taken as written. Pure, and no message ever quotes a value.

/** What a backslash means in a double-quoted value. */
const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\' };

/** A mistake in a dotenv secrets file, located (1-based). */
export interface DotenvProblem {
  message: string;
  line: number;
  column: number;
}

/** The values a dotenv text assigns (a name given twice: the last wins), or the first mistake. */
export function parseDotenvValues(text: string): { values: Record<string, string>; problem?: DotenvProblem } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  // A Map, so that a name such as __proto__ is a name like any other.
  const values = new Map<string, string>();
  const done = (problem?: DotenvProblem) => ({ values: Object.fromEntries(values), ...(problem ? { problem } : {}) });
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const a = dotenvAssignment(line);
    if (!a) {
      const column = line.length - line.trimStart().length + 1;
      return done({ message: 'expected NAME=value (a letter or _, then letters, digits or _)', line: i + 1, column });
    }
    const eq = line.indexOf('=', a.column - 1 + a.name.length);
    let rest = line.slice(eq + 1);
    const lead = rest.length - rest.trimStart().length;
    rest = rest.trimStart();
    const quote = rest[0];
    if (quote === '"' || quote === "'") {
      const read = readQuoted(lines, i, eq + 1 + lead);
      if ('problem' in read) return done(read.problem);
      values.set(a.name, read.value);
      i = read.endLine;
    } else {
      // An unquoted value ends at a `#` that follows a blank (python-dotenv, docker compose): `a#b` is kept whole.
      values.set(a.name, rest.replace(/\s+#.*$/, '').trim());
    }
  }
  return done();
}

/**
 * A quoted value starting at `lines[start][col]`: its text, and the line it ends on. After the closing quote only
 * blanks and a comment may follow.
 */
function readQuoted(
  lines: string[],
  start: number,
  col: number,
): { value: string; endLine: number } | { problem: DotenvProblem } {
  const quote = lines[start]![col]!;
  let value = '';
  let li = start;
  let ci = col + 1;
  for (;;) {
    const line = lines[li]!;
    if (ci >= line.length) {
      if (li + 1 >= lines.length)
        return {
          problem: {
            message: `the value opened with ${quote} here has no closing ${quote}`,
            line: start + 1,
            column: col + 1,
          },
        };
      value += '\n';
      li++;
      ci = 0;
      continue;
    }
    const ch = line[ci]!;
    if (ch === quote) break;
    if (quote === '"' && ch === '\\' && ci + 1 < line.length) {
      const next = line[ci + 1]!;
      // Any other backslash is kept, as the dotenv packages keep it.
      value += ESCAPES[next] ?? `\\${next}`;
      ci += 2;
      continue;
    }
    value += ch;
    ci++;
  }
  const after = lines[li]!.slice(ci + 1);
  if (after.trim() !== '' && !/^\s+#/.test(after)) {
    return {
      problem: {
        message: `unexpected text after the closing ${quote}; quote the whole value`,
        line: li + 1,
        column: ci + 2 + (after.length - after.trimStart().length),
      },
    };
  }
  return { value, endLine: li };
}
