// A bounded text read that keeps the file's bytes, for a load whose caller hashes and copies the same files next
// (install, registry sync): each file is then read once. Beside readBounded, which it answers exactly like.
import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { isAscii } from 'node:buffer';
import type { SkillEntry } from '../model/skill.js';
import { decodeUtf8, readBounded, readOpenFile } from './read.js';
import { checkOpenedWithin, statIdentity } from './walk.js';

/** A regular file's bytes as read, with the mode and size its open file had (what a hash of it needs). */
export interface HeldFile {
  bytes: Buffer;
  mode: number;
  size: number;
}

/**
 * readBounded(file, max), and the bytes read put in `held` under `rel` when the file was a regular file opened as
 * itself (not through a symlink put in its place), as the registry reads an unstatted file (readUnstatted). Anything
 * else (a link, a FIFO, a file over `max`) is read as readBounded reads it, with its answer or its error, and kept
 * not: the hash reads it again and decides.
 */
export function readBoundedHeld(
  file: string,
  max: number,
  rel: string,
  held: Map<string, HeldFile>,
  within?: string,
): ReturnType<typeof readBounded> {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch {
    return readBounded(file, max, within);
  }
  let bytes: Buffer;
  let st;
  try {
    // A folder on the way may be a link put there since the walk: the file must still lie in the skill.
    if (within !== undefined) checkOpenedWithin(fd, file, within);
    st = fstatSync(fd);
    if (!st.isFile() || st.size > max) bytes = Buffer.alloc(0);
    // In a buffer of its own: kept until the copy is made, not a slice of the shared pool.
    else bytes = readOpenFile(fd, st.size, true);
  } finally {
    closeSync(fd);
  }
  if (!st.isFile()) return readBounded(file, max, within);
  if (st.size > max) return { tooLarge: st.size, identity: statIdentity(st) };
  held.set(rel, { bytes, mode: st.mode & 0o7777, size: st.size });
  const ascii = isAscii(bytes);
  return { text: decodeUtf8(bytes, ascii), ascii, identity: statIdentity(st) };
}

/**
 * readBounded of the file at `rel` below a skill (its walk's `entries`), its bytes kept in `held` when given and the
 * walk found a regular file there (LoadOptions.held: the skill file, context files, .env.example); a link is read
 * through when it leads to a file inside the skill folder `root`, and kept not (one leading out: LinkOutside).
 */
export function readPart(
  entries: SkillEntry[],
  abs: string,
  rel: string,
  max: number,
  held: Map<string, HeldFile> | undefined,
  root: string,
): { text?: string; ascii?: boolean; tooLarge?: number } {
  if (held && entries.find((e) => e.path === rel)?.kind === 'file') return readBoundedHeld(abs, max, rel, held, root);
  return readBounded(abs, max, root);
}
