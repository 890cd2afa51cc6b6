import { getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { positionFinder } from './text.js';

// Strict JSON read with jsonc-parser, so every problem has a line and column and a plain-words reason.

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
};

export interface JsonProblem {
  message: string;
  line: number;
  column: number;
}

/** The JSON object a text holds, or a located problem (not valid JSON, or not an object). Strict JSON: no comments. */
export function parseJsonObject(text: string): { value?: Record<string, unknown>; tree?: Node; problem?: JsonProblem } {
  const at = positionFinder(text);
  const errors: ParseError[] = [];
  let tree: Node | undefined;
  try {
    tree = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  } catch {
    return { problem: { message: 'nests too deeply to read', line: 1, column: 1 } };
  }
  if (errors.length > 0 || !tree) {
    const e = errors[0];
    const code = e ? printParseErrorCode(e.error) : 'ValueExpected';
    return { problem: { message: `not valid JSON: ${READABLE[code] ?? code}`, ...at(e?.offset ?? 0) } };
  }
  if (tree.type !== 'object') {
    const found = tree.type === 'array' ? 'an array' : tree.type === 'null' ? 'null' : `a ${tree.type}`;
    return { problem: { message: `expected a JSON object ({"key": …}), found ${found}`, ...at(tree.offset) } };
  }
  return { value: getNodeValue(tree) as Record<string, unknown>, tree };
}

