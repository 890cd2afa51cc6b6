import { describe, expect, it } from 'vitest';
import { compareVersions, matches, versionKey } from '../../../src/resolve/versions.js';

describe('versions', () => {
  it('reads plain x.y.z as numbers, other semver through semver, and anything else as no version', () => {
    expect(versionKey('1.10.2')).toEqual([1, 10, 2]);
    expect(versionKey('1.0.0-beta.1')?.toString()).toBe('1.0.0-beta.1');
    expect(versionKey('latest')).toBeUndefined();
    expect(versionKey('latest')).toBeUndefined();
    // Worked out once: a registry compares its handful of versions thousands of times.
    expect(versionKey('1.10.2')).toBe(versionKey('1.10.2'));
    expect(versionKey('1.0.0-beta.1')).toBe(versionKey('1.0.0-beta.1'));
  });

  it('compares in semver order, numbers as numbers and prereleases before their release', () => {
    const sorted = ['1.10.0', '1.2.0', '1.0.0', '1.0.0-rc.1', '2.0.0'].sort(compareVersions);
    expect(sorted).toEqual(['1.0.0-rc.1', '1.0.0', '1.2.0', '1.10.0', '2.0.0']);
  });

  it('matches a version against a range, and a range that does not parse matches nothing, every time', () => {
    expect(matches('1.4.0', '^1.2')).toBe(true);
    expect(matches('2.0.0', '^1.2')).toBe(false);
    for (let i = 0; i < 2; i++) expect(matches('1.0.0', '>=>1')).toBe(false);
  });

  it('matches thousands of versions against a range longer than 16,383 characters quickly (no shared hash bucket)', () => {
    // V8 hashes strings that long by their length: a memo keyed by range + version put every pair in one bucket.
    const range = `>=1.0.0${' '.repeat(16400)}<99.0.0`;
    let n = 0;
    for (let i = 0; i < 7000; i++) if (matches(`1.0.${i}`, range)) n++;
    expect(n).toBe(7000);
  });
});
