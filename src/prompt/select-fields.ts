import type { SelectionCandidate } from './select.js';

// The fields of a skill that relevance reads (select-scan.ts), what each holds, and what a registry's selection index
// tells of them for a query (selection-prefilter.ts).

/** The fields relevance reads, in the order of their columns: the body's headings and text come from SKILL.md. */
export const FIELDS = ['name', 'keywords', 'brief_description', 'description', 'headings', 'body'] as const;
/** How many fields (columns per term). */
export const NF = FIELDS.length;
// Document frequency counts the fields every skill has (name to description), not the body's headings and text:
// most bodies hold most words of a request ("implementation", "test"), which would make every word look common.
export const DF_FIELDS = 4;
export const HEADINGS = 4;
export const BODY = 5;

/**
 * What a registry's selection index says of the candidates, for one query (selection-prefilter.ts,
 * SelectOptions.mayMatch).
 */
export interface Reach {
  /** Per candidate: 1 when it may match the query (it is read), 0 when it holds nothing of it (its lengths count). */
  may: Uint8Array;
  /**
   * Per candidate: 1 when `counts` and `pairs` say all that its name, triggers and descriptions hold of the query's
   * terms and pairs, so that its fields need not be read word by word (Scan.counted); it has no body.
   */
  counted: Uint8Array;
  /** (candidate, term slot: a query term t, or T + t for the words related to it, counts packed 8 bits a field) … */
  counts: number[];
  /** (candidate, pair of the query, a count of 1 for each field that holds it side by side, packed alike) … */
  pairs: number[];
  /**
   * Per candidate: 1 when its lengths are in lenSum and lenCount already (the registry's: its selection index keeps
   * their sums); Scan.lengths need not be told them.
   */
  summed: Uint8Array;
  /**
   * Per candidate: the body of a registry skill the query may match, read from its stored SKILL.md for this query
   * (selection-prefilter.ts), so that it ranks as the same skill in a folder does; undefined for the others.
   */
  bodies: (string | undefined)[];
  /** Per field (DF_FIELDS), the sum of the lengths of the summed candidates that are not 0, and how many they are. */
  lenSum: Float64Array;
  lenCount: Float64Array;
}

/** The text of field f (FIELDS) as ranking reads it; the headings only when the body may hold a term. */
export function fieldValue(
  f: number,
  name: string,
  keywords: string[],
  verbs: string[],
  c: SelectionCandidate,
  body: string,
  bodyMayMatch: boolean,
): unknown {
  return f === 0
    ? name
    : f === 1
      ? keywords.length + verbs.length
        ? `${keywords.join(' ; ')} ; ${verbs.join(' ; ')}`
        : ''
      : f === 2
        ? c.briefDescription
        : f === 3
          ? c.description
          : f === HEADINGS
            ? bodyMayMatch
              ? headingsOf(body)
              : ''
            : body;
}

/**
 * The headings of a Markdown body, one a line: lines that start with 1 to 6 "#" and a space, outside fenced code
 * (where "# comment" is a shell comment, not a heading).
 */
export function headingsOf(body: string): string {
  let out = '';
  let fence = '';
  for (const m of body.matchAll(HEADING_OR_FENCE)) {
    if (m[2] !== undefined) {
      if (!fence) fence = m[2];
      else if (m[2].startsWith(fence) && m[2][0] === fence[0] && m[3]!.trim() === '') fence = '';
    } else if (!fence) out += `${m[1]}\n`;
  }
  return out;
}

const HEADING_OR_FENCE = /^ {0,3}(?:#{1,6}[ \t]+(.*)|(`{3,}|~{3,})(.*))$/gm;

/** Whether a name has two words or more: a letter or digit after a character that is neither. */
export function twoWords(name: string): boolean {
  let gap = false;
  for (let k = 0; k < name.length; k++) {
    const c = name.charCodeAt(k);
    const word = (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || c > 127;
    if (!word) gap = k > 0;
    else if (gap) return true;
  }
  return false;
}
