import { createHash, randomBytes } from 'node:crypto';
import {
  access,
  closeSync,
  constants,
  fchmodSync,
  fchownSync,
  fsyncSync,
  ftruncateSync,
  lstatSync,
  openSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { SkillsError } from '../errors.js';
import { afterCleanup, explainErrno, isErrno } from './errno.js';
import { LEFTOVER, isNeverKept } from './walk.js';

// Writes that a killed process cannot leave half done: a file or folder is made under a temp name and renamed
// into place. Temp names carry the writer's pid, so the next run can tell a dead writer's leftovers from a live
// one's and clean them.

export { isLeftover } from './walk.js';

let tempSeed: number | undefined;
let tempCount = 0;

/**
 * A temp name `<prefix><base>.<pid>.<random>`: 8 hex digits, drawn once a process and counted on from there, so no
 * two names of one process are alike and a run that makes thousands asks the system for randomness once.
 */
export function tempName(prefix: string, base: string): string {
  tempSeed ??= randomBytes(4).readUInt32LE(0);
  const n = (tempSeed + tempCount++) >>> 0;
  return `${tempStem(prefix, base)}.${process.pid}.${n.toString(16).padStart(8, '0')}`;
}

/** The most bytes of `<prefix><base>` a temp name carries whole: with `.<pid>.<hex>` (17 at most) within 255. */
const STEM_MAX = 200;
const HEAD_MAX = 96;
const TAIL_MAX = 24;
const SHORTENED = /~[0-9a-f]{16}~/;

/**
 * A temp name without its `.<pid>.<hex>`: `<prefix><base>`, or, past STEM_MAX bytes (a long non-ASCII id: 60
 * four-byte letters are 240 bytes), its first and last characters around a hash of the whole
 * (`<head>~<16 hex>~<tail>`), so every temp name fits the 255 bytes a file system allows a name. The head keeps the
 * prefix a cleanup looks for, the tail the `.tmp` a leftover is known by.
 */
export function tempStem(prefix: string, base: string): string {
  const stem = `${prefix}${base}`;
  if (Buffer.byteLength(stem) <= STEM_MAX) return stem;
  const chars = [...stem];
  let head = '';
  for (const c of chars) {
    if (Buffer.byteLength(head + c) > HEAD_MAX) break;
    head += c;
  }
  let tail = '';
  for (let i = chars.length - 1; i >= 0; i--) {
    if (Buffer.byteLength(chars[i]! + tail) > TAIL_MAX) break;
    tail = chars[i]! + tail;
  }
  return `${head}~${createHash('sha256').update(stem).digest('hex').slice(0, 16)}~${tail}`;
}

/**
 * Whether a process is there: kill(pid, 0), and on Linux not a zombie. A process killed with SIGKILL stays a zombie
 * until its parent or init reaps it, which some container inits do late or never: counted alive, its leftovers (a
 * stored copy it moved aside, its lock) would wait for ever.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return true; // no /proc (macOS, Windows): kill's answer stands
  }
  // `pid (comm) state …`: comm may hold spaces and parentheses, so the state follows the last ')'.
  const state = stat.charAt(stat.lastIndexOf(')') + 2);
  return state !== 'Z' && state !== 'X';
}
const alive = processAlive;

/** A tempName without its `.<pid>.<hex>`: the tempStem it was made from. */
export function tempStemOf(name: string): string {
  return name.replace(/\.\d+\.[0-9a-f]+$/, '');
}

/** True when a tempName names a process that is gone (never this one). */
export function deadOwner(name: string): boolean {
  const pid = Number(/\.(\d+)\.[0-9a-f]+$/.exec(name)?.[1]);
  return Number.isInteger(pid) && pid !== process.pid && !alive(pid);
}

/**
 * Remove what killed writers left in `dir`: `prefix*` temp entries of dead processes. A `trash` folder (the
 * previous copy moved aside just before its replacement was renamed in) whose target is missing is put back. A
 * shortened trash name (tempStem) does not spell its base: it is the one of `trash.names` (the names that may have
 * been moved aside, such as the skills a lock records) whose stem it carries; one that is none of them is removed as
 * the other leftovers are.
 */
export function cleanStale(
  dir: string,
  prefixes: string[],
  trash?: { prefix: string; target: (base: string) => string; names?: Iterable<string> },
): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  let shortened: Map<string, string> | undefined;
  const baseOf = (t: NonNullable<typeof trash>, stem: string): string | undefined => {
    if (!SHORTENED.test(stem)) return stem.slice(t.prefix.length);
    shortened ??= new Map([...(t.names ?? [])].map((n) => [tempStem(t.prefix, n), n]));
    return shortened.get(stem);
  };
  for (const name of names) {
    const base =
      trash && name.startsWith(trash.prefix) && deadOwner(name) ? baseOf(trash, tempStemOf(name)) : undefined;
    if (trash && base !== undefined) {
      const target = join(dir, trash.target(base));
      try {
        lstatSync(target);
      } catch {
        renameSync(join(dir, name), target);
        continue;
      }
      rmSync(join(dir, name), { recursive: true, force: true });
      continue;
    }
    const ours = prefixes.some((p) => name.startsWith(p)) || (trash !== undefined && name.startsWith(trash.prefix));
    if (ours && deadOwner(name)) rmSync(join(dir, name), { recursive: true, force: true });
  }
}

