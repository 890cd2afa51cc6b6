import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, lstatSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { readBounded } from '../../../src/fs/read.js';
import { readBoundedHeld, type HeldFile } from '../../../src/fs/read-held.js';
import { tempFolders } from '../../helpers/cli.js';
import { seeded } from '../../helpers/seeded.js';

const { fresh, cleanup } = tempFolders('skills-fs-read-held-');
afterAll(cleanup);

/** What a call answered, or the error it threw (its class, code and message), to compare two readers by. */
function outcome(read: () => unknown): unknown {
  try {
    return { value: read() };
  } catch (err) {
    const e = err as Error & { code?: string };
    return { error: e.constructor.name, code: e.code, message: e.message };
  }
}

/** Bytes of one kind: ASCII prose, UTF-8 with non-ASCII, bytes that are not UTF-8, NULs and controls. */
function bytesOf(next: (n: number) => number, size: number): Buffer {
  const kind = next(4);
  const out = Buffer.alloc(size);
  for (let i = 0; i < size; i++) {
    if (kind === 0) out[i] = 0x20 + next(95);
    else if (kind === 1) out[i] = next(3) === 0 ? 0xc3 + next(2) : 0x61 + next(26);
    else if (kind === 2) out[i] = next(256);
    else out[i] = next(5) === 0 ? next(32) : 0x41 + next(26);
  }
  if (kind === 1 && size > 1) {
    // Whole two-byte sequences where the lead bytes fell, so the text is UTF-8 with non-ASCII in it.
    for (let i = 0; i < size - 1; i++) if (out[i]! >= 0xc3) out[++i] = 0x80 + next(64);
    if (out[size - 1]! >= 0xc3) out[size - 1] = 0x61;
  }
  return out;
}

describe('readBoundedHeld', () => {
  it('answers as readBounded on 3,000 generated files around the bound, and holds exactly the bytes and mode read', () => {
    const dir = fresh();
    const next = seeded(1801);
    for (let i = 0; i < 3000; i++) {
      const max = next(6) === 0 ? 0 : 1 + next(300);
      const size = next(5) === 0 ? max + next(3) - 1 : next(400);
      const file = join(dir, `f${i}.txt`);
      const bytes = bytesOf(next, Math.max(0, size));
      writeFileSync(file, bytes);
      const mode = [0o644, 0o755, 0o600, 0o444][next(4)]!;
      chmodSync(file, mode);
      const held = new Map<string, HeldFile>();
      const got = outcome(() => readBoundedHeld(file, max, `r${i}`, held));
      expect(got, `file ${i} (max ${max}, size ${bytes.length})`).toEqual(outcome(() => readBounded(file, max)));
      if (bytes.length > max) expect(held.size).toBe(0);
      else {
        expect(held.get(`r${i}`)!.bytes.equals(bytes)).toBe(true);
        expect(held.get(`r${i}`)!.mode).toBe(lstatSync(file).mode & 0o7777);
        expect(held.get(`r${i}`)!.size).toBe(bytes.length);
        // A buffer of its own, not a slice of the shared pool, as it is kept until the copy is made.
        expect(held.get(`r${i}`)!.bytes.buffer.byteLength).toBe(bytes.length);
      }
    }
  });

  it('reads a link, a missing file, a folder and a FIFO as readBounded does, and holds none of them', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'target.md'), 'through a link');
    symlinkSync('target.md', join(dir, 'link.md'));
    symlinkSync('nowhere.md', join(dir, 'dangling.md'));
    mkdirSync(join(dir, 'folder.md'));
    execFileSync('mkfifo', [join(dir, 'fifo.md')]);
    for (const name of ['link.md', 'dangling.md', 'missing.md', 'folder.md', 'fifo.md']) {
      const held = new Map<string, HeldFile>();
      const file = join(dir, name);
      expect(
        outcome(() => readBoundedHeld(file, 1024, name, held)),
        name,
      ).toEqual(outcome(() => readBounded(file, 1024)));
      expect(held.size, name).toBe(0);
    }
    // The link is read through, as the load reads it: only its bytes are not held.
    expect(readBoundedHeld(join(dir, 'link.md'), 1024, 'link.md', new Map()).text).toBe('through a link');
  });
});
