import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../../src/formats/manifest.js';
import { fieldPositions, parseJson } from '../../../src/formats/json.js';

describe('parseManifest', () => {
  it('parses an object and locates every field and item', () => {
    const r = parseManifest(
      '{\n  "id": "a",\n  "scripts": [\n    "scripts/x.sh"\n  ],\n  "mcpServers": [{"name": "m", "url": "u"}]\n}\n',
    );
    expect(r.problem).toBeUndefined();
    expect(r.data).toMatchObject({ id: 'a' });
    expect(r.positions['id']).toEqual({ line: 2, column: 3 });
    expect(r.positions['scripts[0]']).toEqual({ line: 4, column: 5 });
    expect(r.positions['mcpServers[0].url']).toEqual({ line: 6, column: 32 });
  });

  it('reports broken JSON with line and column', () => {
    const r = parseManifest('{\n  "id": "a"\n  "name": "b"\n}');
    expect(r.problem).toMatchObject({ check: 'json-syntax', line: 3, column: 3 });
    expect(r.problem?.message).toContain('expected "," between entries at line 3, column 3');
  });

  it('refuses comments, trailing commas, empty text and non-objects', () => {
    expect(parseManifest('{"a": 1, // c\n}').problem?.message).toContain('comments are not allowed');
    expect(parseManifest('{"a": 1,}').problem?.check).toBe('json-syntax');
    expect(parseManifest('').problem?.hint).toContain('empty');
    expect(parseManifest('[1]').problem?.message).toContain('found an array');
  });
});

describe('parseManifest, read by JSON.parse with positions found on first use', () => {
  // What the located parse alone (jsonc-parser) says of a text: its value, its field positions, or its problem.
  const located = (text: string) => {
    const { tree, value, error, tooDeep, at } = parseJson(text);
    return { value, positions: tree ? fieldPositions(tree, at) : {}, failed: !!(error || tooDeep) };
  };

  it('gives the value and the positions the located parse gives', () => {
    const texts = [
      '{"id": "a", "scripts": ["x.sh", "y.sh"], "n": -0.5e-3, "deep": {"a": [{"b": null}]}}',
      '{\r\n\t"id":"a" ,\r\n  "name": "\\u00e9\\ud800 \\"q\\" \\/"\n}\n',
      '{"id": "a", "id": "b"}',
      '  {"context": [], "metadata": {}}  ',
      `{"big": [${Array.from({ length: 400 }, (_, i) => `[${i}]`).join(',')}]}`,
    ];
    for (const text of texts) {
      const r = parseManifest(text);
      const want = located(text);
      expect(r.problem, text).toBeUndefined();
      expect(r.data, text).toEqual(want.value);
      expect(r.positions, text).toEqual(want.positions);
    }
    expect(parseManifest(texts[2]!).data).toEqual({ id: 'b' });
  });

  it('leaves to the located parse what it reads otherwise: __proto__, deep nesting, not an object', () => {
    const text = '{"id": "a", "__proto__": {"polluted": true}}';
    expect(Object.keys(parseManifest(text).data!)).toEqual(Object.keys(located(text).value as object));
    // JSON.parse reads 3,000 and 5,000 levels; jsonc-parser (parseTree, then getNodeValue) recurses per level and runs
    // out of stack: a problem, not a crash.
    for (const levels of [3000, 5000]) {
      const deep = `{"a": ${'['.repeat(levels)}${']'.repeat(levels)}}`;
      expect(() => JSON.parse(deep)).not.toThrow();
      expect(parseManifest(deep).problem?.message).toBe('manifest.json nests arrays or objects too deeply to read');
    }
    // 1,200 levels: JSON.parse reads them; jsonc-parser recurses per level, and whatever it says stands.
    const deep = `{"a": ${'['.repeat(1200)}${']'.repeat(1200)}}`;
    expect(() => JSON.parse(deep)).not.toThrow();
    const want = located(deep);
    const got = parseManifest(deep);
    if (want.failed) expect(got.problem?.message).toBe('manifest.json nests arrays or objects too deeply to read');
    else expect(got.data).toEqual(want.value);
    expect(parseManifest('[1]').problem?.message).toContain('found an array');
    expect(parseManifest('[1]').problem?.message).toContain('must hold a JSON object');
  });

  it('finds the positions only when asked, and once', () => {
    const r = parseManifest('{\n  "id": "a"\n}');
    const getter = Object.getOwnPropertyDescriptor(r, 'positions')?.get;
    expect(getter).toBeTypeOf('function');
    const first = r.positions;
    expect(first).toEqual({ id: { line: 2, column: 3 } });
    expect(r.positions).toBe(first);
  });
});
