import { expect, it } from 'vitest';
import rule, { folderWords, mentionsFolder } from '../../../../src/lint/rules/unreferenced-file.js';
import { runRule, testRule } from '../../../helpers/rule-tester.js';
import { skillMd } from '../../../helpers/tree.js';

const fm = 'name: demo\ndescription: Demo skill. Use when testing.\n';
const md = (body: string, extra = '') => skillMd(fm + extra, body);
const manifest = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    id: 'demo',
    name: 'Demo',
    version: '1.0.0',
    description: 'Demo. Use when testing.',
    owner: 'built-in',
    context: ['context/instructions.md'],
    ...extra,
  });

it('unreferenced-file', () =>
  testRule(rule, {
    valid: [
      {
        tree: {
          'SKILL.md': md(
            'Run `scripts/run.py`; read [the API](references/api.md); start from ![t](assets/template.json).\n',
          ),
          'scripts/run.py': 'print(1)\n',
          'references/api.md': '# API\n',
          'assets/template.json': '{}',
          // Files for people, tools and the law.
          'LICENSE.txt': 'MIT',
          '.gitignore': '*.pyc\n',
          'scripts/requirements.txt': 'requests\n',
          'scripts/__pycache__/run.cpython-312.pyc': 'x',
        },
      },
      // Tests are the developers'; XML schemas name the schemas they import (Anthropic's office skills); Codex's
      // agents/openai.yaml names the skill's icon (trailofbits' skills).
      {
        tree: {
          'SKILL.md': md('Run `python scripts/validate.py doc/`.\n'),
          'scripts/validate.py': 'MAIN = {"word": "schemas/wml.xsd"}\n',
          'scripts/schemas/wml.xsd': '<xsd:import schemaLocation="dml-main.xsd"/>\n',
          'scripts/schemas/dml-main.xsd': '<xsd:import schemaLocation="../extra/vml.xsd"/>\n',
          'scripts/extra/vml.xsd': '<xsd:schema/>\n',
          'scripts/test_validate.py': 'def test(): ...\n',
          'tests/fixture.json': '{}',
          'web/app.test.ts': '',
          // Anthropic's skill-creator keeps a skill's evaluations in evals/evals.json (and its runs' results there).
          'evals/evals.json': '{"evals": []}',
          'evals/results.tsv': 'iter\tscore\n',
          'agents/openai.yaml': 'interface:\n  icon_small: "assets/mark.svg"\n',
          'assets/mark.svg': '<svg/>',
        },
      },
      // A folder mentioned as a whole covers every file in it.
      {
        tree: {
          'SKILL.md': md('Pick a template from `assets/` or [the references](references/).\n'),
          'assets/a.json': '',
          'assets/b/c.json': '',
          'references/x.md': '',
        },
      },
      // Chains of Markdown references, names without a folder, helpers a script imports, data a script opens.
      {
        tree: {
          'SKILL.md': md('Read [the guide](references/guide.md). Then run scripts/main.py.\n'),
          'references/guide.md': 'See [more](more.md).\n',
          'references/more.md': 'The schema is in Schema.JSON; see FORMS.md.\n',
          'forms.md': '',
          'references/schema.json': '{}',
          'scripts/main.py': 'from .helpers import go\nimport util_lib\nopen("../assets/data.csv")\n',
          'scripts/helpers.py': 'import deep_helper\n',
          'scripts/deep_helper.py': '',
          'scripts/util_lib.py': '',
          'assets/data.csv': 'a,b\n',
        },
      },
      // Anthropic's pdf skill: "read FORMS.md" names forms.md, whose commands name the scripts; mentions by name
      // (`root-cause-tracing.md`, then `find-polluter.sh` in it) reach past the first level too.
      {
        tree: {
          'SKILL.md': md(
            'For examples, see REFERENCE.md. To fill a form, read FORMS.md. See `root-cause-tracing.md`.\n',
          ),
          'forms.md': '# Forms\n\nRun `python scripts/convert_pdf_to_images.py <file.pdf> <dir>`.\n',
          'reference.md': '# Reference\n\nRun `python scripts/extract_form_field_info.py in.pdf`.\n',
          'scripts/convert_pdf_to_images.py': 'import sys\n',
          'scripts/extract_form_field_info.py': 'import json\n',
          'root-cause-tracing.md':
            'Use the bisection script `find-polluter.sh` in this directory:\n\n```bash\n./find-polluter.sh .git\n```\n',
          'find-polluter.sh': '#!/usr/bin/env bash\n',
        },
      },
      // Hosts' metadata (Codex's agents/openai.yaml, a registry's metadata.json), and Python modules imported by
      // dotted name (`from core.easing import x`, `import core.frames`) from the instructions or from code.
      {
        tree: {
          'SKILL.md': md(
            '```python\nfrom core.easing import interpolate\nimport core.frames\n```\n\nRun `python scripts/make.py`.\n',
          ),
          'agents/openai.yaml': 'interface:\n  display_name: "Demo"\n',
          'metadata.json': '{"version": "1.0.0"}\n',
          'core/__init__.py': '',
          'core/easing.py': '',
          'core/frames.py': '',
          'scripts/make.py': 'from lib.util import go\n',
          'scripts/lib/util.py': '',
        },
      },
      // Frontmatter scripts and toolsets.
      {
        tree: {
          'SKILL.md': md('Demo.\n', 'scripts:\n  - scripts/run.sh\ntoolsets:\n  - "toolsets/index:Demo"\n'),
          'scripts/run.sh': '',
          'toolsets/index.ts': 'export const Demo = [];\n',
        },
      },
      // Manifest: context, scripts, MCP server args, .env.example and a README.
      {
        tree: {
          'manifest.json': manifest({
            scripts: ['scripts/post.ts'],
            mcpServers: [{ name: 'm', type: 'local', command: 'node', args: ['mcp/server.js', '--verbose'] }],
          }),
          'context/instructions.md': '# Demo\n',
          'scripts/post.ts': '',
          'mcp/server.js': '',
          '.env.example': 'KEY=\n',
          'README.md': '# Demo\n',
        },
      },
    ],
    invalid: [
      // A skill nested in this one (SK133) refers to its own files: they are not this skill's to report
      // (grahama1970/agent-skills: 207 findings, 189 of them files of the 86 skills below a stray SKILL.md).
      {
        tree: {
          'SKILL.md': md('# Demo\n'),
          'notes.txt': '',
          'inbox/SKILL.md': skillMd('name: inbox\ndescription: Inbox. Use when testing.\n', 'Run scripts/poll.py.\n'),
          'inbox/scripts/poll.py': 'print(1)\n',
          'inbox/data/cache.json': '{}',
        },
        messages: [/^notes\.txt:/],
      },
      {
        tree: {
          'SKILL.md': md('Run scripts/run.py.\n'),
          'scripts/run.py': 'print(1)\n',
          'scripts/old.py': '',
          'assets/unused.png': 'png',
          'notes.txt': '',
          // Only a skill's own evals/ at its root is its developers': one below references/ is for the agent.
          'references/evals/rubric.md': '',
        },
        messages: [
          /^assets\/unused\.png: nothing in the skill refers to this file/,
          /^notes\.txt:/,
          /^references\/evals\/rubric\.md:/,
          /^scripts\/old\.py:/,
        ],
      },
      // A name inside a longer name is no mention; a file under a folder whose file is named is not covered.
      {
        tree: {
          'SKILL.md': md('Read references/api.md and see mychart.py.\n'),
          'references/api.md': '',
          'references/extra.md': '',
          'chart.py': '',
        },
        messages: [/^chart\.py:/, /^references\/extra\.md:/],
      },
      // Words end at separators, never at a dash, a dot inside a name or a letter beyond ASCII; full stops after a
      // name still end it. A module's stem counts only in code, as a whole part between dots.
      {
        tree: {
          'SKILL.md': md(
            'See FORMS.md... then old-notes.txt, tablesé.csv and util.sh.bak; then `python scripts/run.py`.\n',
          ),
          'scripts/run.py': 'import helpers.extra\nfrom my_util import x\n',
          'scripts/helpers.py': '',
          'scripts/util.py': '',
          'forms.md': '',
          'notes.txt': '',
          'tables.csv': '',
          'util.sh': '',
        },
        messages: [/^notes\.txt:/, /^scripts\/util\.py:/, /^tables\.csv:/, /^util\.sh:/],
      },
      {
        tree: { 'manifest.json': manifest(), 'context/instructions.md': '# Demo\n', 'context/draft.md': '' },
        messages: [/^context\/draft\.md:/],
      },
      // Only the hosts' own metadata files at their own places; a dotted module that names no file covers none.
      {
        tree: {
          'SKILL.md': md('```python\nfrom core.gif_builder import GIFBuilder\n```\n'),
          'assets/metadata.json': '{}',
          'agents/other.yaml': '',
          'core/easing.py': '',
        },
        messages: [/^agents\/other\.yaml:/, /^assets\/metadata\.json:/, /^core\/easing\.py:/],
      },
    ],
  }));

