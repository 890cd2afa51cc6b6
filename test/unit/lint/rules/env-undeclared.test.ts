import { expect, it } from 'vitest';
import rule, { envReads } from '../../../../src/lint/rules/env-undeclared.js';
import { runRule, testRule } from '../../../helpers/rule-tester.js';
import { skillMd } from '../../../helpers/tree.js';

const fm = 'name: demo\ndescription: Demo skill. Use when testing.\n';
const manifest = (envVars: string[] = [], extra: Record<string, unknown> = {}) =>
  JSON.stringify(
    {
      id: 'demo',
      name: 'Demo',
      version: '1.0.0',
      description: 'Demo. Use when testing.',
      owner: 'built-in',
      envVars,
      ...extra,
    },
    null,
    2,
  );
const skill = (envVars: string[], files: Record<string, string>) => ({
  tree: { 'manifest.json': manifest(envVars), '.env.example': envVars.map((v) => `${v}=\n`).join(''), ...files },
});

it('env-undeclared', () =>
  testRule(rule, {
    valid: [
      skill(['API_KEY'], {
        'scripts/a.sh':
          '#!/bin/sh\nset -e\ncurl -H "Authorization: Bearer $API_KEY" "$HOME/x" "${TMPDIR:-/tmp}" "$LC_ALL"\n',
      }),
      skill(['API_KEY'], {
        'scripts/a.js':
          "#!/usr/bin/env node\nconst k = process.env.API_KEY;\nconst h = process.env['HOME'];\n// process.env.OLD_KEY\nprocess.env.SET_HERE = '1';\n",
        'scripts/b.py':
          "#!/usr/bin/env python3\nimport os\nk = os.environ['API_KEY']\nos.environ['WRITTEN'] = 'x'\n# os.getenv('IN_COMMENT')\n",
      }),
      // Variables the script sets itself, single quotes, comments, quoted heredocs, escaped dollars.
      skill([], {
        'scripts/a.sh':
          [
            '#!/usr/bin/env bash',
            'set -euo pipefail',
            'OUT=/tmp/out; export MODE=fast; local -r LEVEL=2',
            'for FILE in *; do echo "$FILE $OUT $MODE $LEVEL"; done',
            'read -r -p "name? " ANSWER; echo "$ANSWER"',
            "awk '{print $NF}' x",
            "echo 'cost: $PRICE'",
            '# uses $COMMENTED',
            'echo "\\$ESCAPED ${#OUT} $1 $@ $$ $lower"',
            "cat <<'EOF'",
            '$LITERAL',
            'EOF',
            'echo "$RANDOM $BASH_SOURCE $PWD $CI $SKILL_DIR"',
          ].join('\n') + '\n',
      }),
      // Scripts of a SKILL.md skill: the layout has no envVars to compare with.
      { tree: { 'SKILL.md': skillMd(fm), 'scripts/a.sh': '#!/bin/sh\nset -e\necho "$TOKEN"\n' } },
      // Names the options leave alone.
      {
        ...skill([], { 'scripts/a.sh': '#!/bin/sh\nset -e\necho "$MY_CI_FLAG $GH_X"\n' }),
        options: { ignore: ['MY_CI_FLAG', 'GH_*'] },
      },
      // Data files in scripts/ are not read for variables.
      skill([], { 'scripts/notes.md': 'Set $TOKEN first.\n' }),
    ],
    invalid: [
      {
        ...skill(['API_KEY'], {
          'scripts/a.sh': '#!/bin/sh\nset -e\ncurl -H "X: $TOKEN" "${BASE_URL:-https://x}" "$API_KEY"\necho "$TOKEN"\n',
        }),
        messages: [/^scripts\/a\.sh reads TOKEN, which envVars does not declare/, /reads BASE_URL/],
        lines: [3, 3],
      },
      {
        ...skill([], {
          'scripts/a.js':
            "#!/usr/bin/env node\nconst a = process.env.API_TOKEN;\nconst b = process.env['OTHER'];\nconst c = Deno.env.get(\"DENO_VAR\");\nconst { ONE, TWO: two, THREE = 3 } = process.env;\nif (process.env.API_TOKEN === 'x') {}\n",
        }),
        messages: [/reads API_TOKEN/, /reads OTHER/, /reads DENO_VAR/, /reads ONE/, /reads TWO/, /reads THREE/],
        lines: [2, 3, 4, 5, 5, 5],
      },
      {
        ...skill(['A'], {
          'scripts/b.py':
            "import os\na = os.environ['A']\nb = os.environ.get(\"B\", 'x')\nc = os.getenv('C')\nd = environ[\"D\"]\n",
        }),
        messages: [/^scripts\/b\.py reads B/, /reads C/, /reads D/],
        lines: [3, 4, 5],
      },
      // An unquoted heredoc expands its variables; Ruby and Perl reads; a shell script known by its shebang only.
      {
        ...skill([], {
          'scripts/c.sh': '#!/bin/sh\nset -e\ncat <<EOF\nkey=$HEREDOC_VAR\nEOF\n',
          'scripts/d.rb': "#!/usr/bin/env ruby\nputs ENV['RUBY_VAR']\nputs ENV.fetch('RUBY_TWO')\n",
          'scripts/e.pl': '#!/usr/bin/perl\nprint $ENV{PERL_VAR};\n',
          'scripts/run': '#!/usr/bin/env bash\nset -e\necho "${NOEXT}"\n',
        }),
        messages: [
          /^scripts\/c\.sh reads HEREDOC_VAR/,
          /^scripts\/d\.rb reads RUBY_VAR/,
          /RUBY_TWO/,
          /^scripts\/e\.pl reads PERL_VAR/,
          /^scripts\/run reads NOEXT/,
        ],
        lines: [4, 2, 3, 2, 3],
      },
    ],
  }));

