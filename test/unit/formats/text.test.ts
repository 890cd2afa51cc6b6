import { describe, expect, it } from 'vitest';
import { counted, plural } from '../../../src/formats/text.js';

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
});
