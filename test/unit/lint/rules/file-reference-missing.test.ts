import { expect, it } from 'vitest';
import rule from '../../../../src/lint/rules/file-reference-missing.js';
import { runRule, testRule } from '../../../helpers/rule-tester.js';
import { skillMd } from '../../../helpers/tree.js';

const fm = 'name: demo\ndescription: Demo skill. Use when testing.\n';
// The body starts on line 5 of SKILL.md: ---, two frontmatter lines, ---.
const md = (body: string) => skillMd(fm, body);
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
      // A skill about writing skills proposes files a skill could hold (anthropics/claude-code's skill-development:
      // "`scripts/validate-hook-schema.sh` and `scripts/test-hook.sh` utilities would be helpful").
      {
        tree: {
          ...files,
          'SKILL.md': md(
            [
              '# Demo',
              'When building a hooks skill, the analysis shows:',
              '1. Developers repeatedly need to validate hooks.json',
              '2. `scripts/validate-hook-schema.sh` and `scripts/test-hook.sh` utilities would be helpful',
              '',
              'For a big schema, consider adding `references/schema.md`; a `scripts/check.py` would be useful too.',
            ].join('\n'),
          ),
        },
      },
      // Another skill's file, said to be so (microsoft/azure-skills: "see the `azure-deploy` skill's …").
      {
        tree: {
          ...files,
          'SKILL.md': md(
            "See the `azure-deploy` skill's `references/recipes/azd/sql.md`, and the **azure-prepare** skill's references/terraform.md.\n",
          ),
        },
      },
      // One level down: references/api.md links its neighbour relative to itself.
      {
        tree: {
          'SKILL.md': md('See [API](references/api.md).\n'),
          'references/api.md': '# API\n\nSchema: [schema](schema.json)\n',
          'references/schema.json': '{}',
        },
      },
      // Paths in a context file resolve against its folder first, then the skill root.
      {
        tree: {
          'manifest.json': manifest(),
          'context/instructions.md':
            'Run scripts/run.py; see [examples](examples.md) and [the API](../references/api.md).\n',
          'context/examples.md': '# Examples\n',
          ...files,
        },
      },
      // A file a command of the skill writes is made as the skill is used: not missing, there or where it is read.
      {
        tree: {
          ...files,
          'SKILL.md': md(
            [
              '```bash',
              'python scripts/run.py plan > scripts/plan.md',
              '```',
              'Then read `scripts/plan.md` and [the plan](scripts/plan.md).',
            ].join('\n'),
          ),
        },
      },
      // After `cd` into a cloned repository, a script named there is the repository's.
      {
        tree: {
          ...files,
          'SKILL.md': md(
            [
              '```bash',
              'git clone https://github.com/jquesnelle/yarn && cd yarn',
              'python scripts/train.py',
              '```',
            ].join('\n'),
          ),
        },
      },
      // A link target in capitals with no dot or slash is a template's stand-in for a link, not a file.
      { tree: { 'SKILL.md': md('[Open ↗](LINK), [docs](URL) and [here](PATH#top).\n') } },
      // Bare paths in prose into folders the skill does not have are the user's files.
      { tree: { 'SKILL.md': md('Edit src/index.ts and ./config.json in the project.\n') } },
      // Bare file names (obra's systematic-debugging): references when the skill has the file, followed one level;
      // names the skill lacks in any case (`condition-based-waiting-example.ts`) are no references at all.
      {
        tree: {
          'SKILL.md': md(
            'See `root-cause-tracing.md` in this directory.\n\n- **`defense-in-depth.md`** - validate at every layer\n',
          ),
          'root-cause-tracing.md':
            '# Tracing\n\nUse `find-polluter.sh`, and see condition-based-waiting-example.ts.\n\n```bash\n./find-polluter.sh .git\n```\n',
          'defense-in-depth.md': '# Defense\n',
          'find-polluter.sh': '#!/usr/bin/env bash\n',
        },
      },
      // Illustrations of some other skill (Anthropic's skill-creator): bare paths after "Example", "e.g.", "such
      // as", in a list led in by "Example: … shows:", under an Example heading.
      {
        tree: {
          'SKILL.md': md(
            [
              '##### Scripts (`scripts/`)',
              '',
              '- **When to include**: when the same code is rewritten',
              '- **Example**: `scripts/rotate_pdf.py` for PDF rotation tasks',
              '- **Examples**: `references/finance.md` for financial schemas, `references/mnda.md` for an NDA template',
              '- Store templates (such as `assets/logo.png`) here, e.g. `assets/font.ttf`.',
              '',
              'Example: when building a `big-query` skill, the analysis shows:',
              '',
              '1. Querying BigQuery requires re-discovering the table schemas',
              '2. A `references/schema.md` file documenting the schemas would be helpful',
              '',
              '## Examples',
              '',
              'A skill might run `python scripts/fill_form.py` here.',
            ].join('\n'),
          ),
        },
      },
      // Claude.ai mounts the skill at /mnt/skills/<anything>/<folder or name>/.
      {
        folder: 'vercel-deploy',
        tree: {
          'SKILL.md': md('```bash\nbash /mnt/skills/user/vercel-deploy/scripts/deploy.sh [path]\n```\n'),
          'scripts/deploy.sh': '#!/bin/sh\n',
        },
      },
      // A reference file names the user's files, from its own folder's point of view too (`src/Module.hs` is not
      // references/src/Module.hs; `./gradlew` names no folder), and quotes another skill's scripts/ when this skill
      // has none (trailofbits' mutation-frameworks.md, obra's copy of Anthropic's best practices).
      {
        tree: {
          'SKILL.md': md('Read [frameworks](references/frameworks.md).\n'),
          'references/frameworks.md': [
            '| Haskell | `mucheck -t "stack test" src/Module.hs` |',
            '| Java | `./gradlew pitest` |',
            'Copy it to `.github/dependabot.yml`; the routes are in `config/routes.rb`.',
            '```bash',
            'python scripts/fill_form.py input.pdf',
            '```',
          ].join('\n'),
        },
      },
      // A skill-creator's template of a skill (a SKILL.md below assets/ or templates/) is content: its links are the
      // new skill's, not this one's, as discovery and install --skill take it for a file, not a skill.
      {
        tree: {
          'SKILL.md': md('Copy [the template](assets/template/SKILL.md), or [the other](templates/SKILL.md).\n'),
          'assets/template/SKILL.md': skillMd(fm, 'Run `scripts/run.py`; read [the guide](references/guide.md).\n'),
          'templates/SKILL.md': skillMd(fm, 'Read [the API](references/api.md).\n'),
        },
      },
    ],
    invalid: [
      // Another Markdown file under assets/ is still read for links (the template beside it is not).
      {
        tree: {
          'SKILL.md': md('Read [notes](assets/notes.md) and [the template](assets/template/SKILL.md).\n'),
          'assets/notes.md': 'Run `scripts/build.py`.\n',
          'assets/template/SKILL.md': skillMd(fm, 'Read [the guide](references/guide.md).\n'),
          'scripts/run.py': '',
        },
        messages: [/"scripts\/build\.py" does not exist in the skill/],
      },
      // "this skill's" speaks of this one.
      {
        tree: { ...files, 'SKILL.md': md("Read this skill's `references/missing.md`.\n") },
        messages: [/"references\/missing\.md" does not exist in the skill/],
      },
      // A capital name that files bear by custom is a file; so is a lower-case name without a dot.
      {
        tree: { 'SKILL.md': md('See [the licence](LICENSE) and [notes](notes).\n') },
        messages: [/"LICENSE" does not exist/, /"notes" does not exist/],
      },
      // The same quote where the skill has a scripts/ folder: a slip in this skill's own paths.
      {
        tree: {
          'SKILL.md': md('Read [frameworks](references/frameworks.md).\n'),
          'references/frameworks.md': '```bash\npython scripts/fill_form.py input.pdf\n```\n',
          'scripts/other.py': 'print(1)\n',
        },
        messages: [/"scripts\/fill_form\.py" does not exist in the skill/],
        lines: [2],
      },
      {
        tree: {
          ...files,
          'SKILL.md': md('# Demo\n\nRead [the API](references/missing.md).\nThen run scripts/gone.py.\n'),
        },
        messages: [/"references\/missing\.md" does not exist in the skill/, /"scripts\/gone\.py" does not exist/],
        lines: [7, 8],
      },
      // A link is checked even at the root; a fenced command into scripts/ is checked too.
      {
        tree: { 'SKILL.md': md('See [the guide](guide.md).\n\n```sh\npython3 scripts/missing.py\n```\n') },
        messages: [/"guide\.md" does not exist/, /"scripts\/missing\.py"/],
        lines: [5, 8],
      },
      {
        tree: { 'SKILL.md': md('Run {baseDir}/references/nope.md first.\n') },
        messages: [/"references\/nope\.md" does not exist/],
      },
      // In a referenced Markdown file: reported there, with the path it was looked for at.
      {
        tree: {
          'SKILL.md': md('See [API](references/api.md).\n'),
          'references/api.md': '# API\n\nSee [auth](auth.md).\n',
        },
        messages: [/"auth\.md" \(references\/auth\.md\) does not exist/],
        lines: [3],
      },
      {
        tree: {
          'manifest.json': manifest(),
          'context/instructions.md': '# Tools\n\nRun `scripts/none.sh` first.\n',
          'scripts/other.sh': '',
        },
        messages: [/"scripts\/none\.sh" does not exist/],
        lines: [3],
      },
      // Anthropic's pdf skill: "read FORMS.md" for forms.md; the name in any case still leads to the file, whose
      // own references are checked. Each missing file once per file it is named in, on its first line.
      {
        tree: {
          'SKILL.md': md(
            'For detailed examples, see REFERENCE.md. To fill a form, read FORMS.md.\n\n| Fill forms | see FORMS.md |\n\n- See REFERENCE.md\n',
          ),
          'forms.md':
            '# Forms\n\n`python scripts/extract_fields.py in.pdf`\n\n`python scripts/check_boxes.py f.json`\n\n`python scripts/check_boxes.py g.json`\n',
          'reference.md': '# Reference\n',
          'scripts/extract_fields.py': 'print(1)\n',
        },
        messages: [
          /^REFERENCE\.md does not exist; reference\.md differs only in case — paths are case-sensitive on Linux \(\+1 more reference\)$/,
          /^FORMS\.md does not exist; forms\.md differs only in case — paths are case-sensitive on Linux \(\+1 more reference\)$/,
          /^"scripts\/check_boxes\.py" does not exist in the skill \(\+1 more reference\)$/,
        ],
        lines: [5, 5, 5],
      },
      // Paths repeated across lines (mcp-builder): once, with the count; an illustration's path is checked when it is a
      // link.
      {
        tree: {
          'SKILL.md': md(
            '- [Node guide](./reference/node.md)\n- Load ./reference/node.md again\n\nThen ./reference/node.md.\n\nSee [e.g. this](./reference/eval.md) and e.g. ./reference/ex.md.\n',
          ),
          'reference/other.md': '',
        },
        messages: [
          /^"\.\/reference\/node\.md" does not exist in the skill \(\+2 more references\)$/,
          /^"\.\/reference\/eval\.md" does not exist in the skill$/,
        ],
        lines: [5, 10],
      },
      // A file named without a folder is followed one level like a linked one (vercel's web-design-guidelines).
      {
        tree: {
          'SKILL.md': md('1. Read the guidelines from `guidelines.md` in this skill directory\n'),
          'guidelines.md': '# Rules\n\nSee [the checklist](checklist.md).\n',
        },
        messages: [/^"checklist\.md" does not exist in the skill$/],
        lines: [3],
      },
      // A mounted path is checked as a path from the skill root (vercel-deploy).
      {
        tree: {
          'SKILL.md': skillMd(
            'name: vercel-deploy\ndescription: Deploy. Use when deploying.\n',
            '```bash\nbash /mnt/skills/user/vercel-deploy/scripts/deploy-local.sh\n```\n',
          ),
          'scripts/deploy.sh': '#!/bin/sh\n',
        },
        folder: 'vercel-deploy-claimable',
        messages: [/^"scripts\/deploy-local\.sh" does not exist in the skill$/],
        lines: [6],
      },
    ],
  }));

