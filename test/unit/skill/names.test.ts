import { describe, expect, it } from 'vitest';
import { checkManifestId, checkName } from '../../../src/skill/names.js';

describe('checkName', () => {
  const valid = [
    'a',
    'my-skill',
    'pdf2text',
    '123',
    'a'.repeat(64),
    'café', // Unicode letters are letters
    'cafe\u0301', // e + combining acute: NFKC composes it into é
    'naïve-tools',
    'データ', // Lo letters have no case
    'ｄａｔａ', // fullwidth letters: NFKC folds them to ASCII
    '𠀀'.repeat(64), // 64 code points, 128 UTF-16 units
  ];
  it.each(valid)('accepts %j', (name) => {
    expect(checkName(name)).toEqual({ ok: true });
  });

  const invalid: [string, string, RegExp, string][] = [
    ['', 'name-required', /empty/, 'my-skill'],
    ['My-Skill', 'name-lowercase', /must be lowercase/, 'my-skill'],
    ['CAFÉ', 'name-lowercase', /must be lowercase/, 'café'],
    ['-skill', 'name-hyphens', /start or end with a hyphen/, 'skill'],
    ['skill-', 'name-hyphens', /start or end with a hyphen/, 'skill'],
    ['my--skill', 'name-hyphens', /consecutive hyphens/, 'my-skill'],
    ['a'.repeat(65), 'name-length', /65 characters long; at most 64/, 'a'.repeat(64)],
    ['my_skill', 'name-characters', /only letters, digits and hyphens/, 'my-skill'],
    ['my skill', 'name-characters', /only letters, digits and hyphens/, 'my-skill'],
    ['rocket-🚀', 'name-characters', /only letters, digits and hyphens/, 'rocket'],
    ['🚀', 'name-characters', /only letters, digits and hyphens/, 'my-skill'],
    ['x\u0301', 'name-characters', /only letters/, 'x'], // no precomposed x-acute: the mark stays a mark
    ['a\u20dd', 'name-characters', /only letters/, 'a'], // enclosing circle: a mark, never composed
    ['ﬀ-Tools', 'name-lowercase', /lowercase/, 'ff-tools'], // NFKC first: the ligature becomes "ff"
  ];
  it.each(invalid)('refuses %j (%s)', (name, rule, message, suggestion) => {
    const r = checkName(name);
    expect(r).toMatchObject({ ok: false, rule, suggestion });
    if (!r.ok) {
      expect(r.message).toMatch(message);
      // the suggestion itself must pass
      expect(checkName(r.suggestion)).toEqual({ ok: true });
    }
  });

  it('counts code points, not UTF-16 units', () => {
    expect(checkName('𠀀'.repeat(65))).toMatchObject({ ok: false, rule: 'name-length' });
  });
});

describe('checkManifestId', () => {
  it('accepts ASCII names', () => {
    expect(checkManifestId('social-media-apis')).toEqual({ ok: true });
    expect(checkManifestId('ｄａｔａ')).toEqual({ ok: true });
  });

  it('refuses Unicode letters, which a manifest id may not hold, suggesting an ASCII name', () => {
    expect(checkManifestId('café')).toMatchObject({ ok: false, rule: 'id-format', suggestion: 'cafe' });
    expect(checkManifestId('データ')).toMatchObject({ ok: false, rule: 'id-format', suggestion: 'my-skill' });
  });

  it('reports the skill-name rule first, with an ASCII suggestion', () => {
    expect(checkManifestId('Café_Tools')).toMatchObject({
      ok: false,
      rule: 'name-lowercase',
      suggestion: 'cafe-tools',
    });
  });
});
