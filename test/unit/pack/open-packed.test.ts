// pack reads each file where its plan found it, not through a link swapped in since (src/pack/open-packed.ts).
import { afterAll, describe, expect, it } from 'vitest';
import { renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { planPack, tarEntries } from '../../../src/pack/pack.js';
import { tempFolders } from '../../helpers/cli.js';
import { skillMd, writeTree } from '../../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-open-packed-');
afterAll(cleanup);

/** A skill with a reference and, beside it, a secret outside the skill; the skill's folder. */
function skillBesideSecret(): { dir: string; secret: string } {
  const parent = fresh();
  const secret = join(parent, 'id_rsa');
  writeFileSync(secret, 'PRIVATE KEY\n');
  const dir = join(parent, 'packed');
  writeTree(dir, {
    'SKILL.md': skillMd('name: packed\ndescription: Packs things. Use when testing pack.\n'),
    'references/a.md': '# A\n',
    'references/inner/b.md': '# B\n',
    'alias.md': { symlink: 'references/a.md' },
  });
  return { dir, secret };
}

const contents = (entries: ReturnType<typeof tarEntries>) =>
  Object.fromEntries(entries.filter((e) => e.content).map((e) => [e.path, e.content!.toString()]));

describe('the files of a pack, read after the plan', () => {
  it('reads each file as planned, a link inside the skill as what it leads to', async () => {
    const { dir } = skillBesideSecret();
    expect(contents(tarEntries(await planPack(dir), ''))).toMatchObject({
      'alias.md': '# A\n',
      'references/a.md': '# A\n',
      'references/inner/b.md': '# B\n',
    });
  });

  it('refuses a file swapped for a link to a file outside the skill since the plan, and reads nothing of it', async () => {
    const { dir, secret } = skillBesideSecret();
    const plan = await planPack(dir);
    rmSync(join(dir, 'references/a.md'));
    symlinkSync(secret, join(dir, 'references/a.md'));
    expect(() => tarEntries(plan, '')).toThrow(/(alias|references\/a)\.md changed while it was being packed/);
  });

  it('refuses a file whose folder was swapped for a link leading out since the plan', async () => {
    const { dir, secret } = skillBesideSecret();
    const plan = await planPack(dir);
    const elsewhere = join(secret, '..', 'elsewhere');
    writeTree(elsewhere, { 'b.md': 'PRIVATE KEY\n' });
    renameSync(join(dir, 'references/inner'), join(dir, 'references/inner-old'));
    symlinkSync(elsewhere, join(dir, 'references/inner'));
    expect(() => tarEntries(plan, '')).toThrow(
      /references\/inner\/b\.md goes through a symbolic link to a folder out of its skill/,
    );
  });
});
