import { expect, it } from 'vitest';
import rule from '../../../../src/lint/rules/disable-unknown-rule.js';
import { runRule, testRule } from '../../../helpers/rule-tester.js';
import { skillMd } from '../../../helpers/tree.js';

const fm = 'name: demo\ndescription: Demo skill. Use when testing.\n';
// The body starts on line 5 of SKILL.md: ---, two frontmatter lines, ---.
const md = (body: string) => skillMd(fm, body);

it('disable-unknown-rule', () =>
  testRule(rule, {
    valid: [
      // Ids and aliases of rules and of validate's checks, any number, with or without commas; none at all.
      {
        tree: {
          'SKILL.md': md(
            '# Demo\n<!-- skills-lint-disable SK108, instructions-max-lines SK003 -->\n<!-- skills-lint-disable -->\n',
          ),
          'references/a.md': '<!-- skills-lint-disable-next-line file-reference-missing -->\nSee x.md.\n',
        },
      },
      // Not a Markdown file: its comments turn nothing off, and are not read.
      { tree: { 'SKILL.md': md('# Demo\n'), 'notes.txt': '<!-- skills-lint-disable SK999 -->\n' } },
    ],
    invalid: [
      {
        tree: {
          'SKILL.md': md('# Demo\n\n<!-- skills-lint-disable SK108 SK1O8 -->\n'),
          'references/guide.md': '# Guide\n<!-- skills-lint-disable-next-line file-reference-mising -->\n',
        },
        messages: [
          /^unknown rule "SK1O8" in a skills-lint-disable comment: it turns nothing off; did you mean "SK108"\?$/,
          /^unknown rule "file-reference-mising" in a skills-lint-disable comment: it turns nothing off; did you mean "file-reference-missing"\?$/,
        ],
        lines: [7, 2],
      },
    ],
  }));

it('disable-unknown-rule: names the file, line and column of the name; a name far from any id has no guess', async () => {
  const r = await runRule(rule, {
    tree: { 'SKILL.md': md('# Demo\n\ntext <!-- skills-lint-disable  no-such-thing -->\n') },
  });
  try {
    expect(r.findings.map((f) => [f.file, f.line, f.column, f.severity])).toEqual([
      [`${r.root}/SKILL.md`, 7, 32, 'warning'],
    ]);
    expect(r.findings[0]!.message).toBe(
      'unknown rule "no-such-thing" in a skills-lint-disable comment: it turns nothing off',
    );
  } finally {
    r.cleanup();
  }
});
