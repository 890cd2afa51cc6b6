import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { lfsPointerSize } from '../../../../src/formats/lfs-pointer.js';
import rule from '../../../../src/lint/rules/lfs-pointer.js';
import { checkAt } from '../../../helpers/rule-tester.js';
import { skillMd } from '../../../helpers/tree.js';

const base = mkdtempSync(join(tmpdir(), 'skills-lfs-pointer-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A pointer as git lfs writes it. */
const pointer = (size: number) =>
  `version https://git-lfs.github.com/spec/v1\noid sha256:${'4d7a'.repeat(16)}\nsize ${size}\n`;

it('lfsPointerSize: a pointer gives the size it stands for; anything else (a near miss too) gives nothing', () => {
  expect(lfsPointerSize(pointer(12345))).toBe(12345);
  expect(lfsPointerSize(pointer(0))).toBe(0);
  expect(lfsPointerSize(`${pointer(1)}ext-0-foo sha256:${'a'.repeat(64)}\n`)).toBe(1);
  expect(lfsPointerSize('print("hello")\n')).toBeUndefined();
  // The first line must be the spec's; the oid must be a sha256; the file must be small.
  expect(lfsPointerSize(pointer(1).replace('spec/v1', 'spec/v2'))).toBeUndefined();
  expect(lfsPointerSize(pointer(1).replace('sha256:', 'sha1:'))).toBeUndefined();
  expect(lfsPointerSize(`# Notes\n\n${pointer(1)}`)).toBeUndefined();
  expect(lfsPointerSize(pointer(1) + 'x'.repeat(1024))).toBeUndefined();
});

it('lfs-pointer: each pointer file of the skill is reported with the size it stands for; real files are not', async () => {
  const root = join(base, 'demo');
  mkdirSync(join(root, 'scripts'), { recursive: true });
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'SKILL.md'), skillMd('name: demo\ndescription: Demo skill. Use when testing.\n'));
  writeFileSync(join(root, 'scripts', 'run.py'), pointer(2048));
  writeFileSync(join(root, 'assets', 'logo.png'), pointer(90210));
  writeFileSync(join(root, 'scripts', 'real.py'), 'print("hi")\n');
  // A guide that quotes a pointer is a guide.
  writeFileSync(join(root, 'lfs.md'), `# LFS\n\nA pointer looks like:\n\n${pointer(5)}`);
  const { reports } = await checkAt(rule, root);
  expect(reports.map((r) => [r.file, r.message])).toEqual([
    [
      join(root, 'assets', 'logo.png'),
      'assets/logo.png is a Git LFS pointer (to a file of 90210 bytes), not the file: its content was never fetched',
    ],
    [
      join(root, 'scripts', 'run.py'),
      'scripts/run.py is a Git LFS pointer (to a file of 2048 bytes), not the file: its content was never fetched',
    ],
  ]);
});