it('unreferenced-file: reports at the file itself, without a line', async () => {
  const r = await runRule(rule, { tree: { 'SKILL.md': md('Demo.\n'), 'assets/x.png': '' } });
  try {
    expect(r.reports.map((x) => [x.file, x.line])).toEqual([[`${r.root}/assets/x.png`, undefined]]);
    expect(rule.severity).toBe('info');
  } finally {
    r.cleanup();
  }
});

it('unreferenced-file: with many files to look for, names them as it does with few', async () => {
  // 20 files in data/, named in prose by their file names alone (so each is looked for in the texts), some not.
  const tree: Record<string, string> = {};
  const names = Array.from({ length: 20 }, (_, i) => `Part-${i}.dat`);
  for (const n of names) tree[`data/${n}`] = 'a,b\n';
  tree['SKILL.md'] = md(
    [
      'Read part-0.dat, (part-1.dat) and part-2.dat...',
      'Also my-part-3.dat, part-4.dat.bak, part-5.datx and .part-6.dat are other files.',
      'Part-7.DAT matters; so does `x/part-8.dat`.',
      // Letters outside the BMP are word characters too: these are other words.
      'So are 𝒜part-9.dat and part-10.dat𝒜.',
    ].join('\n'),
  );
  const expected = ['3', '4', '5', '6', ...Array.from({ length: 11 }, (_, i) => `${i + 9}`)].map(
    (i) => `data/Part-${i}.dat: nothing in the skill refers to this file`,
  );
  for (const count of [20, 10]) {
    // With 10 files the names are searched for one by one; with 20, the texts' words are gathered once.
    const few = Object.fromEntries(
      Object.entries(tree).filter(([p]) => !/Part-(\d+)/.test(p) || +/Part-(\d+)/.exec(p)![1]! < count),
    );
    const r = await runRule(rule, { tree: few });
    try {
      expect(r.reports.map((x) => x.message).sort()).toEqual(
        expected.filter((m) => +/Part-(\d+)/.exec(m)![1]! < count).sort(),
      );
    } finally {
      r.cleanup();
    }
  }
});

