import { describe, expect, it } from 'vitest';
import rule, { windowsProblem } from '../../../../src/lint/rules/portable-file-names.js';
import { testRule } from '../../../helpers/rule-tester.js';
import { skillMd } from '../../../helpers/tree.js';

const fm = 'name: demo\ndescription: Demo skill. Use when testing.\n';

it('portable-file-names', () =>
  testRule(rule, {
    valid: [
      { tree: { 'SKILL.md': skillMd(fm) } },
      {
        tree: {
          'SKILL.md': skillMd(fm),
          'scripts/run.py': '',
          'references/api.md': '',
          // The same name in two folders is no collision; nor are names that only look alike.
          'references/run.py': '',
          'assets/console.png': '',
          'assets/com10.txt': '',
          'assets/.env.example': '',
          'assets/a b.txt': '',
          'assets/naïve.md': '',
        },
      },
    ],
    invalid: [
      {
        tree: { 'SKILL.md': skillMd(fm), 'skill.md': '# old\n' },
        messages: [/^skill\.md and SKILL\.md differ only in case: on macOS and Windows one takes the other's place$/],
      },
      {
        tree: { 'SKILL.md': skillMd(fm), 'Scripts/a.py': '', 'scripts/a.py': '' },
        // Only the folders collide: the files below them are in different folders here.
        messages: [/^scripts and Scripts differ only in case/],
      },
      {
        tree: { 'SKILL.md': skillMd(fm), 'references/caf\u00e9.md': '', 'references/cafe\u0301.md': '' },
        messages: [
          /^references\/caf\u00e9\.md \(composed, NFC\) and references\/cafe\u0301\.md \(decomposed, NFD\) are one name in two Unicode forms: on macOS one takes the other's place$/u,
        ],
      },
      {
        tree: {
          'SKILL.md': skillMd(fm),
          'aux.md': '',
          'assets/CON': '',
          'assets/lpt1.txt': '',
          'notes:v2.md': '',
          'what?.md': '',
          'trailing.': '',
          'back\\slash.md': '',
        },
        messages: [
          /^assets\/CON: "CON" is a device name on Windows \(CON\)$/,
          /^assets\/lpt1\.txt: "lpt1\.txt" is a device name on Windows \(LPT1\)$/,
          /^aux\.md: "aux\.md" is a device name on Windows \(AUX\)$/,
          /^back\\slash\.md: "back\\slash\.md" holds a backslash, a folder separator on Windows, which Windows refuses in a name \(skills pack refuses it, as skills install would\)$/,
          /^notes:v2\.md: "notes:v2\.md" holds ":", which Windows refuses in a name$/,
          /^trailing\.: "trailing\." ends in a full stop, which Windows drops$/,
          /^what\?\.md: "what\?\.md" holds "\?", which Windows refuses in a name$/,
        ],
      },
    ],
  }));

describe('windowsProblem', () => {
  it('names each kind of trouble, and passes ordinary names', () => {
    for (const ok of ['SKILL.md', 'run.py', '.gitignore', 'con-artist.md', 'auxiliary.md', 'nul_check.sh', 'a.b.c'])
      expect(windowsProblem(ok), ok).toBeUndefined();
    expect(windowsProblem('Nul')).toMatch(/device name on Windows \(NUL\)/);
    expect(windowsProblem('com\u00b9.log')).toMatch(/device name/);
    expect(windowsProblem('tab\there')).toBe(
      '"tab\there" holds a control character U+0009, which Windows refuses in a name',
    );
    expect(windowsProblem('space ')).toMatch(/ends in a space/);
    for (const c of '<>"|*') expect(windowsProblem(`a${c}b`), c).toMatch(/which Windows refuses/);
  });
});
