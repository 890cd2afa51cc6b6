import { parseTree, getNodeValue, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import type { Position } from '../model/diagnostic.js';
import { READABLE } from './json.js';
import { positionFinder } from './text.js';
import type { ParseProblem } from './skill-md.js';

export interface ParsedManifest {
  data?: Record<string, unknown>;
  positions: Record<string, Position>;
  problem?: ParseProblem;
}


/** Parse manifest.json text, keeping the line and column of every field (`scripts[0]`, `mcpServers[1].url`). */
export function parseManifest(text: string): ParsedManifest {
  const errors: ParseError[] = [];
  let tree: Node | undefined;
  try {
    tree = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    // The parser recurses per level: a stranger's [[[[…]]]] must not crash us.
    return {
      positions: {},
      problem: { check: 'json-syntax', message: 'manifest.json nests arrays or objects too deeply to read', line: 1, column: 1 },
    };
  }
  if (errors.length > 0 || !tree) {
    const first = errors[0];
    const pos = first ? positionFinder(text)(first.offset) : { line: 1, column: 1 };
    const code = first ? printParseErrorCode(first.error) : 'ValueExpected';
    return {
      positions: {},
      problem: {
        check: 'json-syntax',
        message: `manifest.json is not valid JSON: ${READABLE[code] ?? code} at line ${pos.line}, column ${pos.column}`,
        ...pos,
        hint: text.trim() === '' ? 'the file is empty; it needs an object with id, name, version, description and owner' : undefined,
      },
    };
  }
  const positions: Record<string, Position> = {};
  walk(tree, '', positionFinder(text), positions);
  if (tree.type !== 'object') {
    return {
      positions,
      problem: {
        check: 'json-syntax',
        message: `manifest.json must hold a JSON object ({"id": …}), found ${tree.type === 'array' ? 'an array' : `a ${tree.type}`}`,
        line: 1,
        column: 1,
      },
    };
  }
  return { data: getNodeValue(tree) as Record<string, unknown>, positions };
}

function walk(node: Node, path: string, at: (offset: number) => Position, out: Record<string, Position>): void {
  if (node.type === 'object') {
    for (const prop of node.children ?? []) {
      const [keyNode, valueNode] = prop.children ?? [];
      if (!keyNode) continue;
      const key = String(keyNode.value);
      const child = path === '' ? key : `${path}.${key}`;
      out[child] = at(keyNode.offset);
      if (valueNode) walk(valueNode, child, at, out);
    }
  } else if (node.type === 'array') {
    (node.children ?? []).forEach((item, i) => {
      const child = `${path}[${i}]`;
      out[child] = at(item.offset);
      walk(item, child, at, out);
    });
  }
}
