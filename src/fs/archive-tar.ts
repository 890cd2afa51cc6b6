// A plain reader of the tar archives skills pack writes (and most others of files and folders): 512-byte ustar
// headers read in place, file bytes handed on as views of the stream's pieces. It reads only what it can read
// exactly as node-tar's Parser does (the same names, types, sizes and modes, in the same order); anything else in an
// archive (a pax or GNU long-name header, a link, a device, an old GNU header, a number in base 256, a checksum that
// does not add up, a truncated stream, bytes node-tar reads in a way of its own) is `unusual`, and the extraction is
// done again by node-tar, whose answer (and whose messages) stand. node-tar's header decoding and its stream per entry
// cost ~30 µs an entry; this costs a few.

import { refusal } from './archive-entries.js';

/** What the reader gives an entry's bytes to: its data in order (exactly `size` bytes), then end. */
export interface TarEntrySink {
  data(chunk: Buffer): void;
  end(): void;
}

export type TarEntryType = 'File' | 'Directory';

export interface PlainTarEvents {
  /** An entry (node-tar's entry.path, entry.type, entry.size, entry.mode): where its bytes go, or none. */
  entry(path: string, type: TarEntryType, size: number, mode: number): TarEntrySink | undefined;
  /** The archive is one this reader does not read as node-tar would: nothing more comes from it. */
  unusual(why: string): void;
  /** The end-of-archive blocks were read and the stream ended. */
  done(): void;
}

const BLOCK = 512;
const ZERO = 0x30;
const SPACE = 0x20;

/**
 * node-tar's decNumber of a field of `size` bytes at `off`, for a field it reads as a plain octal number: spaces, one
 * or more octal digits, then the field's end, a NUL or a space (parseInt stops there, whatever follows). -1 for any
 * other field (empty, base 256, other characters): node-tar may read those otherwise, or fail.
 */
export function octalField(buf: Buffer, off: number, size: number): number {
  const end = off + size;
  let i = off;
  while (i < end && buf[i] === SPACE) i++;
  let n = 0;
  const first = i;
  for (; i < end; i++) {
    const d = buf[i]! - ZERO;
    if (d < 0 || d > 7) break;
    n = n * 8 + d;
  }
  if (i === first) return -1;
  if (i < end && buf[i] !== 0 && buf[i] !== SPACE) return -1;
  return n;
}

/**
 * node-tar's decString of a field of `size` bytes at `off` when its bytes are ASCII up to a NUL and nothing but NULs
 * after it (node-tar cuts the text at a NUL only up to the next line break, and decodes UTF-8): undefined otherwise.
 */
export function asciiField(buf: Buffer, off: number, size: number): string | undefined {
  const end = off + size;
  let i = off;
  for (; i < end; i++) {
    const c = buf[i]!;
    if (c === 0) break;
    if (c >= 0x80) return undefined;
  }
  for (let j = i + 1; j < end; j++) if (buf[j] !== 0) return undefined;
  return buf.toString('latin1', off, i);
}

/** Numeric fields node-tar decodes (as base 256 when their first byte has the high bit, which may throw). */
const NUMBERS: ReadonlyArray<readonly [number, number]> = [
  [100, 8],
  [108, 8],
  [116, 8],
  [124, 12],
  [136, 12],
  [148, 12],
  [329, 8],
  [337, 8],
  [476, 12],
  [488, 12],
];

/** Most bytes of a pax header this reader reads (node-tar's limit for one is 1 MiB). */
const PAX_MOST = 64 * 1024;

/** Keys of a pax header that change nothing node-tar tells of an entry but its path. */
const PAX_KEYS = new Set(['path', 'size', 'mtime', 'atime', 'ctime', 'comment', 'charset']);

/** What a pax header tells of the next entry (node-tar reads nothing else of it that matters here). */
export interface PaxFields {
  path?: string;
  size?: number;
}

/**
 * The path and size a pax extended header's records give the next entry (node-tar's Pax.parse of it), or undefined
 * when they are not plain records of the keys above (whatever node-tar would make of them).
 */
