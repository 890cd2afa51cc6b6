import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import rule from '../../../../src/lint/rules/empty-folder.js';
import { checkAt, testRule } from '../../../helpers/rule-tester.js';
import { skillMd, writeTree } from '../../../helpers/tree.js';

const fm = 'name: demo\ndescription: Demo skill. Use when testing.\n';
const manifest = JSON.stringify({
  id: 'demo',
  name: 'Demo',
  version: '1.0.0',
  description: 'Demo. Use when testing.',
  owner: 'built-in',
  context: ['context/instructions.md'],
});

it('empty-folder', () =>
  testRule(rule, {
    valid: [
      { tree: { 'SKILL.md': skillMd(fm) } },
      {
        tree: {
          'SKILL.md': skillMd(fm),
          'scripts/run.py': '',
          'references/deep/api.md': '',
          'assets/.gitkeep': '',
          'assets/logo.png': '',
        },
      },
      // Other folders are not this rule's business.
      { tree: { 'SKILL.md': skillMd(fm), 'docs/.gitkeep': '' } },
    ],
    invalid: [
      { tree: { 'SKILL.md': skillMd(fm), 'scripts/.gitkeep': '' }, messages: [/^scripts\/ is empty$/] },
      {
        tree: { 'SKILL.md': skillMd(fm), 'references/api/.keep': '', 'assets/sub/.DS_Store': '' },
        messages: [/^references\/ is empty/, /^assets\/ is empty/],
      },
      {
        tree: { 'manifest.json': manifest, 'context/instructions.md': '', 'scripts/.gitkeep': '' },
        messages: [/^scripts\/ is empty/],
      },
    ],
  }));

it('empty-folder: a folder with nothing in it at all', async () => {
  const base = mkdtempSync(join(tmpdir(), 'skills-rule-'));
  try {
    const root = join(base, 'demo');
    writeTree(root, { 'SKILL.md': skillMd(fm) });
    mkdirSync(join(root, 'assets'));
    mkdirSync(join(root, 'references', 'a', 'b'), { recursive: true });
    const { reports } = await checkAt(rule, root);
    expect(reports.map((r) => r.message)).toEqual(['references/ is empty', 'assets/ is empty']);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
