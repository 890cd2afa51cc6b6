import { describe, expect, it } from 'vitest';
import { SKIP_DIRS, isNeverKept } from '../../../src/fs/walk.js';

// A case-insensitive file system (macOS, Windows) makes `.HG` the same folder as `.hg`: every folder that is never
// part of a skill is left out in any case, as `.git` is.
const oddCase = (name: string) => [...name].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c.toLowerCase())).join('');

describe('isNeverKept', () => {
  it.each([...SKIP_DIRS])('leaves out the folder %s in upper and mixed case, and only a folder', (name) => {
    for (const n of [name, name.toUpperCase(), oddCase(name)]) {
      expect(isNeverKept(n, true), n).toBe(true);
      expect(isNeverKept(n, false), n).toBe(false);
    }
    expect(oddCase(name)).not.toBe(name);
  });

  it('leaves out .git of any kind and case, and keeps .gitignore and names merely like the list', () => {
    for (const n of ['.git', '.GIT', '.Git']) {
      expect(isNeverKept(n, true)).toBe(true);
      expect(isNeverKept(n, false)).toBe(true);
    }
    for (const n of ['.gitignore', '.hgignore', 'node_module', '.svnx', 'pycache'])
      expect(isNeverKept(n, true)).toBe(false);
  });
});
