import { it } from 'vitest';
import rule from '../../../../src/lint/rules/description-too-short.js';
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

it('description-too-short', () =>
  testRule(rule, {
    valid: [
      { tree: md('Extract text from PDF files. Use when the user mentions PDFs.') },
      { tree: md('a'.repeat(20)) },
      { tree: manifest('Twenty characters!!!') },
      { tree: md('Short one'), options: { minLength: 5 } },
      // An empty description is validate's to report (SK011).
      { tree: md('') },
    ],
    invalid: [
      {
        tree: md('Helps with PDFs'),
        messages: [/description is 15 characters long; expected at least 20/],
        lines: [3],
      },
      { tree: md('a'.repeat(19)), messages: [/19 characters long/] },
      // Code points, not UTF-16 units: 10 emoji are 10 characters though 20 units.
      { tree: md('😀'.repeat(10)), messages: [/10 characters long/] },
      { tree: manifest('Does stuff'), messages: [/10 characters long/], lines: [5] },
      {
        tree: md('Extract text from PDF files.'),
        options: { minLength: 40 },
        messages: [/28 characters long; expected at least 40/],
      },
    ],
  }));
