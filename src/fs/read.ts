import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { isAscii } from 'node:buffer';
import type { Readable } from 'node:stream';
import { SkillsError } from '../errors.js';
import type { FileIdentity } from './user-cache.js';
import { openRegularFile } from './walk.js';

/** How far a text file is looked at for a NUL byte, as git decides that a file is binary. */
export const SNIFF_BYTES = 8192;

/**
 * Read a regular file's bytes unless it is larger than `max` (then `tooLarge` holds its size). The size is known
 * before anything is read, so a huge file costs nothing; a FIFO or a device is refused by openRegularFile. `stat`
 * is the size and mode the open file had, for callers that would otherwise stat it again. With `textOnly`, a file
 * with a NUL byte in its first SNIFF_BYTES is `binary` and the rest is never read (a font, a PDF, an image).
 */
export function readBoundedBytes(
  file: string,
  max: number,
  options: { textOnly?: boolean; within?: string } = {},
): {
  bytes?: Buffer;
  tooLarge?: number;
  binary?: true;
  stat: { size: number; mode: number; identity: FileIdentity };
} {
  const { fd, size, mode, identity } = openRegularFile(file, options.within);
  const stat = { size, mode, identity };
  try {
    if (size > max) return { tooLarge: size, stat };
    const buf = Buffer.allocUnsafe(size);
    let off = 0;
    // With textOnly, the first read stops at SNIFF_BYTES, and the rest is read only when those hold no NUL.
    let until = options.textOnly ? Math.min(size, SNIFF_BYTES) : size;
    for (;;) {
      while (off < until) {
        const n = readSync(fd, buf, off, until - off, off);
        if (n === 0) return { bytes: buf.subarray(0, off), stat };
        off += n;
      }
      if (until === size) break;
      if (buf.subarray(0, off).includes(0)) return { binary: true, stat };
      until = size;
    }
    return { bytes: buf.subarray(0, off), stat };
  } finally {
    closeSync(fd);
  }
}

/**
 * A regular file's text (UTF-8), as readFileSync reads it, but never waiting on a FIFO: a file in a project or a
 * registry (a lockfile, a journal) may be a stranger's, and a FIFO, a device or a folder there is refused with
 * openRegularFile's E_IO. open()'s errors (ENOENT …) are thrown as they are.
 */
export function readRegularText(file: string): string {
  return readBoundedBytes(file, Number.POSITIVE_INFINITY).bytes!.toString('utf8');
}

/**
 * The first `size` bytes of an open file (fewer when it ends sooner), read from its start. `unpooled`: in a buffer of
 * its own, not a slice of Node's shared pool, for bytes kept long after (a small pooled slice keeps the whole pool).
 */
export function readOpenFile(fd: number, size: number, unpooled = false): Buffer {
  const buf = unpooled ? Buffer.allocUnsafeSlow(size) : Buffer.allocUnsafe(size);
  let got = 0;
  while (got < size) {
    const n = readSync(fd, buf, got, size - got, got);
    if (n === 0) break;
    got += n;
  }
  return got < size ? buf.subarray(0, got) : buf;
}

/**
 * Read a file as UTF-8 unless it is larger than `max` bytes (then `tooLarge` holds its size); `ascii`: its bytes were
 * ASCII alone, so the text is (the unsafe-character scan takes that for a quicker check). `within`: a folder (a
 * skill's) the file must lie in; a symbolic link that leads out of it is not read (LinkOutside).
 */
export function readBounded(
  file: string,
  max: number,
  within?: string,
): { text?: string; ascii?: boolean; tooLarge?: number; identity: FileIdentity } {
  const { bytes, tooLarge, stat } = readBoundedBytes(file, max, { within });
  if (bytes === undefined) return { tooLarge, identity: stat.identity };
  const ascii = isAscii(bytes);
  return { text: decodeUtf8(bytes, ascii), ascii, identity: stat.identity };
}

/**
 * The bytes as UTF-8 text, exactly as `bytes.toString('utf8')` decodes them. Bytes that are all ASCII (most skill
 * files) are the same text in Latin-1, whose decoding is a copy: a check and a copy took 28 ms for twenty 1 MB files,
 * V8's UTF-8 decoder 42 to 50. `ascii`: what isAscii(bytes) says, when the caller has asked it already.
 */
