import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { copyBytes, hashFrom } from '../../../src/registry/file-bytes.js';
import type { StoredFile } from '../../../src/registry/integrity.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A FIFO where the walk saw a regular file (swapped in since), as the store would be handed it. */
function swapped(): { file: StoredFile; out: string } {
  const dir = mkdtempSync(join(tmpdir(), 'stored-open-'));
  dirs.push(dir);
  const abs = join(dir, 'data.bin');
  execFileSync('mkfifo', [abs]);
  return { file: { rel: 'data.bin', abs, kind: 'file', mode: 0o644, size: 10 }, out: join(dir, 'out.bin') };
}

describe('a file the walk found regular, read to copy or hash it', () => {
  it('is refused, not waited on, when a FIFO stands there now (copy)', () => {
    const { file, out } = swapped();
    const fd = openSync(out, 'w');
    try {
      expect(() => copyBytes(fd, file)).toThrow(/data\.bin is no longer a regular file; nothing was written/);
    } finally {
      closeSync(fd);
    }
  }, 5000);

  it('is refused, not waited on, when a FIFO stands there now (hash)', () => {
    const { file } = swapped();
    expect(() => hashFrom(createHash('sha256'), file, { bytes: 0 })).toThrow(/no longer a regular file/);
  }, 5000);

  it('is refused, not followed, when a link stands there now, to a file outside the skill (copy and hash)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'stored-open-'));
    dirs.push(dir);
    const secret = join(dir, 'id_rsa');
    writeFileSync(secret, 'PRIVATE');
    const abs = join(dir, 'skill-notes.md');
    symlinkSync(secret, abs);
    const file: StoredFile = { rel: 'notes.md', abs, kind: 'file', mode: 0o644, size: 7 };
    const out = join(dir, 'out.md');
    const fd = openSync(out, 'w');
    try {
      expect(() => copyBytes(fd, file)).toThrow(
        /skill-notes\.md is a symbolic link now, where a regular file was found; it was refused \(not followed\)/,
      );
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(out, 'utf8')).toBe('');
    expect(() => hashFrom(createHash('sha256'), file, { bytes: 0 })).toThrow(/skill-notes\.md is a symbolic link now/);
    // A file the walk did not stat (its bytes read as they are hashed): the same words, not open()'s ELOOP.
    expect(() => hashFrom(createHash('sha256'), { ...file, unstatted: true }, { bytes: 0 })).toThrow(
      /skill-notes\.md is a symbolic link now, where a regular file was found; it was refused/,
    );
  });

  it('is copied as it is when it is a regular file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'stored-open-'));
    dirs.push(dir);
    const abs = join(dir, 'a.txt');
    writeFileSync(abs, 'hello');
    const out = join(dir, 'out.txt');
    const fd = openSync(out, 'w');
    try {
      copyBytes(fd, { rel: 'a.txt', abs, kind: 'file', mode: 0o644, size: 5 });
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(out, 'utf8')).toBe('hello');
  });
});
