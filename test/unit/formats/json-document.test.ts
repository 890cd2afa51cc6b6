import { describe, expect, it } from 'vitest';
import { conflictMarker } from '../../../src/formats/json-document.js';
import { parseLockfile } from '../../../src/formats/lockfile.js';
import { parseIndex } from '../../../src/formats/index-file.js';

// A lock as a merge leaves it when both sides added a skill.
const conflicted = [
  '{',
  '  "version": 1,',
  '  "skills": {',
  '<<<<<<< HEAD',
  '    "a": { "source": "./a", "sourceType": "local", "version": "1.0.0" }',
  '=======',
  '    "b": { "source": "./b", "sourceType": "local", "version": "1.0.0" }',
  '>>>>>>> theirs',
  '  }',
  '}',
  '',
].join('\n');

describe('conflictMarker', () => {
  it('finds the first marker line, 1-based', () => {
    expect(conflictMarker(conflicted)).toEqual({ line: 4, marker: '<<<<<<<' });
    expect(conflictMarker('{\n=======\n}')).toEqual({ line: 2, marker: '=======' });
    expect(conflictMarker('>>>>>>>')).toEqual({ line: 1, marker: '>>>>>>>' });
    expect(conflictMarker('x\r\n||||||| base\r\n')).toEqual({ line: 2, marker: '|||||||' });
  });

  it('is no marker when not at the start of a line, longer, or fewer than seven', () => {
    for (const text of ['{"a": "<<<<<<< x"}', ' <<<<<<< x', '<<<<<<<< x', '<<<<<< x', '========', '', '{\n}\n'])
      expect(conflictMarker(text), text).toBeUndefined();
  });

  it('agrees with a plain line-by-line reference on generated texts', () => {
    const parts = [
      '<<<<<<<',
      '=======',
      '>>>>>>>',
      '|||||||',
      '<<<<<<',
      '========',
      ' ',
      'x',
      '\n',
      '\r\n',
      '"a"',
      '{',
    ];
    let seed = 3;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) >>> 0) % n;
    const reference = (text: string) => {
      const lines = text.split('\n');
      for (let i = 0; i < lines.length; i++) {
        const m = /^(<{7}|\|{7}|={7}|>{7})(?:[ \t\r]|$)/.exec(lines[i]!);
        if (m) return { line: i + 1, marker: m[1]! };
      }
      return undefined;
    };
    for (let i = 0; i < 5000; i++) {
      const text = Array.from({ length: rnd(12) }, () => parts[rnd(parts.length)]).join('');
      expect(conflictMarker(text), JSON.stringify(text)).toEqual(reference(text));
    }
  });
});

describe('a lock or index with merge-conflict markers', () => {
  it('says so, at the marker line, instead of "not valid JSON"', () => {
    const { problem } = parseLockfile(conflicted);
    expect(problem).toEqual({
      message: 'skills-lock.json holds git merge-conflict markers (<<<<<<< at line 4): a merge left it unresolved',
      line: 4,
      column: 1,
      conflict: true,
    });
    expect(parseIndex(conflicted.replace('"skills": {', '"skills": [')).problem?.conflict).toBe(true);
  });

  it('is still "not valid JSON" without a marker', () => {
    const { problem } = parseLockfile('{\n  "version": 1,\n  x\n}\n');
    expect(problem?.message).toMatch(/not valid JSON/);
    expect(problem?.conflict).toBeUndefined();
  });
});
