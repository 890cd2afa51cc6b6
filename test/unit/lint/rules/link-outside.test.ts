import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import rule from '../../../../src/lint/rules/link-outside.js';
import { checkAt } from '../../../helpers/rule-tester.js';
import { skillMd } from '../../../helpers/tree.js';

const base = mkdtempSync(join(tmpdir(), 'skills-link-outside-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

it('link-outside: links out, nowhere and in a loop are reported; links inside, and the skill file itself, are not', async () => {
  const root = join(base, 'demo');
  mkdirSync(join(root, 'references'), { recursive: true });
  mkdirSync(join(base, 'shared'));
  writeFileSync(join(base, 'shared', 'notes.md'), '# Shared\n');
  writeFileSync(join(root, 'SKILL.md'), skillMd('name: demo\ndescription: Demo skill. Use when testing.\n'));
  writeFileSync(join(root, 'references', 'api.md'), '# API\n');
  symlinkSync('api.md', join(root, 'references', 'same.md'));
  symlinkSync('references', join(root, 'docs'));
  symlinkSync('../../shared/notes.md', join(root, 'references', 'notes.md'));
  symlinkSync('/etc/hostname', join(root, 'host'));
  symlinkSync('missing.md', join(root, 'references', 'gone.md'));
  symlinkSync('loop-b', join(root, 'loop-a'));
  symlinkSync('loop-a', join(root, 'loop-b'));
  const { reports } = await checkAt(rule, root);
  expect(reports.map((r) => r.message).sort()).toEqual([
    `host is a symbolic link that leads out of the skill (to /etc/hostname): pack refuses it, install and registry sync leave it out`,
    'loop-a is a symbolic link that leads nowhere (or loops): pack refuses it, install and registry sync leave it out',
    'loop-b is a symbolic link that leads nowhere (or loops): pack refuses it, install and registry sync leave it out',
    'references/gone.md is a symbolic link that leads nowhere (or loops): pack refuses it, install and registry sync leave it out',
    `references/notes.md is a symbolic link that leads out of the skill (to ${join(base, 'shared', 'notes.md')}): pack refuses it, install and registry sync leave it out`,
  ]);
  expect(reports.every((r) => r.file?.startsWith(root))).toBe(true);
});
