import { describe, expect, it } from 'vitest';
import {
  markSkillWarnings,
  SHOWN_SKILL_WARNINGS,
  shownWarnings,
  skillWarningsOf,
} from '../../../src/prompt/skill-warnings.js';

const about = (n: number) => Array.from({ length: n }, (_, i) => `skill-${i}: skipped`);

describe('shownWarnings: the first warnings about single skills, how many more, and every warning about the run', () => {
  it('shows all when they are few, or with verbose', () => {
    for (const n of [0, 1, SHOWN_SKILL_WARNINGS, SHOWN_SKILL_WARNINGS + 1]) {
      const w = [...about(n), 'the tier is over the limit'];
      expect(shownWarnings(w, n)).toEqual(w);
    }
    const many = [...about(500), 'run'];
    expect(shownWarnings(many, 500, true)).toEqual(many);
  });

  it('cuts many to the first few, says how many more, and keeps the warnings after them whole', () => {
    const w = [...about(7018), 'the tier is over the limit', '--budget 10: dropped x'];
    expect(shownWarnings(w, 7018)).toEqual([
      ...about(SHOWN_SKILL_WARNINGS),
      '… and 7,008 more warnings about single skills; --verbose shows them all',
      'the tier is over the limit',
      '--budget 10: dropped x',
    ]);
    // Two past the limit: one line of "more" stands for two warnings.
    expect(shownWarnings(about(SHOWN_SKILL_WARNINGS + 2), SHOWN_SKILL_WARNINGS + 2)).toHaveLength(
      SHOWN_SKILL_WARNINGS + 1,
    );
  });

  it('carries the count on a result without putting it into its JSON', () => {
    const result = markSkillWarnings({ warnings: about(3) }, 3);
    expect(skillWarningsOf(result)).toBe(3);
    expect(JSON.stringify(result)).toBe(JSON.stringify({ warnings: about(3) }));
    expect(skillWarningsOf({ warnings: [] })).toBe(0);
  });
});
