// The integrity worked out while an archive is unpacked (StreamedDigest, on a worker thread past a few MiB) must be
// digest()'s of the skill's files, or nothing when the files hashed are not exactly the skill's (then install falls
// back to digest()): never a wrong value.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { create } from 'tar';
import { DEFAULT_LIMITS, extractArchive } from '../../../src/fs/archive.js';
import { digest, folderIntegrity, knownSkillFiles } from '../../../src/registry/integrity.js';
import { StreamedDigest } from '../../../src/registry/streamed-digest.js';
import { tempFolders } from '../../helpers/cli.js';
import { skillMd, writeTree, type TreeSpec } from '../../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-streamed-digest-');
afterAll(cleanup);

/** A skill with files the integrity leaves out, an executable, and `bulk` bytes of references (4 MiB up: a thread). */
function tree(name: string, bulk: number): TreeSpec {
  const t: TreeSpec = {
    'SKILL.md': skillMd(`name: ${name}\ndescription: Use when testing.\nmetadata:\n  version: "1.0.0"`),
    'scripts/run.sh': { content: '#!/bin/sh\necho hi\n', mode: 0o755 },
    '.env': 'SECRET=1\n',
    '.env.example': 'SECRET=\n',
    '.git/config': '[core]\n',
    'deep/__pycache__/x.pyc': 'bytes',
    'résumé/naïve.md': 'unicode names\n',
    'empty.md': '',
  };
  // Files of 300 KB: each spans pieces of what is sent to the thread.
  for (let i = 0; i * 300_000 < bulk; i++) t[`references/r${String(i).padStart(3, '0')}.md`] = `${i}`.repeat(300_000);
  return t;
}

/** Extract `file` hashing as install does; the streamed result for the skill in `inner`, and digest()'s. */
async function both(file: string, inner: string): Promise<{ streamed: string | undefined; walked: string }> {
  const dest = join(fresh('dest'), 'x');
  const s = new StreamedDigest();
  try {
    const { written = [] } = await extractArchive(file, dest, DEFAULT_LIMITS, {
      record: true,
      onFile: (rel, mode, size) => s.file(rel, mode, size),
    });
    const root = inner === '' ? dest : join(dest, inner);
    const files = knownSkillFiles(root, written, inner);
    const streamed = await s.result(files, inner);
    expect(digest(files)).toBe(folderIntegrity(root));
    return { streamed, walked: folderIntegrity(root) };
  } finally {
    s.close();
  }
}

/** A .tgz of `entries` (paths below `src`), in that order. */
async function tgz(src: string, entries: string[]): Promise<string> {
  const file = join(fresh('archive'), 'a.tgz');
  await create({ gzip: true, file, cwd: src, portable: true }, entries);
  return file;
}

describe('StreamedDigest: the integrity of an archive’s skill, worked out while it is unpacked', () => {
  for (const bulk of [10_000, 5_000_000]) {
    it(`is digest() of the skill's files (${bulk > 4_000_000 ? 'on a thread' : 'here'}), top folder or none`, async () => {
      for (const top of ['', 'big']) {
        const src = fresh('src');
        const t = tree('big', bulk);
        writeTree(top === '' ? src : join(src, top), t);
        const names = Object.keys(t).sort();
        const file = await tgz(src, top === '' ? names : names.map((n) => `${top}/${n}`));
        const { streamed, walked } = await both(file, top);
        expect(streamed).toBe(walked);
      }
    });
  }

  it('gives nothing when the archive lists the files out of order (digest() sorts them)', async () => {
    const src = fresh('src');
    const t = tree('big', 5_000_000);
    writeTree(join(src, 'big'), t);
    const file = await tgz(
      src,
      Object.keys(t)
        .sort()
        .reverse()
        .map((n) => `big/${n}`),
    );
    const { streamed } = await both(file, 'big');
    expect(streamed).toBeUndefined();
  });

  it('gives nothing for a skill in another folder than the first file’s (a repository of skills)', async () => {
    const src = fresh('src');
    writeTree(join(src, 'repo'), { 'README.md': 'a repository\n' });
    writeTree(join(src, 'repo', 'skills', 'one'), tree('one', 5_000_000));
    const file = await tgz(src, ['repo']);
    const { streamed } = await both(file, 'repo/skills/one');
    expect(streamed).toBeUndefined();
  });

  it('gives nothing when a file of the skill was not among those hashed, and once only', async () => {
    const src = fresh('src');
    mkdirSync(join(src, 'big'));
    const t = tree('big', 10_000);
    writeTree(join(src, 'big'), t);
    const file = await tgz(
      src,
      Object.keys(t)
        .sort()
        .map((n) => `big/${n}`),
    );
    const dest = join(fresh('dest'), 'x');
    const s = new StreamedDigest();
    const { written = [] } = await extractArchive(file, dest, DEFAULT_LIMITS, {
      record: true,
      onFile: (rel, mode, size) => s.file(rel, mode, size),
    });
    const files = knownSkillFiles(join(dest, 'big'), written, 'big');
    expect(await s.result(files.slice(1), 'big')).toBeUndefined();
    expect(await s.result(files, 'big')).toBe(folderIntegrity(join(dest, 'big')));
    expect(await s.result(files, 'big')).toBeUndefined();
    s.close();
  });
});
