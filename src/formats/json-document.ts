import type { z } from 'zod';
import { offsetOf, parseJson, readableError } from './json.js';
import { issueMessage } from './zod-issue.js';

/** A problem with a JSON document, located in its text (1-based). */
export interface Problem {
  message: string;
  line: number;
  column: number;
  /** The text holds a merge's conflict markers (the message says where): the hint says how to resolve it. */
  conflict?: true;
}

/** A line that begins a merge's conflict marker: `<<<<<<< ours`, `|||||||` (diff3), `=======`, `>>>>>>> theirs`. */
const MARKER = /^(?:<{7}|\|{7}|={7}|>{7})(?=[ \t\r]|$)/;

/** The first line (1-based) and text of a merge-conflict marker in `text`, if there is one. */
export function conflictMarker(text: string): { line: number; marker: string } | undefined {
  let line = 1;
  for (let at = 0; at <= text.length; line++) {
    const end = text.indexOf('\n', at);
    const m = MARKER.exec(text.slice(at, end === -1 ? text.length : end));
    if (m) return { line, marker: m[0] };
    if (end === -1) break;
    at = end + 1;
  }
  return undefined;
}

/**
 * Parse a JSON document and check it against `schema`; a problem comes back located (line, column) rather than
 * thrown. `label` names the file in messages (`index.json`, `releases/<id>.json`). `data` is the text already
 * read by JSON.parse, and `quick` a hand-written check that spares zod's copy of a large document it accepts.
 */
export function parseDocument<T>(
  text: string,
  schema: z.ZodType<T, z.ZodTypeDef, unknown>,
  label: string,
  data?: unknown,
  quick?: (v: unknown) => v is T,
): { value?: T; problem?: Problem } {
  // Fast path: JSON.parse is ten times quicker than a located parse; only a failure needs places.
  if (data === undefined) {
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
  }
  if (data !== undefined) {
    if (quick?.(data)) return { value: data };
    const checked = schema.safeParse(data);
    if (checked.success) return { value: checked.data };
  }
  const { tree, value, error, tooDeep, at } = parseJson(text);
  if (tooDeep) return { problem: { message: `${label} nests too deeply to read`, line: 1, column: 1 } };
  if (error || !tree) {
    const conflict = conflictMarker(text);
    if (conflict)
      return {
        problem: {
          message: `${label} holds git merge-conflict markers (${conflict.marker} at line ${conflict.line}): a merge left it unresolved`,
          line: conflict.line,
          column: 1,
          conflict: true,
        },
      };
    return {
      problem: {
        message: `${label} is not valid JSON: ${readableError(error!)}`,
        line: error!.line,
        column: error!.column,
      },
    };
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return {
      problem: {
        message: `${label}: ${issueMessage(issue, { root: 'the file', dots: true, words: 'zod' })}`,
        ...at(offsetOf(tree, issue.path)),
      },
    };
  }
  return { value: parsed.data };
}
