import { describe, expect, it } from 'vitest';
import rule, { afterInterpreter, sourcing } from '../../../../src/lint/rules/script-shebang.js';
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
      // Only named, never run by path: an agent runs it with its interpreter, as the instructions do (Anthropic's
      // xlsx skill: "Use the provided `scripts/recalc.py` script"). Never mentioned and not executable: a test, a
      // module, a helper (Anthropic's office skills: scripts/office/helpers/merge_runs.py).
      {
        tree: {
          'SKILL.md': skillMd(
            fm,
            [
              'Use the provided `scripts/recalc.py` script to recalculate formulas:',
              '',
              '```bash',
              'python scripts/recalc.py out.xlsx',
              '```',
              '- `scripts/listed.py` - lists things; call it with python scripts/listed.py',
              'Run python tests against the app, then compare with scripts/far.py',
              'Sourced by `. "{baseDir}/scripts/log.sh"` first.',
            ].join('\n'),
          ),
          'scripts/recalc.py': 'print(1)\n',
          'scripts/listed.py': 'print(1)\n',
          'scripts/far.py': 'print(1)\n',
          'scripts/log.sh': 'log() { :; }\n',
          'scripts/test_recalc.py': 'def test(): ...\n',
          'scripts/office/helpers/merge_runs.py': 'def merge(): ...\n',
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
      // Modules whose names are not one word (found through the folder's index of words, by their first one), and
      // one with no word at all.
      {
        tree: {
          'SKILL.md': skillMd(fm, 'Run `scripts/run.sh` or `scripts/main.js`.\n'),
          'scripts/run.sh': {
            content: '#!/usr/bin/env bash\nsource "$(dirname "$0")/my-lib.sh"\n. ./---.sh\n',
            mode: 0o755,
          },
          'scripts/my-lib.sh': 'lib() { :; }\n',
          'scripts/---.sh': 'dashes() { :; }\n',
          'scripts/main.js': { content: "#!/usr/bin/env node\nconst u = require('./util.v2');\n", mode: 0o755 },
          'scripts/util.v2.js': 'module.exports = {};\n',
          'scripts/tool.py': { content: '#!/usr/bin/env python3\nfrom _private_helpers import x\n', mode: 0o755 },
          'scripts/_private_helpers.py': 'x = 1\n',
        },
      },
    ],
    invalid: [
      // "Run scripts/x.py" in a sentence says it is run, and how only when no command says otherwise: a command that
      // runs it through python (microsoft/cat-agent-skills' commenting-content) tells the agent how, and it needs no
      // shebang; run by path in a command too, or with no command at all, it does.
      {
        tree: {
          'SKILL.md': skillMd(
            fm,
            'Author comments.json, run scripts/inject.py, return the file.\n\n```bash\npython scripts/inject.py in.docx out.docx\n```\n\nThen run scripts/check.py.\n\nFinally run scripts/pack.py, as:\n\n```bash\npython scripts/pack.py out.docx\nscripts/pack.py --verify out.docx\n```\n',
          ),
          'scripts/inject.py': 'print(1)\n',
          'scripts/check.py': 'print(2)\n',
          'scripts/pack.py': 'print(3)\n',
        },
        messages: [/^scripts\/check\.py has no shebang/, /^scripts\/pack\.py has no shebang/],
      },
      // A module no sibling imports (the name only appears in a comment or a string) is still a script without a
      // shebang.
      {
        tree: {
          'SKILL.md': skillMd(fm),
          'scripts/main.py': {
            content: '#!/usr/bin/env python3\n# see github_utils for helpers\nprint("import github_utils")\n',
            mode: 0o755,
          },
          'scripts/github_utils.py': { content: 'x = 1\n', mode: 0o755 },
          'scripts/other/user.py': { content: '#!/usr/bin/env python3\nimport helpers\n', mode: 0o755 },
          'scripts/helpers.py': { content: 'y = 2\n', mode: 0o755 },
        },
        messages: [/scripts\/github_utils\.py has no shebang/, /scripts\/helpers\.py has no shebang/],
      },
      // Never mentioned, but executable: run by path it would go to sh, whatever it is written in.
      {
        tree: { 'SKILL.md': skillMd(fm), 'scripts/run.sh': { content: 'echo hi\n', mode: 0o755 } },
        messages: [/^scripts\/run\.sh has no shebang line/],
        lines: [1],
      },
      {
        tree: {
          'manifest.json': manifest({ scripts: ['scripts/build.py'] }),
          'scripts/build.py': 'print(1)\n',
          'scripts/tool': { content: 'echo hi\n', mode: 0o755 },
          'scripts/x.rb': { content: 'puts 1\n', mode: 0o755 },
        },
        messages: [
          /^scripts\/build\.py has no shebang/,
          /^scripts\/tool has no shebang/,
          /^scripts\/x\.rb has no shebang/,
        ],
      },
      // A shebang on the second line does not count.
      {
        tree: { 'SKILL.md': skillMd(fm), 'scripts/a.mjs': { content: '\n#!/usr/bin/env node\n', mode: 0o755 } },
        messages: [/scripts\/a\.mjs has no shebang/],
      },
      {
        tree: { 'SKILL.md': skillMd(fm), 'scripts/a.sh': { content: '\ufeff#!/bin/sh\necho hi\n', mode: 0o755 } },
        messages: [/byte-order mark before #!/],
      },
      // A script declared in SKILL.md, outside scripts/.
      {
        tree: { 'SKILL.md': skillMd(`${fm}scripts:\n  - tools/go.ts\n`), 'tools/go.ts': 'console.log(1)\n' },
        messages: [/^tools\/go\.ts has no shebang/],
      },
      {
        tree: {
          'SKILL.md': skillMd(fm),
          'scripts/run.sh': { content: 'echo hi\n', mode: 0o755 },
          'scripts/b.py': { content: 'print(1)\n', mode: 0o755 },
        },
        options: { extensions: ['.py'] },
        messages: [/^scripts\/b\.py/],
      },
      // Run by path (`./x.py`, a command with arguments), or declared.
      {
        tree: {
          'SKILL.md': skillMd(
            `${fm}scripts:\n  - scripts/declared.py\n`,
            [
              'Run `python scripts/by_path.py` or `./scripts/by_path.py`.',
              'Then `scripts/start.py --port 1` and `python scripts/declared.py`.',
              'Run: scripts/check.py',
              '',
              '```bash',
              '$ scripts/fetch.py --all',
              '```',
            ].join('\n'),
          ),
          'scripts/by_path.py': 'print(1)\n',
          'scripts/start.py': 'print(1)\n',
          'scripts/declared.py': 'print(1)\n',
          'scripts/check.py': 'print(1)\n',
          'scripts/fetch.py': 'print(1)\n',
        },
        messages: [
          /^scripts\/by_path\.py has no shebang/,
          /^scripts\/check\.py/,
          /^scripts\/declared\.py/,
          /^scripts\/fetch\.py/,
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

describe('a shell script that sources a sibling (sourcing)', () => {
  // The one regular expression it replaces, whose `[^\n]*?` made it quadratic in a line's length.
  const old = /(?:^|[;&|]|\bthen|\bdo)[ \t]*(?:source|\.)[ \t]+[^\n]*?(?<![\w.-])x\.sh\b/m;
  const now = sourcing(/(?<![\w.-])x\.sh\b/g);

  it('answers as the regular expression did, on 20,000 texts made of the pieces that matter', () => {
    const pieces = [
      ';',
      '&',
      '|',
      ' ',
      '\t',
      '.',
      'source',
      'then',
      'do',
      'x.sh',
      'a',
      '\n',
      '-',
      'x',
      '.sh',
      'w',
      '/',
    ];
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % pieces.length;
    let matches = 0;
    for (let n = 0; n < 20_000; n++) {
      const text = Array.from({ length: 1 + (n % 24) }, () => pieces[next()]).join('');
      const expected = old.test(text);
      if (expected) matches++;
      expect(now.test(text), JSON.stringify(text)).toBe(expected);
    }
    // Both answers came up often.
    expect(matches).toBeGreaterThan(100);
    expect(matches).toBeLessThan(19_500);
  });

  it('takes time linear in the text, whatever its lines hold', () => {
    // Each of these took the regular expression minutes (a line of 60 KB of ";. " took 1.7 s).
    const hostile = [
      `;. `.repeat(400_000) + '\nx.sh\n',
      'x.sh\n'.repeat(200_000) + '. ./y.sh\n',
      `${'. '.repeat(200_000)}${'x.sh '.repeat(100_000)}`,
    ];
    expect(hostile.map((t) => now.test(t))).toEqual([false, false, true]);
  });
});
