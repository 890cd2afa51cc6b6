import { describe, expect, it } from 'vitest';
import type { Skill } from '../../../src/model/skill.js';
import { looseVersion, looseVersionWarning, registryVersion } from '../../../src/registry/unversioned.js';

const skill = (version: string | undefined, layout: Skill['layout'] = 'skill-md') =>
  ({ id: 'calc', layout, version, file: '/x/SKILL.md' }) as unknown as Skill;

describe('the version a skill is kept under', () => {
  it('keeps a SKILL.md version that plainly means a semantic version as that one', () => {
    const plain: [string, string][] = [
      ['1', '1.0.0'],
      ['1.0', '1.0.0'],
      ['v1.2', '1.2.0'],
      ['V2', '2.0.0'],
      ['=3.1', '3.1.0'],
      [' 1.2 ', '1.2.0'],
      ['v1.2.3', '1.2.3'],
      ['0.10', '0.10.0'],
    ];
    for (const [written, kept] of plain) {
      expect(looseVersion(skill(written)), written).toBe(kept);
      expect(registryVersion(skill(written)), written).toBe(kept);
    }
    expect(looseVersionWarning(skill('1.0'))).toBe(
      'calc\'s version "1.0" is kept as 1.0.0 (write it as MAJOR.MINOR.PATCH in its SKILL.md to keep it as written)',
    );
  });

  it('keeps any other as written (and install or sync refuse it), and a strict one, none, or a manifest’s alone', () => {
    for (const written of ['1.0.01', '01.2', 'beta', '1.2.3.4', '1.x', 'v', '1.0-rc1', 'latest'])
      expect(looseVersion(skill(written)), written).toBeUndefined();
    expect(registryVersion(skill('1.0.01'))).toBe('1.0.01');
    expect(looseVersion(skill('1.2.3'))).toBeUndefined();
    expect(registryVersion(skill('1.2.3-beta.1'))).toBe('1.2.3-beta.1');
    expect(registryVersion(skill(undefined))).toBe('0.0.0');
    // A manifest.json requires MAJOR.MINOR.PATCH by its own definition.
    expect(looseVersion(skill('1.0', 'manifest'))).toBeUndefined();
    expect(registryVersion(skill('1.0', 'manifest'))).toBe('1.0');
  });
});
