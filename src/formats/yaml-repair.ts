import yaml from 'js-yaml';
import { loadYaml } from './yaml-load.js';

// Three slips break the YAML of real skills: a plain value that holds ": " (`description: Use when: …`), which
// YAML reads as a nested key; text after a block indicator on its line (`description: | Use when …`); and text that
// starts with a character YAML reads as syntax (`description: **WORKFLOW SKILL** — …` is an alias, `[Git] Use when
// …` a list, `{{NAME}} …` a mapping). This module finds them and works out the one repair of each; validate's
// hint, the catalog's lenient reading and `lint --fix` all take it from here, so they cannot disagree about what a
// value means.

export type SlipKind = 'colon' | 'block' | 'indicator';

/** A slip on one line, and the value it was meant to have. */
export interface Slip {
  kind: SlipKind;
  /** 0-based index of the line in the lines searched, and of the last line its value goes on over. */
  line: number;
  end: number;
  indent: string;
  key: string;
  /** The block indicator (`|` or `>`), for a block slip. */
  indicator?: string;
  /** The value as YAML would fold it: the line's text and the more indented lines below it, ` # comments` left out. */
  value: string;
  /** A ` # …` in the value: a comment or text, a fix cannot be sure which. */
  comment: boolean;
}

/**
 * `key: | text` (or `>`, with any chomping or indentation digits): a block indicator followed by text on its own
 * line, which YAML refuses. Groups: indentation, key, indicator, text.
 */
