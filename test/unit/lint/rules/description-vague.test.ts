import { it } from 'vitest';
import rule from '../../../../src/lint/rules/description-vague.js';
import { testRule } from '../../../helpers/rule-tester.js';
import { skillMd } from '../../../helpers/tree.js';

const md = (description: string) => ({
  'SKILL.md': skillMd(`name: demo\ndescription: ${JSON.stringify(description)}\n`),
});
const manifest = (description: string) => ({
  'manifest.json': JSON.stringify(
    { id: 'demo', name: 'Demo', version: '1.0.0', description, owner: 'built-in' },
    null,
    2,
  ),
});

it('description-vague', () =>
  testRule(rule, {
    valid: [
      { tree: md('Extract text and tables from PDF files. Use when the user mentions PDFs.') },
      { tree: manifest('Read, write and list files inside a working directory. Use when a task needs files.') },
      // Vague words later in the text are fine; only the lead counts.
      { tree: md('Convert CSV to JSON with various options. Use when asked to convert data.') },
      { tree: md('Miscalculated totals in spreadsheets are found and fixed.') },
      // Under 20 characters: SK103 reports it, once is enough.
      { tree: md('Helps with PDFs') },
      { tree: md('Does stuff') },
      { tree: md('') },
      // Chinese and Japanese put no spaces between words: words are found by segmentation, not by splitting on spaces.
      { tree: md('一组帮助撰写各类内部沟通文档的资源，适用于撰写状态报告时使用') },
      { tree: md('社内向けの報告書を作成するためのテンプレート集。報告書を書くときに使う。') },
      { tree: md('사내 보고서를 작성할 때 사용하는 템플릿 모음') },
      { tree: md('ชุดเครื่องมือสำหรับเขียนรายงานภายในองค์กร') },
      // The vague leads are English; text mostly in another script is not judged by them.
      { tree: md('Helps with 中文文档的撰写、翻译、校对和排版，当用户需要处理中文文档时使用') },
    ],
    invalid: [
      {
        tree: md('Helps with PDF documents and forms of every kind.'),
        messages: [/vague: it starts with "Helps with"; expected what the skill does/],
        lines: [3],
      },
      { tree: md('A helper for files and folders on the local disk.'), messages: [/starts with "A helper for"/] },
      { tree: md('Utility functions galore'), messages: [/vague: it has 3 words; expected/] },
      { tree: md('Various tools and scripts'), messages: [/vague: it starts with "Various"; expected/] },
      { tree: md('Miscellaneous shell snippets'), messages: [/starts with "Miscellaneous" and it has 3 words/] },
      { tree: md('A skill that converts PDFs to text. Use when asked.'), messages: [/starts with "A skill that"/] },
      {
        tree: md('This skill helps with spreadsheets of all sorts.'),
        messages: [/starts with "This skill helps with"/],
      },
      { tree: md('Spreadsheet-analysis-toolkit'), messages: [/it has 1 word;/] },
      {
        tree: manifest('Utilities for working with dates and times.'),
        messages: [/starts with "Utilities"/],
        lines: [5],
      },
      // Segmented words still count: a katakana run is one word, not one per character or none.
      { tree: md('Spreadsheet-analysis-toolkit スプレッドシート'), messages: [/it has 2 words;/] },
      { tree: md('Helps with PDF documents: 表格和表单'), messages: [/starts with "Helps with"/] },
    ],
  }));

// A hang guard, not a speed target: the limit is hundreds of times what the run takes.
it("reads a stranger's 100,000-character Chinese description at once, not in seconds", { timeout: 5000 }, async () =>
  testRule(rule, { valid: [{ tree: md('中文描述'.repeat(25_000)) }], invalid: [] }),
);
