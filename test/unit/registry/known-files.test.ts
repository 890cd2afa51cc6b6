// The files an extraction records (knownSkillFiles) must be exactly what skillFiles finds by walking the extracted
// folder, and hash to the same integrity: install trusts the record instead of walking and reading again.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { create } from 'tar';
import yazl from 'yazl';
import { DEFAULT_LIMITS, extractArchive, type ExtractedFile } from '../../../src/fs/archive.js';
import {
  digest,
  digestKeeping,
  folderIntegrity,
  knownSkillFiles,
  skillFiles,
} from '../../../src/registry/integrity.js';
import { copyFiles } from '../../../src/registry/store.js';
import { tempFolders } from '../../helpers/cli.js';
import { skillMd, writeTree, type TreeSpec } from '../../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-known-files-');
afterAll(cleanup);

/** A skill with everything the integrity treats specially: kept, skipped, executable, deep, empty, big. */
const TREE: TreeSpec = {
  'SKILL.md': skillMd('name: tricky\ndescription: Use when testing.\nmetadata:\n  version: "1.0.0"'),
  'scripts/run.sh': { content: '#!/bin/sh\necho hi\n', mode: 0o755 },
  'scripts/tool.py': { content: 'print(1)\n', mode: 0o700 },
  'scripts/plain.txt': { content: 'not executable\n', mode: 0o600 },
  '.env': 'SECRET=1\n',
  '.env.local': 'SECRET=2\n',
  'sub/.env.production': 'SECRET=3\n',
  '.env.example': 'SECRET=\n',
  '.git/config': '[core]\n',
  'node_modules/dep/index.js': 'module.exports = 1;\n',
  'deep/__pycache__/x.pyc': 'bytes',
  '.SKILL.md.tmp-w.123.0123abcd': 'a leftover of a killed writer',
  'deep/a/b/c/d.md': '# deep\n',
  'deep/A.md': 'upper case sorts first\n',
  'empty.md': '',
  'résumé/naïve.md': 'unicode names\n',
  'references/big.md': 'x'.repeat(200_000),
};

/** Pack `TREE` below `top` (or at the archive's top) as a .tgz, its entries in reverse order (not sorted). */
async function tgzOf(top: string): Promise<{ file: string; src: string }> {
  const src = fresh('src');
  const skill = top === '' ? src : join(src, top);
  mkdirSync(skill, { recursive: true });
  writeTree(skill, TREE);
  const file = join(fresh('archive'), 'tricky.tgz');
  const entries = Object.keys(TREE)
    .map((rel) => (top === '' ? rel : `${top}/${rel}`))
    .reverse();
  await create({ gzip: true, file, cwd: src, portable: true }, entries);
  return { file, src: skill };
}

