// An unpacked archive's skill is loaded from what the extraction wrote (knownEntries), not by walking the folder it
// just wrote: the Skill must be the one loadSkill finds by walking, entry for entry (only their order differs: a walk
// lists in readdir's order, the record in path order), and validate must find the same.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { create } from 'tar';
import yazl from 'yazl';
import { DEFAULT_LIMITS, extractArchive } from '../../../src/fs/archive.js';
import { knownEntries, walkSkill } from '../../../src/fs/walk.js';
import type { Skill } from '../../../src/model/skill.js';
import { loadSkill } from '../../../src/skill/load.js';
import { validateSkills } from '../../../src/skill/validate.js';
import { Scratch, unpackArchive } from '../../../src/install/sources.js';
import type { InstallOptions } from '../../../src/install/types.js';
import { tempFolders } from '../../helpers/cli.js';
import { skillMd, writeTree, type TreeSpec } from '../../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-load-known-');
afterAll(cleanup);

/** Everything a walk treats specially: skipped folders, leftovers, the depth bound, scripts, references, assets. */
const TREE: TreeSpec = {
  'SKILL.md': skillMd(
    'name: tricky\ndescription: Use when testing.\nmetadata:\n  version: "1.0.0"\nscripts:\n  - scripts/run.sh\n  - scripts/missing.sh',
    '# Tricky\n\nSee [the guide](references/guide.md), [a missing page](references/none.md) and assets/logo.txt.\n',
  ),
  'scripts/run.sh': { content: '#!/bin/sh\necho hi\n', mode: 0o755 },
  'scripts/plain.py': { content: 'print(1)\n', mode: 0o644 },
  'references/guide.md': '# Guide\n',
  'references/deeper/more.md': '# More\n',
  'assets/logo.txt': 'logo\n',
  '.env.example': 'TOKEN=\n',
  '.env': 'TOKEN=secret\n',
  '.git/config': '[core]\n',
  'node_modules/dep/index.js': 'module.exports = 1;\n',
  'deep/__pycache__/x.pyc': 'bytes',
  '.SKILL.md.tmp-w.123.0123abcd': 'a leftover of a killed writer',
  'sub/.guide.md.tmp.77.89abcdef': 'another leftover',
  // Nine folders deep: the walk lists the eighth level's folder but not what is in it.
  'a/b/c/d/e/f/g/h/i/j.md': 'too deep\n',
  'a/b/c/d/e/f/g/h/k.md': 'too deep too\n',
  'a/b/c/d/e/f/g/h.md': 'deep but listed\n',
  'résumé/naïve.md': 'unicode names\n',
};

const byPath = <T extends { path: string }>(a: T, b: T) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** The Skill as data, its entries (and the lists drawn from them) in path order. */
function comparable(skill: Skill) {
  return {
    ...skill,
    entries: [...skill.entries].sort(byPath),
    references: [...skill.references].sort(),
    assets: [...skill.assets].sort(),
    scripts: [...skill.scripts].sort(byPath),
  };
}

async function expectSameAsWalk(root: string, entries: ReturnType<typeof knownEntries>): Promise<void> {
  expect(entries).toBeDefined();
  const known = loadSkill(root, { entries });
  const walked = loadSkill(root);
  expect(comparable(known)).toEqual(comparable(walked));
  // The walk's entries hold something of each kind the tree has, so the comparison is not of empty lists.
  expect(known.entries.length).toBeGreaterThan(20);
  expect(known.entries.some((e) => e.path === 'a/b/c/d/e/f/g/h' && e.kind === 'dir')).toBe(true);
  expect(known.entries.some((e) => e.path.startsWith('a/b/c/d/e/f/g/h/'))).toBe(false);
  expect(known.entries.some((e) => e.path.includes('.git') || e.path.includes('tmp'))).toBe(false);
  expect(known.scripts.find((s) => s.path === 'scripts/run.sh')).toMatchObject({ exists: true, executable: true });
  const [a, b] = await Promise.all([validateSkills([known]), validateSkills([walked])]);
  const diags = (r: typeof a) =>
    r[0]!.diagnostics.map((d) => `${d.rule} ${d.message}`).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  expect(diags(a)).toEqual(diags(b));
  // Findings that read the entries are there: a missing script and a missing reference.
  expect(diags(a).join('\n')).toMatch(/missing\.sh/);
}

/** The tree below `top` (or at the archive's top) as a .tgz, with an empty folder; entries in reverse order. */
async function tgzOf(top: string): Promise<string> {
  const src = fresh('src');
  const skill = top === '' ? src : join(src, top);
  mkdirSync(join(skill, 'empty', 'inside'), { recursive: true });
  writeTree(skill, TREE);
  const file = join(fresh('archive'), 'tricky.tgz');
  const names = [...Object.keys(TREE), 'empty/inside/'].map((rel) => (top === '' ? rel : `${top}/${rel}`)).reverse();
  await create({ gzip: true, file, cwd: src, portable: true }, names);
  return file;
}