export function paxFields(text: string): PaxFields | undefined {
  if (!text.endsWith('\n')) return undefined;
  const fields: PaxFields = {};
  for (let at = 0; at < text.length;) {
    const nl = text.indexOf('\n', at);
    const line = text.slice(at, nl);
    at = nl + 1;
    const m = /^([1-9]\d*) ([^=\0]+)=([^\0]*)$/.exec(line);
    if (!m || Number(m[1]) !== Buffer.byteLength(line) + 1 || !PAX_KEYS.has(m[2]!)) return undefined;
    if (m[2] === 'path') {
      if (m[3] === '') return undefined;
      fields.path = m[3]!;
    } else if (m[2] === 'size') {
      if (!/^(?:0|[1-9]\d{0,14})$/.test(m[3]!)) return undefined;
      fields.size = Number(m[3]);
    }
  }
  return fields;
}

/** The checksum of the header at `off` adds up (node-tar's reading of the field), and no number is in base 256. */
function headerSound(buf: Buffer, off: number): boolean {
  for (const [at] of NUMBERS) if ((buf[off + at]! & 0x80) !== 0) return false;
  const cksum = octalField(buf, off + 148, 12);
  if (cksum < 0) return false;
  let sum = 8 * SPACE;
  for (let i = off; i < off + 148; i++) sum += buf[i]!;
  for (let i = off + 156; i < off + BLOCK; i++) sum += buf[i]!;
  return sum === cksum;
}

/** The size of the pax extended header ('x') at `off`, or why this reader leaves it. */
export function readPaxHeader(buf: Buffer, off: number): number | string {
  if (!headerSound(buf, off)) return 'a checksum failure or a number in base 256';
  if (buf[off] === 0) return 'a pax header without a name';
  const size = octalField(buf, off + 124, 12);
  if (size <= 0 || size > PAX_MOST) return 'a pax header of no size or a big one';
  return size;
}

/**
 * The header at `off` (with the path a pax header before it gave, if any), or why it is not one this reader reads as
 * node-tar does.
 */
export function readHeader(
  buf: Buffer,
  off: number,
  paxed: PaxFields = {},
): { path: string; type: TarEntryType; size: number; mode: number } | string {
  if (!headerSound(buf, off)) return 'a checksum failure or a number in base 256';
  // ustar\0 then 00: node-tar reads the prefix of such headers only.
  if (
    buf[off + 257] !== 0x75 ||
    buf.toString('latin1', off + 257, off + 265) !== 'ustar\u000000' ||
    (paxed.path === undefined && buf[off + 475] !== 0)
  )
    return 'not a POSIX ustar header';
  const t = buf[off + 156]!;
  if (t !== ZERO && t !== 0 && t !== 0x35) return `an entry of type ${JSON.stringify(String.fromCharCode(t))}`;
  for (let i = off + 157; i < off + 257; i++) if (buf[i] !== 0) return 'a link name';
  let path = paxed.path;
  if (path === undefined) {
    const name = asciiField(buf, off, 100);
    const prefix = asciiField(buf, off + 345, 130);
    if (name === undefined || prefix === undefined) return 'a name of other than ASCII';
    path = prefix === '' ? name : `${prefix}/${name}`;
    if (path === '') return 'an entry without a name';
  }
  const mode = octalField(buf, off + 100, 8);
  const size = paxed.size ?? octalField(buf, off + 124, 12);
  if (mode < 0 || octalField(buf, off + 124, 12) < 0) return 'a mode or size node-tar reads otherwise';
  // Old tars marked folders as files with a trailing slash; a folder has no bytes, whatever its size says.
  const type: TarEntryType = t === 0x35 || path.endsWith('/') ? 'Directory' : 'File';
  return { path, type, size: type === 'Directory' ? 0 : size, mode: mode & 0o7777 };
}

function isZeroBlock(buf: Buffer, off: number): boolean {
  for (let i = off; i < off + BLOCK; i++) if (buf[i] !== 0) return false;
  return true;
}

/**
 * Reads a tar stream given in pieces of any size (write, then end). Entries go to `events.entry` as they are read;
 * the first thing it does not read as node-tar does goes to `events.unusual`, and it reads nothing more.
 */
