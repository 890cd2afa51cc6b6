import { it } from 'vitest';
import rule from '../../../../src/lint/rules/skill-size.js';
import { testRule } from '../../../helpers/rule-tester.js';
import { skillMd } from '../../../helpers/tree.js';

const fm = 'name: demo\ndescription: Demo skill. Use when testing.\n';
const manifest = JSON.stringify({
  id: 'demo',
  name: 'Demo',
  version: '1.0.0',
  description: 'Demo. Use when testing.',
  owner: 'built-in',
  context: ['context/instructions.md'],
});
const MIB = 1024 * 1024;

it('skill-size', () =>
  testRule(rule, {
    valid: [
      { tree: { 'SKILL.md': skillMd(fm), 'assets/data.bin': 'x'.repeat(1000) } },
      { tree: { 'SKILL.md': skillMd(fm), 'assets/data.bin': 'x'.repeat(1000) }, options: { maxBytes: 2000 } },
      // A symlink out (here to the node binary, far over 8 MiB) is not the skill's; one inside is counted where it
      // points.
      {
        tree: {
          'SKILL.md': skillMd(fm),
          'assets/node': { symlink: process.execPath },
          'assets/a.bin': 'x'.repeat(600),
          'assets/b.bin': { symlink: 'a.bin' },
        },
        options: { maxBytes: 1000 },
      },
    ],
    invalid: [
      {
        tree: { 'SKILL.md': skillMd(fm), 'assets/big.bin': 'x'.repeat(8 * MIB + 1) },
        messages: [/^the skill's files add up to 8\.0 MiB; keep them under 8\.0 MiB$/],
      },
      {
        tree: { 'SKILL.md': skillMd(fm), 'assets/a.bin': 'x'.repeat(1500), 'scripts/b.py': 'x'.repeat(1500) },
        options: { maxBytes: 2048 },
        messages: [/add up to 3\.\d KiB; keep them under 2\.0 KiB/],
      },
      {
        tree: { 'manifest.json': manifest, 'context/instructions.md': 'x'.repeat(3000) },
        options: { maxBytes: 2048 },
        messages: [/add up to/],
      },
    ],
  }));
