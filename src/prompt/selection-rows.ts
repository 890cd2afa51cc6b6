// The lines of a registry's selection index after its rows (selection-index.ts): a key, a tab, then the rows that hold
// it, ascending, each written as its difference from the one before in base 36, followed by what the line holds for
// the row (capitals and digits: selection-terms.ts), comma-separated.

/** A line's rows, and what it holds for each ('' for nothing). */
export interface Postings {
  rows: number[];
  payloads: string[];
}

/**
 * Rows ascending, each as its difference from the one before in base 36 and what the line holds for it,
 * comma-separated.
 */
export function encodeRows({ rows, payloads }: Postings): string {
  let line = '';
  let last = 0;
  for (let k = 0; k < rows.length; k++) {
    const gap = rows[k]! - last;
    const digits = gap < GAPS.length ? GAPS[gap]! : gap.toString(36);
    line += k > 0 ? `,${digits}${payloads[k]}` : `${digits}${payloads[k]}`;
    last = rows[k]!;
  }
  return line;
}

// The small gaps in base 36, made once: most rows of a common word's line are a few rows after the one before.
const GAPS = Array.from({ length: 36 * 36 }, (_, n) => n.toString(36));

/**
 * The rows of a stem's line, `text` from `start` to `end`: base-36 gaps between rising rows, each followed by what
 * the line holds for the row (capitals and digits, selection-terms.ts), comma-separated (see encodeRows); into
 * `where`, where each row's part starts and ends. Read digit by digit (a common word's line holds thousands of rows):
 * no substrings, no parseInt. Null for a line that is damaged: a character that is not a digit, an empty gap, a gap
 * of 0 after the first, a row at or past `limit`.
 */
export function decodeRows(text: string, start: number, end: number, limit: number, where?: number[]): number[] | null {
  const out: number[] = [];
  let row = 0;
  let d = 0;
  let digits = 0;
  let held = -1;
  for (let c = start; c <= end; c++) {
    const ch = c === end ? 44 : text.charCodeAt(c);
    if (ch !== 44) {
      if (held >= 0 || (ch >= 65 && ch <= 90)) {
        if (held < 0) held = c;
        if (!((ch >= 65 && ch <= 90) || (ch >= 48 && ch <= 57))) return null;
        continue;
      }
      const v = ch >= 48 && ch <= 57 ? ch - 48 : ch >= 97 && ch <= 122 ? ch - 87 : -1;
      if (v < 0) return null;
      d = d * 36 + v;
      digits++;
      continue;
    }
    row += d;
    if (digits === 0 || (out.length > 0 && d === 0) || row >= limit) return null;
    out.push(row);
    where?.push(held < 0 ? c : held, c);
    d = 0;
    digits = 0;
    held = -1;
  }
  return out;
}

/**
 * A line's rows (`text` from `start` to `end`, as encodeRows writes them) renumbered by `moved` (old row → new row,
 * -1 for one left out; rising), with the rows of `added` merged in: encodeRows of the result, in which every stretch
 * whose steps are unchanged is copied as it is (a skill added or taken out changes one step of a line, not the rows
 * after it). '' when no row is left; null for a damaged line (decodeRows's cases).
 */
