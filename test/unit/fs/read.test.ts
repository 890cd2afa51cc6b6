import { afterAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeUtf8, readBounded, readBoundedBytes, SNIFF_BYTES } from '../../../src/fs/read.js';
import { identityOf } from '../../../src/fs/user-cache.js';
import { readBoundedHeld } from '../../../src/fs/read-held.js';
import { LinkOutside } from '../../../src/fs/walk.js';
import { tempFolders } from '../../helpers/cli.js';
import { writeTree } from '../../helpers/tree.js';

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
      stat: { size: 4 + 100 * 1024, mode: expect.any(Number), identity: identityOf(font) },
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

describe('decodeUtf8', () => {
  it('decodes exactly as toString("utf8") does: ASCII, non-ASCII, broken UTF-8, BOM, CR, NUL, any length', () => {
    let seed = 3;
    const rand = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff), seed % n);
    // Byte runs that ASCII text, UTF-8 text and broken UTF-8 are made of.
    const pieces = [
      [0x61],
      [0x0a],
      [0x0d, 0x0a],
      [0x0d],
      [0x00],
      [0x1b],
      [0x7f],
      [0x20, 0x7e, 0x09],
      [0xef, 0xbb, 0xbf],
      [0xc3, 0xa9],
      [0xe2, 0x80, 0xae],
      [0xf0, 0x9f, 0x98, 0x80],
      [0x80],
      [0xc3],
      [0xff],
      [0xed, 0xa0, 0x80],
      [0xc0, 0xaf],
    ];
    const wrong: string[] = [];
    for (let n = 0; n < 5000; n++) {
      const bytes: number[] = [];
      // Mostly ASCII (the fast way), some with one other byte anywhere, some of anything.
      const kind = n % 3;
      const len = rand(n % 50 === 0 ? 5000 : 60);
      for (let i = 0; i < len; i++) {
        const p = kind === 0 ? pieces[rand(8)]! : pieces[rand(pieces.length)]!;
        bytes.push(...p);
      }
      if (kind === 1 && bytes.length > 0) bytes[rand(bytes.length)] = 0x80 + rand(128);
      const buf = Buffer.from(bytes);
      if (decodeUtf8(buf) !== buf.toString('utf8')) wrong.push(buf.toString('hex'));
      // A view into a larger buffer (a pooled read) decodes its own bytes only.
      const framed = Buffer.concat([Buffer.from([0xc3]), buf, Buffer.from([0xa9])]).subarray(1, 1 + buf.length);
      if (decodeUtf8(framed) !== buf.toString('utf8')) wrong.push(`framed ${buf.toString('hex')}`);
    }
    expect(wrong).toEqual([]);
    // Past the size from which Node makes a Latin-1 string external (about 1 MB), and one byte that is not ASCII.
    const big = Buffer.alloc(1_100_000, 'line of text\n');
    expect(decodeUtf8(big)).toBe(big.toString('utf8'));
    big[600_000] = 0xe9;
    expect(decodeUtf8(big)).toBe(big.toString('utf8'));
  });

  it('is what readBounded reads', () => {
    const dir = fresh();
    const file = join(dir, 'SKILL.md');
    writeFileSync(file, Buffer.from([0x61, 0xc3, 0xa9, 0x0a, 0xff, 0x62]));
    // With the identity of the file read, which a cache keeps its reading by.
    expect(readBounded(file, 100)).toEqual({ text: 'a\u00e9\n\ufffdb', ascii: false, identity: identityOf(file) });
    writeFileSync(file, 'plain\r\ntext\u0007\n');
    expect(readBounded(file, 100)).toEqual({ text: 'plain\r\ntext\u0007\n', ascii: true, identity: identityOf(file) });
  });
});

describe('a file read within a skill folder, below a folder that is a link', () => {
  // The open follows no link in the file's own name; a folder on the way is checked after it (one readlink).
  it('is refused (LinkOutside, naming the folder link case) when the folder leads out, and nothing is read', () => {
    const dir = fresh();
    writeTree(dir, {
      'outside/notes.md': 'outside-secret-5e1a\n',
      'sk/manifest.json': '{}',
      'sk/context': { symlink: join(dir, 'outside') },
      'sk/deep/er': { symlink: join(dir, 'outside') },
    });
    const sk = join(dir, 'sk');
    for (const file of [join(sk, 'context/notes.md'), join(sk, 'deep/er/notes.md')]) {
      let thrown: unknown;
      try {
        readBounded(file, 1 << 20, sk);
      } catch (err) {
        thrown = err;
      }
      expect(thrown, `${file}: expected LinkOutside`).toBeInstanceOf(LinkOutside);
      expect((thrown as LinkOutside).throughFolder).toBe(true);
      expect((thrown as Error).message).toBe(
        `${file} goes through a symbolic link to a folder out of its skill (to ${join(dir, 'outside/notes.md')}); it is not read`,
      );
    }
    // The held read (install, registry sync) refuses it the same way.
    expect(() => readBoundedHeld(join(sk, 'context/notes.md'), 1 << 20, 'context/notes.md', new Map(), sk)).toThrow(
      LinkOutside,
    );
  });

  it('is read when the folder link stays inside, when no folder is a link, and when the skill folder itself is one', () => {
    const dir = fresh();
    writeTree(dir, {
      'sk/real/notes.md': 'inside\n',
      'sk/alias': { symlink: 'real' },
      'sk/a/b/c.md': 'deep\n',
      linked: { symlink: 'sk' },
    });
    const sk = join(dir, 'sk');
    expect(readBounded(join(sk, 'alias/notes.md'), 1 << 20, sk).text).toBe('inside\n');
    expect(readBounded(join(sk, 'a/b/c.md'), 1 << 20, sk).text).toBe('deep\n');
    const linked = join(dir, 'linked');
    expect(readBounded(join(linked, 'a/b/c.md'), 1 << 20, linked).text).toBe('deep\n');
    const held = new Map();
    expect(readBoundedHeld(join(sk, 'alias/notes.md'), 1 << 20, 'alias/notes.md', held, sk).text).toBe('inside\n');
  });
});
