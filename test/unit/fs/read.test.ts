import { afterAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readBoundedBytes, SNIFF_BYTES } from '../../../src/fs/read.js';
import { tempFolders } from '../../helpers/cli.js';

const { fresh, cleanup } = tempFolders('skills-fs-read-');
afterAll(cleanup);

describe('readBoundedBytes', () => {
  it('with textOnly, stops at a NUL byte in the first 8 KiB and reads nothing more', () => {
    const dir = fresh();
    const font = join(dir, 'font.ttf');
    // A font's header: NUL bytes at once, then 100 KiB of glyphs.
    writeFileSync(font, Buffer.concat([Buffer.from([0, 1, 0, 0]), Buffer.alloc(100 * 1024, 0x41)]));
    expect(readBoundedBytes(font, 1 << 20, { textOnly: true })).toEqual({
      binary: true,
      stat: { size: 4 + 100 * 1024, mode: expect.any(Number) },
    });
    // The last byte of the first 8 KiB still counts.
    const late = join(dir, 'late.bin');
    writeFileSync(
      late,
      Buffer.concat([Buffer.alloc(SNIFF_BYTES - 1, 0x61), Buffer.from([0]), Buffer.alloc(9000, 0x61)]),
    );
    expect(readBoundedBytes(late, 1 << 20, { textOnly: true }).binary).toBe(true);
    // Without textOnly the same file is read whole.
    expect(readBoundedBytes(font, 1 << 20).bytes?.length).toBe(4 + 100 * 1024);
  });

  it('with textOnly, reads a text whole: a NUL past the first 8 KiB, a short file (left to the caller), any size', () => {
    const dir = fresh();
    const past = join(dir, 'past.txt');
    const pastBytes = Buffer.concat([Buffer.alloc(SNIFF_BYTES, 0x61), Buffer.from([0]), Buffer.alloc(5000, 0x62)]);
    writeFileSync(past, pastBytes);
    expect(readBoundedBytes(past, 1 << 20, { textOnly: true }).bytes?.equals(pastBytes)).toBe(true);
    const short = join(dir, 'short.bin');
    writeFileSync(short, Buffer.from([0x61, 0, 0x62]));
    expect(readBoundedBytes(short, 1 << 20, { textOnly: true }).bytes?.equals(Buffer.from([0x61, 0, 0x62]))).toBe(true);
    for (const size of [0, 1, SNIFF_BYTES - 1, SNIFF_BYTES, SNIFF_BYTES + 1, 3 * SNIFF_BYTES + 7]) {
      const f = join(dir, `t${size}.txt`);
      const text = Buffer.alloc(size, 0x7a);
      writeFileSync(f, text);
      const r = readBoundedBytes(f, 1 << 20, { textOnly: true });
      expect(r.binary).toBeUndefined();
      expect(r.bytes?.equals(text)).toBe(true);
    }
    // Too large is still told before anything is read.
    expect(readBoundedBytes(past, 100, { textOnly: true }).tooLarge).toBe(pastBytes.length);
  });
});
