import { getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import type { Position } from '../model/diagnostic.js';
import { positionFinder } from './text.js';

// The one JSON reader with positions (jsonc-parser): every problem has a line and column, every value a place.
// Each document says its problems in its own words from what parseJson returns.

/** jsonc-parser's error codes in words. */
export const READABLE: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected ":"',
  CommaExpected: 'expected "," between entries',
  CloseBraceExpected: 'expected "}"',
  CloseBracketExpected: 'expected "]"',
  EndOfFileExpected: 'expected the end of the text after the object',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'unterminated comment',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'unterminated number',
  InvalidUnicode: 'invalid unicode escape',
  InvalidEscapeCharacter: 'invalid escape character',
  InvalidCharacter: 'invalid character in string',
  // Ours, not jsonc-parser's (which says ValueExpected): a text (a file, an --args value) of nothing but spaces.
  EmptyContent: 'it is empty',
};

/** The first syntax error of a text: jsonc-parser's code (undefined when it gave none) and where it is. */
export interface JsonSyntaxError extends Position {
  code?: string;
  offset: number;
}

export interface ParsedJson {
  /** The syntax tree, when the text parsed. */
  tree?: Node;
  value?: unknown;
  /** Not JSON: the first error. */
  error?: JsonSyntaxError;
  /** The text nests arrays or objects too deeply for the parser (which recurses per level). */
  tooDeep?: boolean;
  /** Offset in the text → 1-based line and column. */
  at: (offset: number) => Position;
}

/**
 * Parse JSON with positions. Strict by default; `lenient` allows comments and trailing commas (configuration files).
 */
export function parseJson(source: string, options: { lenient?: boolean } = {}): ParsedJson {
  // A UTF-8 BOM (Windows' Notepad and PowerShell 5 write one) is no part of the JSON, and editors give it no column.
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  const at = positionFinder(text);
  const errors: ParseError[] = [];
  let tree: Node | undefined;
  try {
    tree = parseTree(text, errors, {
      disallowComments: !options.lenient,
      allowTrailingComma: !!options.lenient,
      allowEmptyContent: false,
    });
  } catch (err) {
    // A stranger's [[[[…]]]] must not crash us.
    if (!(err instanceof RangeError)) throw err;
    return { tooDeep: true, at };
  }
  if (errors.length > 0 || !tree) {
    const e = errors[0];
    if (text.trim() === '') return { error: { code: 'EmptyContent', offset: 0, ...at(0) }, at };
    const offset = e?.offset ?? 0;
    return { error: { code: e ? printParseErrorCode(e.error) : undefined, offset, ...at(offset) }, at };
  }
  try {
    return { tree, value: getNodeValue(tree), at };
  } catch (err) {
    // getNodeValue recurses per level too, and can run out of stack where parseTree did not.
    if (!(err instanceof RangeError)) throw err;
    return { tooDeep: true, at };
  }
}

/** A syntax error's reason in plain words (`expected "," between entries`). */
export function readableError(error: JsonSyntaxError): string {
  const code = error.code ?? 'ValueExpected';
  return READABLE[code] ?? code;
}

/**
 * The offset of the deepest node a path reaches in a tree: of a property's key (`key`) or of its value
 * (`value`); an array item is its own offset either way. Stops at the last node found.
 */
export function offsetOf(tree: Node, path: readonly (string | number)[], of: 'key' | 'value' = 'value'): number {
  let node: Node | undefined = tree;
  let best = tree.offset;
  for (const key of path) {
    if (!node) break;
    if (node.type === 'object') {
      const prop: Node | undefined = node.children?.find((c) => c.children?.[0]?.value === key);
      node = prop?.children?.[1];
      const found = of === 'key' ? prop : node;
      if (found) best = found.offset;
    } else if (node.type === 'array' && typeof key === 'number') {
      node = node.children?.[key];
      if (node) best = node.offset;
    } else break;
  }
  return best;
}

/**
 * The place of every field below a node, by path (`scripts[0]`, `mcpServers[1].url`): keys for properties, items for
 * arrays.
 */
export function fieldPositions(tree: Node, at: (offset: number) => Position): Record<string, Position> {
  const out: Record<string, Position> = {};
  const walk = (node: Node, path: string): void => {
    if (node.type === 'object') {
      for (const prop of node.children ?? []) {
        const [keyNode, valueNode] = prop.children ?? [];
        if (!keyNode) continue;
        const key = String(keyNode.value);
        const child = path === '' ? key : `${path}.${key}`;
        out[child] = at(keyNode.offset);
        if (valueNode) walk(valueNode, child);
      }
    } else if (node.type === 'array') {
      (node.children ?? []).forEach((item, i) => {
        const child = `${path}[${i}]`;
        out[child] = at(item.offset);
        walk(item, child);
      });
    }
  };
  walk(tree, '');
  return out;
}

/**
 * The first key an object of the tree holds twice, where it is and where it was first: JSON keeps the last, so what
 * the first one says would be lost without a word.
 */
export function duplicateKey(tree: Node): { key: string; path: string[]; first: number; again: number } | undefined {
  const walk = (node: Node, path: string[]): ReturnType<typeof duplicateKey> => {
    if (node.type === 'array') {
      for (const [i, item] of (node.children ?? []).entries()) {
        const found = walk(item, [...path, String(i)]);
        if (found) return found;
      }
    }
    if (node.type !== 'object') return undefined;
    const seen = new Map<string, number>();
    for (const prop of node.children ?? []) {
      const [keyNode, valueNode] = prop.children ?? [];
      if (!keyNode) continue;
      const key = String(keyNode.value);
      const first = seen.get(key);
      if (first !== undefined) return { key, path, first, again: keyNode.offset };
      seen.set(key, keyNode.offset);
      const found = valueNode && walk(valueNode, [...path, key]);
      if (found) return found;
    }
    return undefined;
  };
  return walk(tree, []);
}

export interface JsonProblem {
  message: string;
  line: number;
  column: number;
}

/** `an array`, `null`, `a string`: what a JSON node holds, for a message. */
export function kindOfNode(node: Node): string {
  return node.type === 'array' ? 'an array' : node.type === 'null' ? 'null' : `a ${node.type}`;
}

/** The JSON object a text holds, or a located problem (not valid JSON, or not an object). Strict JSON: no comments. */
export function parseJsonObject(text: string): {
  value?: Record<string, unknown>;
  tree?: Node;
  problem?: JsonProblem;
  at: (offset: number) => Position;
} {
  const { tree, value, error, tooDeep, at } = parseJson(text);
  if (tooDeep) return { problem: { message: 'nests too deeply to read', line: 1, column: 1 }, at };
  if (error || !tree)
    return {
      problem: { message: `not valid JSON: ${readableError(error!)}`, line: error!.line, column: error!.column },
      at,
    };
  if (tree.type !== 'object')
    return {
      problem: { message: `expected a JSON object ({"key": …}), found ${kindOfNode(tree)}`, ...at(tree.offset) },
      at,
    };
  return { value: value as Record<string, unknown>, tree, at };
}
