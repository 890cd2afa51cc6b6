import { it } from 'vitest';
import rule from '../../../../src/lint/rules/script-shebang.js';
import { testRule } from '../../../helpers/rule-tester.js';
import { skillMd } from '../../../helpers/tree.js';

const fm = 'name: demo\ndescription: Demo skill. Use when testing.\n';
const manifest = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ id: 'demo', name: 'Demo', version: '1.0.0', description: 'Demo. Use when testing.', owner: 'built-in', ...extra }, null, 2);

it('script-shebang', () =>
  testRule(rule, {
    valid: [
      { tree: { 'SKILL.md': skillMd(fm), 'scripts/run.sh': '#!/usr/bin/env bash\necho hi\n', 'scripts/extract.py': '#!/usr/bin/env python3\nprint(1)\n' } },
      // Data files, Windows scripts, empty files, package metadata and Python package markers need no shebang.
      {
        tree: {
          'SKILL.md': skillMd(fm),
          'scripts/data.json': '{"a": 1}\n',
          'scripts/notes.md': '# notes\n',
          'scripts/requirements.txt': 'requests\n',
          'scripts/setup.ps1': 'Write-Host hi\n',
          'scripts/run.bat': '@echo off\n',
          'scripts/empty.sh': '',
          'scripts/lib/__init__.py': 'x = 1\n',
          'scripts/Makefile': 'all:\n\techo hi\n',
          'scripts/types.d.ts': 'export type A = 1;\n',
        },
      },
      { tree: { 'manifest.json': manifest({ scripts: ['scripts/build.js'] }), 'scripts/build.js': '#!/usr/bin/env node\nconsole.log(1)\n' } },
      // Only the extensions asked for.
      { tree: { 'SKILL.md': skillMd(fm), 'scripts/run.sh': 'echo hi\n' }, options: { extensions: ['.py'] } },
      // Files outside scripts/ that nothing declares are not scripts.
      { tree: { 'SKILL.md': skillMd(fm), 'tools/run.sh': 'echo hi\n' } },
    ],
    invalid: [
      { tree: { 'SKILL.md': skillMd(fm), 'scripts/run.sh': 'echo hi\n' }, messages: [/^scripts\/run\.sh has no shebang line/], lines: [1] },
      {
        tree: { 'manifest.json': manifest({ scripts: ['scripts/build.py'] }), 'scripts/build.py': 'print(1)\n', 'scripts/tool': 'echo hi\n', 'scripts/x.rb': 'puts 1\n' },
        messages: [/^scripts\/build\.py has no shebang/, /^scripts\/tool has no shebang/, /^scripts\/x\.rb has no shebang/],
      },
      // A shebang on the second line does not count.
      { tree: { 'SKILL.md': skillMd(fm), 'scripts/a.mjs': '\n#!/usr/bin/env node\n' }, messages: [/scripts\/a\.mjs has no shebang/] },
      { tree: { 'SKILL.md': skillMd(fm), 'scripts/a.sh': '\ufeff#!/bin/sh\necho hi\n' }, messages: [/byte-order mark before #!/] },
      // A script declared in SKILL.md, outside scripts/.
      { tree: { 'SKILL.md': skillMd(`${fm}scripts:\n  - tools/go.ts\n`), 'tools/go.ts': 'console.log(1)\n' }, messages: [/^tools\/go\.ts has no shebang/] },
      { tree: { 'SKILL.md': skillMd(fm), 'scripts/run.sh': 'echo hi\n', 'scripts/b.py': 'print(1)\n' }, options: { extensions: ['.py'] }, messages: [/^scripts\/b\.py/] },
    ],
  }));
