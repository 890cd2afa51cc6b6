import { describe, expect, it } from 'vitest';
import { SYNONYM_GROUPS } from '../../../src/prompt/synonyms.js';
import { buildTable, relatedStems } from '../../../src/prompt/related-terms.js';
import { stem } from '../../../src/prompt/text-match.js';
import { selectSkills } from '../../../src/prompt/select.js';

describe('the synonym table (data)', () => {
  it('holds groups of two or more distinct single lower-case words', () => {
    expect(SYNONYM_GROUPS.length).toBeGreaterThan(50);
    for (const group of SYNONYM_GROUPS) {
      expect(group.length, group.join(', ')).toBeGreaterThanOrEqual(2);
      expect(new Set(group).size, `a word twice in ${group.join(', ')}`).toBe(group.length);
      for (const w of group) expect(w, `${w} in ${group.join(', ')}`).toMatch(/^[a-z0-9]+$/);
      // Two words of one stem would relate a word to itself.
      expect(new Set(group.map(stem)).size, `two forms of one word in ${group.join(', ')}`).toBe(group.length);
    }
  });

  it('relates the words of the domain the issue names', () => {
    const related = (a: string, b: string) => relatedStems(stem(a)).includes(stem(b));
    for (const [a, b] of [
      ['wipe', 'zeroize'],
      ['scrub', 'zeroize'],
      ['slides', 'deck'],
      ['deck', 'presentation'],
      ['presentation', 'pptx'],
      ['spreadsheet', 'xlsx'],
      ['excel', 'spreadsheet'],
      ['fuzz', 'harness'],
      ['fuzzer', 'fuzzing'],
    ])
      expect(related(a, b) && related(b, a), `${a} ~ ${b}`).toBe(true);
    expect(relatedStems(stem('deck'))).not.toContain(stem('deck'));
    expect(relatedStems('no-such-word')).toEqual([]);
  });

  it('builds a symmetric table from groups, by stem, without chaining groups', () => {
    const t = buildTable([
      ['Slides', 'deck'],
      ['deck', 'pile'],
    ]);
    expect(t.get(stem('slides'))).toEqual([stem('deck')]);
    expect(new Set(t.get(stem('deck')))).toEqual(new Set([stem('slides'), stem('pile')]));
    // slides and pile share a group with deck, not with each other.
    expect(t.get(stem('pile'))).toEqual([stem('deck')]);
  });
});

describe('related words in selection', () => {
  const skills = [
    { name: 'slides', description: 'Create and edit PowerPoint presentations.' },
    { name: 'mail', description: 'Send email.' },
  ];

  it('finds a skill through a word related to the query word, and says so', () => {
    const r = selectSkills('make a deck for Monday', skills, { max: 3 });
    expect(r.selected.map((s) => s.name)).toEqual(['slides']);
    expect(r.selected[0]!.matched).toEqual(['relevance: deck ~ a related word (name, description)']);
  });

  it('ranks the word itself above a related one', () => {
    const c = [
      { name: 'a', description: 'Edit presentations.' },
      { name: 'b', description: 'Edit decks.' },
    ];
    expect(selectSkills('edit my deck', c, { max: 3 }).selected.map((s) => s.name)).toEqual(['b', 'a']);
  });
});