export function decodeUtf8(bytes: Buffer, ascii = isAscii(bytes)): string {
  return ascii ? bytes.toString('latin1') : bytes.toString('utf8');
}

/** What readInput found: the bytes, or that there were more than allowed, or that they did not come in time. */
export type InputRead = { bytes: Buffer } | { tooLarge: true; size?: number } | { timedOut: true };

const CHUNK = 64 * 1024;

/**
 * Read a file a user names as input, of any kind, never holding more than `max` + 64 KiB bytes: a regular file
 * (refused by its size before anything is read, and cut while reading if it grows), a FIFO or a process
 * substitution (`<(…)`), a device (`/dev/zero` is cut at `max`, a terminal waits). Nothing blocks the event loop; a
 * pipe or device that has not ended within `timeoutMs` is `timedOut`. A folder is an E_IO; the errors of open()
 * (ENOENT, EACCES …) are thrown as they are.
 */
export async function readInput(file: string, max: number, timeoutMs: number): Promise<InputRead> {
  // O_NONBLOCK: opening a FIFO that has no writer yet returns at once rather than hang.
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  let owned = true;
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw new SkillsError('E_IO', `${file} is a folder, not a file`);
    if (st.isFile() && st.size > max) return { tooLarge: true, size: st.size };
    if (st.isFIFO() || st.isSocket()) {
      // node:net only here: most commands never read a pipe, and start-up time counts.
      const { Socket } = await import('node:net');
      const socket = new Socket({ fd, readable: true, writable: false });
      owned = false; // the socket closes it
      return await readPipe(socket, max, timeoutMs);
    }
    return await readChunks(fd, max, performance.now() + timeoutMs);
  } finally {
    if (owned) closeSync(fd);
  }
}

/** Read a regular file or a device in chunks until its end, more than `max` bytes, or the deadline. */
async function readChunks(fd: number, max: number, deadline: number): Promise<InputRead> {
  const parts: Buffer[] = [];
  let total = 0;
  for (;;) {
    const buf = Buffer.allocUnsafe(CHUNK);
    let n: number;
    try {
      n = readSync(fd, buf, 0, CHUNK, null);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
      // A device (a terminal) with nothing to read yet.
      if (performance.now() > deadline) return { timedOut: true };
      await new Promise((wake) => setTimeout(wake, 20));
      continue;
    }
    if (n === 0) return { bytes: Buffer.concat(parts, total) };
    total += n;
    if (total > max) return { tooLarge: true };
    parts.push(buf.subarray(0, n));
  }
}

/** Read a FIFO (or a socket) through the event loop: it may not have a writer yet, or never end. */
function readPipe(socket: import('node:net').Socket, max: number, timeoutMs: number): Promise<InputRead> {
  return readStream(socket, max, timeoutMs, { destroy: true });
}

/**
 * Read a stream to its end, never holding more than `max` bytes, nor waiting past `timeoutMs`. When it stops, the
 * stream is destroyed (`destroy`, for one we opened) or paused and left as it was (stdin, which is not ours).
 * A stream error rejects as it is.
 */
export function readStream(
  stream: Readable,
  max: number,
  timeoutMs: number,
  opts: { destroy?: boolean } = {},
): Promise<InputRead> {
  return new Promise((resolvePromise, reject) => {
    const parts: Buffer[] = [];
    let total = 0;
    const done = (fn: () => void) => {
      clearTimeout(timer);
      stream.off('data', onData).off('end', onEnd).off('error', onError);
      if (opts.destroy) {
        stream.on('error', () => {});
        stream.destroy();
      } else stream.pause();
      fn();
    };
    const onData = (b: Buffer | string) => {
      const buf = typeof b === 'string' ? Buffer.from(b) : b;
      total += buf.length;
      if (total > max) return done(() => resolvePromise({ tooLarge: true }));
      parts.push(buf);
    };
    const onEnd = () => done(() => resolvePromise({ bytes: Buffer.concat(parts, total) }));
    const onError = (err: Error) => done(() => reject(err));
    const timer = setTimeout(() => done(() => resolvePromise({ timedOut: true })), timeoutMs);
    stream.on('data', onData).on('end', onEnd).on('error', onError);
    stream.resume();
  });
}
