import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
// @ts-expect-error: a bench script in plain JavaScript, without types
import { mulberry32 } from '../../../bench/lib.mjs';
import { gatherTree } from '../../../src/install/remote.js';
import { digest, skillFiles, type StoredFile } from '../../../src/registry/integrity.js';
import { tempFolders } from '../../helpers/cli.js';
import { skillMd } from '../../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-gather-tree-');
afterAll(cleanup);

/** The bench's seeded generator: a failure names a seed that gives the same trees again. */
type Rand = { int: (n: number) => number; pick: <T>(xs: T[]) => T };

const NAMES = ['a.md', 'b.txt', '.env', '.env.local', '.env.example', '.DS_Store', 'run.sh', 'data.json', 'x'];
const FOLDERS = ['references', 'scripts', 'assets', '.git', 'node_modules', 'deep/er', 'a/b/c/d/e/f/g/h', 'docs'];

/** A valid skill with random files: skipped names and folders, execute bits, links inside, out and dangling. */
function writeRandomSkill(parent: string, name: string, rand: Rand, outside: string): void {
  const root = join(parent, name);
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'SKILL.md'), skillMd(`name: ${name}\ndescription: Does ${name}. Use when testing.\n`));
  const files: string[] = [];
  for (let i = rand.int(6); i > 0; i--) {
    const rel = rand.int(3) === 0 ? rand.pick(NAMES) : `${rand.pick(FOLDERS)}/${rand.pick(NAMES)}`;
    const abs = join(root, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, `${name} ${rel} ${rand.int(1000)}\n`.repeat(1 + rand.int(3)));
    if (rand.int(4) === 0) chmodSync(abs, 0o755);
    files.push(rel);
  }
  if (rand.int(5) === 0 && files.length > 0) {
    const kind = rand.int(3);
    const target = kind === 0 ? join(root, files[0]!) : kind === 1 ? outside : join(root, 'nowhere.md');
    symlinkSync(target, join(root, `link-${rand.int(100)}.md`));
  }
}

const shape = (files: StoredFile[]) =>
  files.map((f) => `${f.rel} ${f.kind} ${f.kind === 'symlink' ? f.link : (f.mode & 0o111) !== 0}`);

describe('gatherTree', () => {
  it('takes each skill of a folder with the files, bytes and integrity that a walk of its own would find', async () => {
    const root = fresh();
    const outside = join(fresh(), 'outside.md');
    writeFileSync(outside, 'outside\n');
    const rand = mulberry32(7) as Rand;
    const count = 400;
    for (let i = 0; i < count; i++) writeRandomSkill(root, `s-${String(i).padStart(4, '0')}`, rand, outside);
    const { found } = await gatherTree(root, root, () => ({ source: 'folder:x' }));
    expect(found).toHaveLength(count);
    for (const p of found) {
      if ('diagnostics' in p) throw new Error(`${p.source}: ${p.message}`);
      const own = skillFiles(p.skill.root);
      expect(shape(p.files!), p.skill.root).toEqual(shape(own));
      expect(p.integrity, p.skill.root).toBe(digest(own));
      for (const f of p.files!) if (f.kind === 'file') expect(f.content, f.abs).toBeDefined();
    }
  }, 60_000);
});
