import { it } from 'vitest';
import rule from '../../../../src/lint/rules/description-angle-brackets.js';
import { testRule } from '../../../helpers/rule-tester.js';
import { skillMd } from '../../../helpers/tree.js';

const md = (description: string) => ({
  'SKILL.md': skillMd(`name: demo\ndescription: ${JSON.stringify(description)}\n`),
});
const manifest = (description: string) => ({
  'manifest.json': JSON.stringify(
    { id: 'demo', name: 'Demo', version: '1.0.0', description, owner: 'built-in' },
    null,
    2,
  ),
});

it('description-angle-brackets', () =>
  testRule(rule, {
    valid: [
      { tree: md('Extract text from PDF files. Use when the user mentions PDFs.') },
      { tree: manifest('Compare numbers (less than, more than). Use when asked.') },
      { tree: md('Arrows → and ≥ are not angle brackets. Use when testing.') },
      { tree: md('') },
    ],
    invalid: [
      {
        tree: md('Read <file> and summarise it. Use when asked.'),
        messages: [/contains "<" and ">" \(first at character 6\); expected plain text without angle brackets/],
        lines: [3],
      },
      { tree: md('Keep values > 0. Use when checking data.'), messages: [/contains ">" \(first at character 13\)/] },
      { tree: md('Find x < 3. Use when testing.'), messages: [/contains "<" \(first/] },
      {
        tree: manifest('Wraps <instructions> tags. Use when testing.'),
        messages: [/contains "<" and ">"/],
        lines: [5],
      },
      { tree: md('😀 then > here. Use when testing.'), messages: [/first at character 8\)/] },
    ],
  }));