it('env-undeclared reports each variable once, at its first read, with its column', async () => {
  const r = await runRule(
    rule,
    skill([], { 'scripts/a.sh': '#!/bin/sh\nset -e\necho x "$TOKEN"\necho "$TOKEN" ${TOKEN}\n' }),
  );
  try {
    expect(r.reports.map((x) => [x.line, x.column])).toEqual([[3, 10]]);
    expect(r.reports[0]!.file).toBe(`${r.root}/scripts/a.sh`);
    expect(r.reports[0]!.hint).toMatch(/add "TOKEN" to envVars/);
  } finally {
    r.cleanup();
  }
});

it('envReads tells languages apart by shebang and extension', () => {
  expect(envReads('scripts/x.ts', 'const a = process.env.TS_VAR;\n')).toEqual([
    { name: 'TS_VAR', line: 1, column: 23 },
  ]);
  expect(envReads('scripts/x', '#!/usr/bin/env python3\nimport os\nos.getenv("P")\n')).toEqual([
    { name: 'P', line: 3, column: 12 },
  ]);
  expect(envReads('scripts/x.txt', 'process.env.NOPE\n')).toEqual([]);
  // Multi-line single quotes hide their dollars.
  expect(envReads('a.sh', "awk '\n{ print $NF }\n' f\necho $REAL\n").map((r) => r.name)).toEqual(['REAL']);
});

it('envReads stays fast on hostile text', () => {
  const inputs: [string, string][] = [
    ['a.sh', `${'$A'.repeat(100_000)}\n`],
    ['a.sh', `${'x '.repeat(200_000)}=\n`],
    ['a.sh', `${"'".repeat(100_001)}\n${'"'.repeat(100_001)}\n`],
    ['a.sh', `${'export -a '.repeat(50_000)}X=1\n`],
    ['a.js', `${'{'.repeat(100_000)}${'a,'.repeat(100_000)}`],
    ['a.js', `${'process.env.'.repeat(50_000)}`],
    ['a.py', `${"os.environ[' ".repeat(50_000)}`],
  ];
  for (const [p, s] of inputs) {
    // A regex that backtracks on this input would hang here until the test times out.
    expect(Array.isArray(envReads(p, s))).toBe(true);
  }
});
