import { describe, expect, it } from 'vitest';
import { parseSpec } from '../../../src/model/spec.js';

describe('parseSpec', () => {
  it('reads id, exact versions and ranges', () => {
    expect(parseSpec('basic-tools')).toEqual({ raw: 'basic-tools', id: 'basic-tools', exact: false });
    expect(parseSpec('basic-tools@1.0.0')).toMatchObject({ id: 'basic-tools', range: '1.0.0', exact: true });
    expect(parseSpec('basic-tools@^1.2')).toMatchObject({ id: 'basic-tools', range: '^1.2', exact: false });
    expect(parseSpec('a@>=1.0.0 <2')).toMatchObject({ id: 'a', range: '>=1.0.0 <2' });
  });
  it('explains what is wrong', () => {
    expect(parseSpec('Basic')).toHaveProperty('error', expect.stringMatching(/lowercase letters, digits and hyphens/));
    expect(parseSpec('a@')).toHaveProperty('error', expect.stringMatching(/no valid version or semver range/));
    expect(parseSpec('a@banana')).toHaveProperty('error');
  });
});
