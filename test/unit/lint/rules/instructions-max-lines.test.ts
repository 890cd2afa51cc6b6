import { it } from 'vitest';
import rule from '../../../../src/lint/rules/instructions-max-lines.js';
import { testRule } from '../../../helpers/rule-tester.js';
import { skillMd } from '../../../helpers/tree.js';

const fm = 'name: demo\ndescription: Demo skill. Use when testing.\n';
const manifest = JSON.stringify({
  id: 'demo',
  name: 'Demo',
  version: '1.0.0',
  description: 'Demo. Use when testing.',
  owner: 'built-in',
  context: ['context/a.md', 'context/b.md'],
});

it('instructions-max-lines', () =>
  testRule(rule, {
    valid: [
      { tree: { 'SKILL.md': skillMd(fm, 'line\n'.repeat(500)) } },
      { tree: { 'SKILL.md': skillMd(fm, 'line\n'.repeat(20)) }, options: { maxLines: 20 } },
      // The last line counts whether or not it ends in a newline.
      { tree: { 'SKILL.md': skillMd(fm, `${'line\n'.repeat(19)}last`) }, options: { maxLines: 20 } },
    ],
    invalid: [
      {
        tree: { 'SKILL.md': skillMd(fm, 'line\n'.repeat(501)) },
        messages: [/501 lines long; keep them under 500/],
        lines: [5],
      },
      {
        tree: { 'SKILL.md': skillMd(fm, 'line\n'.repeat(21)) },
        options: { maxLines: 20 },
        messages: [/21 lines long/],
      },
      {
        tree: { 'SKILL.md': skillMd(fm, `${'line\n'.repeat(20)}last`) },
        options: { maxLines: 20 },
        messages: [/21 lines long/],
      },
      {
        // A blank line at the end is a line.
        tree: { 'SKILL.md': skillMd(fm, `${'line\n'.repeat(20)}\n`) },
        options: { maxLines: 20 },
        messages: [/21 lines long/],
      },
      {
        tree: { 'manifest.json': manifest, 'context/a.md': 'x\n'.repeat(300), 'context/b.md': 'y\n'.repeat(201) },
        messages: [/501 lines long/],
      },
    ],
  }));