it('unreferenced-file: with many folders to look for, finds them mentioned as it does with few', async () => {
  // Each folder holds one file named nowhere; a folder mentioned as a folder (`name/` with no file after it) makes
  // its files referred to. The mentions are in a reference file, so the folders are looked for by name.
  const mentions = [
    'Put tables in (src/tables/) and `Charts/` here; see docs/guide/ too.',
    'Not these: xlogs/, logs/file.txt, 𝒜/, ./icons/x.',
    'Fonts live in my fonts/ as well.',
  ].join('\n');
  const folders = ['tables', 'charts', 'docs/guide', 'logs', 'icons', 'my fonts', 'plain'];
  const tree: Record<string, string> = {
    'SKILL.md': md('Read [notes](references/notes.md).\n'),
    'references/notes.md': `${mentions}\n`,
  };
  for (const f of folders) tree[`${f === 'charts' ? 'Charts' : f}/x.bin`] = '';
  const expected = ['icons/x.bin', 'logs/x.bin', 'plain/x.bin'].map(
    (p) => `${p}: nothing in the skill refers to this file`,
  );
  for (const many of [true, false]) {
    // With three folders (references/ too) each is searched for in the texts; with more, the texts' folder
    // mentions are gathered once.
    const kept = new Set(['tables', 'logs'].concat(many ? folders : []));
    const few = Object.fromEntries(
      Object.entries(tree).filter(([p]) => !p.endsWith('/x.bin') || kept.has(p.slice(0, -6).toLowerCase())),
    );
    const r = await runRule(rule, { tree: few });
    try {
      expect(r.reports.map((x) => x.message).sort()).toEqual(
        expected.filter((m) => kept.has(m.slice(0, m.indexOf('/x.bin')))).sort(),
      );
    } finally {
      r.cleanup();
    }
  }
});

it('folderWords holds a folder of word characters exactly where mentionsFolder finds it', () => {
  let s = 9;
  const rand = () => ((s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff), s / 0x7fffffff);
  const folders = ['logs', 'a', 'docs/guide', 'x.y', 'été', 'my-dir', 'a_b'];
  const parts = [...folders, '/', '//', ' ', '.', '-', '_', 'x', 'é', '𝒜', '\ud835', '`', '(', ')', '\n', ':', '9'];
  const wrong: string[] = [];
  for (let n = 0; n < 20_000; n++) {
    let text = '';
    const len = Math.floor(rand() * 10);
    for (let i = 0; i < len; i++) text += parts[Math.floor(rand() * parts.length)];
    const words = folderWords(text);
    for (const f of folders) if (words.has(f) !== mentionsFolder(text, f)) wrong.push(JSON.stringify([text, f]));
  }
  expect(wrong).toEqual([]);
});