/** True when `name` is a temp file of ours whose writer is gone: safe to remove. */
export function isDeadLeftover(name: string): boolean {
  const m = LEFTOVER.exec(name);
  const pid = Number(m?.[1] ?? m?.[2]);
  return m !== null && Number.isInteger(pid) && pid !== process.pid && !alive(pid);
}

/**
 * Remove the temp files killed writers left in `root` and its folders (not following links, as deep as a skill
 * goes); returns the paths removed. A live writer's temp file is kept.
 */
export function cleanLeftoversBelow(root: string, maxDepth = 8): string[] {
  const removed: string[] = [];
  const visit = (dir: string, depth: number) => {
    let list;
    try {
      list = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const d of list) {
      const abs = join(dir, d.name);
      if (d.isDirectory()) {
        if (!isNeverKept(d.name, true) && depth < maxDepth) visit(abs, depth + 1);
      } else if (d.isFile() && isDeadLeftover(d.name)) {
        rmSync(abs, { force: true });
        removed.push(abs);
      }
    }
  };
  visit(root, 1);
  return removed;
}

/**
 * Write all of `data` at the descriptor's position (or at `position` of the file): a write on a nearly full disk
 * writes part and returns its count (the next one fails with ENOSPC), so one writeSync can silently cut a file
 * short. A failure names the file (`file`, else what Linux says the descriptor is), which a write's error does not.
 */
export function writeAll(fd: number, data: string | Uint8Array, file?: string, position?: number): void {
  const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  try {
    for (let off = 0; off < buf.length;)
      off += writeSync(fd, buf, off, buf.length - off, position === undefined ? null : position + off);
  } catch (err) {
    if (isErrno(err) && err.path === undefined) {
      let path = file;
      try {
        path ??= readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        /* not Linux */
      }
      if (path !== undefined) err.path = path;
    }
    throw err;
  }
}

