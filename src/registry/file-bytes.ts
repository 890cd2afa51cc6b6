// The bytes of one file the registry keeps, and how they go into its integrity: read whole when small (or kept for
// the copy made next), else a chunk at a time, so that a skill's large data file is never held whole to be hashed.
import type { Hash } from 'node:crypto';
import { closeSync, ftruncateSync, readFileSync, readSync } from 'node:fs';
import { SkillsError } from '../errors.js';
import { DEFAULT_LIMITS } from '../fs/archive.js';
import { writeAll } from '../fs/atomic.js';
import { packedMode } from '../fs/archive-entries.js';
import { notUtf8Failure } from '../fs/byte-names.js';
import { readOpenFile } from '../fs/read.js';
import { openFoundFile } from '../fs/walk.js';
import type { StoredFile } from './integrity.js';

/** What the store takes of one skill: what install takes of an archive. */
export const STORE_LIMITS = DEFAULT_LIMITS;

/** A skill too big for the store: `what` of it is over STORE_LIMITS. */
export const tooBig = (root: string, what: string) =>
  new SkillsError(
    'E_INVALID',
    `${root}: ${what}; the registry keeps at most ${STORE_LIMITS.maxEntries} files and ${STORE_LIMITS.maxBytes / 1024 / 1024} MiB a skill`,
    {
      hint: 'a skill is instructions and small scripts: move data, builds and media out of the folder',
    },
  );

/** tooBig for the bytes of a skill's files, found past the bound at the file `rel`. */
export const tooManyBytes = (root: string, rel: string) =>
  tooBig(root, `its files add up to more than ${STORE_LIMITS.maxBytes / 1024 / 1024} MiB (at ${rel})`);

/** What the hash takes before a file's content: its kind, path, execute bit and length (boundaries unambiguous). */
export function fileHeader(f: Pick<StoredFile, 'kind' | 'rel' | 'mode'>, length: number): string {
  const exec = f.kind === 'file' && (f.mode & 0o111) !== 0 ? 1 : 0;
  return `${f.kind === 'file' ? 'f' : 'l'}${Buffer.byteLength(f.rel, 'utf8')}:${f.rel}${exec}${length}:`;
}

/** Feed one file into the hash: path, execute bit and content, each length-prefixed so boundaries are unambiguous. */
export function hashFile(h: Hash, f: StoredFile, content: Buffer): void {
  // One update for the path and the lengths (the same UTF-8 bytes as three), one for the content.
  h.update(fileHeader(f, content.length), 'utf8');
  h.update(content);
}

/** The bytes a file contributes: its content, or a symlink's stored link text. */
export function contentOf(f: StoredFile, bound?: ReadBound): Buffer {
  try {
    if (f.kind === 'symlink') return Buffer.from(f.link!, 'utf8');
    return f.content ?? (f.unstatted ? readUnstatted(f, bound) : readFileSync(f.abs));
  } catch (err) {
    throw readFailure(f, err);
  }
}

/** A failed read of a file's bytes, said as a SkillsError naming the file. */
function readFailure(f: StoredFile, err: unknown): unknown {
  if (err instanceof SkillsError) return err;
  return (
    notUtf8Failure(f.abs, 'nothing was written', err) ??
    new SkillsError('E_IO', `cannot read ${f.abs}: ${(err as Error).message}`, { cause: err })
  );
}

/**
 * A file larger than this is hashed a chunk at a time (digest, and digestKeeping when it may not keep it): never
 * whole in memory, where a skill's 200 MB data file read whole took as much again.
 */
export const HASH_CHUNK = 1024 * 1024;

/**
 * Feed one file into the hash as hashFile(h, f, contentOf(f, bound)) does, the same bytes: one over HASH_CHUNK (and
 * over `keep`, the bytes the caller may keep) is read a chunk at a time. Returns the bytes when they were read whole.
 */
