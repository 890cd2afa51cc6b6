import { it } from 'vitest';
import rule from '../../../../src/lint/rules/placeholder-left.js';
import { runRule, testRule } from '../../../helpers/rule-tester.js';
import { skillMd } from '../../../helpers/tree.js';
import { expect } from 'vitest';

const fm = 'name: demo\ndescription: Demo skill. Use when testing.\n';
const manifest = JSON.stringify({
  id: 'demo',
  name: 'Demo',
  version: '1.0.0',
  description: 'Demo. Use when testing.',
  owner: 'built-in',
  context: ['context/a.md', 'context/b.md'],
});

it('placeholder-left', () =>
  testRule(rule, {
    valid: [
      { tree: { 'SKILL.md': skillMd(fm) } },
      // Lowercase, parts of words, and words that merely contain the letters.
      {
        tree: {
          'SKILL.md': skillMd(
            fm,
            '# Todo list\n\nKeep a todo list. TODOS_FILE and MY_TODO are env names. STBD, TODOs.\n',
          ),
        },
      },
      // Fenced code blocks (``` and ~~~, longer fences too) are examples, not leftovers.
      {
        tree: {
          'SKILL.md': skillMd(
            fm,
            '# S\n\n```js\n// TODO: fix\nconst t = "{{name}}";\n```\n\n~~~~\nFIXME\n```\nTBD\n~~~~\n\nDone.\n',
          ),
        },
      },
      // Inline code shows template syntax; ${{ }} is GitHub Actions; single braces are resolved placeholders.
      {
        tree: {
          'SKILL.md': skillMd(
            fm,
            'Write `{{title}}` in the template. Use ${{ secrets.TOKEN }}. Scripts live in {baseDir}/scripts.\n',
          ),
        },
      },
      // assets/ hold templates on purpose; only instructions and references are checked.
      { tree: { 'SKILL.md': skillMd(fm), 'assets/template.md': 'Hello {{name}}, TODO\n', 'notes.txt': 'TODO\n' } },
      // Frontmatter is not Markdown prose.
      { tree: { 'SKILL.md': skillMd('name: demo\ndescription: Demo skill. Use when testing. TODO\n') } },
      { tree: { 'manifest.json': manifest, 'context/a.md': '# A\n\nDone.\n', 'context/b.md': '```\nTODO\n```\n' } },
      // The words in a sentence, followed by an ordinary word, are prose about placeholders, not leftovers.
      {
        tree: {
          'SKILL.md': skillMd(
            fm,
            '# Init\n\n- Generates a SKILL.md template with proper frontmatter and TODO placeholders\n- Replace the TODO items, then remove FIXME comments.\n\nTODO lists live in tasks.md; TBD values are allowed in drafts.\n1. TODO markers must be gone before release.\n> FIXME notes go to the tracker, and so do TODO, FIXME and TBD tags.\n',
          ),
        },
      },
      // Markers named together, a marker after an article, and a link's text are the markers spoken of
      // (davila7/claude-code-templates' production-code-audit, github/awesome-copilot's create-canvas-extension and
      // batch-files).
      {
        tree: {
          'SKILL.md': skillMd(
            fm,
            '# Audit\n\n- TODO/FIXME comments\n- Dead code, TODO, FIXME\n\nOtherwise create the folder and leave an explicit TODO.\nResolve the TODO first.\n\n- [TODO LIST](https://www.msys2.org/wiki/Devtopics/)\n',
          ),
        },
      },
      // A template for the agent's answer: slots described in words make its {{NAME}}s slots too
      // (microsoft/cat-agent-skills: "Format the final response exactly like this template").
      {
        tree: {
          'SKILL.md': skillMd(
            fm,
            'Format the final response exactly like this template.\n\n### Recommendation for {{PROJECT_NAME}}\n\n**Why:** {{2–3 sentences citing the answers}}\n- Code approach: {{X}}/2 — {{one line}}\n',
          ),
        },
      },
      // A reference that is a template or a prompt by its name holds the variables it is filled with.
      {
        tree: {
          'SKILL.md': skillMd(fm),
          'references/proposal-template.md': 'Hi {{client_name}},\n\n- {{milestone_1}}\n',
          'references/prompt-draft.md': 'Translate from {{source_lang}} to {{target_lang}}.\n',
          'references/prompts/review.md': 'Review {{diff}}.\n',
        },
      },
      // A chat template quoted in prose (davila7's fine-tuning-llama-factory, LLaMA-4's): `{{content}}` is its slot.
      {
        tree: {
          'SKILL.md': skillMd(fm),
          'references/advanced.md':
            '用户消息： <|header_start|>user<|header_end|>\\n\\n{{content}}<|eot|>\n\n' +
            'Each turn is <|im_start|>{{role}}\\n{{content}}<|im_end|>.\n',
        },
      },
    ],
    invalid: [
      // A `{{name}}` on a line with no special token is still a leftover, next to a chat template or not.
      {
        tree: {
          'SKILL.md': skillMd(fm),
          'references/advanced.md': 'The template ends with <|eot|>.\n\nDear {{content}},\n',
        },
        messages: [/\{\{content\}\}/],
        lines: [3],
      },
      // A template language's own tags are no slots in words: the file's {{name}} is still a leftover. A template's
      // name excuses its variables, not its TODO markers.
      {
        tree: {
          'SKILL.md': skillMd(fm, '# {{SKILL_TITLE}}\n\n{{#each items}}{{> row}}{{/each}}\n'),
          'references/prompt-draft.md': 'Translate {{text}}.\n\nTODO: add the glossary\n',
          'references/templates.md.bak': '{{a b}}\n',
          'references/promptly.md': 'Use {{tool}}.\n',
        },
        messages: [/\{\{SKILL_TITLE\}\}/, /\{\{\/each\}\}/, /"TODO"/, /\{\{tool\}\}/],
        lines: [5, 7, 3, 1],
      },
      {
        tree: {
          'SKILL.md': skillMd(
            fm,
            '# Skill\n\nTODO: write this.\n\nSee [TODO: link] and FIXME(alice) later.\n\nOwner: TBD\n',
          ),
        },
        messages: [
          /placeholder "TODO" left in the text; expected finished content/,
          /placeholder "\[TODO: link\]"/,
          /placeholder "FIXME"/,
          /placeholder "TBD"/,
        ],
        lines: [7, 9, 9, 11],
      },
      {
        tree: { 'SKILL.md': skillMd(fm, 'Hello {{ user_name }} and {{#items}}.\n') },
        messages: [/unrendered template placeholder \{\{ user_name \}\}/, /\{\{#items\}\}/],
        lines: [5, 5],
      },
      // Text after a closed fence is checked again; an unclosed fence hides the rest.
      { tree: { 'SKILL.md': skillMd(fm, '```\nTODO\n```\nTODO\n~~~\nTODO\n') }, messages: [/"TODO"/], lines: [8] },
      {
        tree: { 'manifest.json': manifest, 'context/a.md': 'one\n', 'context/b.md': 'line\nline\nFIXME: here\n' },
        messages: [/"FIXME"/],
        lines: [3],
      },
      {
        tree: {
          'SKILL.md': skillMd(fm),
          'references/guide.md': '# Guide\n\n[TODO]\n',
          'references/deep/more.markdown': 'TBD\n',
        },
        messages: [/"TBD"/, /\[TODO\]/],
        lines: [1, 3],
      },
      // Markers: at the start of a line or list item unless a word follows, before : ( ] !, or ending the line.
      {
        tree: {
          'SKILL.md': skillMd(
            fm,
            '## TODO\n- TODO - describe the inputs\n1. [ ] **FIXME**\n> TBD!\nRelease date: **TBD**.\nSee the notes [later TODO] and TODO(bob): check.\nUse <TODO: real URL> and <FIXME> and [TBD].\n',
          ),
        },
        messages: [
          /"TODO"/,
          /"TODO"/,
          /"FIXME"/,
          /"TBD"/,
          /"TBD"/,
          /"TODO"/,
          /"TODO"/,
          /"<TODO: real URL>"/,
          /"<FIXME>"/,
          /"\[TBD\]"/,
        ],
        lines: [5, 6, 7, 8, 9, 10, 10, 11, 11, 11],
      },
    ],
  }));

it('placeholder-left gives file and column of each finding', async () => {
  const r = await runRule(rule, {
    tree: { 'SKILL.md': skillMd(fm), 'references/guide.md': '# Guide\n\nText `TODO` then TODO: here\n' },
  });
  try {
    expect(r.reports.map((x) => [x.file, x.line, x.column])).toEqual([[`${r.root}/references/guide.md`, 3, 18]]);
  } finally {
    r.cleanup();
  }
});

it('placeholder-left stays linear on hostile lines', async () => {
  const long = `${'[TODO'.repeat(20000)} ${'{{'.repeat(20000)}${' '.repeat(50000)}x\n${'<TODO'.repeat(20000)}\n- ${' '.repeat(50000)}x\nTODO${' '.repeat(50000)}.${' '.repeat(50000)}x\nTODO:\n`;
  // A regex that backtracks on this line would hang here until the test times out.
  const r = await runRule(rule, { tree: { 'SKILL.md': skillMd(fm, long) } });
  r.cleanup();
  expect(r.reports.length).toBeGreaterThan(0);
});

it('placeholder-left: a token the text talks about (mail merge) is no leftover; one left unfilled still is', () =>
  testRule(rule, {
    valid: [
      {
        tree: {
          'SKILL.md': skillMd(
            fm,
            [
              '# Mail merge',
              '',
              '| Token | Meaning |',
              '|---|---|',
              "| {{FirstName}} | the recipient's first name |",
              '| **{{Company}}** | their company |',
              '',
              '| Button | Inserts | Shows |',
              '|--------|---------|-------|',
              "| @ First name | {{firstName}} | the registrant's first name |",
              '',
              'Use {{FirstName}} for the greeting, and insert {{Date}} where the letter is dated.',
              'The {{Signature}} merge field is filled from your profile; tokens such as {{City}}, {{Zip}} or {{State}} come from the sheet.',
              '',
            ].join('\n'),
          ),
        },
      },
    ],
    invalid: [
      {
        tree: {
          'SKILL.md': skillMd(
            fm,
            '# Letter\n\nDear {{FirstName}},\n\n| Owner | {{owner}} |\n|---|---|\n\nAPI key: {{API_KEY}}\n\nUse {{tool}}.\n',
          ),
        },
        messages: [/\{\{FirstName\}\}/, /\{\{owner\}\}/, /\{\{API_KEY\}\}/, /\{\{tool\}\}/],
        lines: [7, 9, 12, 14],
      },
    ],
  }));
