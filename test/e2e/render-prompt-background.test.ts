import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempFolders } from '../helpers/cli.js';
import { skillMd, writeTree } from '../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-render-bg-e2e-');
afterAll(cleanup);

describe('skills render-prompt --query (built CLI): words weighed by how common they are across public skills', () => {
  it('ranks the skill holding the word few skills say before one holding a word many skills say', async () => {
    // Each of the two words stands in one skill of this catalog, and the first skill's description is the shorter:
    // only skills at large tell that "company" is said by many skills and "dkim" by few.
    const dir = fresh('skills');
    const tree: Record<string, string> = {};
    for (let i = 0; i < 20; i++) {
      const name = `filler-${i}`;
      const instrument = ['oboe', 'violin', 'cello', 'flute', 'harp'][i % 5];
      tree[`${name}/SKILL.md`] = skillMd(
        `name: ${name}\ndescription: Tune the ${instrument} number ${i} before a concert rehearsal.\n`,
        `# ${name}\n`,
      );
    }
    tree['company-letters/SKILL.md'] = skillMd(
      'name: company-letters\ndescription: Write the company letters.\n',
      '# Letters\n',
    );
    tree['dkim-records/SKILL.md'] = skillMd(
      'name: dkim-records\ndescription: Publish the DKIM keys of a mail domain in its records, and check them.\n',
      '# Records\n',
    );
    writeTree(dir, tree);
    const r = await runCli(
      ['render-prompt', '-q', '--query', 'dkim for the company', dir, '--no-registry', '--format', 'json'],
      { env: { HOME: fresh('home') } },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const selected = (JSON.parse(r.stdout) as { selected: { name: string }[] }).selected.map((s) => s.name);
    expect(selected).toEqual(['dkim-records', 'company-letters']);
  });
});