export class PlainTarReader {
  /** The start of a header split between pieces. */
  private carry: Buffer | undefined;
  /** Bytes of the current entry still to come, then its padding to skip. */
  private left = 0;
  private pad = 0;
  private sink: TarEntrySink | undefined;
  private started = false;
  private entries = 0;
  private nulls = 0;
  private eof = false;
  private stopped = false;
  /** The pieces read before the first entry: what another reader is given when this one stops before any. */
  private seen: Buffer[] | undefined = [];
  /** A pax header's bytes to come (`paxLeft`), and the path it gave the next entry once read. */
  private paxLeft = 0;
  private paxed: PaxFields | undefined;

  constructor(private readonly events: PlainTarEvents) {}

  /** When it stopped before any entry: every piece it was given, for another reader to read from the start. */
  get unread(): Buffer[] | undefined {
    return this.entries === 0 ? this.seen : undefined;
  }

  write(chunk: Buffer): boolean {
    if (this.stopped || this.eof) return true;
    this.seen?.push(chunk);
    const n = chunk.length;
    let at = 0;
    while (at < n) {
      if (this.paxLeft > 0) {
        // node-tar decodes each piece of a pax header's bytes apart: read here only when they come in one.
        if (n - at < this.paxLeft) return (this.stop('a pax header split between pieces'), true);
        const fields = paxFields(chunk.toString('utf8', at, at + this.paxLeft));
        if (fields === undefined) return (this.stop('pax records of other keys or forms'), true);
        this.paxed = fields;
        at += this.paxLeft;
        this.paxLeft = 0;
        continue;
      }
      if (this.left > 0) {
        const take = Math.min(this.left, n - at);
        this.left -= take;
        const sink = this.sink;
        if (sink) {
          sink.data(at === 0 && take === n ? chunk : chunk.subarray(at, at + take));
          if (this.left === 0) {
            this.sink = undefined;
            sink.end();
          }
        }
        at += take;
        continue;
      }
      if (this.pad > 0) {
        const skip = Math.min(this.pad, n - at);
        this.pad -= skip;
        at += skip;
        continue;
      }
      let block = chunk;
      let off = at;
      if (this.carry !== undefined) {
        const need = BLOCK - this.carry.length;
        if (n - at < need) {
          this.carry = Buffer.concat([this.carry, chunk.subarray(at)]);
          return true;
        }
        block = Buffer.concat([this.carry, chunk.subarray(at, at + need)]);
        off = 0;
        at += need;
        this.carry = undefined;
      } else if (n - at < BLOCK) {
        this.carry = chunk.subarray(at);
        return true;
      } else at += BLOCK;
      this.header(block, off);
      if (this.stopped || this.eof) return true;
    }
    return true;
  }

  /** Whether end() was called: the stream has nothing more. */
  ended = false;

  end(): void {
    this.ended = true;
    if (this.stopped) return;
    if (!this.eof) return this.stop(this.left > 0 ? 'a truncated entry' : 'no end-of-archive blocks');
    this.events.done();
  }

  /** For a caller that pipes into it: the reader never asks to wait. */
  on(_event: 'drain', _then: () => void): this {
    return this;
  }

  private stop(why: string): void {
    this.stopped = true;
    this.sink = undefined;
    this.events.unusual(why);
  }

