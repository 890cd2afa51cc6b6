// A fast reading of the plain frontmatter most skills write, giving exactly what js-yaml's FAILSAFE schema gives
// (every scalar as text), or undefined for anything it does not know, which js-yaml then reads. Ten thousand
// SKILL.md files spent a fifth of a catalog in js-yaml's general parser; the plain shape costs a tenth of that.
//
// Known: mappings of `key: value` lines whose keys are words (letters, digits, _ and -), one key a line at one
// indent; values on the key's line that are plain scalars on one line (no ": ", " #", no indicator first, no
// trailing ":"), double-quoted ones (escapes \\ \" \/ \n \t \r only), single-quoted ones, and flow lists of such
// scalars ([a, "b"]); a key with no value followed by a block list of such scalars or a mapping of the same kind
// below it, or by nothing (null); comment and blank lines. Anything else (tabs, control or unusual characters, a
// duplicate key, multi-line scalars, block scalars, anchors, tags, flow mappings, other escapes) is left to js-yaml,
// so an error is always js-yaml's own. test/unit/formats/yaml-plain.test.ts holds it to js-yaml's results.

// Printable text as YAML defines it, without tab, CR, the BOM, C1 controls and surrogates: what js-yaml reads as given.
const PLAIN_TEXT = /^[\n\x20-\x7E\u00A0-\uD7FF\uE000-\uFEFE\uFF00-\uFFFD]*$/;
const KEY_LINE = /^( *)([A-Za-z0-9_][A-Za-z0-9_-]*):(?: +(.*))?$/;
const ITEM_LINE = /^( *)- +(.*)$/;
/** A first character that makes a value something other than a plain scalar, or that this reader leaves to js-yaml. */
const INDICATOR = /^[-?:,[\]{}#&*!|>'"%@`]/;

type Value = string | string[] | { [key: string]: Value } | null;

/** The frontmatter's mapping as js-yaml's FAILSAFE schema reads it; undefined when it is not of the plain shape. */
export function readPlainYaml(text: string): Record<string, unknown> | undefined {
  if (!PLAIN_TEXT.test(text)) return undefined;
  const lines = text.split('\n');
  const at = { i: 0 };
  skipBlank(lines, at);
  if (at.i >= lines.length) return undefined;
  const map = readMapping(lines, at, 0, 0);
  if (!map) return undefined;
  skipBlank(lines, at);
  return at.i === lines.length ? map : undefined;
}

/** Move past blank and comment lines. */
function skipBlank(lines: string[], at: { i: number }): void {
  while (at.i < lines.length) {
    const t = lines[at.i]!.trimStart();
    if (t !== '' && t[0] !== '#') return;
    at.i++;
  }
}

function indentOf(line: string): number {
  let n = 0;
  while (line.charCodeAt(n) === 32) n++;
  return n;
}

/** A mapping whose keys stand at `indent`; stops at the first line less indented. Undefined: not the plain shape. */
function readMapping(
  lines: string[],
  at: { i: number },
  indent: number,
  depth: number,
): Record<string, Value> | undefined {
  if (depth > 4) return undefined;
  const map: Record<string, Value> = {};
  for (;;) {
    skipBlank(lines, at);
    if (at.i >= lines.length) return map;
    const line = lines[at.i]!;
    const n = indentOf(line);
    if (n < indent) return map;
    const m = KEY_LINE.exec(line);
    if (!m || n !== indent) return undefined;
    const key = m[2]!;
    if (key === '__proto__' || Object.prototype.hasOwnProperty.call(map, key)) return undefined;
    at.i++;
    const rest = m[3] === undefined ? '' : trimSpaces(m[3]);
    if (rest !== '') {
      const v = rest[0] === '[' ? flowList(rest) : scalar(rest);
      if (v === undefined) return undefined;
      map[key] = v;
      continue;
    }
    // No value on the key's line: a list or a mapping below it, or nothing (null).
    skipBlank(lines, at);
    if (at.i >= lines.length) {
      map[key] = null;
      return map;
    }
    const next = lines[at.i]!;
    const k = indentOf(next);
    const item = ITEM_LINE.exec(next);
    if (item && (k > indent || k === indent)) {
      const list = readList(lines, at, k);
      if (!list) return undefined;
      map[key] = list;
    } else if (k > indent) {
      const sub = readMapping(lines, at, k, depth + 1);
      if (!sub || Object.keys(sub).length === 0) return undefined;
      map[key] = sub;
    } else if (next.trimStart() === '-' || next.trimStart().startsWith('- ')) return undefined;
    else map[key] = null;
  }
}

/** A block list of scalars whose dashes stand at `indent`. */
function readList(lines: string[], at: { i: number }, indent: number): string[] | undefined {
  const list: string[] = [];
  for (;;) {
    skipBlank(lines, at);
    if (at.i >= lines.length) return list;
    const line = lines[at.i]!;
    const n = indentOf(line);
    if (n < indent) return list;
    const m = ITEM_LINE.exec(line);
    // A key at the dashes' indent ends a list written at its own key's indent (key:\n- a\nnext: b).
    if (!m) return n === indent && KEY_LINE.test(line) ? list : undefined;
    if (n !== indent) return undefined;
    const v = scalar(trimSpaces(m[2]!));
    if (v === undefined) return undefined;
    list.push(v);
    at.i++;
  }
}

function trimSpaces(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 32) end--;
  return end === s.length ? s : s.slice(0, end);
}

/** One scalar written on one line, already trimmed of trailing spaces; undefined when it is not of the plain shape. */
function scalar(v: string): string | undefined {
  const c = v[0];
  if (c === '"') return doubleQuoted(v);
  if (c === "'") {
    if (v.length < 2 || v[v.length - 1] !== "'") return undefined;
    const inner = v.slice(1, -1);
    return inner.replace(/''/g, '').includes("'") ? undefined : inner.replace(/''/g, "'");
  }
  if (v === '' || INDICATOR.test(v) || v.endsWith(':') || v.includes(': ') || v.includes(' #')) return undefined;
  return v;
}

const ESCAPES: Record<string, string> = { '\\': '\\', '"': '"', '/': '/', n: '\n', t: '\t', r: '\r' };

/** A double-quoted scalar that ends where the value ends, with no escapes but \\ \" \/ \n \t \r. */
function doubleQuoted(v: string): string | undefined {
  if (v.length < 2 || v[v.length - 1] !== '"') return undefined;
  const inner = v.slice(1, -1);
  if (!inner.includes('\\')) return inner.includes('"') ? undefined : inner;
  let out = '';
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i]!;
    if (ch === '"') return undefined;
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const e = ESCAPES[inner[++i] ?? ''];
    if (e === undefined) return undefined;
    out += e;
  }
  return out;
}

/** A flow list on one line of plain or quoted scalars with no commas, brackets or braces in them: [a, "b c"]. */
function flowList(v: string): string[] | undefined {
  if (v[v.length - 1] !== ']') return undefined;
  const inner = trimSpaces(v.slice(1, -1).replace(/^ +/, ''));
  if (inner === '') return [];
  if (/[[\]{}#]/.test(inner)) return undefined;
  const out: string[] = [];
  for (const part of inner.split(',')) {
    const item = trimSpaces(part.replace(/^ +/, ''));
    // Flow context: ":" may not start or end an item, nor be followed by a space inside one (a flow pair).
    if (item === '' || item.includes(':')) return undefined;
    const s = scalar(item);
    if (s === undefined) return undefined;
    out.push(s);
  }
  return out;
}
