import { describe, expect, it } from 'vitest';
import semverParse from 'semver/functions/parse.js';
import { isSkillId, isStrictSemver, parseSpec, skillPathId } from '../../../src/model/spec.js';

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

describe('parseSpec: hostile ranges', () => {
  it('refuses a range over 4,096 characters or 256 || alternatives before semver parses it', () => {
    const long = parseSpec(`a@>=1.0.0${' '.repeat(5000)}<2.0.0`);
    expect(long).toEqual({ error: expect.stringMatching(/version range too long .*5013 characters.*at most 4096/) });
    const many = parseSpec(`a@${Array.from({ length: 10000 }, (_, i) => `1.0.${i}`).join('||')}`);
    expect(many).toEqual({
      error: expect.stringMatching(/too long .*10000 alternatives.*at most .* 256 alternatives/),
    });
    expect(parseSpec(`a@${Array.from({ length: 256 }, (_, i) => `1.0.${i}`).join('||')}`)).toMatchObject({ id: 'a' });
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

describe('isStrictSemver', () => {
  it('says what semver says of a version that starts with a digit and has no spaces around it', () => {
    const versions = [
      ...['0.0.0', '1.2.3', '10.20.30', '999999999999999.0.1', '9007199254740991.0.0', '9007199254740992.0.0'],
      ...['01.2.3', '1.02.3', '1.2.03', '1.2', '1', '1.2.3.4', '1.2.3-beta.1', '1.2.3+build.5', '1.2.3-01'],
      ...['1.2.x', '1.2.*', '1..3', '1.2.3-', '1.2.3 ', ' 1.2.3', 'v1.2.3', '=1.2.3', '1.2.3\n', '1.2.3\u00a0'],
      ...['\u0661.2.3', '1.2.3-b\u00e9ta', `1.2.${'9'.repeat(300)}`, '1234567890123456.0.0', '123456789012345.1.1'],
    ];
    for (const v of versions) {
      expect(isStrictSemver(v), v).toBe(/^\d/.test(v) && v.trim() === v && semverParse(v) !== null);
    }
    expect(isStrictSemver('1.2.3')).toBe(true);
    expect(isStrictSemver('v1.2.3')).toBe(false);
  });
});

describe('isSkillId', () => {
  it('takes plain ASCII ids on a short path and says what the full rule says', () => {
    const ids = ['pdf', 'pdf-tools', 'a1-b2', 'a'.repeat(64), 'a'.repeat(65), 'Pdf', 'pdf--x', '-pdf', 'pdf-', 'pdf_x'];
    const full = (id: string) =>
      /^[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*$/u.test(id) &&
      id === id.toLowerCase() &&
      id === id.normalize('NFKC') &&
      [...id].length <= 64;
    for (const id of [...ids, 'résumé', 'ﬁle', 'é'.repeat(64), 'é'.repeat(65)])
      expect(isSkillId(id), id).toBe(full(id));
    expect(isSkillId('a'.repeat(64))).toBe(true);
    expect(isSkillId('a'.repeat(65))).toBe(false);
  });
});

it('skillPathId reads the id at the end of a skill folder path, and nothing else', () => {
  expect(skillPathId('admin/health-cloud-patient-setup')).toBe('health-cloud-patient-setup');
  expect(skillPathId('skills/admin/care-plan@^1.0.0')).toBe('care-plan@^1.0.0');
  for (const s of ['care-plan', 'github.com/x/y', '@scope/pkg', 'Admin/Care', 'torch>=2.9', 'a//b', 'a/'])
    expect(skillPathId(s), s).toBeUndefined();
});
