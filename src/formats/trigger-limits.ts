// How much a trigger pattern may cost. RE2 matches in time linear in the query, but the constant is the size of
// the compiled program, and a bounded repetition is written out in full: `[\s\S]{1000}q{1000}` compiles to two
// thousand instructions, and three hundred such patterns took half a minute and 1.5 GB for one query. The limits
// live here, below both render-prompt (which skips what is over them) and lint (which reports it).

/** Longer patterns are skipped. */
export const MAX_PATTERN_CHARS = 500;
/** The most patterns of one skill that are tried; the rest are skipped. */
export const MAX_PATTERNS_PER_SKILL = 50;
/** The largest program a pattern may compile to (patternCost: about one unit per instruction). */
export const MAX_PATTERN_COST = 1000;
/** The matching work of one selection, in cost × query characters: a few hundred milliseconds at most. */
export const MAX_MATCH_WORK = 20_000_000;

const CAP = 1e9;

/**
 * About how many instructions the pattern compiles to: each literal, class or escape is one, a group is what it
 * holds, an alternation adds one per branch, `*`, `+` and `?` add one, and `{n,m}` writes its operand out m times
 * (n + 1 for `{n,}`). Nested repetitions multiply. Never more than 1e9.
 */
export function patternCost(source: string): number {
  type Frame = { sum: number; last: number };
  const stack: Frame[] = [{ sum: 0, last: 0 }];
  const top = () => stack[stack.length - 1]!;
  const atom = (cost: number) => {
    const f = top();
    f.sum = Math.min(CAP, f.sum + cost);
    f.last = cost;
  };
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '\\') {
      i = escapeEnd(source, i) - 1;
      atom(1);
    } else if (ch === '[') {
      i = classEnd(source, i) - 1;
      atom(1);
    } else if (ch === '(') {
      // (?i) and (?-s) set flags and open no group.
      const flags = /^\(\?[a-zA-Z-]*\)/.exec(source.slice(i, i + 12));
      if (flags) {
        i += flags[0].length - 1;
        continue;
      }
      stack.push({ sum: 0, last: 0 });
    } else if (ch === ')') {
      if (stack.length === 1) {
        atom(1);
        continue;
      }
      const inner = stack.pop()!;
      atom(inner.sum + 1);
    } else if (ch === '|') {
      const f = top();
      f.sum = Math.min(CAP, f.sum + 1);
      f.last = 0;
    } else if (ch === '*' || ch === '+' || ch === '?') {
      const f = top();
      f.sum = Math.min(CAP, f.sum + 1);
      f.last = 0;
      if (source[i + 1] === '?' || source[i + 1] === '+') i++;
    } else if (ch === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i, i + 24));
      if (!m) {
        atom(1);
        continue;
      }
      const min = Number(m[1]);
      const max = m[2] === undefined ? min : m[3] === '' ? min + 1 : Number(m[3]);
      const f = top();
      const times = Math.max(min, max, 1);
      f.sum = Math.min(CAP, f.sum + f.last * (times - 1) + 1);
      f.last = 0;
      i += m[0].length - 1;
      if (source[i + 1] === '?') i++;
    } else atom(1);
  }
  while (stack.length > 1) {
    const inner = stack.pop()!;
    top().sum = Math.min(CAP, top().sum + inner.sum + 1);
  }
  return Math.max(1, top().sum);
}

/** The index just past the escape that starts at `i` (a backslash): \xHH, \x{…}, \uHHHH, \u{…}, \p{…}, \cX, \123. */
export function escapeEnd(source: string, i: number): number {
  const next = source[i + 1];
  if (next === undefined) return i + 1;
  const braced = (from: number) => {
    const close = source.indexOf('}', from);
    return close === -1 ? source.length : close + 1;
  };
  if (next === 'x') return source[i + 2] === '{' ? braced(i + 2) : Math.min(source.length, i + 4);
  if (next === 'u') return source[i + 2] === '{' ? braced(i + 2) : Math.min(source.length, i + 6);
  if (next === 'p' || next === 'P') return source[i + 2] === '{' ? braced(i + 2) : Math.min(source.length, i + 3);
  if (next === 'c') return Math.min(source.length, i + 3);
  if (/[0-9]/.test(next)) {
    let j = i + 1;
    while (j < source.length && /[0-9]/.test(source[j]!)) j++;
    return j;
  }
  return i + 2;
}

/** The index just past the character class that starts at `i` (a `[`), escapes and [:alpha:] inside it included. */
export function classEnd(source: string, i: number): number {
  let j = i + 1;
  if (source[j] === '^') j++;
  if (source[j] === ']') j++;
  while (j < source.length) {
    const ch = source[j]!;
    if (ch === '\\') j = escapeEnd(source, j);
    else if (ch === '[' && source[j + 1] === ':') {
      const close = source.indexOf(':]', j + 2);
      j = close === -1 ? j + 1 : close + 2;
    } else if (ch === ']') return j + 1;
    else j++;
  }
  return source.length;
}
