import { describe, expect, it } from 'vitest';
import { parseSkillUri, skillUri, UriProblem } from '../../../src/serve/uri.js';

describe('skill:// URIs', () => {
  it('reads a skill and a path in it, percent-decoded; the root with or without a trailing slash', () => {
    expect(parseSkillUri('skill://pdf/SKILL.md')).toEqual({ skill: 'pdf', path: 'SKILL.md' });
    expect(parseSkillUri('skill://pdf/references/a%20b.md')).toEqual({ skill: 'pdf', path: 'references/a b.md' });
    expect(parseSkillUri('skill://pdf')).toEqual({ skill: 'pdf', path: '' });
    expect(parseSkillUri('skill://pdf/')).toEqual({ skill: 'pdf', path: '' });
  });

  it.each([
    ['https://x/SKILL.md', 'not a skill:// URI'],
    ['skill://pdf/../x', '".." segments are refused'],
    ['skill://pdf/%2e%2E/x', '".." segments are refused'],
    ['skill://pdf/./SKILL.md', '"." segments are refused'],
    ['skill://pdf/a%2Fb', 'encoded separator'],
    ['skill://pdf/a%5cb', 'encoded separator'],
    ['skill://pdf/a\\b', 'backslash'],
    ['skill://pdf//x', 'empty path segment'],
    ['skill:///etc/passwd', 'no skill name'],
    ['skill://pdf/x?y', 'no query or fragment'],
    ['skill://pdf/x#y', 'no query or fragment'],
    ['skill://pdf/%00', 'NUL'],
    ['skill://pdf/%E0%A4%A', 'not valid percent-encoding'],
  ])('refuses %s (%s)', (uri, says) => {
    expect(() => parseSkillUri(uri)).toThrow(UriProblem);
    expect(() => parseSkillUri(uri)).toThrow(says);
  });

  it('writes URIs that read back to the same skill and path', () => {
    for (const path of ['SKILL.md', 'references/a b.md', 'scripts/x#1.py', 'dé/ü?.md', ''])
      expect(parseSkillUri(skillUri('pdf', path))).toEqual({ skill: 'pdf', path });
    expect(skillUri('pdf', 'scripts/run.py')).toBe('skill://pdf/scripts/run.py');
  });
});
