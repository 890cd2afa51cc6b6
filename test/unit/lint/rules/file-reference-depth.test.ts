import { it } from 'vitest';
import rule from '../../../../src/lint/rules/file-reference-depth.js';
import { testRule } from '../../../helpers/rule-tester.js';
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
const deep = { 'references/api/v2/auth.md': '# Auth\n' };

it('file-reference-depth', () =>
  testRule(rule, {
    valid: [
      {
        tree: {
          'SKILL.md': md('Read [API](references/api.md), run scripts/run.py, see GUIDE.md via [guide](GUIDE.md).\n'),
          'references/api.md': '',
          'scripts/run.py': '',
          'GUIDE.md': '',
        },
      },
      { tree: { ...deep, 'SKILL.md': md('Read references/api/v2/auth.md.\n') }, options: { maxDepth: 3 } },
      // Two folders down, as Anthropic's claude-api skill links python/claude-api/README.md; a folder too.
      {
        tree: {
          'SKILL.md': md('Read `python/claude-api/README.md`; browse [the API docs](references/api/).\n'),
          'python/claude-api/README.md': '# Python\n',
          'references/api/a.md': '',
        },
      },
      // Scripts are run, not read: Anthropic's docx skill runs scripts/office/unpack.py, its pptx skill
      // ooxml/scripts/pack.py.
      {
        tree: {
          'SKILL.md': md(
            'Run `python scripts/office/unpack.py doc.docx out/` and `python ooxml/scripts/pack.py out/ x.pptx`.\n',
          ),
          'scripts/office/unpack.py': '',
          'ooxml/scripts/pack.py': '',
        },
      },
      // Missing files are file-reference-missing's.
      { tree: { 'SKILL.md': md('Read [x](references/a/b/c.md).\n') } },
      // A bare file name writes no folders: `package.json` in prose may match a template's file deep in assets/.
      {
        tree: {
          'SKILL.md': md('Add the script to your package.json, then read auth.md.\n'),
          'assets/templates/app/package.json': '{}',
          ...deep,
        },
      },
      // A skill-creator's template of a skill is content: its links are the new skill's, not this one's.
      {
        tree: {
          'SKILL.md': md('Copy [the template](assets/template/SKILL.md) and fill it in.\n'),
          'assets/template/SKILL.md': skillMd(fm, 'Read [the guide](references/guide.md).\n'),
          'assets/template/references/guide.md': '# Guide\n',
        },
      },
    ],
    invalid: [
      {
        tree: { ...deep, 'SKILL.md': md('# Demo\n\nRead [auth](references/api/v2/auth.md).\n') },
        messages: [/"references\/api\/v2\/auth\.md" is 3 folders deep; keep referenced files at most 2 folders below/],
        lines: [7],
      },
      {
        tree: { ...deep, 'SKILL.md': md('Browse [the API docs](references/api/v2/).\n') },
        messages: [/"references\/api\/v2" is 3 folders deep/],
      },
      // A document in a scripts folder is still read.
      {
        tree: { 'SKILL.md': md('Read scripts/office/README.txt first.\n'), 'scripts/office/README.txt': '' },
        options: { maxDepth: 1 },
        messages: [/"scripts\/office\/README\.txt" is 2 folders deep; keep referenced files at most 1 folder below/],
      },
      {
        tree: { ...deep, 'SKILL.md': md('Read references/api/v2/auth.md.\n') },
        options: { maxDepth: 1 },
        messages: [/3 folders deep; keep referenced files at most 1 folder below/],
      },
      // A SKILL.md of a nested skill (not below a folder of samples) is still read as a referenced file.
      {
        tree: {
          'SKILL.md': md('Its part: [part](parts/one/SKILL.md).\n'),
          'parts/one/SKILL.md': skillMd(fm, 'Read [the guide](references/guide.md).\n'),
          'parts/one/references/guide.md': '# Guide\n',
        },
        messages: [/"parts\/one\/references\/guide\.md" is 3 folders deep/],
      },
      // From a referenced file, relative to it; and in a manifest's context file.
      {
        tree: {
          ...deep,
          'SKILL.md': md('See [API](references/index.md).\n'),
          'references/index.md': '# API\n[auth](api/v2/auth.md)\n',
        },
        messages: [/"references\/api\/v2\/auth\.md" is 3 folders deep/],
        lines: [2],
      },
      {
        tree: { ...deep, 'manifest.json': manifest, 'context/instructions.md': 'Read references/api/v2/auth.md.\n' },
        messages: [/3 folders deep/],
        lines: [1],
      },
      // A deep file once per file that refers to it, at its first mention, with how many more (UiPath's skills link
      // the same deep guide on line after line: 1,172 findings for 34 skills, 635 files and targets).
      {
        tree: {
          ...deep,
          'references/b.md': '',
          'SKILL.md': md(
            'Read [auth](references/api/v2/auth.md).\n\nThen [auth again](references/api/v2/auth.md).\n\nAnd once more: references/api/v2/auth.md\n\nSee [b](references/b.md) and [c](references/c.md).\n',
          ),
          'references/c.md': 'Back to [auth](api/v2/auth.md).\n',
        },
        messages: [
          /^"references\/api\/v2\/auth\.md" is 3 folders deep; keep referenced files at most 2 folders below the skill root \(\+2 more references\)$/,
          /^"references\/api\/v2\/auth\.md" is 3 folders deep; keep referenced files at most 2 folders below the skill root$/,
        ],
        lines: [5, 1],
      },
    ],
  }));
