import { afterAll, describe, expect, it } from 'vitest';
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
