import { expect, it } from 'vitest';
import rule from '../../../../src/lint/rules/file-reference-backslash.js';
import { runRule, testRule } from '../../../helpers/rule-tester.js';
import { skillMd } from '../../../helpers/tree.js';

const fm = 'name: demo\ndescription: Demo skill. Use when testing.\n';
const md = (body: string) => skillMd(fm, body);
const manifest = JSON.stringify({
  id: 'demo',
  name: 'Demo',
  version: '1.0.0',
  description: 'Demo. Use when testing.',
  owner: 'built-in',
  context: ['context/instructions.md'],
});
const files = { 'scripts/run.py': '', 'references/api.md': '# API\n' };

it('file-reference-backslash', () =>
  testRule(rule, {
    valid: [
      { tree: { ...files, 'SKILL.md': md('Run scripts/run.py and read [API](references/api.md).\n') } },
      // A Windows path-traversal payload in a table of attacks (awesome-copilot): no path of the skill to rewrite.
      {
        tree: {
          ...files,
          'SKILL.md': md('| Path traversal | `..\\..\\..\\.env`, `..\\..\\..\\windows\\win.ini` must be rejected |\n'),
        },
      },
      // Not references to the skill's files: Windows absolute paths, variables, regexes.
      {
        tree: {
          ...files,
          'SKILL.md': md('Logs go to C:\\Users\\me\\log.txt or %APPDATA%\\demo\\state.json; match \\d+\\w+.txt.\n'),
        },
      },
      // A Windows shell's script run as Windows writes it (microsoft/azure-skills: a powershell block beside a bash
      // one): PowerShell takes \ on every system, and cmd runs only on Windows.
      {
        tree: {
          'scripts/check-quota.ps1': '',
          'scripts/setup.cmd': '',
          'SKILL.md': md(
            '```powershell\n.\\scripts\\check-quota.ps1 -Region <region>\n```\n```bash\n./scripts/check-quota.sh\n```\n\nOn Windows: `scripts\\setup.cmd`.\n',
          ),
        },
      },
    ],
    invalid: [
      // Two on one line: one fix rewrites both.
      {
        tree: {
          ...files,
          'SKILL.md': md('# Demo\n\nRun `scripts\\run.py`, then read [API](references\\api.md#auth).\n'),
        },
        messages: [
          /"scripts\\run\.py" uses backslashes; write scripts\/run\.py/,
          /"references\\api\.md" uses backslashes/,
        ],
        lines: [7, 7],
        output: { 'SKILL.md': md('# Demo\n\nRun `scripts/run.py`, then read [API](references/api.md#auth).\n') },
      },
      // Escaped backslashes (doubled, as a JSON string or a shell's double quotes write them) are one separator each.
      {
        tree: { ...files, 'SKILL.md': md('Windows: run `node {baseDir}\\\\scripts\\\\run.py`.\n') },
        messages: [/"scripts\\\\run\.py" uses backslashes; write scripts\/run\.py$/],
        output: { 'SKILL.md': md('Windows: run `node {baseDir}/scripts/run.py`.\n') },
      },
      {
        tree: { ...files, 'SKILL.md': md('Run {baseDir}\\scripts\\run.py.\n'), 'other.md': 'unchanged\\x\n' },
        messages: [/uses backslashes/],
        output: { 'SKILL.md': md('Run {baseDir}/scripts/run.py.\n'), 'other.md': 'unchanged\\x\n' },
      },
      // In a referenced Markdown file, and in a manifest's context file.
      {
        tree: {
          'SKILL.md': md('See [API](references/api.md).\n'),
          'references/api.md': '# API\r\n\r\nSee [auth](.\\auth.md).\r\n',
          'references/auth.md': '',
        },
        messages: [/"\.\\auth\.md" uses backslashes/],
        lines: [3],
        output: { 'references/api.md': '# API\r\n\r\nSee [auth](./auth.md).\r\n' },
      },
      {
        tree: {
          ...files,
          'manifest.json': manifest,
          'context/instructions.md': 'Run:\n\n```sh\npython scripts\\run.py\n```\n',
        },
        messages: [/"scripts\\run\.py"/],
        lines: [4],
        output: { 'context/instructions.md': 'Run:\n\n```sh\npython scripts/run.py\n```\n' },
      },
      // No fix when the forward-slash path does not exist.
      {
        tree: { 'SKILL.md': md('Run scripts\\gone.py.\n'), 'scripts/x.py': '' },
        messages: [/"scripts\\gone\.py" uses backslashes/],
      },
    ],
  }));

it('file-reference-backslash: no fix without the file, one fix per line', async () => {
  const r = await runRule(rule, {
    tree: { 'SKILL.md': md('Run scripts\\gone.py and scripts\\run.py.\n'), 'scripts/run.py': '' },
  });
  try {
    expect(r.reports.map((x) => x.fix?.changes)).toEqual([
      undefined,
      [
        {
          kind: 'replace',
          file: r.skill.file,
          line: 5,
          expect: 'Run scripts\\gone.py and scripts\\run.py.',
          text: 'Run scripts\\gone.py and scripts/run.py.',
        },
      ],
    ]);
  } finally {
    r.cleanup();
  }
});
