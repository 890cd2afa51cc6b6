import { describe, expect, it } from 'vitest';
import { isSkillId, parseSpec } from '../../../src/model/spec.js';

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

describe('isSkillId: the one rule for ids', () => {
  it('accepts skill names of any script, refuses what a skill name may not be', () => {
    for (const id of ['a', 'basic-tools', 'résumé', '数据', 'x'.repeat(64), '3d-print'])
      expect(isSkillId(id), id).toBe(true);
    for (const id of ['', 'A', 'Résumé', 're\u0301sume\u0301', '-a', 'a-', 'a--b', 'a_b', 'a.b', 'x'.repeat(65), 'ﬁle'])
      expect(isSkillId(id), id).toBe(false);
  });
  it('reads a typed id as a skill name is read (NFKC), so a decomposed résumé is the same id', () => {
    expect(parseSpec('re\u0301sume\u0301@1.0.0')).toMatchObject({ id: 'résumé', range: '1.0.0', exact: true });
    expect(parseSpec('ﬁle')).toMatchObject({ id: 'file' });
    expect(parseSpec('a--b')).toHaveProperty('error', expect.stringMatching(/lowercase letters, digits and hyphens/));
  });
});
