import { RE2JS } from 're2js';
import type { Query } from './select-query.js';
import {
  MAX_MATCH_WORK,
  MAX_PATTERN_CHARS,
  MAX_PATTERN_COST,
  classEnd,
  escapeEnd,
  patternCost,
} from '../formats/trigger-limits.js';

// Trigger patterns run on RE2 (no catastrophic backtracking), compiled only when the query may match them.

export { MAX_PATTERN_CHARS } from '../formats/trigger-limits.js';

// RE2 parses what it supports and refuses the rest; these JavaScript constructs are refused whatever the query,
// so they are reported even when the pattern's literal text keeps it from being compiled.
const UNSUPPORTED = /\(\?<?[=!]|\\[1-9]|\\k</;

/** The matching work one selection may still spend (see MAX_MATCH_WORK); patterns past it are not tried. */
export interface MatchBudget {
  left: number;
}

/** A selection's budget of matching work. */
export function matchBudget(): MatchBudget {
  return { left: MAX_MATCH_WORK };
}

/**
 * The compiled pattern when the query may match it, undefined when it cannot, null when the selection's matching
 * work is spent, or why it is skipped. Compiling and running an RE2 program costs tens of microseconds, so a
 * pattern whose required literal text is absent from the query is not compiled at all; one that is compiled and run
 * takes its cost times the query's length from the budget.
 */
export function patternFor(source: string, q: Query, budget?: MatchBudget): RE2JS | string | undefined | null {
  if (source.length > MAX_PATTERN_CHARS) return `it is ${source.length} characters long; at most ${MAX_PATTERN_CHARS}`;
  const cost = costOf(source);
  if (cost > MAX_PATTERN_COST)
    return `it compiles to about ${cost} instructions (large or nested repetition); at most ${MAX_PATTERN_COST}`;
  const cached = patternCache.get(source);
  if (typeof cached === 'string') return cached;
  if (UNSUPPORTED.test(source)) return compilePattern(source, cost);
  let literal = literalCache.get(source);
  if (literal === undefined) {
    literal = requiredLiteral(source) ?? '';
    if (literalCache.size >= PATTERN_CACHE_MAX) literalCache.clear();
    literalCache.set(source, literal);
  }
  if (!q.nfkcLower.includes(literal)) return undefined;
  if (budget) {
    const work = cost * (q.nfkc.length + 64);
    if (work > budget.left) return null;
    budget.left -= work;
  }
  return cached ?? compilePattern(source, cost);
}

const costCache = new Map<string, number>();

function costOf(source: string): number {
  let cost = costCache.get(source);
  if (cost === undefined) {
    cost = patternCost(source);
    if (costCache.size >= PATTERN_CACHE_MAX) costCache.clear();
    costCache.set(source, cost);
  }
  return cost;
}

const patternCache = new Map<string, RE2JS | string>();
const literalCache = new Map<string, string>();
const PATTERN_CACHE_MAX = 10_000;
// Compiled programs are kept up to about this many instructions in all, so that a long-lived process (the bench,
// a server) holds a bounded amount of them.
const PATTERN_CACHE_COST = 200_000;
let cachedCost = 0;

/** A compiled, case-insensitive RE2 pattern, or why it cannot be used. Cached across calls. */
function compilePattern(source: string, cost: number): RE2JS | string {
  const hit = patternCache.get(source);
  if (hit !== undefined) return hit;
  let out: RE2JS | string;
  try {
    out = RE2JS.compile(toRe2(source), RE2JS.CASE_INSENSITIVE);
  } catch (err) {
    // RE2 has no lookaround and no backreferences; its message names the construct.
    out = (err instanceof Error ? err.message : String(err)).replace(/^error parsing regexp: /, '');
  }
  if (patternCache.size >= PATTERN_CACHE_MAX || cachedCost + cost > PATTERN_CACHE_COST) {
    patternCache.clear();
    cachedCost = 0;
  }
  patternCache.set(source, out);
  cachedCost += cost;
  return out;
}

/**
 * The pattern in RE2's syntax: the JavaScript escapes RE2 lacks (\uHHHH, a surrogate pair of them, \u{…}, \cX)
 * written as \x{…}, which means the same character. validate checks patterns as JavaScript reads them, and they
 * must then match as written.
 */
export function toRe2(source: string): string {
  if (!/\\[uc]/.test(source)) return source;
  return source.replace(
    /\\\\|\\u([dD][89abAB][0-9a-fA-F]{2})\\u([dD][c-fC-F][0-9a-fA-F]{2})|\\u([0-9a-fA-F]{4})|\\u\{([0-9a-fA-F]{1,6})\}|\\c([A-Za-z])/g,
    (m, hi?: string, lo?: string, four?: string, braced?: string, ctl?: string) => {
      if (hi && lo)
        return `\\x{${(0x10000 + ((parseInt(hi, 16) - 0xd800) << 10) + (parseInt(lo, 16) - 0xdc00)).toString(16)}}`;
      if (four) return `\\x{${four}}`;
      if (braced) return `\\x{${braced}}`;
      if (ctl) return `\\x{${(ctl.toUpperCase().charCodeAt(0) % 32).toString(16)}}`;
      return m;
    },
  );
}

/**
 * The longest run of ASCII letters and digits that every match of the pattern contains (lower-cased), or
 * undefined. Conservative: only runs outside groups and classes count, in a pattern with no top-level `|`; a
 * letter followed by ?, * or {…} is optional and ends the run before it. An escape (\x24, \u{1F600}, \d, \p{L})
 * ends a run and adds nothing to it. `\Q…\E` quoting turns it off.
 */
export function requiredLiteral(source: string): string | undefined {
  if (source.includes('\\Q')) return undefined;
  let depth = 0;
  let run = '';
  let best = '';
  const end = () => {
    if (run.length > best.length) best = run;
    run = '';
  };
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '\\') {
      end();
      i = escapeEnd(source, i) - 1;
      continue;
    }
    if (ch === '[') {
      end();
      i = classEnd(source, i) - 1;
      continue;
    }
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    else if (ch === '|' && depth === 0) return undefined;
    if (depth === 0 && /[A-Za-z0-9]/.test(ch)) {
      run += ch;
      continue;
    }
    if (ch === '?' || ch === '*' || ch === '{') run = run.slice(0, -1);
    end();
    // The counts of a repeat are no literal text.
    if (ch === '{') {
      const close = source.indexOf('}', i);
      if (close !== -1) i = close;
    }
  }
  end();
  return best.length >= 2 ? best.toLowerCase() : undefined;
}
