import { expect, it } from 'vitest';
import rule, { hasToc, lineCount } from '../../../../src/lint/rules/reference-needs-toc.js';
import { MarkdownText } from '../../../../src/formats/markdown-blocks.js';
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
const lines = (n: number) => 'text\n'.repeat(n);
const body = md('Read [the API](references/api.md) when needed.\n');

it('reference-needs-toc', () =>
  testRule(rule, {
    valid: [
      { tree: { 'SKILL.md': body, 'references/api.md': lines(300) } },
      { tree: { 'SKILL.md': body, 'references/api.md': `# API\n\n## Contents\n\n- Auth\n- Errors\n\n${lines(400)}` } },
      {
        tree: {
          'SKILL.md': body,
          'references/api.md': `# API\n\n1. [Auth](#auth)\n2. [Errors](#errors)\n3. [Limits](#limits)\n\n${lines(400)}`,
        },
      },
      { tree: { 'SKILL.md': body, 'references/api.md': `# API\n\n### Table of Contents\n${lines(400)}` } },
      // Not referenced by the instructions: none of this rule's business.
      { tree: { 'SKILL.md': md('Short.\n'), 'references/api.md': lines(400) } },
      { tree: { 'SKILL.md': body, 'references/api.md': lines(400) }, options: { maxLines: 500 } },
      // Instructions themselves are not referenced files (instructions-max-lines covers them).
      {
        tree: { 'manifest.json': manifest, 'context/instructions.md': `Read context/instructions.md.\n${lines(400)}` },
      },
    ],
    invalid: [
      {
        tree: { 'SKILL.md': body, 'references/api.md': lines(301) },
        messages: [/references\/api\.md is 301 lines long and has no table of contents near the top/],
        lines: [1],
      },
      // Counted in lines as written: CRLF, no newline at the end, blank lines at the end.
      {
        tree: { 'SKILL.md': body, 'references/api.md': 'text\r\n'.repeat(400) },
        messages: [/references\/api\.md is 400 lines long/],
      },
      {
        tree: { 'SKILL.md': body, 'references/api.md': `${lines(330)}last` },
        messages: [/references\/api\.md is 331 lines long/],
      },
      {
        tree: { 'SKILL.md': body, 'references/api.md': `${lines(320)}\n\n` },
        messages: [/references\/api\.md is 322 lines long/],
      },
      // A table of contents that starts too far down does not count.
      {
        tree: { 'SKILL.md': body, 'references/api.md': `${lines(60)}## Contents\n${lines(300)}` },
        messages: [/361 lines/],
      },
      // Two links to anchors are not a table of contents; a file referenced twice is reported once.
      {
        tree: {
          'SKILL.md': md('Read [the API](references/api.md), then references/api.md again.\n'),
          'references/api.md': `- [A](#a)\n- [B](#b)\n${lines(400)}`,
        },
        messages: [/402 lines/],
      },
      {
        tree: {
          'manifest.json': manifest,
          'context/instructions.md': 'See references/guide.md.\n',
          'references/guide.md': lines(120),
        },
        options: { maxLines: 100 },
        messages: [/120 lines/],
      },
      // A file named without a folder (`guidelines.md`) is referenced like a linked one; one named in another case is
      // SK108's.
      {
        tree: {
          'SKILL.md': md('Read the guidelines from `guidelines.md`, then FORMS.md.\n'),
          'references/guidelines.md': lines(301),
          'forms.md': lines(400),
        },
        messages: [/^references\/guidelines\.md is 301 lines long/],
      },
    ],
  }));

it('reference-needs-toc: reports at the long file', async () => {
  const r = await runRule(rule, { tree: { 'SKILL.md': body, 'references/api.md': lines(301) } });
  try {
    expect(r.reports[0]!.file).toBe(`${r.root}/references/api.md`);
  } finally {
    r.cleanup();
  }
});

it('lineCount counts the lines the reference scan found, a last one ended by a newline once', () => {
  for (const text of [
    'a',
    'a\n',
    '\n',
    '\n\n',
    'a\nb',
    'a\nb\n',
    'a\n\nb\n\n',
    'x\n'.repeat(500),
    `${'y\n'.repeat(5000)}z`,
  ]) {
    const md = new MarkdownText(text);
    void md.starts;
    expect(lineCount(text)).toBe(md.lineCount - (text.endsWith('\n') ? 1 : 0));
  }
});

it('hasToc', () => {
  expect(hasToc('# Guide\n\n## Contents\n', 50)).toBe(true);
  expect(hasToc('[[_TOC_]]\n', 50)).toBe(true);
  expect(hasToc('<!-- toc -->\n', 50)).toBe(true);
  expect(hasToc('* [a](#a)\n* [b](#b)\n+ [c](#c)\n', 50)).toBe(true);
  expect(hasToc('## Contents of the box\n', 50)).toBe(true);
  expect(hasToc('## Contentsless\n', 50)).toBe(false);
  expect(hasToc('- [a](a.md)\n- [b](b.md)\n- [c](c.md)\n', 50)).toBe(false);
  expect(hasToc('x\n'.repeat(50) + '## Contents\n', 50)).toBe(false);
});
