import { describe, expect, it } from 'vitest';
import { fieldPositions, offsetOf, parseJson, parseJsonObject, readableError } from '../../../src/formats/json.js';

describe('parseJson: the one JSON reader with positions', () => {
  it('parses strict JSON into a value and a tree', () => {
    const r = parseJson('{"a": [1, {"b": true}]}');
    expect(r.value).toEqual({ a: [1, { b: true }] });
    expect(r.tree?.type).toBe('object');
    expect(r.error).toBeUndefined();
  });

  it("locates the first syntax error, with jsonc-parser's code and a reason in words", () => {
    const r = parseJson('{\n  "a": 1\n  "b": 2\n}');
    expect(r.error).toEqual({ code: 'CommaExpected', offset: 13, line: 3, column: 3 });
    expect(readableError(r.error!)).toBe('expected "," between entries');
    expect(parseJson('').error).toMatchObject({ code: 'EmptyContent', line: 1, column: 1 });
    expect(readableError(parseJson(' \n ').error!)).toBe('it is empty');
    // A BOM is no part of the JSON, and has no column.
    expect(parseJson('\uFEFF{"a": 1}').value).toEqual({ a: 1 });
    expect(parseJson('\uFEFF{"a" 1}').error).toMatchObject({ line: 1, column: 6 });
    expect(parseJson('{"a": 1, // c\n}').error?.code).toBe('InvalidCommentToken');
  });

  it('allows comments and trailing commas only when lenient', () => {
    expect(parseJson('{"a": 1, // c\n}', { lenient: true }).value).toEqual({ a: 1 });
    expect(parseJson('{"a": 1,}').error?.code).toBe('PropertyNameExpected');
  });

  it('says that a text nests too deeply instead of crashing', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(parseJson(deep)).toMatchObject({ tooDeep: true });
    expect(parseJsonObject(deep).problem).toEqual({ message: 'nests too deeply to read', line: 1, column: 1 });
  });

  it('finds the place of a path: of a key or of its value, stopping at the deepest node found', () => {
    const text = '{\n  "rules": {\n    "SK100": [1, "x"]\n  }\n}';
    const { tree, at } = parseJson(text);
    expect(at(offsetOf(tree!, ['rules', 'SK100'], 'key'))).toEqual({ line: 3, column: 5 });
    expect(at(offsetOf(tree!, ['rules', 'SK100']))).toEqual({ line: 3, column: 14 });
    expect(at(offsetOf(tree!, ['rules', 'SK100', 1]))).toEqual({ line: 3, column: 18 });
    expect(at(offsetOf(tree!, ['rules', 'missing', 'deeper']))).toEqual({ line: 2, column: 12 });
    expect(fieldPositions(tree!, at)).toEqual({
      rules: { line: 2, column: 3 },
      'rules.SK100': { line: 3, column: 5 },
      'rules.SK100[0]': { line: 3, column: 15 },
      'rules.SK100[1]': { line: 3, column: 18 },
    });
  });

  it('parseJsonObject: an object, or a located problem in words', () => {
    expect(parseJsonObject('{"a": "b"}').value).toEqual({ a: 'b' });
    expect(parseJsonObject('[1]').problem).toEqual({
      message: 'expected a JSON object ({"key": …}), found an array',
      line: 1,
      column: 1,
    });
    expect(parseJsonObject('{"a": }').problem).toEqual({
      message: 'not valid JSON: expected a value',
      line: 1,
      column: 7,
    });
  });
});
