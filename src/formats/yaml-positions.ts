import type { Position } from '../model/diagnostic.js';

const QUOTED_KEY = /^(?:"((?:[^"\\]|\\.)*)"|'((?:[^']|'')*)')[ \t]*:(?=\s|$)/;
const PLAIN_START = /^[^\s#'"?:,[\]{}&*!|>%@`-]|^-[^\s:]/;

/**
 * The key a line (after its indent and any "- ") starts with, or undefined. Linear in the line's length: no
 * regex with two adjacent repetitions runs over a stranger's line (a long run of spaces made one backtrack).
 */
function keyOf(rest: string): string | undefined {
  const q = QUOTED_KEY.exec(rest);
  if (q) return q[1] ?? q[2]!.replace(/''/g, "'");
  if (!PLAIN_START.test(rest)) return undefined;
  for (let i = rest.indexOf(':'); i !== -1; i = rest.indexOf(':', i + 1)) {
    const next = rest.charCodeAt(i + 1);
    if (i + 1 === rest.length || next === 32 || next === 9) {
      const key = rest.slice(0, i).trimEnd();
      // A " #" before the colon starts a comment: no key on this line.
      return /\s#/.test(key) ? undefined : key;
    }
  }
  return undefined;
}
const BLOCK_SCALAR = /:\s*[|>][-+0-9]*\s*(?:#.*)?$/;

interface Frame {
  /** Column where this container's keys or items start; null until its first child is seen. */
  indent: number | null;
  /** Indent of the line that opened it. */
  parent: number;
  path: string;
  next: number;
  /** A list written at its key's own indent ("key:\n- a"): a key at that indent closes it. */
  compact?: boolean;
}

/**
 * Line and column of keys and list items in block-style YAML, found by indentation, cheaply and without a second
 * parse. Paths are dotted (`metadata.author`), with [i] for list items (`triggers.patterns[0]`). Inside flow
 * collections and block scalars nothing is located but the key that holds them.
 */
export function yamlPositions(yamlText: string, firstLine: number): Record<string, Position> {
  const out: Record<string, Position> = {};
  const lines = yamlText.split('\n');
  const stack: Frame[] = [{ indent: 0, parent: -1, path: '', next: 0 }];
  let blockIndent = -1;
  const join = (base: string, name: string) => (base === '' ? name : `${base}.${name}`);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    let rest = line.trimStart();
    if (rest === '' || rest.startsWith('#')) continue;
    let col = line.length - rest.length;
    if (blockIndent >= 0) {
      if (col > blockIndent) continue;
      blockIndent = -1;
    }
    const isItem = rest === '-' || rest.startsWith('- ');
    for (;;) {
      const top = stack[stack.length - 1]!;
      if (top.indent === null) {
        if (col > top.parent || (col === top.parent && isItem)) {
          top.indent = col;
          top.compact = col === top.parent;
          break;
        }
        stack.pop();
        continue;
      }
      if ((top.indent > col || (top.compact && top.indent === col && !isItem)) && stack.length > 1) {
        stack.pop();
        continue;
      }
      break;
    }
    let frame = stack[stack.length - 1]!;
    // A line may hold several nodes: "- key: value" is an item and a key.
    while (rest.startsWith('- ') || rest === '-') {
      const itemPath = `${frame.path}[${frame.next++}]`;
      out[itemPath] = { line: firstLine + i, column: col + 1 };
      const after = rest.slice(1).trimStart();
      const nextCol = col + (rest.length - after.length);
      if (after === '') {
        stack.push({ indent: null, parent: col, path: itemPath, next: 0 });
        rest = '';
        break;
      }
      frame = { indent: nextCol, parent: col, path: itemPath, next: 0 };
      stack.push(frame);
      rest = after;
      col = nextCol;
    }
    if (rest === '') continue;
    const name = keyOf(rest);
    if (name === undefined) continue;
    const path = join(frame.path, name);
    out[path] = { line: firstLine + i, column: col + 1 };
    if (BLOCK_SCALAR.test(rest)) {
      blockIndent = col;
      continue;
    }
    stack.push({ indent: null, parent: col, path, next: 0 });
  }
  return out;
}
