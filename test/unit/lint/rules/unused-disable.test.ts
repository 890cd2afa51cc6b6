// SK135 unused-disable: a skills-lint-disable comment (or one name of it) that turns nothing off, as ESLint's
// --report-unused-disable-directives says of its own. Linted with every rule, as lint runs it: what a comment turns
// off is what the other rules report.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Config } from '../../../../src/config/config.js';
import { lintSkills } from '../../../../src/lint/linter.js';
import { loadSkill } from '../../../../src/skill/load.js';
import { skillMd, writeTree, type TreeSpec } from '../../../helpers/tree.js';

const bases: string[] = [];
afterAll(() => {
  for (const b of bases) rmSync(b, { recursive: true, force: true });
});

const fm = 'name: demo\ndescription: Does demo things for the user. Use when the user asks about demo.\n';
// The body starts on line 5 of SKILL.md: ---, two frontmatter lines, ---.
const md = (body: string) => skillMd(fm, body);

async function sk135(tree: TreeSpec, rules: Config['rules'] = {}) {
  const base = mkdtempSync(join(tmpdir(), 'skills-sk135-'));
  bases.push(base);
  writeTree(join(base, 'demo'), tree);
  const skill = loadSkill(join(base, 'demo'));
  const config: Config = { dir: base, rules, ignores: [] } as unknown as Config;
  const [report] = await lintSkills([skill], { config });
  return report!.diagnostics
    .filter((d) => d.ruleId === 'SK135')
    .map((d) => `${d.file.slice(skill.root.length + 1)}:${d.line}:${d.column} ${d.message}`);
}

describe('SK135 unused-disable', () => {
  it('says nothing of a comment that turns a finding off, by id or alias, for the file or the next line', async () => {
    // SK100 (instructions-max-lines) fires on a SKILL.md body over 500 lines.
    const long = '# Demo\n\n' + 'Follow these steps.\n'.repeat(520);
    expect(await sk135({ 'SKILL.md': md(`<!-- skills-lint-disable SK100 -->\n${long}`) })).toEqual([]);
    expect(await sk135({ 'SKILL.md': md(`<!-- skills-lint-disable instructions-max-lines -->\n${long}`) })).toEqual([]);
    // A missing file the guide names: the next line's finding is turned off.
    expect(
      await sk135({
        'SKILL.md': md('# Demo\n\nRead [the guide](references/guide.md).\n'),
        'references/guide.md':
          '# Guide\n<!-- skills-lint-disable-next-line file-reference-missing -->\nSee [x](x.md).\n',
      }),
    ).toEqual([]);
  });

  it('reports each name that turns nothing off, and a bare comment with nothing to turn off, at the name', async () => {
    expect(
      await sk135({
        'SKILL.md': md('# Demo\n\n<!-- skills-lint-disable SK108 SK1O8 -->\n\nFollow these steps.\n'),
        'references/guide.md': '# Guide\n<!-- skills-lint-disable-next-line -->\nNothing wrong here.\n',
      }),
    ).toEqual([
      'SKILL.md:7:26 unused skills-lint-disable: nothing was reported by "SK108" where this comment reaches',
      'references/guide.md:2:1 unused skills-lint-disable: nothing was reported where this comment reaches',
    ]);
  });

  it('reports a name whose finding is on another line than the -next-line comment reaches', async () => {
    expect(
      await sk135({
        'SKILL.md': md('# Demo\n\nRead [the guide](references/guide.md).\n'),
        'references/guide.md':
          '# Guide\n<!-- skills-lint-disable-next-line file-reference-missing -->\n\nSee [x](x.md).\n',
      }),
    ).toEqual([
      'references/guide.md:2:36 unused skills-lint-disable: nothing was reported by "file-reference-missing" where this comment reaches',
    ]);
  });

  it('does not judge, in the skill file, a rule that compares skills (it reports later) nor a bare comment there', async () => {
    expect(
      await sk135({
        'SKILL.md': md('# Demo\n\n<!-- skills-lint-disable duplicate-skill -->\n<!-- skills-lint-disable -->\n'),
      }),
    ).toEqual([]);
  });

  it('never reads another tool’s comments; is not turned off by a comment; can be turned off in the configuration', async () => {
    const others = md(
      '# Demo\n\n<!-- markdownlint-disable MD013 -->\n<!-- eslint-disable no-console -->\n<!-- prettier-ignore -->\n\nFollow these steps.\n',
    );
    expect(await sk135({ 'SKILL.md': others })).toEqual([]);
    const both = md('# Demo\n\n<!-- skills-lint-disable SK135 SK108 -->\n\nFollow these steps.\n');
    expect(await sk135({ 'SKILL.md': both })).toHaveLength(2);
    expect(await sk135({ 'SKILL.md': both }, { SK135: { severity: 'off' } } as unknown as Config['rules'])).toEqual([]);
  });
});
