import { describe, expect, it } from 'vitest';
import { selectSkills, type SelectionCandidate } from '../../../src/prompt/select.js';
import { SMALL_OWN_SHARE, smallCatalogIdf } from '../../../src/prompt/background-idf.js';
import { stem } from '../../../src/prompt/text-match.js';

// Five skills, as a user has installed them: "none fits" applies here too (select.ts SMALL_CATALOG_BAR).
const FIVE: SelectionCandidate[] = [
  { name: 'pdf-tools', description: 'Fill, merge and split PDF files. Use when the user works with PDF documents.' },
  {
    name: 'csv-report',
    description: 'Summarise CSV files into a short report. Use when the user has a spreadsheet or CSV data.',
  },
  {
    name: 'git-helper',
    description: 'Explain git history and write commit messages. Use when the user asks about commits.',
  },
  { name: 'slides', description: 'Create and edit PowerPoint presentations. Use when the user wants a slide deck.' },
  {
    name: 'forecast',
    description: 'Weather forecasts for a city (rain, wind, temperature). Use when the user asks about the weather.',
  },
];
const names = (query: string, c = FIVE) => selectSkills(query, c, { max: 3 }).selected.map((s) => s.name);

describe('"none fits" in a catalog of fewer than 20 skills', () => {
  it("selects the skill whose task a request names, in the skill's words or others", () => {
    expect(names('merge these two PDFs into one')).toEqual(['pdf-tools']);
    expect(names('make a slide deck about our quarterly results')).toEqual(['slides']);
    expect(names('will it rain in Oslo tomorrow')).toEqual(['forecast']);
    expect(names('write a commit message for my change')).toEqual(['git-helper']);
    expect(names('turn this spreadsheet into a short report')).toEqual(['csv-report']);
    expect(names('make a deck for Monday')).toEqual(['slides']);
  });

  it('selects nothing for a request that shares only a word common across skills with one of them', () => {
    expect(names('write a haiku about autumn')).toEqual([]);
    // "merge", "branches"; "split"; "documents": each the word of a skill here, and of thousands of skills at large.
    expect(names('merge the two branches of my family tree')).toEqual([]);
    expect(names('split the bill between four friends')).toEqual([]);
    expect(names('what documents do I need for a passport')).toEqual([]);
  });

  it('ranks a skill under the bar after the selectable ones and says why it was not selected', () => {
    const r = selectSkills('split the bill between four friends', FIVE, { max: 3 });
    expect(r.ranked.map((s) => [s.name, s.below])).toEqual([
      [
        'pdf-tools',
        expect.stringMatching(
          /^its name, triggers, descriptions and headings match 0\.\d\d of one rare word, under the 0\.\d\d needed \(.*; it holds \d+% of what the request says, not: bill, four, friends\)$/,
        ),
      ],
    ]);
  });

  it('weighs a word as evidence half by how few skills here hold it, half by how few public skills do', () => {
    const ceiling = Math.log(1 + (5 - 0.5) / 1.5);
    const common = smallCatalogIdf(1, stem('document'), ceiling, 20);
    const rare = smallCatalogIdf(1, stem('dkim'), ceiling, 20);
    expect(common).toBeLessThan(rare);
    expect(rare).toBeLessThanOrEqual(ceiling);
    // One skill of five holding a word weighs more than four of five.
    expect(smallCatalogIdf(4, stem('dkim'), ceiling, 20)).toBeCloseTo(
      rare - SMALL_OWN_SHARE * ceiling * (1 - Math.log(1 + 16.5 / 4.5) / Math.log(1 + 19.5 / 1.5)),
      9,
    );
  });
});