export function remapRows(
  text: string,
  start: number,
  end: number,
  moved: Int32Array,
  added: Postings | undefined,
): string | null {
  let out = '';
  // The stretch of `text` to copy as it is, not yet written (-1: none).
  let runStart = -1;
  let runEnd = -1;
  // The last row written (steps count from 0), and the next of `added`.
  let last = 0;
  let k = 0;
  const nAdded = added === undefined ? 0 : added.rows.length;
  let row = 0;
  let n = 0;
  for (let p = start; p <= end; p++) {
    const ps = p;
    let d = 0;
    let digits = 0;
    for (; p < end; p++) {
      const ch = text.charCodeAt(p);
      const v = ch >= 48 && ch <= 57 ? ch - 48 : ch >= 97 && ch <= 122 ? ch - 87 : -1;
      if (v < 0) break;
      d = d * 36 + v;
      digits++;
    }
    const ds = p;
    for (; p < end; p++) {
      const ch = text.charCodeAt(p);
      if (ch === 44) break;
      if (!((ch >= 65 && ch <= 90) || (p > ds && ch >= 48 && ch <= 57))) return null;
    }
    row += d;
    if (digits === 0 || (n > 0 && d === 0) || row >= moved.length) return null;
    n++;
    const m = moved[row]!;
    if (m < 0) continue;
    for (; k < nAdded && added!.rows[k]! < m; k++) {
      if (runStart >= 0) out += out ? `,${text.slice(runStart, runEnd)}` : text.slice(runStart, runEnd);
      runStart = -1;
      const r = added!.rows[k]!;
      out += `${out ? ',' : ''}${(r - last).toString(36)}${added!.payloads[k]}`;
      last = r;
    }
    if (m - last === d) {
      if (runStart < 0 || runEnd !== ps - 1) {
        if (runStart >= 0) out += out ? `,${text.slice(runStart, runEnd)}` : text.slice(runStart, runEnd);
        runStart = ps;
      }
      runEnd = p;
    } else {
      if (runStart >= 0) out += out ? `,${text.slice(runStart, runEnd)}` : text.slice(runStart, runEnd);
      runStart = -1;
      out += `${out ? ',' : ''}${(m - last).toString(36)}${text.slice(ds, p)}`;
    }
    last = m;
  }
  if (runStart >= 0) out += out ? `,${text.slice(runStart, runEnd)}` : text.slice(runStart, runEnd);
  for (; k < nAdded; k++) {
    const r = added!.rows[k]!;
    out += `${out ? ',' : ''}${(r - last).toString(36)}${added!.payloads[k]}`;
    last = r;
  }
  return out;
}

// What a count's letter (A to D: field 0 to 3) is worth in a packed count (8 bits a field).
const FIELD_UNIT = [1, 1 << 8, 1 << 16, 1 << 24];

/**
 * decodeRows, with each row's counts (selection-terms.ts: capitals and digits) packed 8 bits a field, in one pass:
 * a query decodes thousands of rows before the code is optimised, so no call per row. False for a damaged line
 * (decodeRows's cases, and counts not as TermLines writes them: letters out of order, a written count under 2 or over
 * 255).
 */
export function decodeCounts(
  text: string,
  start: number,
  end: number,
  limit: number,
  rows: number[],
  packed: number[],
): boolean {
  let row = 0;
  let d = 0;
  let digits = 0;
  // The counts so far; the field of the last letter (-1: none yet), its count and how many digits it has.
  let sum = 0;
  let f = -1;
  let c = 0;
  let cDigits = 0;
  for (let k = start; k <= end; k++) {
    const ch = k === end ? 44 : text.charCodeAt(k);
    if (ch >= 65 && ch <= 68) {
      if (digits === 0 || ch - 65 <= f || (cDigits > 0 && c < 2)) return false;
      if (f >= 0) sum += (cDigits > 0 ? c : 1) * FIELD_UNIT[f]!;
      f = ch - 65;
      c = 0;
      cDigits = 0;
    } else if (ch === 44) {
      if (f >= 0) {
        if (cDigits > 0 && c < 2) return false;
        sum += (cDigits > 0 ? c : 1) * FIELD_UNIT[f]!;
      }
      row += d;
      if (digits === 0 || (rows.length > 0 && d === 0) || row >= limit) return false;
      rows.push(row);
      packed.push(sum);
      d = 0;
      digits = 0;
      sum = 0;
      f = -1;
      c = 0;
      cDigits = 0;
    } else if (f >= 0) {
      if (ch < 48 || ch > 57 || ++cDigits > 3) return false;
      c = c * 10 + ch - 48;
      if (c > 255) return false;
    } else {
      const v = ch >= 48 && ch <= 57 ? ch - 48 : ch >= 97 && ch <= 122 ? ch - 87 : -1;
      if (v < 0) return false;
      d = d * 36 + v;
      digits++;
    }
  }
  return true;
}
