import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import rule from '../../../../src/lint/rules/description-when-to-use.js';
import { checkAt, testRule } from '../../../helpers/rule-tester.js';
import { skillMd } from '../../../helpers/tree.js';

const md = (description: string) => ({ 'SKILL.md': skillMd(`name: demo\ndescription: ${JSON.stringify(description)}\n`) });
const manifest = (description: string) => ({ 'manifest.json': JSON.stringify({ id: 'demo', name: 'Demo', version: '1.0.0', description, owner: 'built-in' }, null, 2) });

it('description-when-to-use', () =>
  testRule(rule, {
    valid: [
      { tree: md('Extract text from PDF files. Use when the user mentions PDFs.') },
      { tree: md('Extract text from PDF files. USE THIS SKILL WHEN a PDF is attached.') },
      { tree: md('Fill PDF forms; use it to complete tax forms.') },
      { tree: md('Generates release notes from git history when the user asks for a changelog.') },
      { tree: md('Formats SQL queries, for example to tidy a long SELECT.') },
      { tree: md('Triggers on questions about invoices and receipts.') },
      { tree: md('Converts units. Useful for recipes and engineering sums.') },
      { tree: manifest('Post to social networks. Use for scheduled announcements.') },
      { tree: manifest('Read calendars. Invoke when you need to find a free slot.') },
      // An empty description is validate's to report (SK011).
      { tree: md('') },
    ],
    invalid: [
      { tree: md('Extract text and tables from PDF files and fill forms.'), messages: [/does not say when to use the skill; expected a phrase such as "Use when …"/], lines: [3] },
      { tree: md('Useless descriptions whenabouts user'), messages: [/does not say when/] },
      { tree: manifest('Post to Twitter and Instagram and read engagement analytics.'), messages: [/does not say when/], lines: [5] },
      { tree: manifest('A'.repeat(5000)), messages: [/does not say when/] },
    ],
  }));

it('description-when-to-use passes every example skill', async () => {
  const dir = join(import.meta.dirname, '../../../../examples/skills');
  for (const name of readdirSync(dir)) {
    const { reports } = await checkAt(rule, join(dir, name));
    expect(reports.map((r) => r.message), name).toEqual([]);
  }
});