/** Flush a file's data (and so its size) to the disk, by path: what pack's stream wrote, say. */
export function syncFile(file: string): void {
  const fd = openSync(file, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Flush a folder's entries, so a rename into it survives a crash; not every system can (best effort). */
export function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, constants.O_RDONLY);
    fsyncSync(fd);
  } catch {
    /* Windows cannot open a folder; some file systems refuse fsync on one */
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Write through a temp file in the same folder, written whole, flushed, then renamed over the target: a killed or
 * failed write leaves the old file whole (and a temp file only when killed, which the next lint --fix removes).
 * `mode` sets the permission bits exactly (no umask); by default 0644 less the umask. A symlink at `file` is
 * replaced, not followed: callers that mean its target resolve it first (lint --fix does). `flush: false` skips the
 * two flushes, for a file whose loss in a crash loses nothing that cannot be written again (a new generated file):
 * on a busy disk they are most of the write's time.
 */
export function writeAtomic(
  file: string,
  data: string | Uint8Array,
  options: {
    mode?: number;
    flush?: boolean;
    /**
     * The bytes `file` must still hold when it is replaced (null: it must still be absent), as read before `data`
     * was made from them: checked just before the rename, and a file changed since is left as it is (FileChanged).
     */
    unlessChanged?: Uint8Array | null;
  } = {},
): void {
  const tmp = join(dirname(file), tempName(`.${basename(file)}.tmp-`, 'w'));
  const flush = options.flush !== false;
  const owner = ownerToKeep(file);
  try {
    const fd = openSync(tmp, 'wx', options.mode ?? 0o644);
    try {
      if (options.mode !== undefined) fchmodSync(fd, options.mode);
      if (owner) fchownSync(fd, owner.uid, owner.gid);
      writeAll(fd, data, file);
      if (flush) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (options.unlessChanged !== undefined && !holds(file, options.unlessChanged)) throw new FileChanged(file);
    renameSync(tmp, file);
  } catch (err) {
    throw afterCleanup(err instanceof FileChanged ? err : writeError(err, file), () => rmSync(tmp, { force: true }));
  }
  if (flush) syncDir(dirname(file));
}

/**
 * Write `data` into the file itself rather than renaming a new one over it: for a file that has other names (hard
 * links, AGENTS.md and CLAUDE.md as one file), which a rename would part from the new text, each name then holding
 * its own. Not atomic: a write that fails (a full disk) puts `old`, the bytes the file held, back before it throws.
 */
export function writeInPlace(file: string, data: string | Uint8Array, old: Uint8Array): void {
  const fd = openSync(file, 'r+');
  try {
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    try {
      writeAll(fd, buf, file);
      ftruncateSync(fd, buf.length);
      fsyncSync(fd);
    } catch (err) {
      try {
        writeSync(fd, old, 0, old.length, 0);
        ftruncateSync(fd, old.length);
      } catch {
        /* the error below says what failed */
      }
      throw writeError(err, file);
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * writeAtomic, except for a file that has other names (hard links): that one is written in place (writeInPlace), as
 * a rename would part its names, with `old` (else `unlessChanged`), the bytes it held, put back on a failed write.
 * Without those bytes it is replaced as writeAtomic replaces any file.
 */
export function writeKeepingLinks(
  file: string,
  data: string | Uint8Array,
  options: Parameters<typeof writeAtomic>[2] & { old?: Uint8Array } = {},
): void {
  const old = options.old ?? options.unlessChanged ?? undefined;
  let links = 1;
  try {
    links = lstatSync(file).nlink;
  } catch {
    /* missing: writeAtomic creates it, or says why not */
  }
  if (old === undefined || links < 2) return writeAtomic(file, data, options);
  if (options.unlessChanged !== undefined && !holds(file, options.unlessChanged)) throw new FileChanged(file);
  writeInPlace(file, data, old);
}

/**
 * The mode of `file` in octal when no one may write it (no w bit at all), else undefined (or missing): a file its
 * owner keeps as it is, which writeAtomic's rename would replace all the same (lint --fix, render-prompt --write).
 */
export function readOnlyMode(file: string): string | undefined {
  let mode: number;
  try {
    mode = statSync(file).mode & 0o7777;
  } catch {
    return undefined;
  }
  return (mode & 0o222) === 0 ? mode.toString(8).padStart(3, '0') : undefined;
}

/** A file writeAtomic did not replace: it no longer held what the new text was made from. */
export class FileChanged extends SkillsError {
  constructor(file: string) {
    super('E_IO', `${file} changed since it was read; it was left as it is`);
  }
}

/**
 * Whether `file` holds exactly `bytes` (null: nothing is there). Compared whole, as a stamp of size and times is not:
 * a file's times move by the kernel's tick (a few ms), and an editor's save of as many bytes within one goes unseen.
 */
function holds(file: string, bytes: Uint8Array | null): boolean {
  const st = lstatSync(file, { throwIfNoEntry: false });
  if (!st) return bytes === null;
  // Anything but a file (a FIFO would make the read wait) is a change.
  if (bytes === null || !st.isFile() || st.size !== bytes.length) return false;
  return readFileSync(file).equals(bytes);
}

/**
 * The owner a file replaced by root must keep (a user's AGENTS.md rewritten by `sudo skills …`, or in a container,
 * must stay the user's): only root can give a file away, so for anyone else the new file is theirs, as any editor's
 * save through a temp file makes it.
 */
function ownerToKeep(file: string): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const st = lstatSync(file, { throwIfNoEntry: false });
  return st && (st.uid !== 0 || st.gid !== 0) ? { uid: st.uid, gid: st.gid } : undefined;
}

/**
 * A write that failed, told as what it is (a full disk, a read-only folder): the file left as it was, or nothing
 * written where there was none.
 */
function writeError(err: unknown, file: string): SkillsError {
  if (isErrno(err)) {
    const { reason, hint } = explainErrno(err, file);
    const left = absent(file) ? 'nothing was written' : 'the file was left as it was';
    return new SkillsError('E_IO', `cannot write ${file}: ${reason}; ${left}`, {
      cause: err,
      hint,
    });
  }
  return new SkillsError('E_IO', `cannot write ${file}: ${(err as Error).message}`, { cause: err });
}

/** True when nothing is at `file` (a path that cannot be looked at is not said to be absent). */
function absent(file: string): boolean {
  try {
    return lstatSync(file, { throwIfNoEntry: false }) === undefined;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOTDIR';
  }
}

/** How many files writeAtomicMany flushes at once: enough for the disk to batch them, few enough for open files. */
const FLUSH_AT_ONCE = 64;

/** Threads for Node's pool in a run that flushes many files: 4 (libuv's default) flush a thousand half as fast. */
const POOL_FOR_FLUSHES = 16;

let poolWidened = false;

/**
 * Before a batch that will flush many files (writeAtomicMany): start libuv's thread pool with POOL_FOR_FLUSHES
 * threads, when this process has not used it yet (libuv reads UV_THREADPOOL_SIZE once, at its first task). A size
 * the user set is kept; the variable is taken out again at once, so that no child process inherits it.
 */
export function widenThreadPool(): void {
  if (poolWidened || process.env.UV_THREADPOOL_SIZE !== undefined) return;
  poolWidened = true;
  process.env.UV_THREADPOOL_SIZE = String(POOL_FOR_FLUSHES);
  try {
    // The first task queued starts the pool, reading the variable there and then.
    access(tmpdir(), () => {});
  } finally {
    delete process.env.UV_THREADPOOL_SIZE;
  }
}

/**
 * writeAtomic for many files at once, for a batch of registry writes: each is written to its temp file, the temp
 * files are flushed in parallel (the file system commits many flushes together, where one after another each waits
 * for its own), and only once every one is on disk are they renamed over their targets, and their folders flushed.
 * A failure removes every temp file and renames nothing: the targets stay as they were.
 */
export async function writeAtomicMany(files: { file: string; data: string | Uint8Array }[]): Promise<void> {
  const { fsync } = await import('node:fs');
  const flush = (fd: number) => new Promise<void>((res, rej) => fsync(fd, (err) => (err ? rej(err) : res())));
  const tmps: string[] = [];
  let current = '';
  try {
    for (let i = 0; i < files.length; i += FLUSH_AT_ONCE) {
      const fds: number[] = [];
      try {
        for (const { file, data } of files.slice(i, i + FLUSH_AT_ONCE)) {
          current = file;
          const tmp = join(dirname(file), tempName(`.${basename(file)}.tmp-`, 'w'));
          const fd = openSync(tmp, 'wx', 0o644);
          tmps.push(tmp);
          fds.push(fd);
          writeAll(fd, data, file);
        }
        current = files[i]!.file;
        await Promise.all(fds.map(flush));
      } finally {
        for (const fd of fds) closeSync(fd);
      }
    }
    files.forEach(({ file }, i) => {
      current = file;
      renameSync(tmps[i]!, file);
    });
  } catch (err) {
    for (const tmp of tmps) rmSync(tmp, { force: true });
    throw writeError(err, current);
  }
  for (const dir of new Set(files.map(({ file }) => dirname(file)))) syncDir(dir);
}
