import { expect, it } from 'vitest';
import rule from '../../../../src/lint/rules/file-reference-missing.js';
import { runRule, testRule } from '../../../helpers/rule-tester.js';
import { skillMd } from '../../../helpers/tree.js';

const fm = 'name: demo\ndescription: Demo skill. Use when testing.\n';
// The body starts on line 5 of SKILL.md: ---, two frontmatter lines, ---.
const md = (body: string) => skillMd(fm, body);
const manifest = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ id: 'demo', name: 'Demo', version: '1.0.0', description: 'Demo. Use when testing.', owner: 'built-in', context: ['context/instructions.md'], ...extra });
const files = { 'scripts/run.py': 'print(1)\n', 'references/api.md': '# API\n', 'assets/logo.png': 'png' };

it('file-reference-missing', () =>
  testRule(rule, {
    valid: [
      {
        tree: {
          ...files,
          'SKILL.md': md(
            [
              '# Demo',
              'Run `scripts/run.py`, read [the API](references/api.md#auth) and show ![logo](./assets/logo.png).',
              'Also {baseDir}/scripts/run.py and ${CLAUDE_SKILL_DIR}/references/api.md, all of [references](references/).',
              'Write the result to `output/report.md` or /tmp/out.json; see https://example.com/docs/a.md.',
              '```bash',
              'python scripts/run.py > out/result.json',
              '```',
            ].join('\n'),
          ),
        },
      },
      // One level down: references/api.md links its neighbour relative to itself.
      { tree: { 'SKILL.md': md('See [API](references/api.md).\n'), 'references/api.md': '# API\n\nSchema: [schema](schema.json)\n', 'references/schema.json': '{}' } },
      // Paths in a context file resolve against its folder first, then the skill root.
      {
        tree: {
          'manifest.json': manifest(),
          'context/instructions.md': 'Run scripts/run.py; see [examples](examples.md) and [the API](../references/api.md).\n',
          'context/examples.md': '# Examples\n',
          ...files,
        },
      },
      // Bare paths in prose into folders the skill does not have are the user's files.
      { tree: { 'SKILL.md': md('Edit src/index.ts and ./config.json in the project.\n') } },
    ],
    invalid: [
      {
        tree: { ...files, 'SKILL.md': md('# Demo\n\nRead [the API](references/missing.md).\nThen run scripts/gone.py.\n') },
        messages: [/"references\/missing\.md" does not exist in the skill/, /"scripts\/gone\.py" does not exist/],
        lines: [7, 8],
      },
      // A link is checked even at the root; a fenced command into scripts/ is checked too.
      {
        tree: { 'SKILL.md': md('See [the guide](guide.md).\n\n```sh\npython3 scripts/missing.py\n```\n') },
        messages: [/"guide\.md" does not exist/, /"scripts\/missing\.py"/],
        lines: [5, 8],
      },
      { tree: { 'SKILL.md': md('Run {baseDir}/references/nope.md first.\n') }, messages: [/"references\/nope\.md" does not exist/] },
      // In a referenced Markdown file: reported there, with the path it was looked for at.
      {
        tree: { 'SKILL.md': md('See [API](references/api.md).\n'), 'references/api.md': '# API\n\nSee [auth](auth.md).\n' },
        messages: [/"auth\.md" \(references\/auth\.md\) does not exist/],
        lines: [3],
      },
      {
        tree: { 'manifest.json': manifest(), 'context/instructions.md': '# Tools\n\nRun `scripts/none.sh` first.\n', 'scripts/other.sh': '' },
        messages: [/"scripts\/none\.sh" does not exist/],
        lines: [3],
      },
    ],
  }));

it('file-reference-missing: hints at a near miss in case or folder', async () => {
  const r = await runRule(rule, { tree: { 'SKILL.md': md('Read references/API.md and scripts/run.py.\n'), 'references/api.md': '', 'tools/run.py': '' } });
  try {
    expect(r.reports.map((x) => [x.column, x.hint])).toEqual([
      [6, expect.stringMatching(/did you mean "references\/api\.md"\? Paths are case-sensitive/)],
      [28, 'did you mean "tools/run.py"?'],
    ]);
    expect(r.reports[0]!.file).toBe(r.skill.file);
  } finally {
    r.cleanup();
  }
});
