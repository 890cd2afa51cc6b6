import { it } from 'vitest';
import rule from '../../../../src/lint/rules/name-reserved-word.js';
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

it('name-reserved-word', () =>
  testRule(rule, {
    valid: [
      { tree: md('demo') },
      { tree: md('pdf-processing'), folder: 'pdf-processing' },
      { tree: manifest('demo', 'Demo') },
      { tree: md('claud-tools'), folder: 'claud-tools' },
      // Without a name field the folder's name stands in, and validate reports the missing field.
      { tree: { 'SKILL.md': skillMd('description: Demo skill. Use when testing.\n') }, folder: 'claude' },
    ],
    invalid: [
      {
        tree: md('claude-pdf'),
        folder: 'claude-pdf',
        messages: [/name "claude-pdf" contains "claude", a word Anthropic reserves: the Claude API/],
        lines: [2],
      },
      { tree: md('anthropic'), folder: 'anthropic', messages: [/"anthropic", a word Anthropic reserves/] },
      // A substring counts too.
      { tree: md('myclaudebot'), folder: 'myclaudebot', messages: [/"claude", a word Anthropic reserves/] },
      {
        tree: manifest('claude-helper', 'Claude Helper'),
        messages: [/id "claude-helper" contains "claude", a word Anthropic reserves/],
        lines: [2],
      },
      // A display name that says something else than the id is checked on its own.
      {
        tree: manifest('pdf-tools', 'Anthropic PDF Tools'),
        messages: [/name "Anthropic PDF Tools" contains "anthropic", a word Anthropic reserves/],
        lines: [3],
      },
      {
        tree: manifest('claude-pdf', 'Anthropic PDF'),
        messages: [/id "claude-pdf"/, /name "Anthropic PDF"/],
        lines: [2, 3],
      },
    ],
  }));