export function hashFrom(h: Hash, f: StoredFile, bound: ReadBound, keep = 0): Buffer | undefined {
  const whole = (content: Buffer) => {
    hashFile(h, f, content);
    return content;
  };
  if (f.kind === 'symlink' || f.content !== undefined || f.held) return whole(contentOf(f, bound));
  const small = (size: number) => size <= HASH_CHUNK || size <= keep;
  try {
    if (f.unstatted)
      return withUnstatted(f, bound, (fd, size) =>
        small(size) ? whole(readOpenFile(fd, size, true)) : hashChunks(h, f, fd, size),
      );
    const { fd, size } = openStored(f);
    try {
      return small(size) ? whole(readFileSync(fd)) : hashChunks(h, f, fd, size);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    throw readFailure(f, err);
  }
}

/** hashFile of the open file of `size` bytes, read HASH_CHUNK at a time; one that gets shorter meanwhile fails. */
function hashChunks(h: Hash, f: StoredFile, fd: number, size: number): undefined {
  h.update(fileHeader(f, size), 'utf8');
  eachChunk(f, fd, size, (chunk) => h.update(chunk));
  return undefined;
}

/** The open file of `size` bytes, HASH_CHUNK at a time, to `use` (which must not keep the chunk, reused next). */
function eachChunk(f: StoredFile, fd: number, size: number, use: (chunk: Buffer) => void): void {
  const chunk = Buffer.allocUnsafe(Math.min(size, HASH_CHUNK));
  for (let got = 0; got < size;) {
    let n;
    try {
      n = readSync(fd, chunk, 0, Math.min(chunk.length, size - got), got);
    } catch (err) {
      throw readFailure(f, err);
    }
    if (n === 0)
      throw new SkillsError('E_IO', `${f.abs} got shorter while it was read; nothing was written`, {
        hint: 'run again once the skill is written',
      });
    use(n === chunk.length ? chunk : chunk.subarray(0, n));
    got += n;
  }
}

/**
 * A file the walk found regular that is something else now: a symbolic link (`link`: put in its place since, to
 * anywhere; it is not followed), a FIFO, a folder.
 */
const noLongerAFile = (f: StoredFile, link: boolean) =>
  new SkillsError(
    'E_IO',
    link
      ? `${f.abs} is a symbolic link now, where a regular file was found; it was refused (not followed), nothing was written`
      : `${f.abs} is no longer a regular file; nothing was written`,
    { hint: 'run again once the skill is written' },
  );

/**
 * Open a file the walk found regular, and its size, without waiting: a FIFO or a device swapped in since the walk
 * would block a read for good; it is refused. Nor through a link: the walk's path is the file's real one (a file
 * reached through a link inside the skill, `via`, is found at the real path the link was checked to lead to), so a
 * link swapped in since, to ~/.ssh/id_rsa or anywhere, is refused rather than copied into the skill.
 */
function openStored(f: StoredFile): { fd: number; size: number } {
  return openFoundFile(f.abs, (link) => noLongerAFile(f, link));
}

/** Blocks of zeros this long are left as holes in a copy: a sparse file stays sparse, as `cp` copies one. */
const HOLE_BLOCK = 64 * 1024;
const ZEROS = Buffer.alloc(HOLE_BLOCK);

/** Write `chunk`, the bytes from `at` of the file open as `out`, but for its blocks of zeros (left as holes). */
function writeSparse(out: number, chunk: Buffer, at: number): void {
  for (let i = 0; i < chunk.length; i += HOLE_BLOCK) {
    const block = chunk.subarray(i, i + HOLE_BLOCK);
    if (!block.equals(block.length === HOLE_BLOCK ? ZEROS : ZEROS.subarray(0, block.length)))
      writeAll(out, block, undefined, at + i);
  }
}

/**
 * Write a file's bytes to the open file `out`, as writeAll(out, contentOf(f)) does, and feed them to `h` as hashFile
 * does: a file over HASH_CHUNK on the disk is copied a chunk at a time, so a copy of a skill with a 200 MB data file
 * no longer holds it whole (it took as much memory again), and its blocks of zeros are left as holes (a sparse
 * file of 200 MB and 4 KB on the disk was written out whole, as many times as it was copied).
 */
export function copyBytes(out: number, f: StoredFile, h?: Hash): void {
  let content: Buffer | undefined;
  if (f.kind === 'file' && f.content === undefined && !f.unstatted && !f.held) {
    let opened;
    try {
      opened = openStored(f);
    } catch (err) {
      throw readFailure(f, err);
    }
    const { fd, size } = opened;
    try {
      try {
        if (size <= HASH_CHUNK) content = readFileSync(fd);
      } catch (err) {
        throw readFailure(f, err);
      }
      // A failed write is the file system's error, as writeAll throws it, not a failed read.
      if (content === undefined) {
        h?.update(fileHeader(f, size), 'utf8');
        let at = 0;
        eachChunk(f, fd, size, (chunk) => {
          h?.update(chunk);
          writeSparse(out, chunk, at);
          at += chunk.length;
        });
        // The holes at the end: the size the file has.
        ftruncateSync(out, size);
        return;
      }
    } finally {
      closeSync(fd);
    }
  }
  content ??= contentOf(f);
  if (h) hashFile(h, f, content);
  if (content.length <= HASH_CHUNK) writeAll(out, content);
  else {
    // Held bytes of a large file (kept from its hashing for the copies): its zeros left as holes too.
    writeSparse(out, content, 0);
    ftruncateSync(out, content.length);
  }
}

/** What the unstatted files of one skill have read so far, against the store's bound on a skill's bytes. */
export interface ReadBound {
  bytes: number;
}

/**
 * An unstatted file's bytes, and its mode learnt from the open file: a link or anything but a regular file put in
 * its place since the walk is refused, and a file that would take the skill past STORE_LIMITS is not read.
 */
function readUnstatted(f: StoredFile, bound: ReadBound = { bytes: 0 }): Buffer {
  const { held } = f;
  if (held) {
    delete f.held;
    return learnt(f, bound, packedMode(held.mode), held.size, () => held.bytes);
  }
  // Kept for the copy made next (digestKeeping): in a buffer of its own.
  return withUnstatted(f, bound, (fd, size) => readOpenFile(fd, size, true));
}

/**
 * `read` of an unstatted file opened as openStored opens one, and found still inside its skill (a folder on the way
 * swapped for a link since the walk is refused).
 */
function withUnstatted<T>(f: StoredFile, bound: ReadBound, read: (fd: number, size: number) => T): T {
  const skill = f.abs.slice(0, f.abs.length - f.rel.length - 1);
  const { fd, size, mode } = openFoundFile(f.abs, (link) => noLongerAFile(f, link), skill);
  try {
    return learnt(f, bound, packedMode(mode), size, () => read(fd, size));
  } finally {
    closeSync(fd);
  }
}

/**
 * An unstatted file's bytes (`read`), once its size is within the bound, and its mode and size learnt (before the
 * read, which may hash them): a file that would take the skill past STORE_LIMITS is not read.
 */
function learnt<T>(f: StoredFile, bound: ReadBound, mode: number, size: number, read: () => T): T {
  bound.bytes += size;
  if (bound.bytes > STORE_LIMITS.maxBytes) throw tooManyBytes(f.abs.slice(0, f.abs.length - f.rel.length - 1), f.rel);
  f.mode = mode;
  f.size = size;
  const bytes = read();
  delete f.unstatted;
  return bytes;
}