it('file-reference-missing: hints at the file a bare name means in another case', async () => {
  const r = await runRule(rule, { tree: { 'SKILL.md': md('Read FORMS.md.\n'), 'references/forms.md': '' } });
  try {
    expect(r.reports.map((x) => [x.message, x.column, x.hint])).toEqual([
      [
        'FORMS.md does not exist; forms.md differs only in case — paths are case-sensitive on Linux',
        6,
        'did you mean "references/forms.md"? Paths are case-sensitive on Linux and in archives',
      ],
    ]);
  } finally {
    r.cleanup();
  }
});

it('file-reference-missing: never offers the file that holds the reference as its near miss', async () => {
  // A SKILL.md made from a repository's README (agentskillexchange/skills) names that repository's skills/x/SKILL.md.
  const r = await runRule(rule, {
    tree: {
      'SKILL.md': md('Install it, then read [hallmark](skills/hallmark/SKILL.md) and see references/guide.md.\n'),
      'references/guide.md': 'Back to [the skill](../skills/SKILL.md).\n',
    },
  });
  try {
    expect(r.reports.map((x) => [x.message, x.hint])).toEqual([
      [
        '"skills/hallmark/SKILL.md" does not exist in the skill',
        'add the file, or fix the path: paths are relative to the skill folder',
      ],
      ['"../skills/SKILL.md" (skills/SKILL.md) does not exist in the skill', 'did you mean "SKILL.md"?'],
    ]);
  } finally {
    r.cleanup();
  }
});

it('file-reference-missing: hints at a near miss in case or folder', async () => {
  const r = await runRule(rule, {
    tree: {
      'SKILL.md': md('Read references/API.md and scripts/run.py.\n'),
      'references/api.md': '',
      'tools/run.py': '',
    },
  });
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

it('file-reference-missing: says a web page link lacks its scheme', async () => {
  const r = await runRule(rule, {
    tree: {
      'SKILL.md': md('See the [overview](docs.claude.com/en/docs/agents/overview#structure) and [a](a.com.md).\n'),
    },
  });
  try {
    expect(r.reports.map((x) => [x.message, x.hint])).toEqual([
      [
        '"docs.claude.com/en/docs/agents/overview" does not exist in the skill',
        'a link to a web page needs its scheme: https://docs.claude.com/en/docs/agents/overview',
      ],
      [
        '"a.com.md" does not exist in the skill',
        'add the file, or fix the path: paths are relative to the skill folder',
      ],
    ]);
  } finally {
    r.cleanup();
  }
});
