import { expect, it } from 'vitest';
import rule from '../../../../src/lint/rules/readme-in-skill.js';
import { testRule } from '../../../helpers/rule-tester.js';
import { skillMd } from '../../../helpers/tree.js';

const fm = 'name: demo\ndescription: Demo skill. Use when testing.\n';

it('readme-in-skill', () =>
  testRule(rule, {
    valid: [
      { tree: { 'SKILL.md': skillMd(fm) } },
      { tree: { 'SKILL.md': skillMd(fm), 'references/README.md': '', 'READMEs/x.md': '', 'readme-notes.md': '' } },
    ],
    invalid: [
      { tree: { 'SKILL.md': skillMd(fm), 'README.md': '# Demo\n' }, messages: [/^README\.md in a SKILL\.md skill/] },
      { tree: { 'SKILL.md': skillMd(fm), 'readme.md': '' }, messages: [/^readme\.md in a SKILL\.md skill/] },
      { tree: { 'SKILL.md': skillMd(fm), 'Readme.txt': '' }, messages: [/^Readme\.txt/] },
    ],
  }));

it('readme-in-skill: SKILL.md skills only (a manifest skill may keep a README)', () => {
  expect(rule.layouts).toEqual(['skill-md']);
});
