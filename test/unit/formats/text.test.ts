import { describe, expect, it, vi } from 'vitest';
import { counted, grouped, plural } from '../../../src/formats/text.js';

describe('plural and counted', () => {
  it('say one in the singular, every other count in the plural', () => {
    expect(plural(1, 'folder')).toBe('folder');
    expect(plural(0, 'folder')).toBe('folders');
    expect(plural(2, 'entry', 'entries')).toBe('entries');
    expect(counted(1, 'skill')).toBe('1 skill');
    expect(counted(0, 'skill')).toBe('0 skills');
    expect(counted(20000, 'folder')).toBe('20,000 folders');
    expect(counted(1, 'entry', 'entries')).toBe('1 entry');
  });

  it('group a count as en-US does, without toLocaleString (its first call loads ICU: ~14 ms of a command start)', () => {
    const spy = vi.spyOn(Number.prototype, 'toLocaleString');
    const values = [0, 7, 999, 1000, 12345, 999999, 1000000, -1234, -999, 4096, 2 ** 40, Number.MAX_SAFE_INTEGER];
    const got = values.map((v) => grouped(v));
    expect(counted(1234567, 'file')).toBe('1,234,567 files');
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
    expect(got).toEqual(values.map((v) => v.toLocaleString('en-US')));
  });
});
