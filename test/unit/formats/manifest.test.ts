import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../../src/formats/manifest.js';

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
