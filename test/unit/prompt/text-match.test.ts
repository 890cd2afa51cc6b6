import { describe, expect, it } from 'vitest';
import { isWeakWord } from '../../../src/prompt/text-match.js';
import { selectSkills } from '../../../src/prompt/select.js';

describe('generic words of requests', () => {
  it('counts the ordinals as generic, "second" with "first" and "last"', () => {
    for (const w of ['first', 'second', 'seconds', 'last', 'next']) expect(isWeakWord(w), w).toBe(true);
    expect(isWeakWord('opinion')).toBe(false);
  });

  it('selects no skill on a "second" of time: a 30-second jingle is no second opinion', () => {
    const skills = [
      { name: 'second-opinion', description: 'Get a second opinion on a diff from another model before you commit.' },
      ...Array.from({ length: 24 }, (_, i) => ({
        name: `skill-${i}`,
        description: `Handles task number ${i} for topic${i} with tool${i}.`,
      })),
    ];
    expect(selectSkills('compose a cheerful melody for a 30-second radio jingle', skills, { max: 3 }).selected).toEqual(
      [],
    );
    expect(selectSkills('get a second opinion on this diff', skills, { max: 3 }).selected[0]?.name).toBe(
      'second-opinion',
    );
  });

  it('keeps words folded into a generic stem that name a thing of their own strong: timing, findings', () => {
    for (const w of ['time', 'times', 'find', 'generate', 'set']) expect(isWeakWord(w), w).toBe(true);
    for (const w of ['timing', 'findings', 'generative', 'settings']) expect(isWeakWord(w), w).toBe(false);
  });

  it('selects a timing skill for a timing leak, on "timing" in its name and description', () => {
    const skills = [
      {
        name: 'constant-time-analysis',
        description: 'Find timing side channels in cryptographic code: branches and lookups on secrets.',
        // What it says of the request besides (coverage: see select.ts NAME_PART), in its text, which is no evidence.
        body: 'An HMAC comparison must not leak where the first byte differs.',
      },
      ...Array.from({ length: 24 }, (_, i) => ({
        name: `skill-${i}`,
        description: `Handles task number ${i} for topic${i} with tool${i}.`,
      })),
    ];
    expect(selectSkills('does my Go HMAC comparison leak timing?', skills, { max: 3 }).selected[0]?.name).toBe(
      'constant-time-analysis',
    );
  });
});
