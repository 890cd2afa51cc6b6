// The integrity worked out while an archive is unpacked (StreamedDigest: hashed by the thread that writes the files,
// this one or the writer's) must be digest()'s of the skill's files, or nothing when the files hashed are not exactly
// the skill's (then install falls back to digest()): never a wrong value.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { create } from 'tar';
import yazl from 'yazl';
import { DEFAULT_LIMITS, extractArchive } from '../../../src/fs/archive.js';
import { digest, fileHeader, folderIntegrity, knownSkillFiles } from '../../../src/registry/integrity.js';
import { StreamedDigest } from '../../../src/registry/streamed-digest.js';
import { tempFolders } from '../../helpers/cli.js';
import { skillMd, writeTree, type TreeSpec } from '../../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-streamed-digest-');
afterAll(cleanup);

/** A skill with files the integrity leaves out, an executable, and `bulk` bytes of references. */
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
async function both(
  file: string,
  inner: string,
  threaded: boolean,
): Promise<{ streamed: string | undefined; walked: string }> {
  const dest = join(fresh('dest'), 'x');
  const s = new StreamedDigest();
  const r = await extractArchive(file, dest, DEFAULT_LIMITS, {
    record: true,
    digest: s.options,
    threadFrom: threaded ? 0 : Infinity,
  });
  const root = inner === '' ? dest : join(dest, inner);
  const files = knownSkillFiles(root, r.written!, inner);
  expect(digest(files)).toBe(folderIntegrity(root));
  return { streamed: s.result(files, inner, r.digest), walked: folderIntegrity(root) };
}

/** A .tgz of `entries` (paths below `src`), in that order. */
async function tgz(src: string, entries: string[]): Promise<string> {
  const file = join(fresh('archive'), 'a.tgz');
  await create({ gzip: true, file, cwd: src, portable: true }, entries);
  return file;
}

describe('StreamedDigest: the integrity of an archive’s skill, worked out while it is unpacked', () => {
  for (const threaded of [false, true]) {
    it(`is digest() of the skill's files (${threaded ? 'on the writer thread' : 'here'}), top folder or none`, async () => {
      for (const top of ['', 'big']) {
        const src = fresh('src');
        const t = tree('big', 2_000_000);
        writeTree(top === '' ? src : join(src, top), t);
        const names = Object.keys(t).sort();
        const file = await tgz(src, top === '' ? names : names.map((n) => `${top}/${n}`));
        const { streamed, walked } = await both(file, top, threaded);
        expect(streamed).toBe(walked);
      }
    });
  }

  it('is digest() when a file header meets the end of a piece sent to the thread', async () => {
    // The thread is sent the bytes in pieces of 1 MiB, each file's header (what the hash takes before its bytes) put
    // in the piece before them. Make the header of b.md end just past a piece's end, or begin right at it.
    const PIECE = 1024 * 1024;
    const skill = skillMd('name: edge\ndescription: Use when testing.');
    for (const before of [0, 1, 5, 12]) {
      const used = fileHeader({ kind: 'file', rel: 'SKILL.md', mode: 0o644 }, skill.length) + skill;
      let size = PIECE - before - used.length;
      size -= fileHeader({ kind: 'file', rel: 'a.md', mode: 0o644 }, size).length;
      const src = fresh('src');
      writeTree(join(src, 'edge'), { 'SKILL.md': skill, 'a.md': 'a'.repeat(size), 'b.md': 'b\n' });
      const file = await tgz(src, ['edge/SKILL.md', 'edge/a.md', 'edge/b.md']);
      const { streamed, walked } = await both(file, 'edge', true);
      expect(streamed).toBe(walked);
    }
  });

  it('is digest() for a zip too', async () => {
    const zip = new yazl.ZipFile();
    const t = tree('big', 1_000_000);
    for (const rel of Object.keys(t).sort()) {
      const spec = t[rel]!;
      const content = typeof spec === 'string' ? spec : 'content' in spec ? spec.content : '';
      const mode = typeof spec === 'object' && 'mode' in spec && spec.mode !== undefined ? spec.mode : 0o644;
      zip.addBuffer(Buffer.from(content), `big/${rel}`, { mode: 0o100000 | mode });
    }
    zip.end();
    const chunks: Buffer[] = [];
    for await (const c of zip.outputStream) chunks.push(c as Buffer);
    const file = join(fresh('archive'), 'a.zip');
    writeFileSync(file, Buffer.concat(chunks));
    const { streamed, walked } = await both(file, 'big', false);
    expect(streamed).toBe(walked);
  });

  it('gives nothing when the archive lists the files out of order (digest() sorts them)', async () => {
    const src = fresh('src');
    const t = tree('big', 2_000_000);
    writeTree(join(src, 'big'), t);
    const file = await tgz(
      src,
      Object.keys(t)
        .sort()
        .reverse()
        .map((n) => `big/${n}`),
    );
    const { streamed } = await both(file, 'big', true);
    expect(streamed).toBeUndefined();
  });

  it('gives nothing for a skill in another folder than the first file’s (a repository of skills)', async () => {
    const src = fresh('src');
    writeTree(join(src, 'repo'), { 'README.md': 'a repository\n' });
    writeTree(join(src, 'repo', 'skills', 'one'), tree('one', 2_000_000));
    const file = await tgz(src, ['repo']);
    const { streamed } = await both(file, 'repo/skills/one', true);
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
    const r = await extractArchive(file, dest, DEFAULT_LIMITS, { record: true, digest: s.options });
    const files = knownSkillFiles(join(dest, 'big'), r.written!, 'big');
    expect(s.result(files.slice(1), 'big', r.digest)).toBeUndefined();
    expect(s.result(files, 'big', undefined)).toBeUndefined();
    expect(s.result(files, 'big', r.digest)).toBe(folderIntegrity(join(dest, 'big')));
    expect(s.result(files, 'big', r.digest)).toBeUndefined();
  });
});
