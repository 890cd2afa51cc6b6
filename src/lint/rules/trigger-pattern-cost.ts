import {
  MAX_PATTERN_CHARS,
  MAX_PATTERN_COST,
  MAX_PATTERNS_PER_SKILL,
  patternCost,
} from '../../formats/trigger-limits.js';
import type { Rule } from '../types.js';

// render-prompt skips the trigger patterns that would cost too much to match (formats/trigger-limits.ts); this
// rule tells the author before an agent silently never selects the skill by them.
export default {
  names: ['SK128', 'trigger-pattern-cost'],
  description: `trigger patterns are few (at most ${MAX_PATTERNS_PER_SKILL}), short and cheap to match, so render-prompt tries every one`,
  tags: ['triggers', 'performance'],
  layouts: ['skill-md', 'manifest'],
  severity: 'warning',
  sources: ['RE2 matches in time linear in the input, times the size of the compiled pattern'],
  fixable: false,
  check(skill, ctx) {
    const patterns = skill.triggers?.patterns ?? [];
    const at = (i: number) => skill.positions[`triggers.patterns[${i}]`] ?? skill.positions['triggers'];
    if (patterns.length > MAX_PATTERNS_PER_SKILL) {
      const pos = at(MAX_PATTERNS_PER_SKILL);
      ctx.report({
        message: `${patterns.length} trigger patterns; render-prompt tries only the first ${MAX_PATTERNS_PER_SKILL}`,
        line: pos?.line,
        column: pos?.column,
        hint: 'merge patterns into alternations, or use triggers.keywords, which cost nothing to match',
      });
    }
    patterns.forEach((p, i) => {
      const pos = at(i);
      const where = { line: pos?.line, column: pos?.column };
      const shown = p.length > 60 ? `${p.slice(0, 60)}…` : p;
      if (p.length > MAX_PATTERN_CHARS) {
        ctx.report({
          ...where,
          message: `triggers.patterns[${i}] is ${p.length} characters long; render-prompt skips patterns over ${MAX_PATTERN_CHARS}`,
          hint: 'split it into shorter patterns, or use keywords',
        });
        return;
      }
      const cost = patternCost(p);
      if (cost > MAX_PATTERN_COST) {
        ctx.report({
          ...where,
          message: `triggers.patterns[${i}] /${shown}/ compiles to about ${cost} instructions (a large or nested repetition count); render-prompt skips patterns over ${MAX_PATTERN_COST}`,
          hint: 'use an unbounded repetition (\\w+ rather than \\w{1,500}), or a smaller count',
        });
      }
    });
  },
} satisfies Rule;
