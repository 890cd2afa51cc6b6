import { it } from 'vitest';
import rule from '../../../../src/lint/rules/trigger-pattern-cost.js';
import { testRule } from '../../../helpers/rule-tester.js';
import { skillMd } from '../../../helpers/tree.js';

const md = (patterns: string[]) => ({
  'SKILL.md': skillMd(
    `name: demo\ndescription: Use when testing.\ntriggers:\n  patterns:\n${patterns.map((p) => `    - ${JSON.stringify(p)}\n`).join('')}`,
  ),
});

it('trigger-pattern-cost', () =>
  testRule(rule, {
    valid: [
      { tree: md(['scrap(e|ing)\\s+\\w+', '\\d{4}-\\d{2}-\\d{2}', '[a-z]{2,50}']) },
      { tree: md(Array.from({ length: 50 }, (_, i) => `word${i}`)) },
      { tree: { 'SKILL.md': skillMd('name: demo\ndescription: Use when testing.\n') } },
    ],
    invalid: [
      {
        tree: md(['ok', '[\\s\\S]{1000}q{1000}']),
        messages: [/^triggers\.patterns\[1\] \/\[\\s\\S\]\{1000\}q\{1000\}\/ compiles to about 2\d{3} instructions/],
        lines: [7],
      },
      {
        tree: md(['((a{10}){10}){20}']),
        messages: [/compiles to about \d+ instructions \(a large or nested repetition count\); render-prompt skips/],
      },
      {
        tree: md([`a${'b'.repeat(600)}`]),
        messages: [/is 601 characters long; render-prompt skips patterns over 500/],
      },
      {
        tree: md(Array.from({ length: 51 }, (_, i) => `word${i}`)),
        messages: [/^51 trigger patterns; render-prompt tries only the first 50/],
        lines: [56],
      },
    ],
  }));
