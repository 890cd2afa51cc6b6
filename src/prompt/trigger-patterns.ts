import { RE2JS } from 're2js';
import type { Query } from './select-query.js';

// Trigger patterns run on RE2 (no catastrophic backtracking), compiled only when the query may match them.

/** Longer trigger patterns are skipped with a warning. */
export const MAX_PATTERN_CHARS = 500;

// RE2 parses what it supports and refuses the rest; these JavaScript constructs are refused whatever the query,
// so they are reported even when the pattern's literal text keeps it from being compiled.
const UNSUPPORTED = /\(\?<?[=!]|\\[1-9]|\\k</;

/**
 * The compiled pattern when the query may match it, undefined when it cannot, or why it is skipped. Compiling
 * and running an RE2 program costs tens of microseconds, so a pattern whose required literal text is absent
 * from the query is not compiled at all.
 */
export function patternFor(source: string, q: Query): RE2JS | string | undefined {
  if (source.length > MAX_PATTERN_CHARS) return `it is ${source.length} characters long; at most ${MAX_PATTERN_CHARS}`;
  const cached = patternCache.get(source);
  if (cached !== undefined) return cached;
  if (UNSUPPORTED.test(source)) return compilePattern(source);
  let literal = literalCache.get(source);
  if (literal === undefined) {
    literal = requiredLiteral(source) ?? '';
    if (literalCache.size >= PATTERN_CACHE_MAX) literalCache.clear();
    literalCache.set(source, literal);
  }
  if (!q.nfkcLower.includes(literal)) return undefined;
  return compilePattern(source);
}

const patternCache = new Map<string, RE2JS | string>();
const literalCache = new Map<string, string>();
const PATTERN_CACHE_MAX = 10_000;

/** A compiled, case-insensitive RE2 pattern, or why it cannot be used. Cached across calls. */
function compilePattern(source: string): RE2JS | string {
  const hit = patternCache.get(source);
  if (hit !== undefined) return hit;
  let out: RE2JS | string;
  try {
    out = RE2JS.compile(source, RE2JS.CASE_INSENSITIVE);
  } catch (err) {
    // RE2 has no lookaround and no backreferences; its message names the construct.
    out = (err instanceof Error ? err.message : String(err)).replace(/^error parsing regexp: /, '');
  }
  if (patternCache.size >= PATTERN_CACHE_MAX) patternCache.clear();
  patternCache.set(source, out);
  return out;
}

/**
 * The longest run of ASCII letters and digits that every match of the pattern contains (lower-cased), or
 * undefined. Conservative: only runs outside groups and classes count, in a pattern with no top-level `|`; a
 * letter followed by ?, * or {…} is optional and ends the run before it. `\Q…\E` quoting turns it off.
 */
export function requiredLiteral(source: string): string | undefined {
  if (source.includes('\\Q')) return undefined;
  let depth = 0;
  let inClass = false;
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
      i++;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      continue;
    }
    if (ch === '[') {
      end();
      inClass = true;
      // A ] right after [ or [^ is a literal member of the class.
      if (source[i + 1] === '^') i++;
      if (source[i + 1] === ']') i++;
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
