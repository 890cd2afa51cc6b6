import { describe, expect, it } from 'vitest';
import { checkManifestId, checkName, nameTooLongFor } from '../../../src/skill/names.js';

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

describe('nameTooLongFor: the archive named after a skill fits the 255 bytes of a file name', () => {
  const letters = (n: number) => Array.from({ length: n }, (_, i) => String.fromCodePoint(0x20000 + i)).join('');
  it('lets a name of 60 four-byte letters with a short version pass, and says when the archive would not fit', () => {
    expect(nameTooLongFor(letters(60), '1.0.0')).toBeUndefined(); // 240 + 10 = 250 bytes
    expect(nameTooLongFor('a'.repeat(64), '1.0.0-beta.1')).toBeUndefined();
    expect(nameTooLongFor(letters(60), '1.0.0-beta.1')).toBe(
      `name is 240 bytes long in UTF-8: the archive named after it (${letters(60)}-1.0.0-beta.1.tgz) would be 257 bytes, and a file name holds at most 255; use a shorter name (or version)`,
    );
    // 64 four-byte letters are 256 bytes: not even the skill's folder can hold it.
    expect(nameTooLongFor(letters(64))).toMatch(/^name is 256 bytes long in UTF-8: .* would be 266 bytes/);
  });

  it('agrees with the byte count of the archive name on generated names', () => {
    let seed = 11;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) >>> 0) % n;
    const parts = ['a', 'é', '中', '\u{20000}', '-'];
    for (let i = 0; i < 3000; i++) {
      const name = Array.from({ length: 1 + rnd(64) }, () => parts[rnd(parts.length)]).join('');
      const version = ['1.0.0', '0.0.0', `1.0.0-${'x'.repeat(rnd(40))}`][rnd(3)]!;
      const fits = new TextEncoder().encode(`${name}-${version}.tgz`).length <= 255;
      expect(nameTooLongFor(name, version) === undefined, name).toBe(fits);
    }
  });
});