/** The same tree as a zip with unix modes, unsorted. */
async function zipOf(): Promise<string> {
  const zip = new yazl.ZipFile();
  for (const [rel, spec] of Object.entries(TREE).reverse()) {
    const content = typeof spec === 'string' ? spec : 'content' in spec ? spec.content : '';
    const mode = typeof spec === 'object' && 'mode' in spec && spec.mode !== undefined ? spec.mode : 0o644;
    zip.addBuffer(Buffer.from(content), `tricky/${rel}`, { mode: 0o100000 | mode });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  const file = join(fresh('archive'), 'tricky.zip');
  writeFileSync(file, Buffer.concat(chunks));
  return file;
}

const listing = (files: ReturnType<typeof skillFiles>) =>
  files.map((f) => ({ rel: f.rel, kind: f.kind, mode: f.mode }));

/** What the record says against what a walk and a read of the extracted folder say. */
function expectSameAsWalk(root: string, written: ExtractedFile[], inner: string): void {
  const known = knownSkillFiles(root, written, inner);
  const walked = skillFiles(root);
  expect(listing(known)).toEqual(listing(walked));
  expect(known.map((f) => f.abs)).toEqual(walked.map((f) => f.abs));
  expect(digest(known)).toBe(folderIntegrity(root));
}

describe('knownSkillFiles: the record of an extraction is the walk of what it wrote', () => {
  for (const top of ['', 'tricky']) {
    it(`a .tgz ${top ? 'with a top folder' : 'of the skill folder itself'}, entries unsorted: same files, modes and integrity`, async () => {
      const { file, src } = await tgzOf(top);
      const dest = join(fresh('dest'), 'x');
      const { written = [] } = await extractArchive(file, dest, DEFAULT_LIMITS, { record: true });
      const root = top === '' ? dest : join(dest, top);
      expectSameAsWalk(root, written, top);
      // And the integrity of the source folder the archive was made from.
      expect(digest(knownSkillFiles(root, written, top))).toBe(folderIntegrity(src));
      const rels = knownSkillFiles(root, written, top).map((f) => f.rel);
      // Secrets, VCS and package folders, byte-code caches and leftovers are out; .env.example is in.
      expect(rels).toContain('.env.example');
      for (const out of ['.env', '.env.local', 'sub/.env.production', '.git/config', 'node_modules/dep/index.js'])
        expect(rels).not.toContain(out);
      expect(rels.some((r) => r.includes('__pycache__') || r.includes('tmp-w'))).toBe(false);
    });
  }

  it('a .zip with unix modes: the same', async () => {
    const file = await zipOf();
    const dest = join(fresh('dest'), 'x');
    const { written = [] } = await extractArchive(file, dest, DEFAULT_LIMITS, { record: true });
    expectSameAsWalk(join(dest, 'tricky'), written, 'tricky');
    const modes = Object.fromEntries(knownSkillFiles(dest, written, 'tricky').map((f) => [f.rel, f.mode & 0o111]));
    expect(modes).toMatchObject({ 'scripts/run.sh': 0o111, 'scripts/tool.py': 0o111, 'scripts/plain.txt': 0 });
  });

  it('keeps bytes only within keepBytes; a file not kept is read from disk, and the integrity is the same', async () => {
    const { file } = await tgzOf('tricky');
    const dest = join(fresh('dest'), 'x');
    const { written = [] } = await extractArchive(file, dest, DEFAULT_LIMITS, { record: true, keepBytes: 1000 });
    const kept = written.filter((f) => f.content !== undefined);
    expect(kept.reduce((n, f) => n + f.content!.length, 0)).toBeLessThanOrEqual(1000);
    expect(written.find((f) => f.rel === 'tricky/references/big.md')!.content).toBeUndefined();
    expect(kept.length).toBeGreaterThan(0);
    for (const f of kept) expect(f.content!.length).toBe(f.size);
    expectSameAsWalk(join(dest, 'tricky'), written, 'tricky');
  });

  it('readOnly writes every file without a write bit (what the store seals to), execute bits kept', async () => {
    const { file } = await tgzOf('tricky');
    const dest = join(fresh('dest'), 'x');
    const { written = [] } = await extractArchive(file, dest, DEFAULT_LIMITS, { record: true, readOnly: true });
    for (const f of written) {
      const mode = statSync(join(dest, f.rel)).mode & 0o777;
      expect(mode & 0o222).toBe(0);
      // The record says what is on disk.
      expect(f.mode).toBe(mode);
    }
    expect(statSync(join(dest, 'tricky/scripts/run.sh')).mode & 0o111).toBe(0o111);
    expectSameAsWalk(join(dest, 'tricky'), written, 'tricky');
  });

  it('lists nothing unless asked (the result keeps its shape)', async () => {
    const { file } = await tgzOf('tricky');
    const r = await extractArchive(file, join(fresh('dest'), 'x'));
    expect(r.written).toBeUndefined();
    expect(Object.keys(r).sort()).toEqual(['bytes', 'files', 'kind']);
  });

  it('holds no symlink: an archive with a link (one skillFiles would keep, inside the skill) is refused whole', async () => {
    const src = fresh('src');
    writeTree(join(src, 'linked'), {
      'SKILL.md': skillMd('name: linked\ndescription: d'),
      'real.md': 'x',
      'alias.md': { symlink: 'real.md' },
    });
    expect(skillFiles(join(src, 'linked')).find((f) => f.rel === 'alias.md')).toMatchObject({
      kind: 'file',
      via: { rel: 'alias.md', link: 'real.md' },
    });
    const file = join(fresh('archive'), 'linked.tgz');
    await create({ gzip: true, file, cwd: src, portable: true }, ['linked']);
    const err = await extractArchive(file, join(fresh('dest'), 'x'), DEFAULT_LIMITS, { record: true }).catch(
      (e: unknown) => e,
    );
    expect((err as Error).message).toContain('entry "linked/alias.md" is a symbolic link (links are refused)');
  });

  it('refuses a record over the store limits as skillFiles does', () => {
    const many: ExtractedFile[] = Array.from({ length: DEFAULT_LIMITS.maxEntries + 1 }, (_, i) => ({
      rel: `s/f${i}.md`,
      mode: 0o644,
      size: 1,
    }));
    expect(() => knownSkillFiles('/x', many, 's')).toThrow(/holds more than 20000 files/);
    const big: ExtractedFile[] = [{ rel: 'huge.bin', mode: 0o644, size: DEFAULT_LIMITS.maxBytes + 1 }];
    expect(() => knownSkillFiles('/x', big)).toThrow(/add up to more than 256 MiB \(at huge\.bin\)/);
  });
});

describe('the integrity format', () => {
  it('is unchanged: a fixed folder (a Unicode path, an executable) hashes to the value recorded before', () => {
    const dir = fresh('fixed');
    writeTree(dir, {
      'SKILL.md': '---\nname: uni\ndescription: Use when testing unicode.\nmetadata:\n  version: "1.0.0"\n---\nbody\n',
      'résumé/naïve 日本.md': 'hi\n',
      'x.sh': { content: '#!/bin/sh\n', mode: 0o755 },
    });
    // Computed by skills before hashFile fed the path and the lengths in one update.
    expect(folderIntegrity(dir)).toBe(
      'sha512-U0lkTRvsndujSMjl7y6N4cdg9JuVgu+cOfi7MIE3qIEpPyG1v4ZFgvc3pFR6lauaO7B5cMD9Pvez6Xauf0RY0Q==',
    );
  });
});

describe('digestKeeping (a folder install reads each file once: to hash it, and its copies take those bytes)', () => {
  it('hashes as folderIntegrity does, keeping the bytes of each file while the budget lasts', () => {
    const dir = fresh('keep');
    writeTree(dir, {
      'SKILL.md': skillMd('name: keep\ndescription: Use when testing.'),
      'a.md': 'a'.repeat(100),
      'b.md': 'b'.repeat(100),
      'scripts/run.sh': { content: '#!/bin/sh\n', mode: 0o755 },
    });
    const files = skillFiles(dir);
    const sizes = new Map(files.map((f) => [f.rel, statSync(f.abs).size]));
    // Room for SKILL.md and a.md only: b.md (100 bytes) no longer fits; the script (10 bytes) still does.
    const budget = sizes.get('SKILL.md')! + 100 + 50;
    const keep = { bytes: budget };
    const integrity = digestKeeping(files, keep);
    expect(integrity).toBe(folderIntegrity(dir));
    expect(files.map((f) => [f.rel, f.content?.length])).toEqual([
      ['SKILL.md', sizes.get('SKILL.md')],
      ['a.md', 100],
      ['b.md', undefined],
      ['scripts/run.sh', 10],
    ]);
    expect(keep.bytes).toBe(budget - sizes.get('SKILL.md')! - 100 - 10);
    // A copy takes the kept bytes (what was hashed), not the file as it is now; the others it reads.
    writeFileSync(join(dir, 'a.md'), 'x'.repeat(100));
    const dest = join(fresh('copy'), 'keep');
    expect(copyFiles(files, dest)).toBe(integrity);
    expect(readFileSync(join(dest, 'a.md'), 'utf8')).toBe('a'.repeat(100));
    expect(readFileSync(join(dest, 'b.md'), 'utf8')).toBe('b'.repeat(100));
    // Given the integrity the held bytes hash to, a copy of held bytes only is not hashed again; one that reads a
    // file from disk is, so a file changed on disk still shows.
    const held = files.filter((f) => f.content !== undefined);
    expect(copyFiles(held, join(fresh('copy'), 'held'), false, 'sha512-as-given')).toBe('sha512-as-given');
    writeFileSync(join(dir, 'b.md'), 'changed');
    expect(copyFiles(files, join(fresh('copy'), 'read'), false, integrity)).not.toBe(integrity);
    // Written sealed (no write bit), execute bits kept; writable copies get the owner's write bit.
    expect(statSync(join(dest, 'a.md')).mode & 0o777).toBe(0o444);
    expect(statSync(join(dest, 'scripts/run.sh')).mode & 0o777).toBe(0o555);
    const placed = join(fresh('copy'), 'placed');
    copyFiles(held, placed, true, integrity);
    expect(statSync(join(placed, 'a.md')).mode & 0o777).toBe(0o644);
  });
});