  private header(buf: Buffer, off: number): void {
    if (!this.started) {
      this.started = true;
      // node-tar inflates a stream that starts as gzip or zstd does.
      if ((buf[off] === 0x1f && buf[off + 1] === 0x8b) || buf.readUInt32BE(off) === 0x28b52ffd)
        return this.stop('a compressed stream inside');
    }
    if (isZeroBlock(buf, off)) {
      if (++this.nulls === 2) {
        if (this.entries === 0) return this.stop('no entries');
        this.eof = true;
      }
      return;
    }
    if (this.nulls > 0) return this.stop('an entry after one empty block');
    if (buf[off + 156] === 0x78) {
      // A pax header ('x'): its records give the next entry's path.
      if (this.paxed !== undefined) return this.stop('two pax headers for one entry');
      const size = readPaxHeader(buf, off);
      if (typeof size === 'string') return this.stop(size);
      this.paxLeft = size;
      this.pad = (BLOCK - (size % BLOCK)) % BLOCK;
      return;
    }
    const h = readHeader(buf, off, this.paxed);
    this.paxed = undefined;
    if (typeof h === 'string') return this.stop(h);
    this.entries++;
    this.seen = undefined;
    const sink = this.events.entry(h.path, h.type, h.size, h.mode);
    if (this.stopped) return;
    if (h.size === 0) {
      sink?.end();
      return;
    }
    this.sink = sink;
    this.left = h.size;
    this.pad = (BLOCK - (h.size % BLOCK)) % BLOCK;
  }
}

/** A tar the plain reader leaves to node-tar (extractArchive reads it again with ExtractOptions.nodeTar). */
export class UnusualTar extends Error {
  constructor(why: string) {
    super(`the plain tar reader leaves this archive to node-tar: ${why}`);
  }
}

export const TAR_TYPES: Record<string, string> = {
  SymbolicLink: 'is a symbolic link (links are refused)',
  Link: 'is a hard link (links are refused)',
  CharacterDevice: 'is a character device',
  BlockDevice: 'is a block device',
  FIFO: 'is a FIFO',
  SparseFile: 'is a sparse file (GNU sparse format), which is not unpacked',
};

/** A pax header of GNU's sparse format (1.0: the entry's data is a map and pieces, its name a made-up folder). */
const GNU_SPARSE = /(?:^|\n)\d+ GNU\.sparse\./;

/**
 * node-tar's Parser, for a tar the plain reader leaves to it: each entry to `startEntry` as the plain reader's are. It
 * frames entries and applies pax and GNU long names; its warnings, and the entries it would skip, stop the extraction.
 */
export function nodeTarParser(
  Parser: typeof import('tar').Parser,
  file: string,
  stop: (err: unknown) => void,
  startEntry: (name: string, type: string, size: number, mode: number | undefined) => TarEntrySink | undefined,
  done: () => void,
  input: NodeJS.ReadableStream,
): { write(chunk: Buffer): boolean; end(): void } {
  const parser = new Parser({
    strict: true,
    onwarn: (_code: string, message: string | Error) => stop(message instanceof Error ? message : new Error(message)),
    onReadEntry: (entry) => {
      const sink = startEntry(entry.path, entry.type, entry.size, entry.mode);
      if (!sink) return entry.resume();
      entry.on('data', sink.data);
      entry.on('end', sink.end);
    },
  });
  // node-tar skips, without a word, an entry of a type it does not know (GNU's old sparse files among them) or a
  // header past its size limit; and reads the data of a pax sparse file as a file's. Both are refused, named.
  parser.on('ignoredEntry', (entry: { path: string; type: string }) =>
    stop(refusal(file, entry.path, TAR_TYPES[entry.type] ?? `has the unsupported type ${entry.type}`)),
  );
  parser.on('meta', (text: string) => {
    if (!GNU_SPARSE.test(text)) return;
    const name =
      /(?:^|\n)\d+ GNU\.sparse\.name=([^\n]*)/.exec(text)?.[1] ?? /(?:^|\n)\d+ path=([^\n]*)/.exec(text)?.[1];
    stop(refusal(file, name ?? '(a pax header)', TAR_TYPES.SparseFile!));
  });
  parser.on('error', stop);
  parser.on('end', done);
  // A plain tar fed to it (no gzip layer of ours) waits while it asks to.
  parser.on('drain', () => input.resume());
  // Past its end-of-archive blocks node-tar reads nothing more but joins every later piece onto what it holds (a copy
  // of all of it each time): what follows the end is not given to it, as the plain reader reads nothing past it. The
  // gzip layer still counts those bytes toward the limit on the tar stream.
  let eof = false;
  parser.on('eof', () => (eof = true));
  return {
    write: (chunk) => eof || parser.write(chunk),
    end: () => void parser.end(),
  };
}
