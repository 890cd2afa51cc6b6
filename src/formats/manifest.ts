import type { Position } from '../model/diagnostic.js';
import { fieldPositions, parseJson, readableError } from './json.js';
import type { ParseProblem } from './skill-md.js';

export interface ParsedManifest {
  data?: Record<string, unknown>;
  positions: Record<string, Position>;
  problem?: ParseProblem;
}

/**
 * Parse manifest.json text, keeping the line and column of every field (`scripts[0]`, `mcpServers[1].url`). A text
 * that JSON.parse reads as an object is read by it (many times quicker), and `positions` is then a getter that runs
 * the located parse on first use: a valid manifest's places are seldom asked for.
 */
export function parseManifest(text: string): ParsedManifest {
  const quick = quickObject(text);
  if (quick) {
    let positions: Record<string, Position> | undefined;
    return {
      data: quick,
      get positions() {
        return (positions ??= locatedParse(text).positions);
      },
    };
  }
  return locatedParse(text);
}

/**
 * The object JSON.parse reads, where the located parse surely reads the same: no `__proto__` key (which jsonc-parser
 * would assign as the prototype) and fewer than 1,000 brackets (jsonc-parser recurses per level, and says "too
 * deeply" where JSON.parse goes on). Anything JSON.parse takes, jsonc-parser takes with the same value.
 */
function quickObject(text: string): Record<string, unknown> | undefined {
  if (text.includes('__proto__')) return undefined;
  if (text.length >= 1000) {
    let brackets = 0;
    for (const bracket of ['[', '{']) {
      for (let i = text.indexOf(bracket); i !== -1; i = text.indexOf(bracket, i + 1)) {
        if (++brackets >= 1000) return undefined;
      }
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function locatedParse(text: string): ParsedManifest {
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
