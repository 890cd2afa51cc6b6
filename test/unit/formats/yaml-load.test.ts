import { describe, expect, it } from 'vitest';
import yaml from 'js-yaml';
import { loadYaml } from '../../../src/formats/yaml-load.js';

describe('loadYaml', () => {
  it('reads YAML as js-yaml does', () => {
    expect(loadYaml('a: 1\nb: [x, y]\n', { schema: yaml.FAILSAFE_SCHEMA })).toEqual({ a: '1', b: ['x', 'y'] });
  });

  it('throws the YAMLException with its reason and mark, without a stack trace, and puts the limit back', () => {
    const before = Error.stackTraceLimit;
    let thrown: unknown;
    try {
      loadYaml('description: **Bold** text\n', { schema: yaml.FAILSAFE_SCHEMA });
    } catch (err) {
      thrown = err;
    }
    const e = thrown as yaml.YAMLException;
    expect(e).toBeInstanceOf(yaml.YAMLException);
    expect(e.reason).toMatch(/alias/);
    expect(e.mark.line).toBe(0);
    // No frame captured: the stack is the message alone.
    expect(e.stack ?? '').not.toMatch(/\n\s+at /);
    expect(Error.stackTraceLimit).toBe(before);
    expect(loadYaml('a: b', {})).toEqual({ a: 'b' });
    expect(Error.stackTraceLimit).toBe(before);
  });
});
