import type { Position } from '../model/diagnostic.js';
import { fieldPositions, parseJson, readableError } from './json.js';
import type { ParseProblem } from './skill-md.js';

export interface ParsedManifest {
  data?: Record<string, unknown>;
  positions: Record<string, Position>;
  problem?: ParseProblem;
}

/** Parse manifest.json text, keeping the line and column of every field (`scripts[0]`, `mcpServers[1].url`). */
export function parseManifest(text: string): ParsedManifest {
  const { tree, value, error, tooDeep, at } = parseJson(text);
  if (tooDeep) {
    return {
      positions: {},
      problem: {
        check: 'json-syntax',
        message: 'manifest.json nests arrays or objects too deeply to read',
        line: 1,
        column: 1,
      },
    };
  }
  if (error || !tree) {
    const { line, column } = error!;
    return {
      positions: {},
      problem: {
        check: 'json-syntax',
        message: `manifest.json is not valid JSON: ${readableError(error!)} at line ${line}, column ${column}`,
        line,
        column,
        hint:
          text.trim() === ''
            ? 'the file is empty; it needs an object with id, name, version, description and owner'
            : undefined,
      },
    };
  }
  const positions = fieldPositions(tree, at);
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
  return { data: value as Record<string, unknown>, positions };
}

/**
 * The manifest's data without positions, for the catalog's light reading: JSON.parse is many times quicker than
 * the located parse, which runs only to say what is wrong.
 */
export function readManifestData(text: string): { data?: Record<string, unknown>; problem?: ParseProblem } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    data = undefined;
  }
  if (data !== null && typeof data === 'object' && !Array.isArray(data))
    return { data: data as Record<string, unknown> };
  const { problem } = parseManifest(text);
  return problem
    ? { problem }
    : {
        problem: {
          check: 'json-syntax',
          message: 'manifest.json must hold a JSON object ({"id": …})',
          line: 1,
          column: 1,
        },
      };
}
