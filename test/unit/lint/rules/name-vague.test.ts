import { it } from 'vitest';
import rule from '../../../../src/lint/rules/name-vague.js';
import { testRule } from '../../../helpers/rule-tester.js';
import { skillMd } from '../../../helpers/tree.js';

const md = (name: string) => ({ 'SKILL.md': skillMd(`name: ${name}\ndescription: Demo skill. Use when testing.\n`) });
const manifest = (id: string, name: string) => ({
  'manifest.json': JSON.stringify(
    { id, name, version: '1.0.0', description: 'Demo. Use when testing.', owner: 'built-in' },
    null,
    2,
  ),
});

it('name-vague', () =>
  testRule(rule, {
    valid: [
      { tree: md('demo') },
      { tree: md('pdf-tools'), folder: 'pdf-tools' },
      { tree: md('processing-pdfs'), folder: 'processing-pdfs' },
      { tree: manifest('basic-tools', 'Basic Tools') },
      { tree: manifest('demo', 'Demo') },
      // Without a name field the folder's name stands in, and validate reports the missing field.
      { tree: { 'SKILL.md': skillMd('description: Demo skill. Use when testing.\n') }, folder: 'utils' },
    ],
    invalid: [
      {
        tree: md('helper'),
        folder: 'helper',
        messages: [
          /name "helper" is vague: it is made only of generic words; expected a name that says what the skill does/,
        ],
        lines: [2],
      },
      { tree: md('utils'), folder: 'utils', messages: [/name "utils" is vague/] },
      { tree: md('common-data-tools'), folder: 'common-data-tools', messages: [/name "common-data-tools" is vague/] },
      { tree: md('misc-stuff'), folder: 'misc-stuff', messages: [/is vague/] },
      // The display name says the same as the id: one finding.
      {
        tree: manifest('general-utilities', 'General Utilities'),
        messages: [/id "general-utilities" is vague/],
        lines: [2],
      },
      { tree: manifest('pdf-kit', 'Helpers'), messages: [/name "Helpers" is vague/], lines: [3] },
    ],
  }));
