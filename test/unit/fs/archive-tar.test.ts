// The plain tar reader against node-tar's Parser: the same entries, files, digest and refusals on generated archives
// (pax headers, long and unicode names, prefixes, every entry type, truncations, damaged headers), whichever reads.
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Header, Pax } from 'tar';
import { extractArchive } from '../../../src/fs/archive.js';
import { PlainTarReader, octalField, paxFields, readHeader } from '../../../src/fs/archive-tar.js';
import { tempFolders } from '../../helpers/cli.js';

const { fresh, cleanup } = tempFolders('skills-archive-tar-');
afterAll(cleanup);

/** A small seeded generator (mulberry32). */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!,
  };
}

const SEGMENTS = ['a', 'refs', 'résumé', 'naïve.md', 'x'.repeat(60), 'deep', 'SKILL.md', '..', '.', '', 'b c', '日本'];
const TYPES = [
  ...Array<'File'>(24).fill('File'),
  'Directory',
  'Directory',
  'SymbolicLink',
  'Link',
  'FIFO',
  'CharacterDevice',
] as const;

/** A random archive of node-tar's headers (pax where a name needs one), now and then damaged. */
function randomTar(r: ReturnType<typeof rng>): Buffer {
  const blocks: Buffer[] = [];
  const count = 1 + r.int(8);
  for (let i = 0; i < count; i++) {
    const depth = 1 + r.int(4);
    const parts = ['top'];
    for (let d = 0; d < depth; d++) parts.push(r.next() < 0.95 ? `f${r.int(5)}` : r.pick(SEGMENTS));
    let path = parts.join('/');
    if (r.next() < 0.1) path = `${'p'.repeat(90)}/${'q'.repeat(r.int(120))}/${path}`;
    const type = r.pick(TYPES);
    if (type === 'File' && r.next() < 0.05) path += '/';
    const body = type === 'File' ? Buffer.alloc(r.pick([0, 1, 511, 512, 513, 3000]), 97 + r.int(26)) : Buffer.alloc(0);
    const fields = {
      path,
      type,
      size: body.length,
      mode: r.pick([0o644, 0o755, 0o600, 0o4755]),
      mtime: new Date(0),
      linkpath: type === 'SymbolicLink' || type === 'Link' ? 'target' : '',
    };
    const block = Buffer.alloc(512);
    const h = new Header(fields);
    h.encode(block);
    // As skills pack writes one (path, mtime, size), or with every field.
    const pax = r.next() < 0.6 ? { path, mtime: new Date(0), size: body.length } : { ...fields, atime: new Date(5) };
    if (h.needPax || r.next() < 0.1) blocks.push(new Pax(pax).encode());
    blocks.push(block, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(r.pick([1024, 1024, 1024, 512, 0, 2048])));
  if (r.next() < 0.1) blocks.push(Buffer.from('trailing bytes'));
  const tar = Buffer.concat(blocks);
  const damage = r.next();
  if (damage < 0.15) tar[r.int(tar.length)] ^= 1 << r.int(8);
  else if (damage < 0.25) return tar.subarray(0, r.int(tar.length));
  else if (damage < 0.3 && tar.length >= 1024) tar.write(' 1234567', 148 + 512 * r.int(2), 'latin1');
  return tar;
}

async function outcome(file: string, dest: string, nodeTar: boolean) {
  rmSync(dest, { recursive: true, force: true });
  const headers: string[] = [];
  try {
    const res = await extractArchive(
      file,
      dest,
      { maxBytes: 1e6, maxEntries: 30 },
      {
        record: true,
        nodeTar,
        threadFrom: Infinity,
        digest: { algorithm: 'sha256', header: (rel, mode, size) => (headers.push(rel), `${rel} ${mode} ${size}\n`) },
      },
    );
    const written = res.written!.map((f) => ({ ...f, content: f.content?.toString('base64') }));
    const disk = written.map((f) => readFileSync(join(dest, f.rel)).toString('base64'));
    return { ...res, written, disk, headers };
  } catch (err) {
    return { error: (err as Error).message, headers };
  }
}

describe('PlainTarReader', () => {
  it('unpacks as node-tar does: 1,200 generated archives (gzip and plain), damaged ones among them', async () => {
    const dir = fresh('diff');
    const dest = join(dir, 'out');
    let plain = 0;
    for (let seed = 1; seed <= 1200; seed++) {
      const r = rng(seed);
      const tar = randomTar(r);
      const gz = r.next() < 0.7;
      const file = join(dir, gz ? 'a.tgz' : 'a.tar');
      // A plain tar is told by its ustar magic: one too damaged for that is no archive, for both.
      writeFileSync(file, gz ? gzipSync(tar) : tar);
      const { headers: theirs, ...a } = await outcome(file, dest, true);
      const { headers: mine, ...b } = await outcome(file, dest, false);
      expect(b, `seed ${seed}`).toEqual(a);
      // An archive the plain reader leaves after some entries is read again by node-tar: its files told again.
      expect(mine.slice(mine.length - theirs.length), `seed ${seed}`).toEqual(theirs);
      if (!('error' in a)) plain++;
    }
    // Enough of them unpack for the comparison to mean something.
    expect(plain).toBeGreaterThan(300);
  }, 120_000);

  it('reads numbers and headers as node-tar does, or leaves them', () => {
    const r = rng(7);
    const chars = '0123456777  \0\u0080x-+8';
    let agreed = 0;
    for (let i = 0; i < 20_000; i++) {
      const field = Buffer.alloc(12);
      for (let j = 0; j < 12; j++) field[j] = chars.charCodeAt(r.int(chars.length)) & 0xff;
      const n = octalField(field, 0, 12);
      if (n < 0) continue;
      agreed++;
      const h = Buffer.alloc(512);
      field.copy(h, 124);
      // node-tar's reading of a size field (parseInt of the text up to a NUL, trimmed).
      expect(n).toBe(parseInt(field.toString('utf8').replace(/\0.*$/, '').trim(), 8));
    }
    expect(agreed).toBeGreaterThan(1000);
    for (let i = 0; i < 3000; i++) {
      const block = Buffer.alloc(512);
      new Header({
        path: `top/${'n'.repeat(r.int(150))}/f${i}`,
        type: r.pick(['File', 'Directory'] as const),
        size: r.int(1e6),
        mode: r.pick([0o644, 0o4755, 0o1777, 0]),
      }).encode(block);
      const mine = readHeader(block, 0);
      const theirs = new Header(block);
      if (typeof mine === 'string') {
        expect(theirs.needPax || block[475] !== 0, mine).toBeTruthy();
        continue;
      }
      expect(mine).toEqual({ path: theirs.path, type: theirs.type, size: theirs.size, mode: theirs.mode! & 0o7777 });
    }
    expect(paxFields('22 path=top/naïve.md\n9 size=3\n')).toEqual({ path: 'top/naïve.md', size: 3 });
    expect(paxFields('21 path=top/naïve.md\n')).toBeUndefined();
    expect(paxFields('12 uid=1000\n')).toBeUndefined();
  });

  it('hands on the bytes of a piece split anywhere, and leaves a stream with no end blocks', () => {
    const blocks: Buffer[] = [];
    for (let i = 0; i < 5; i++) {
      const body = Buffer.alloc(700 + i, 65 + i);
      const h = Buffer.alloc(512);
      new Header({ path: `t/f${i}`, type: 'File', size: body.length, mode: 0o644 }).encode(h);
      blocks.push(h, body, Buffer.alloc((512 - (body.length % 512)) % 512));
    }
    // One name (not ASCII) in a pax header, as skills pack writes it.
    const pax = new Pax({ path: 't/naïve', mtime: new Date(0), size: 2 }).encode();
    const ph = Buffer.alloc(512);
    new Header({ path: 't/naïve', type: 'File', size: 2, mode: 0o644 }).encode(ph);
    blocks.push(pax, ph, Buffer.from('ok'), Buffer.alloc(510));
    const whole = Buffer.concat([...blocks, Buffer.alloc(1024)]);
    for (const step of [...Array.from({ length: 1100 }, (_, i) => i + 1), 4096]) {
      const got = new Map<string, Buffer[]>();
      let done = false;
      let why: string | undefined;
      const reader = new PlainTarReader({
        entry: (path) => {
          const parts: Buffer[] = [];
          got.set(path, parts);
          return { data: (c) => parts.push(Buffer.from(c)), end: () => undefined };
        },
        unusual: (w) => (why = w),
        done: () => (done = true),
      });
      for (let at = 0; at < whole.length; at += step) reader.write(whole.subarray(at, at + step));
      reader.end();
      // node-tar decodes a pax header piece by piece: one split between pieces is left to it.
      const split = why === 'a pax header split between pieces';
      expect(split ? undefined : why).toBeUndefined();
      expect(done).toBe(!split);
      expect([...got.keys()]).toEqual(['t/f0', 't/f1', 't/f2', 't/f3', 't/f4', ...(split ? [] : ['t/naïve'])]);
      if (!split) expect(Buffer.concat(got.get('t/naïve')!).toString()).toBe('ok');
      got.delete('t/naïve');
      got.forEach((parts, path) =>
        expect(Buffer.concat(parts)).toEqual(Buffer.alloc(700 + Number(path.at(-1)), 65 + Number(path.at(-1)))),
      );
    }
    let why: string | undefined;
    const cut = new PlainTarReader({ entry: () => undefined, unusual: (w) => (why = w), done: () => undefined });
    cut.write(whole.subarray(0, 512 * 2));
    cut.end();
    expect(why).toBe('a truncated entry');
  });
});
