import { describe, expect, it } from 'vitest';
import type { SeenSkill } from '../../../src/doctor/agent-view.js';
import { measureListing } from '../../../src/doctor/listing.js';
import { DEFAULT_RULE, type ListingRule } from '../../../src/doctor/listing-rules.js';

const seen = (name: string, description: string): SeenSkill => ({
  name,
  description,
  file: `/s/${name}/SKILL.md`,
  root: `/s/${name}`,
  scope: 'project',
});
/** One token per word: easy to check by hand. */
const words = async (text: string) => text.split(/\s+/).filter(Boolean).length;
const budget = (unit: 'characters' | 'tokens', limit: number): ListingRule => ({
  ...DEFAULT_RULE,
  budget: { unit, limit, basis: 'test' },
});

describe('measureListing', () => {
  it('counts each line with its newline, in code points, and its tokens', async () => {
    const l = await measureListing([seen('a', 'Añ 😀.'), seen('bb', 'x y z')], DEFAULT_RULE, words);
    // "- a: Añ 😀.\n" is 11 code points; "- bb: x y z\n" is 12.
    expect(l.entries).toEqual([
      { name: 'a', descriptionCharacters: 5, characters: 11, tokens: 4 },
      { name: 'bb', descriptionCharacters: 5, characters: 12, tokens: 5 },
    ]);
    expect(l).toMatchObject({ characters: 23, tokens: 9, budget: null, over: 0, trim: [] });
  });

  it('within the budget: nothing to trim', async () => {
    const l = await measureListing([seen('a', 'short')], budget('characters', 11), words);
    expect(l.over).toBe(0);
    expect(l.trim).toEqual([]);
  });

  it('over the budget: what saves most first, only as many as it takes', async () => {
    const skills = [seen('small', 'x'), seen('big', 'y'.repeat(50)), seen('mid', 'z'.repeat(30))];
    // Lines: 11, 58 and 38 characters: 107 in all.
    const l = await measureListing(skills, budget('characters', 60), words);
    expect(l.characters).toBe(107);
    expect(l.over).toBe(47);
    expect(l.trim).toEqual([{ name: 'big', descriptionCharacters: 50, saves: { characters: 58, tokens: 3 } }]);
    const tighter = await measureListing(skills, budget('characters', 20), words);
    expect(tighter.trim.map((t) => t.name)).toEqual(['big', 'mid']);
  });

  it('measures a budget in tokens in tokens', async () => {
    const skills = [seen('a', 'one two three four'), seen('b', 'five')];
    const l = await measureListing(skills, budget('tokens', 6), words);
    expect(l.tokens).toBe(9);
    expect(l.over).toBe(3);
    expect(l.trim.map((t) => [t.name, t.saves.tokens])).toEqual([['a', 6]]);
  });

  it('orders by the saving in the budget unit, not by the description: few characters of many tokens come first', async () => {
    // "- few: a b c d e f\n": 6 description tokens in 11 characters; "- long: …\n": one token in 30 characters.
    const skills = [seen('long', 'y'.repeat(30)), seen('few', 'a b c d e f')];
    const l = await measureListing(skills, budget('tokens', 9), words);
    expect(l.trim.map((t) => [t.name, t.saves.tokens])).toEqual([['few', 8]]);
  });
});