describe('loadSkill from knownEntries (what an extraction wrote) is loadSkill of the folder', () => {
  for (const top of ['', 'tricky']) {
    it(`a .tgz ${top ? 'with a top folder' : 'of the skill folder itself'}, with an empty folder and unsorted entries`, async () => {
      const file = await tgzOf(top);
      const dest = join(fresh('dest'), 'x');
      const { written = [], folders = [] } = await extractArchive(file, dest, DEFAULT_LIMITS, { record: true });
      const prefix = top === '' ? '' : `${top}/`;
      const entries = knownEntries(
        written.filter((w) => w.rel.startsWith(prefix)).map((w) => w.rel.slice(prefix.length)),
        folders.filter((d) => d.startsWith(prefix)).map((d) => d.slice(prefix.length)),
      );
      expect(entries!.some((e) => e.path === 'empty/inside' && e.kind === 'dir')).toBe(true);
      await expectSameAsWalk(top === '' ? dest : join(dest, top), entries);
    });
  }

  it('a .zip (folders implied by the files only)', async () => {
    const zip = new yazl.ZipFile();
    for (const [rel, spec] of Object.entries(TREE)) {
      const content = typeof spec === 'string' ? spec : 'content' in spec ? spec.content : '';
      const mode = typeof spec === 'object' && 'mode' in spec && spec.mode !== undefined ? spec.mode : 0o644;
      zip.addBuffer(Buffer.from(content), `tricky/${rel}`, { mode: 0o100000 | mode });
    }
    zip.end();
    const chunks: Buffer[] = [];
    for await (const c of zip.outputStream) chunks.push(c as Buffer);
    const file = join(fresh('archive'), 'tricky.zip');
    writeFileSync(file, Buffer.concat(chunks));
    const dest = join(fresh('dest'), 'x');
    const { written = [], folders = [] } = await extractArchive(file, dest, DEFAULT_LIMITS, { record: true });
    const entries = knownEntries(
      written.map((w) => w.rel.slice('tricky/'.length)),
      folders.filter((d) => d.startsWith('tricky/')).map((d) => d.slice('tricky/'.length)),
    );
    await expectSameAsWalk(join(dest, 'tricky'), entries);
  });

  it('install unpacks an archive into skills loaded so, moved or not (the skill at the top is moved into a folder)', async () => {
    for (const top of ['', 'tricky']) {
      const file = await tgzOf(top);
      const scratch = new Scratch(fresh('scratch'));
      const options = { limits: DEFAULT_LIMITS, useRegistry: false } as unknown as InstallOptions;
      try {
        const [a] = await unpackArchive(file, 'tricky.tgz', scratch, options);
        expect(a!.entries).toBeDefined();
        await expectSameAsWalk(a!.root, a!.entries);
        if (a!.skill) expect(comparable(a!.skill)).toEqual(comparable(loadSkill(a!.root)));
      } finally {
        scratch.cleanup();
      }
    }
  });

  it('lists what a walk lists whatever the order of the files (a file at the top between two in a skipped folder)', () => {
    const root = fresh('order');
    const files = [
      '.git/a',
      'top.md',
      '.git/b',
      'x/.y.md.tmp.1.0123abcd',
      'x/y.md',
      'SKILL.md',
      'a/b/c/d/e/f/g/h/i.md',
    ];
    writeTree(
      root,
      Object.fromEntries(files.map((f) => [f, f === 'SKILL.md' ? skillMd('name: order\ndescription: d') : 'x'])),
    );
    mkdirSync(join(root, 'node_modules', 'empty'), { recursive: true });
    for (const order of [files, [...files].reverse()]) {
      const entries = knownEntries(order, ['node_modules/empty', 'x']);
      expect([...entries!].sort(byPath)).toEqual([...walkSkill(root).entries].sort(byPath));
      // Each folder comes before what is in it.
      for (const [i, e] of entries!.entries())
        if (e.path.includes('/')) expect(entries!.findIndex((d) => d.path === dirname(e.path))).toBeLessThan(i);
    }
  });

  it('gives up past the count a walk keeps (which entries a walk keeps then depends on readdir order)', () => {
    const files = (n: number) => Array.from({ length: n }, (_, i) => `f${i}.md`);
    expect(knownEntries(files(20_000), [])).toHaveLength(20_000);
    expect(knownEntries(files(19_999), ['d'])).toHaveLength(20_000);
    expect(knownEntries(files(20_001), [])).toBeUndefined();
    expect(knownEntries(files(19_999), ['d', 'e'])).toBeUndefined();
  });
});
