import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSkill } from '../../../src/skill/load.js';
import { selectSkills, type SelectionCandidate } from '../../../src/prompt/select.js';
import { FIXTURES } from '../../helpers/cli.js';

// What the ranking hands back below the selected ones, and that it does not depend on how the candidates were
// built (render-prompt builds them with absent fields set to undefined).

const root = join(FIXTURES, 'selection');
const skills = readdirSync(join(root, 'skills'))
  .sort()
  .map((d) => loadSkill(join(root, 'skills', d)));
const queries = (JSON.parse(readFileSync(join(root, 'queries.json'), 'utf8')) as { query: string }[]).map(
  (q) => q.query,
);

/** Only the fields a skill has. */
const sparse = skills.map((s): SelectionCandidate => {
  const c: SelectionCandidate = { name: s.name, description: s.description };
  if (s.briefDescription) c.briefDescription = s.briefDescription;
  if (s.triggers)
    Object.assign(c, { keywords: s.triggers.keywords, verbs: s.triggers.verbs, patterns: s.triggers.patterns });
  return c;
});
/** Every field, undefined when absent. */
const dense = skills.map((s): SelectionCandidate => ({
  name: s.name,
  description: s.description,
  briefDescription: s.briefDescription || undefined,
  keywords: s.triggers?.keywords,
  verbs: s.triggers?.verbs,
  patterns: s.triggers?.patterns,
}));

const plain = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

describe('selectSkills: ranked', () => {
  it('says what matched for every ranked candidate, selected or not, as an own enumerable field', () => {
    let below = 0;
    for (const q of queries) {
      const one = selectSkills(q, sparse, { max: 1 });
      const all = selectSkills(q, sparse, { max: 1000 });
      // In JSON, as --json --explain prints it, the same as when every one of them is selected.
      expect(plain(one.ranked)).toEqual(plain(all.ranked));
      for (const s of one.ranked.slice(1)) {
        below++;
        // A match too weak to select says why in `below`, after what matched.
        expect(Object.keys(s)).toEqual(['name', 'kind', 'score', 'matched', ...(s.below ? ['below'] : [])]);
        expect({ ...s }.matched.length).toBeGreaterThan(0);
        // Read once, it stays: the same array, and writable.
        expect(s.matched).toBe(s.matched);
        s.matched = ['changed'];
        expect(s.matched).toEqual(['changed']);
      }
    }
    expect(below).toBeGreaterThan(20);
  });

  it('ranks candidates with absent fields and with fields set to undefined alike', () => {
    for (const q of queries)
      expect(plain(selectSkills(q, dense, { max: 3 }))).toEqual(plain(selectSkills(q, sparse, { max: 3 })));
  });

  it('ranks ten thousand candidates whatever their order', () => {
    // What is found is stored per candidate in a store that grows as the pass goes: no candidate may lose or
    // mix its counts, wherever it comes in the list.
    const many: SelectionCandidate[] = [];
    for (let i = 0; i < 10_000; i++) {
      many.push({
        name: `tool-${i}`,
        description: `Convert ${i % 7 === 0 ? 'pdf' : 'csv'} invoices and reports, number ${i}.`,
        keywords: i % 3 === 0 ? ['invoice'] : undefined,
      });
    }
    const byName = (r: ReturnType<typeof selectSkills>) =>
      (plain(r.ranked) as { name: string }[]).sort((a, b) => (a.name < b.name ? -1 : 1));
    const forward = selectSkills('convert this pdf invoice', many, { max: 3 });
    const backward = selectSkills('convert this pdf invoice', [...many].reverse(), { max: 3 });
    expect(forward.ranked.length).toBeGreaterThan(3000);
    expect(byName(backward)).toEqual(byName(forward));
  });
});
