import { describe, expect, it } from 'vitest';
import { yamlPositions } from '../../../src/formats/yaml-positions.js';

describe('yamlPositions', () => {
  it('skips block scalars and comments', () => {
    const p = yamlPositions('description: |\n  text: not a key\n  more\n# c: x\nname: a\n', 2);
    expect(p).toEqual({ description: { line: 2, column: 1 }, name: { line: 6, column: 1 } });
  });

  it('locates items of a list at the same indent as its key, and mappings inside items', () => {
    const p = yamlPositions('mcp:\n- name: a\n  url: u\n- name: b\nnext: 1\n', 1);
    expect(p['mcp[0]']).toEqual({ line: 2, column: 1 });
    expect(p['mcp[0].name']).toEqual({ line: 2, column: 3 });
    expect(p['mcp[0].url']).toEqual({ line: 3, column: 3 });
    expect(p['mcp[1].name']).toEqual({ line: 4, column: 3 });
    expect(p['next']).toEqual({ line: 5, column: 1 });
  });

  it('reads quoted keys and keys with spaces', () => {
    const p = yamlPositions('"allowed-tools": x\n\'odd key\': y\nplain key: z\n', 1);
    expect(Object.keys(p)).toEqual(['allowed-tools', 'odd key', 'plain key']);
  });

  it('locates a flow collection by its key only', () => {
    const p = yamlPositions('triggers: {keywords: [a, b]}\n', 1);
    expect(p).toEqual({ triggers: { line: 1, column: 1 } });
  });

  it('handles deep nesting and dedent', () => {
    const p = yamlPositions('a:\n  b:\n    c:\n      - x\n  d: 1\ne: 2\n', 1);
    expect(p['a.b.c[0]']).toEqual({ line: 4, column: 7 });
    expect(p['a.d']).toEqual({ line: 5, column: 3 });
    expect(p['e']).toEqual({ line: 6, column: 1 });
  });
});
