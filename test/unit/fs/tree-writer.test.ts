import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TreeWriter } from '../../../src/fs/tree-writer.js';
import { copyFiles, copySealedOn, sealFolder } from '../../../src/registry/store.js';
import { digestKeeping, skillFiles } from '../../../src/registry/integrity.js';
import { tempFolders } from '../../helpers/cli.js';
import { describeTree, writeTree } from '../../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-tree-writer-');
afterAll(cleanup);

describe('TreeWriter', () => {
  it('writes and seals copies exactly as copyFiles and sealFolder do, many folders in order', async () => {
    const src = fresh();
    writeTree(src, {
      'SKILL.md': '---\nname: x\n---\n',
      'scripts/run.sh': { content: '#!/bin/sh\necho hi\n', mode: 0o755 },
      'references/deep/er/a.md': '# A\n',
      'references/empty.md': '',
      'assets/link.md': { symlink: '../references/deep/er/a.md' },
      'private.txt': { content: 'p\n', mode: 0o600 },
    });
    const files = skillFiles(src);
    digestKeeping(files, { bytes: 1024 * 1024 });
    const out = fresh();
    const expected = join(out, 'by-hand');
    copyFiles(files, expected);
    sealFolder(expected, files, true);
    const writer = new TreeWriter();
    const copies = Array.from({ length: 5 }, (_, i) => join(out, `copy-${i}`));
    for (const dest of copies) expect(copySealedOn(writer, files, dest)).toBe(true);
    await writer.finish();
    const want = describeTree(expected);
    expect(want['scripts/run.sh']).toBe('file 555 #!/bin/sh\necho hi\n');
    // A link inside the skill is copied as the file it leads to, with pack's modes (private.txt 600: 644, sealed 444).
    expect(want['assets/link.md']).toBe('file 444 # A\n');
    expect(want['private.txt']).toBe('file 444 p\n');
    expect(want['.']).toMatch(/^dir [0-7]*5[0-7]5$/);
    for (const dest of copies) expect(describeTree(dest)).toEqual(want);
  });

  it('refuses files whose bytes are not held, sending nothing (the caller copies them)', async () => {
    const src = fresh();
    writeTree(src, { 'SKILL.md': 'x\n', 'b.md': 'b\n' });
    const files = skillFiles(src);
    const writer = new TreeWriter();
    const dest = join(fresh(), 'copy');
    expect(copySealedOn(writer, files, dest)).toBe(false);
    await writer.finish();
    expect(existsSync(dest)).toBe(false);
  });

  it('reports the first failure with its code and path, and writes nothing after it', async () => {
    const out = fresh();
    // A file where the first copy's folder would go: mkdir fails with EEXIST.
    writeFileSync(join(out, 'taken'), 'x');
    const writer = new TreeWriter();
    writer.copy(join(out, 'ok'), [{ rel: 'a.md', mode: 0o444, content: Buffer.from('a') }], ['']);
    writer.copy(join(out, 'taken', 'sub'), [{ rel: 'a.md', mode: 0o444, content: Buffer.from('a') }], ['']);
    writer.copy(join(out, 'after'), [{ rel: 'a.md', mode: 0o444, content: Buffer.from('a') }], ['']);
    const err = (await writer.finish().then(
      () => undefined,
      (e: unknown) => e,
    )) as NodeJS.ErrnoException;
    expect(err).toBeInstanceOf(Error);
    expect(err.code).toBe('ENOTDIR');
    expect(err.syscall).toBe('mkdir');
    expect(err.path).toBe(join(out, 'taken', 'sub'));
    expect(readFileSync(join(out, 'ok', 'a.md'), 'utf8')).toBe('a');
    expect(existsSync(join(out, 'after'))).toBe(false);
  });

  it('writes nothing once aborted', async () => {
    const out = fresh();
    mkdirSync(join(out, 'x'));
    const writer = new TreeWriter();
    await writer.abort();
    writer.copy(join(out, 'x', 'late'), [{ rel: 'a.md', mode: 0o444, content: Buffer.from('a') }], ['']);
    await expect(writer.finish()).rejects.toThrow('ended before it was done');
    expect(existsSync(join(out, 'x', 'late'))).toBe(false);
  });
});
