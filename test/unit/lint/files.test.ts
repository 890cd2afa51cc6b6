import { afterAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { skillFiles } from '../../../src/lint/files.js';
import { loadSkill } from '../../../src/skill/load.js';
import { tempFolders } from '../../helpers/cli.js';
import { skillMd, writeTree } from '../../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-lint-files-');
afterAll(cleanup);

describe('skillFiles: the texts rules read', () => {
  it('gives every file with LF line ends, whether it was written with CRLF, lone CRs or LF', () => {
    const dir = join(fresh(), 'tool');
    writeTree(dir, {
      'SKILL.md': skillMd('name: tool\ndescription: Does things. Use when asked to.'),
      'scripts/crlf.sh': '#!/bin/sh\r\nset -eu\r\necho a\r\n',
      'scripts/cr.sh': '#!/bin/sh\rset -eu\recho b\r',
      'scripts/mixed.sh': '#!/bin/sh\r\nset -eu\rand\necho c\n',
      'scripts/lf.sh': '#!/bin/sh\nset -eu\necho d\n',
    });
    const files = skillFiles(loadSkill(dir));
    expect(files.readText('scripts/crlf.sh')).toBe('#!/bin/sh\nset -eu\necho a\n');
    expect(files.readText('scripts/cr.sh')).toBe('#!/bin/sh\nset -eu\necho b\n');
    expect(files.readText('scripts/mixed.sh')).toBe('#!/bin/sh\nset -eu\nand\necho c\n');
    expect(files.readText('scripts/lf.sh')).toBe('#!/bin/sh\nset -eu\necho d\n');
  });
});

describe('skillFiles: binary files', () => {
  it('gives no text for a file with a NUL byte in its first 8 KiB, however long, and text for one past it', () => {
    const dir = join(fresh(), 'fonts');
    writeTree(dir, {
      'SKILL.md': skillMd('name: fonts\ndescription: Sets type. Use when asked to.'),
    });
    writeFileSync(join(dir, 'font.ttf'), Buffer.concat([Buffer.from([0, 1, 0, 0]), Buffer.alloc(64 * 1024, 0x41)]));
    writeFileSync(join(dir, 'small.bin'), Buffer.from([0x61, 0, 0x62]));
    writeFileSync(join(dir, 'late.txt'), `${'a'.repeat(8192)}\0b`);
    const files = skillFiles(loadSkill(dir));
    expect(files.readText('font.ttf')).toBeUndefined();
    expect(files.readText('small.bin')).toBeUndefined();
    expect(files.readText('late.txt')).toBe(`${'a'.repeat(8192)}\0b`);
    // What the open file was is kept for stat(), the binary file's too.
    expect(files.stat('font.ttf')?.size).toBe(4 + 64 * 1024);
  });
});
