import { it } from 'vitest';
import rule from '../../../../src/lint/rules/nested-skill.js';
import { testRule } from '../../../helpers/rule-tester.js';
import { skillMd } from '../../../helpers/tree.js';

const md = (name: string) => skillMd(`name: ${name}\ndescription: Demo skill. Use when testing.\n`, `# ${name}\n`);

it('nested-skill', () =>
  testRule(rule, {
    valid: [
      { tree: { 'SKILL.md': md('demo'), 'references/guide.md': '# Guide\n' } },
      // Samples the skill ships: a skill-creator's template, an example, a test's fixture, an asset.
      {
        tree: {
          'SKILL.md': md('demo'),
          'templates/SKILL.md': md('{{name}}'),
          'assets/starter/SKILL.md': md('starter'),
          'examples/pdf/SKILL.md': md('pdf'),
          'tests/fixtures/bad/SKILL.md': md('Bad'),
        },
      },
      // A file named like it, not a SKILL.md in a folder below.
      { tree: { 'SKILL.md': md('demo'), 'references/SKILL.md.txt': 'notes\n' } },
    ],
    invalid: [
      // grahama1970/agent-skills: a stray skills/SKILL.md hid the 86 skills beside it from lint.
      {
        tree: {
          'SKILL.md': md('demo'),
          'agent-inbox/SKILL.md': md('agent-inbox'),
          'analytics/skill.md': md('analytics'),
          'anvil/SKILL.md': md('anvil'),
          'brave-search/SKILL.md': md('brave-search'),
          // Below a nested skill: that skill's own business, not counted again.
          'anvil/sub/SKILL.md': md('sub'),
        },
        messages: [
          /^holds 4 skills of its own below it \(agent-inbox\/, analytics\/, anvil\/, and 1 more\): a search stops at a skill folder, so they were not checked, and agents read them only as files of this skill$/,
        ],
      },
      // muratcankoylan/Agent-Skills-for-Context-Engineering: the repository's root is a skill, its skills below.
      {
        tree: { 'SKILL.md': md('demo'), 'skills/memory-systems/SKILL.md': md('memory-systems') },
        messages: [/^holds a skill of its own below it \(skills\/memory-systems\/\): .* so it was not checked/],
      },
    ],
  }));
