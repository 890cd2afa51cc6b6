import { describe, expect, it } from 'vitest';
import { backgroundDf, OWN_SHARE, rankingIdf } from '../../../src/prompt/background-idf.js';
import { BACKGROUND_DF, BACKGROUND_MIN_DF, BACKGROUND_SKILLS } from '../../../src/prompt/background-df.js';
import { selectSkills, type SelectionCandidate } from '../../../src/prompt/select.js';
import { stem } from '../../../src/prompt/text-match.js';

// Twenty skills about other things, so that the catalog is large enough for every rule of selection.
const FILLER: SelectionCandidate[] = Array.from({ length: 20 }, (_, i) => ({
  name: `filler-${i}`,
  description: `Tune the ${['oboe', 'violin', 'cello', 'flute', 'harp'][i % 5]} number ${i} before a concert rehearsal.`,
}));

describe('the background document frequencies', () => {
  it('is a table of stems, each in at least BACKGROUND_MIN_DF of BACKGROUND_SKILLS skills', () => {
    const entries = BACKGROUND_DF.split(';');
    expect(entries.length).toBeGreaterThan(1000);
    for (const e of entries) {
      expect(e).toMatch(/^[a-z0-9]+:\d+$/);
      const n = Number(e.split(':')[1]);
      expect(n).toBeGreaterThanOrEqual(BACKGROUND_MIN_DF);
      expect(n).toBeLessThanOrEqual(BACKGROUND_SKILLS);
    }
  });

  it('knows common words of skills as common and reads a word it lacks as rare', () => {
    expect(backgroundDf(stem('company'))).toBeGreaterThan(100);
    expect(backgroundDf(stem('code'))).toBeGreaterThan(1000);
    expect(backgroundDf('zqxjkw')).toBeLessThan(BACKGROUND_MIN_DF);
    // Not a key of the table's text: no separator of it is ever looked up.
    expect(backgroundDf('a:1;b')).toBeLessThan(BACKGROUND_MIN_DF);
  });

  it('weighs a word by its IDF here and over public skills: of two words as rare here, the rarer at large more', () => {
    const ceiling = Math.log(1 + (100 - 0.5) / 1.5);
    const common = rankingIdf(ceiling, stem('company'), ceiling);
    const rare = rankingIdf(ceiling, stem('dkim'), ceiling);
    expect(common).toBeLessThan(rare);
    expect(rare).toBeLessThanOrEqual(ceiling);
    // The catalog's own share stays: a word common here is not made rare by the background.
    expect(rankingIdf(0, stem('dkim'), ceiling)).toBeCloseTo(rare - OWN_SHARE * ceiling, 9);
  });
});

describe('ranking with the background', () => {
  it('ranks first the skill holding the word rare across skills, not the one holding a common word this catalog has once', () => {
    // Each word is in one skill of this catalog: only skills at large tell that "company" is said by many skills
    // and "dkim" by few. The first skill's description is shorter, which alone ranked it first.
    const candidates: SelectionCandidate[] = [
      ...FILLER,
      { name: 'company-letters', description: 'Write the company letters.' },
      { name: 'dkim-records', description: 'Publish the DKIM keys of a mail domain in its records, and check them.' },
    ];
    const r = selectSkills('dkim for the company', candidates, { max: 3 });
    expect(r.selected.map((s) => s.name)).toEqual(['dkim-records', 'company-letters']);
  });
});
