/** Strip a UTF-8 BOM and turn CRLF (and lone CR) into LF; report what was found. */
export function normalizeText(text: string): { text: string; bom: boolean; crlf: boolean } {
  const bom = text.charCodeAt(0) === 0xfeff;
  if (bom) text = text.slice(1);
  const crlf = text.includes('\r');
  if (crlf) text = text.replace(/\r\n?/g, '\n');
  return { text, bom, crlf };
}

/**
 * A function from a position to the next place, at or after it, where either literal stands in `text` (-1: none
 * left). Each literal is found alone with indexOf, many times faster than one regex of both, and each place found
 * is remembered until a later position passes it, so asking with rising positions reads the text once.
 */
export function nextOfTwo(text: string, a: string, b: string): (from: number) => number {
  let atA = -2;
  let atB = -2;
  return (from) => {
    if (atA !== -1 && atA < from) atA = text.indexOf(a, from);
    if (atB !== -1 && atB < from) atB = text.indexOf(b, from);
    return atA < 0 ? atB : atB < 0 ? atA : Math.min(atA, atB);
  };
}

/** A function from character offset to 1-based line and column; the line starts are found on first use. */
export function positionFinder(text: string): (offset: number) => { line: number; column: number } {
  let starts: number[] | undefined;
  return (offset) => {
    if (!starts) {
      starts = [0];
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    }
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo]! + 1 };
  };
}

/** Number of Unicode code points (what the Agent Skills limits count), not UTF-16 units. */
export function codePoints(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) n++;
  }
  return n;
}

/** A line break as a skill's reader reads one: CRLF, a lone CR (old Mac files) or LF. */
export const LINE_BREAK = /\r\n|\r|\n/;
/** The places just after each line break, to split lines keeping their endings. */
export const AFTER_BREAK = /(?<=\n)|(?<=\r)(?!\n)/;

/** `noun` for a count of one, else `many` (`noun` + s by default): `plural(1, 'folder')` is "folder". */
export function plural(count: number, noun: string, many = `${noun}s`): string {
  return count === 1 ? noun : many;
}

/**
 * A whole number grouped by thousands as en-US writes it ("20,000"), without toLocaleString: its first call loads ICU's
 * number formatting, ~14 ms, which a summary line would add to every validate and lint (cold start: one skill's
 * validate 73 -> 86 ms). Other numbers as String() writes them.
 */
export function grouped(count: number): string {
  const s = String(count);
  return Number.isSafeInteger(count) ? s.replace(/\B(?=(\d{3})+$)/g, ',') : s;
}

/** A count and its noun agreeing, the count grouped as in en-US: "1 folder", "0 folders", "20,000 folders". */
export function counted(count: number, noun: string, many = `${noun}s`): string {
  return `${grouped(count)} ${plural(count, noun, many)}`;
}