export const BLOCK_INDICATOR_WITH_TEXT = /^([ \t]*)([\w-]+):[ \t]+([|>])[-+1-9]{0,2}[ \t]+(\S.*)$/;
const KEY_VALUE = /^([ \t]*)([\w-]+):[ \t]+(\S.*)$/;
const COMMENT = /\s+#.*$/;
/** The first characters of a value that YAML reads as syntax, not text, and what each starts. */
const INDICATORS: Record<string, string> = {
  '*': 'an alias',
  '&': 'an anchor',
  '!': 'a tag',
  '[': 'a list',
  '{': 'a mapping',
  '-': 'a list item',
  '%': 'a directive',
  '@': 'nothing (a reserved character)',
  '`': 'nothing (a reserved character)',
};
const INDICATOR_FIRST = /^(?:[*&!%@`[{]|-(?=[ \t]))/;

/**
 * The slip on line `i` of `lines` (0-based), with its value folded from the lines below it; undefined when there is
 * none.
 */
export function slipAt(lines: readonly string[], i: number): Slip | undefined {
  const text = lines[i];
  if (text === undefined) return undefined;
  const b = BLOCK_INDICATOR_WITH_TEXT.exec(text);
  if (b) {
    // A `#` right after the indicator starts a comment, and is not text.
    if (b[4]!.startsWith('#')) return undefined;
    // The lines below a block indicator are its text, `#` and all.
    return fold(lines, i, {
      kind: 'block',
      indent: b[1]!,
      key: b[2]!,
      indicator: b[3]!,
      first: b[4]!,
      stripComments: false,
    });
  }
  const m = KEY_VALUE.exec(text);
  if (!m) return undefined;
  if (INDICATOR_FIRST.test(m[3]!)) {
    const slip = fold(lines, i, { kind: 'indicator', indent: m[1]!, key: m[2]!, first: m[3]!, stripComments: true });
    // Syntax that stands on its own ([a, b], {k: v}, !!str x) is meant; so is an alias of an anchor set above.
    const alias = /^\*([^\s,[\]{}]+)/.exec(slip.value)?.[1];
    if (alias !== undefined && lines.some((l) => l.includes(`&${alias}`))) return undefined;
    return parses(`${slip.key}: ${slip.value}`) ? undefined : slip;
  }
  // Quoted, block or a comment: not a plain value, and not this slip.
  if (/^['"|>#]/.test(m[3]!) || !/:(\s|$)/.test(m[3]!.replace(COMMENT, ''))) return undefined;
  return fold(lines, i, { kind: 'colon', indent: m[1]!, key: m[2]!, first: m[3]!, stripComments: true });
}

function parses(text: string): boolean {
  try {
    loadYaml(text, { schema: yaml.FAILSAFE_SCHEMA });
    return true;
  } catch {
    return false;
  }
}

/** `item "@if"` or `items "@if", "@for"`. */
function itemsNamed(items: readonly string[]): string {
  return `item${items.length === 1 ? '' : 's'} ${items.map((x) => JSON.stringify(x)).join(', ')}`;
}

/** What YAML reads the first character of an indicator slip's value as. */
function startsAs(slip: Slip): string {
  return `it starts with "${slip.value[0]}", which YAML reads as ${INDICATORS[slip.value[0]!]}, not text`;
}

function fold(
  lines: readonly string[],
  i: number,
  s: { kind: SlipKind; indent: string; key: string; indicator?: string; first: string; stripComments: boolean },
): Slip {
  let comment = /(^|\s)#/.test(s.first);
  const parts = [s.first.replace(COMMENT, '').trim()];
  let end = i;
  // A plain value goes on over the more indented lines below it; a blank line or the closing `---` ends it.
  while (end + 1 < lines.length) {
    const next = lines[end + 1]!;
    if (next.trim() === '' || next.length - next.trimStart().length <= s.indent.length) break;
    if (/\s#/.test(next)) comment = true;
    parts.push((s.stripComments ? next.replace(COMMENT, '') : next).trim());
    end++;
  }
  const slip: Slip = { kind: s.kind, line: i, end, indent: s.indent, key: s.key, value: parts.join(' '), comment };
  if (s.indicator) slip.indicator = s.indicator;
  return slip;
}

/** Reads as YAML text exactly `value` when written after `key: `? */
function readsAs(key: string, written: string, value: string): boolean {
  try {
    const data = loadYaml(`${key}: ${written}`, { schema: yaml.FAILSAFE_SCHEMA }) as Record<string, unknown> | null;
    return data !== null && typeof data === 'object' && data[key] === value;
  } catch {
    return false;
  }
}

/**
 * The value written so that YAML reads it as meant: plain when that reads back the same, else double-quoted; a
 * list (`[a, @b]`) with the items that break it quoted (listRepair). Undefined when a comment makes the meaning
 * unsure, or no form reads back the same.
 */
export function repairedValue(slip: Slip): string | undefined {
  if (slip.comment) return undefined;
  const list = listRepair(slip);
  if (list) return list.written;
  const written = writtenAs(slip.key, slip.value);
  return readsAs(slip.key, written, slip.value) ? written : undefined;
}

/**
 * A flow list on one line whose items YAML cannot read plain (`keywords: [angular component, @if, @for]`: `@` is
 * reserved), written with those items double-quoted, when that reads back as the list of every item's text. It is
 * what was meant: a list, not the text "[…]". Undefined for anything else (nested brackets, quotes, an empty item).
 */
export function listRepair(slip: Slip): { written: string; quoted: string[] } | undefined {
  const v = slip.value;
  if (slip.kind !== 'indicator' || !v.startsWith('[') || !v.endsWith(']') || /[[\]{}'"]/.test(v.slice(1, -1)))
    return undefined;
  const items = v
    .slice(1, -1)
    .split(',')
    .map((x) => x.trim());
  if (items.some((x) => x === '')) return undefined;
  const quoted: string[] = [];
  const parts = items.map((x) => {
    if (readsAsList(`[${x}]`, [x])) return x;
    quoted.push(x);
    return JSON.stringify(x);
  });
  const written = `[${parts.join(', ')}]`;
  return quoted.length > 0 && readsAsList(written, items) ? { written, quoted } : undefined;
}

/** Reads as YAML the list of exactly `items`, as text? */
function readsAsList(written: string, items: readonly string[]): boolean {
  try {
    const data = loadYaml(`k: ${written}`, { schema: yaml.FAILSAFE_SCHEMA }) as { k?: unknown } | null;
    const got = data?.k;
    return Array.isArray(got) && got.length === items.length && got.every((x, i) => x === items[i]);
  } catch {
    return false;
  }
}

/** A text value as a YAML line writes it after `key: `: plain when that reads back the same, else double-quoted. */
export function writtenAs(key: string, value: string): string {
  return readsAs(key, value, value) ? value : JSON.stringify(value);
}

/** The slip on the line where a YAML error was reported or the one before (js-yaml often stops a line late). */
export function slipNear(lines: readonly string[], i: number): Slip | undefined {
  for (const at of [i, i - 1]) {
    const slip = at >= 0 ? slipAt(lines, at) : undefined;
    if (slip) return slip;
  }
  return undefined;
}

/** validate's hint for a slip: what went wrong, and the line that says what was meant. */
export function slipHint(slip: Slip): string {
  let written = repairedValue(slip);
  // The value holds bytes that are not UTF-8 (read as U+FFFD): a line copied from the hint would write U+FFFD into the
  // file for good, so the hint says what to do first and shows no value.
  const notUtf8 = written?.includes('\uFFFD') === true;
  if (notUtf8) written = undefined;
  const first = notUtf8
    ? 'save the file as UTF-8 (it holds bytes that are not: iconv -f windows-1252 -t utf-8), then '
    : '';
  if (slip.kind === 'block') {
    const what = `"${slip.indicator}" starts a block of text on the lines below it, so no text may follow it on its line`;
    return written === undefined
      ? `${what}; ${first}drop the ${slip.indicator} or move the text below it`
      : `${what}; drop the ${slip.indicator}: ${slip.key}: ${written}`;
  }
  const list = listRepair(slip);
  if (list && written !== undefined)
    return `the value of "${slip.key}" is a list whose ${itemsNamed(list.quoted)} YAML cannot read unquoted (it reserves @ and \`, and reads * & ! as syntax); quote ${list.quoted.length === 1 ? 'it' : 'them'}: ${slip.key}: ${written}`;
  const what =
    slip.kind === 'indicator'
      ? `the value of "${slip.key}" ${startsAs(slip).slice(3)}`
      : `the value of "${slip.key}" holds ": " and so reads as a nested key`;
  return written === undefined ? `${what}; ${first}quote it` : `${what}; quote it: ${slip.key}: ${written}`;
}

/** `lint --fix`'s repair of a slip: lines [line, end] (0-based) replaced by one line, and what it does. */
export function slipFix(slip: Slip): { text: string; description: string } | undefined {
  const written = repairedValue(slip);
  if (written === undefined) return undefined;
  const list = slip.kind === 'indicator' ? listRepair(slip) : undefined;
  return {
    text: `${slip.indent}${slip.key}: ${written}`,
    description:
      slip.kind === 'block'
        ? `drop the ${slip.indicator} before the text of ${slip.key}`
        : slip.kind === 'indicator'
          ? list
            ? `quote the ${itemsNamed(list.quoted)} of the list ${slip.key}`
            : `quote the value of ${slip.key} (it starts with "${slip.value[0]}")`
          : `quote the value of ${slip.key} (it holds ": ")`,
  };
}

/**
 * The frontmatter with every top-level slip of `kind` rewritten as `key: "<value>"` (the lines that continue
 * it folded in); undefined when there is none. The catalog's lenient reading: a comment is left out, not refused.
 */
function requote(frontmatter: string, kind: SlipKind): string | undefined {
  const lines = frontmatter.split('\n');
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    const slip = slipAt(lines, i);
    if (!slip || slip.kind !== kind || slip.indent !== '') continue;
    // JSON strings are valid YAML double-quoted scalars. A list keeps being a list, its items that break it quoted.
    lines.splice(i, slip.end - i + 1, `${slip.key}: ${listRepair(slip)?.written ?? JSON.stringify(slip.value)}`);
    changed = true;
  }
  return changed ? lines.join('\n') : undefined;
}

/** The frontmatter with every top-level plain value that holds ": " quoted; undefined when there is none. */
export function quoteColonValues(frontmatter: string): string | undefined {
  return requote(frontmatter, 'colon');
}

/**
 * The frontmatter with every top-level `key: | text` (or `>`) read as the text after the indicator, quoted; undefined
 * when there is none.
 */
export function inlineBlockValues(frontmatter: string): string | undefined {
  return requote(frontmatter, 'block');
}

/** What the lenient reading says when it reads a slip. */
export const LENIENT_SAYS: Record<SlipKind, string> = {
  colon: 'a value holds an unquoted ": "; read as quoted text (quote it to silence this)',
  block:
    'a value starts with | or > followed by text on the same line; read as that text (drop the | or > to silence this)',
  indicator:
    'a value starts with a character YAML reads as syntax (* & ! [ { - % @ `); read as quoted text (quote it to silence this)',
};

/**
 * The repaired frontmatters to try, in order, when it does not parse: each slip on its own, then both; with
 * what a warning says of each.
 */
export function lenientCandidates(frontmatter: string): { text: string; says: string }[] {
  const out: { text: string; says: string }[] = [];
  const colon = quoteColonValues(frontmatter);
  const block = inlineBlockValues(frontmatter);
  if (colon !== undefined) out.push({ text: colon, says: LENIENT_SAYS.colon });
  if (block !== undefined) out.push({ text: block, says: LENIENT_SAYS.block });
  const both = quoteColonValues(block ?? frontmatter) ?? block;
  if (both !== undefined) out.push({ text: both, says: `${LENIENT_SAYS.colon}; ${LENIENT_SAYS.block}` });
  const indicator = requote(frontmatter, 'indicator');
  if (indicator !== undefined) {
    out.push({ text: indicator, says: LENIENT_SAYS.indicator });
    const all = both === undefined ? undefined : requote(both, 'indicator');
    if (all !== undefined) {
      const says = [colon && LENIENT_SAYS.colon, block && LENIENT_SAYS.block, LENIENT_SAYS.indicator];
      out.push({ text: all, says: says.filter(Boolean).join('; ') });
    }
  }
  return out;
}
