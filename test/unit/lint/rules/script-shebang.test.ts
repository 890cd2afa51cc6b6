import { expect, it } from 'vitest';
import rule, { afterInterpreter } from '../../../../src/lint/rules/script-shebang.js';
import { testRule } from '../../../helpers/rule-tester.js';
import { skillMd } from '../../../helpers/tree.js';

const fm = 'name: demo\ndescription: Demo skill. Use when testing.\n';
const manifest = (extra: Record<string, unknown> = {}) =>
  JSON.stringify(
    { id: 'demo', name: 'Demo', version: '1.0.0', description: 'Demo. Use when testing.', owner: 'built-in', ...extra },
    null,
    2,
  );

it('script-shebang', () =>
  testRule(rule, {
    valid: [
      {
        tree: {
          'SKILL.md': skillMd(fm),
          'scripts/run.sh': '#!/usr/bin/env bash\necho hi\n',
          'scripts/extract.py': '#!/usr/bin/env python3\nprint(1)\n',
        },
      },
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
      {
        tree: {
          'manifest.json': manifest({ scripts: ['scripts/build.js'] }),
          'scripts/build.js': '#!/usr/bin/env node\nconsole.log(1)\n',
        },
      },
      // Only the extensions asked for.
      { tree: { 'SKILL.md': skillMd(fm), 'scripts/run.sh': 'echo hi\n' }, options: { extensions: ['.py'] } },
      // Files outside scripts/ that nothing declares are not scripts.
      { tree: { 'SKILL.md': skillMd(fm), 'tools/run.sh': 'echo hi\n' } },
      // Anthropic's pdf skill: scripts only ever run through an interpreter, in the instructions or a Markdown file
      // they name (FORMS.md for forms.md), need no shebang.
      {
        tree: {
          'SKILL.md': skillMd(
            fm,
            [
              'To fill a form, read FORMS.md.',
              '',
              '```bash',
              'python3 -u scripts/a.py in.pdf',
              'uv run --with pypdf scripts/b.py',
              'bash /mnt/skills/user/demo/scripts/c.sh',
              'npx tsx {baseDir}/scripts/d.ts && deno run -A scripts/e.ts',
              '```',
            ].join('\n'),
          ),
          'forms.md': 'Run `python scripts/f.py <file.pdf>`, then `python scripts/a.py`.\n',
          'scripts/a.py': 'import sys\n',
          'scripts/b.py': 'import sys\n',
          'scripts/c.sh': 'echo hi\n',
          'scripts/d.ts': 'console.log(1)\n',
          'scripts/e.ts': 'console.log(1)\n',
          'scripts/f.py': 'import sys\n',
        },
      },
      // A file outside scripts/ that is only mentioned, not run by path.
      {
        tree: {
          'SKILL.md': skillMd(fm, 'Tools come from `tools/index.ts`; see ./tools/run.sh for details.\n'),
          'tools/index.ts': 'export {};\n',
          'tools/run.sh': 'echo hi\n',
        },
      },
      // OpenAI's skill-installer: scripts/github_utils.py is a module its sibling scripts import, not a script.
      {
        tree: {
          'SKILL.md': skillMd(fm, 'Run `scripts/list-skills.py`.\n'),
          'scripts/list-skills.py': {
            content: '#!/usr/bin/env python3\nfrom github_utils import github_request\n',
            mode: 0o755,
          },
          'scripts/github_utils.py': 'def github_request(url): ...\n',
          'scripts/install.js': { content: "#!/usr/bin/env node\nconst h = require('./helpers');\n", mode: 0o755 },
          'scripts/helpers.js': 'module.exports = {};\n',
          'scripts/run.sh': { content: '#!/usr/bin/env bash\nset -e\n. "$(dirname "$0")/common.sh"\n', mode: 0o755 },
          'scripts/common.sh': 'log() { echo "$@"; }\n',
        },
      },
    ],
    invalid: [
      // A module no sibling imports (the name only appears in a comment or a string) is still a script without a
      // shebang.
      {
        tree: {
          'SKILL.md': skillMd(fm),
          'scripts/main.py': {
            content: '#!/usr/bin/env python3\n# see github_utils for helpers\nprint("import github_utils")\n',
            mode: 0o755,
          },
          'scripts/github_utils.py': 'x = 1\n',
          'scripts/other/user.py': { content: '#!/usr/bin/env python3\nimport helpers\n', mode: 0o755 },
          'scripts/helpers.py': 'y = 2\n',
        },
        messages: [/scripts\/github_utils\.py has no shebang/, /scripts\/helpers\.py has no shebang/],
      },
      {
        tree: { 'SKILL.md': skillMd(fm), 'scripts/run.sh': 'echo hi\n' },
        messages: [/^scripts\/run\.sh has no shebang line/],
        lines: [1],
      },
      {
        tree: {
          'manifest.json': manifest({ scripts: ['scripts/build.py'] }),
          'scripts/build.py': 'print(1)\n',
          'scripts/tool': 'echo hi\n',
          'scripts/x.rb': 'puts 1\n',
        },
        messages: [
          /^scripts\/build\.py has no shebang/,
          /^scripts\/tool has no shebang/,
          /^scripts\/x\.rb has no shebang/,
        ],
      },
      // A shebang on the second line does not count.
      {
        tree: { 'SKILL.md': skillMd(fm), 'scripts/a.mjs': '\n#!/usr/bin/env node\n' },
        messages: [/scripts\/a\.mjs has no shebang/],
      },
      {
        tree: { 'SKILL.md': skillMd(fm), 'scripts/a.sh': '\ufeff#!/bin/sh\necho hi\n' },
        messages: [/byte-order mark before #!/],
      },
      // A script declared in SKILL.md, outside scripts/.
      {
        tree: { 'SKILL.md': skillMd(`${fm}scripts:\n  - tools/go.ts\n`), 'tools/go.ts': 'console.log(1)\n' },
        messages: [/^tools\/go\.ts has no shebang/],
      },
      {
        tree: { 'SKILL.md': skillMd(fm), 'scripts/run.sh': 'echo hi\n', 'scripts/b.py': 'print(1)\n' },
        options: { extensions: ['.py'] },
        messages: [/^scripts\/b\.py/],
      },
      // Also run by path, only mentioned (not run), declared, or run through an interpreter far before the path.
      {
        tree: {
          'SKILL.md': skillMd(
            `${fm}scripts:\n  - scripts/declared.py\n`,
            [
              'Run `python scripts/by_path.py` or `./scripts/by_path.py`.',
              'Then `scripts/start.py --port 1` and `python scripts/declared.py`.',
              '- `scripts/listed.py` - lists things; call it with python scripts/listed.py',
              'Run python tests against the app, then compare with scripts/far.py',
            ].join('\n'),
          ),
          'scripts/by_path.py': 'print(1)\n',
          'scripts/start.py': 'print(1)\n',
          'scripts/declared.py': 'print(1)\n',
          'scripts/listed.py': 'print(1)\n',
          'scripts/far.py': 'print(1)\n',
        },
        messages: [
          /^scripts\/by_path\.py has no shebang/,
          /^scripts\/declared\.py/,
          /^scripts\/far\.py/,
          /^scripts\/listed\.py/,
          /^scripts\/start\.py/,
        ],
      },
      // obra's systematic-debugging: a script outside scripts/ that a referenced file runs by path.
      {
        tree: {
          'SKILL.md': skillMd(fm, 'See `root-cause-tracing.md`.\n'),
          'root-cause-tracing.md':
            "Use `find-polluter.sh`:\n\n```bash\n./find-polluter.sh .git 'src/**/*.test.ts'\n```\n\n```sh\ncd x && tools/bisect.sh\n```\n",
          'find-polluter.sh': 'set -e\n',
          'tools/bisect.sh': 'set -e\n',
        },
        messages: [/^find-polluter\.sh has no shebang/, /^tools\/bisect\.sh has no shebang/],
      },
    ],
  }));

it('afterInterpreter', () => {
  for (const before of [
    'python ',
    '`python3.12 ',
    '$ /usr/bin/python3 -u ',
    'uv run --with pypdf ',
    'npx tsx ',
    'deno run -A ',
    'cd x && bash ',
    'source ',
    '(node ',
    'ruby -w ',
    'perl ',
    'sh -c "x" && sh ',
  ]) {
    expect(afterInterpreter(before), before).toBe(true);
  }
  for (const before of [
    '',
    'Run ',
    '`',
    './',
    'python tests against the app, then compare with ',
    'see the python docs for ',
    'python a b c d e ',
  ]) {
    expect(afterInterpreter(before), before).toBe(false);
  }
  // The look back is bounded: a long line costs no more than a short one.
  expect(afterInterpreter(`${'x '.repeat(100_000)}python `)).toBe(true);
});
