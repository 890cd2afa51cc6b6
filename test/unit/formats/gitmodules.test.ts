import { describe, expect, it } from 'vitest';
import { parseGitmodules } from '../../../src/formats/gitmodules.js';

describe('parseGitmodules', () => {
  it('reads each submodule’s path and URL, in the order written, as git writes them and as people do', () => {
    const text = [
      '[submodule "skills/a"]',
      '\tpath = skills/a',
      '\turl = https://github.com/o/a.git',
      '[submodule "b"]  # a comment',
      '  url="git@github.com:o/b.git" ; why',
      '  PATH = "./vendor/b dir/"',
      '[core]',
      '\tpath = not/a/submodule',
      '[submodule "no-path"]',
      '\turl = https://example.com/c.git',
      '[submodule "win"]',
      '\tpath = skills\\\\win',
    ].join('\r\n');
    expect(parseGitmodules(text)).toEqual([
      { path: 'skills/a', url: 'https://github.com/o/a.git' },
      { path: 'vendor/b dir', url: 'git@github.com:o/b.git' },
      { path: 'skills/win' },
    ]);
  });

  it('gives nothing for text that is not a .gitmodules', () => {
    expect(parseGitmodules('')).toEqual([]);
    expect(parseGitmodules('path = a\nurl = b\n')).toEqual([]);
    expect(parseGitmodules('\u0000\u0001 binary')).toEqual([]);
  });
});
