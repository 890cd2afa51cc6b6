import { it } from 'vitest';
import rule from '../../../../src/lint/rules/context-not-markdown.js';
import { testRule } from '../../../helpers/rule-tester.js';

const base = { id: 'demo', name: 'Demo', version: '1.0.0', description: 'Demo. Use when testing.', owner: 'built-in' };
const manifest = (context: unknown) => ({ 'manifest.json': JSON.stringify({ ...base, context }, null, 2) });

it('context-not-markdown', () =>
  testRule(rule, {
    valid: [
      { tree: manifest(['context/a.md', 'context/b.markdown', 'context/C.MD']), folder: 'demo' },
      { tree: manifest([]) },
      { tree: { 'manifest.json': JSON.stringify(base) } },
      // Entries that are not text are validate's.
      { tree: manifest([1, null]) },
    ],
    invalid: [
      {
        tree: manifest(['context/a.md', 'context/notes.txt']),
        messages: [/context file "context\/notes.txt" is not Markdown; expected a .md or .markdown file/],
        lines: [9],
      },
      {
        tree: manifest(['data.json', 'guide.md', 'page.html', 'README']),
        messages: [/"data.json"/, /"page.html"/, /"README"/],
        lines: [8, 10, 11],
      },
      { tree: manifest(['context/a.md.bak']), messages: [/"context\/a.md.bak"/] },
    ],
  }));
