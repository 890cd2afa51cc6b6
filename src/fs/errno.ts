// Errors of the file system (errno errors: ENOSPC, EROFS …) told as what failed, where, and what to do. main.ts
// reports every such error that escapes a command this way (exit 2), never as a bug in skills.
import { accessSync, constants, lstatSync } from 'node:fs';
import { dirname } from 'node:path';
import { SkillsError } from '../errors.js';

/** True for an error a system call gave (`code` ENOSPC, EACCES … and the call that failed). */
export function isErrno(err: unknown): err is NodeJS.ErrnoException {
  const e = err as NodeJS.ErrnoException | undefined;
  return (
    typeof e === 'object' &&
    e !== null &&
    typeof e.code === 'string' &&
    /^E[A-Z0-9]+$/.test(e.code) &&
    (typeof e.syscall === 'string' || typeof e.errno === 'number')
  );
}

/** The first errno error in an error and its chain of causes. */
export function errnoIn(err: unknown): NodeJS.ErrnoException | undefined {
  for (let e = err, depth = 0; e && depth < 8; e = (e as Error).cause, depth++) if (isErrno(e)) return e;
  return undefined;
}

/** What to do about a read-only file system; a command names its options that choose a folder (readOnlyHint). */
export const READ_ONLY_HINT = 'choose a writable folder, or remount it read-write';

/** READ_ONLY_HINT naming the options a command chooses the folder it writes with, if it has any. */
export const readOnlyHint = (options: readonly string[]): string =>
  options.length === 0 ? READ_ONLY_HINT : `choose a writable folder (${options.join(', ')}), or remount it read-write`;

// `where` is the path when the error or the caller names one, else "the folder" (`named` false).
const REASONS: Record<string, [string, (where: string, named: boolean) => string]> = {
  ENOSPC: [
    'no space is left on the device',
    (w) => `free space on the file system that holds ${w} (df -h), then run again`,
  ],
  EDQUOT: ['the disk quota is used up', (w) => `free space in your quota on the file system that holds ${w}`],
  EFBIG: [
    'the file grew larger than this file system or the file size limit (ulimit -f) allows',
    () => 'raise the limit (ulimit -f unlimited), or write to another file system',
  ],
  ENAMETOOLONG: [
    'the path is too long for this file system (a name holds at most 255 bytes)',
    () => 'use a shorter folder path or shorter names',
  ],
  EROFS: ['the file system is read-only', () => READ_ONLY_HINT],
  EACCES: ['permission denied', (w) => `check the owner and mode of ${w} (ls -ld), or choose a folder you may write`],
  EPERM: ['the operation is not permitted', (w) => `check the owner, mode and attributes of ${w} (ls -ld, lsattr)`],
  ENOENT: ['no such file or folder', () => 'check the path; a folder on the way may have been removed meanwhile'],
  ENOTDIR: ['a part of the path is a file, not a folder', (w) => `check each folder of ${w}`],
  EISDIR: [
    'it is a folder, where a file was expected',
    (w, named) =>
      named
        ? `give the path of a file, or move the folder ${w} out of the way`
        : 'give the path of a file, not a folder',
  ],
  EEXIST: ['something is already there', (w) => `move ${w} out of the way, then run again`],
  ENOTEMPTY: ['the folder is not empty', (w) => `move ${w} out of the way, then run again`],
  ELOOP: ['too many symbolic links on the way (a loop?)', (w) => `check the links in ${w} (ls -l)`],
  EMFILE: ['too many files are open', () => 'raise the limit of open files (ulimit -n), then run again'],
  ENFILE: ['the system has too many files open', () => 'close other programs, then run again'],
  EIO: ['the device reported an input/output error', () => 'check the disk (dmesg, fsck): it may be failing'],
  EBUSY: ['the file or device is busy', () => 'close what uses it, then run again'],
  EXDEV: ['it cannot be moved across file systems', () => 'keep the folders on one file system'],
  ETXTBSY: ['the file is a program that is running', () => 'stop the program, then run again'],
};

/** The calls that only read, whose EACCES means the user may not read (or list) what they name. */
const READS = new Set(['scandir', 'opendir', 'read', 'readlink']);
const READ_DENIED: [string, (where: string) => string] = [
  'permission denied',
  (w) => `check the owner and mode of ${w} (ls -ld): you may not read it; give a folder you may read`,
];

const VERBS: Record<string, string> = {
  open: 'open',
  read: 'read',
  write: 'write',
  mkdir: 'create the folder',
  rmdir: 'remove the folder',
  unlink: 'remove',
  rm: 'remove',
  rename: 'rename',
  scandir: 'list the folder',
  opendir: 'list the folder',
  copyfile: 'copy',
  cp: 'copy',
  symlink: 'create the link',
  link: 'create the link',
  chmod: 'change the mode of',
  fchmod: 'change the mode of',
  fsync: 'flush',
  stat: 'look at',
  lstat: 'look at',
  fstat: 'look at',
  access: 'look at',
  realpath: 'resolve',
  readlink: 'read the link',
  utime: 'set the time of',
  futime: 'set the time of',
};

/**
 * Node's recursive mkdir reports ENOENT for any failure on the way (a read-only file system, a folder it may not
 * write): ask the file system again, one level at a time, for the real reason.
 */
export function realErrno(err: NodeJS.ErrnoException): NodeJS.ErrnoException {
  if (err.code !== 'ENOENT' || err.syscall !== 'mkdir' || typeof err.path !== 'string') return err;
  let dir = err.path;
  const missing: string[] = [];
  for (let i = 0; i < 64; i++) {
    try {
      lstatSync(dir);
      break;
    } catch {
      missing.push(dir);
      const up = dirname(dir);
      if (up === dir) return err;
      dir = up;
    }
  }
  const next = missing.at(-1);
  if (next === undefined) return err;
  // access(2) tells a read-only file system (EROFS) and a folder one may not write (EACCES), and changes nothing.
  try {
    accessSync(dir, constants.W_OK);
  } catch (probe) {
    if (isErrno(probe) && probe.code !== 'ENOENT') {
      return Object.assign(probe, { path: next, syscall: 'mkdir' });
    }
  }
  return err;
}

/** The most bytes of a path the system takes (Linux's PATH_MAX, the terminating NUL included). */
export const PATH_MAX = 4096;

// ENAMETOOLONG for a path of short names: the whole path is over PATH_MAX (a stranger's 10,000 nested folders).
const PATH_TOO_LONG: [string, (where: string, named: boolean) => string] = [
  // Written out: toLocaleString at load would load ICU's number formatting, ~14 ms of every command's start.
  'the path is longer than the 4,096 bytes the system takes (PATH_MAX)',
  () => 'use a shorter folder path, or fewer folders inside one another',
];

/** Whether `path` is too long as a whole, every name in it short enough. */
const wholePathTooLong = (path: string): boolean =>
  Buffer.byteLength(path) >= PATH_MAX && path.split('/').every((n) => Buffer.byteLength(n) <= 255);

/** Why an errno error happened (`no space is left on the device (ENOSPC)`) and what to do about it at `where`. */
export function explainErrno(err: NodeJS.ErrnoException, where?: string): { reason: string; hint?: string } {
  const e = realErrno(err);
  const path = typeof e.path === 'string' ? e.path : where;
  // A folder listed or a file read: what to check is whether one may read it, not write it.
  const [reason, hint] =
    e.code === 'EACCES' && READS.has(e.syscall ?? '')
      ? READ_DENIED
      : e.code === 'ENAMETOOLONG' && path !== undefined && wholePathTooLong(path)
        ? PATH_TOO_LONG
        : (REASONS[e.code!] ?? [systemText(e), undefined]);
  return { reason: `${reason} (${e.code})`, hint: hint?.(where ?? 'the folder', where !== undefined) };
}

/** What an errno error means, where, and what to do, as a message and a hint. */
export function describeErrno(err: NodeJS.ErrnoException, where?: string): { message: string; hint?: string } {
  const e = realErrno(err);
  const path = where ?? (typeof e.path === 'string' ? e.path : undefined);
  const to = (e as { dest?: unknown }).dest;
  const dest = typeof to === 'string' && where === undefined ? ` to ${to}` : '';
  const verb = (e.syscall && VERBS[e.syscall]) ?? e.syscall ?? 'use';
  const { reason, hint } = explainErrno(e, path);
  const what = path ? `cannot ${verb} ${path}${dest}` : `a file system call (${e.syscall ?? 'unknown'}) failed`;
  return { message: `${what}: ${reason}`, hint };
}

/** The system's own words for an errno error, without Node's ", call 'path'" tail. */
function systemText(e: NodeJS.ErrnoException): string {
  const m = /^E[A-Z0-9]+: ([^,]+)/.exec(e.message);
  return m ? m[1]! : e.message;
}

/** An errno error as the E_IO SkillsError main.ts prints; `where` names the file when the error does not. */
export function ioError(err: NodeJS.ErrnoException, where?: string): SkillsError {
  const { message, hint } = describeErrno(err, where);
  return new SkillsError('E_IO', message, { cause: err, ...(hint ? { hint } : {}) });
}

/**
 * A SkillsError that wrapped an errno error in its message, with the real reason put in (a recursive mkdir's
 * ENOENT that was a read-only file system) and a hint added when it had none.
 */
export function refineIoError(err: SkillsError): SkillsError {
  const cause = errnoIn(err.cause);
  if (!cause) return err;
  const real = realErrno(cause);
  const { reason, hint } = explainErrno(real, typeof real.path === 'string' ? real.path : undefined);
  // Node's text ("ENOSPC: no space left on device, write") in the message becomes the plain reason.
  let message = err.message;
  if (message.includes(cause.message)) message = message.replace(cause.message, reason);
  else if (real !== cause) message = `${message} (${reason})`;
  if (message === err.message && (err.hint || !hint)) return err;
  return new SkillsError(err.code, message, { cause: real, hint: err.hint ?? hint });
}

/**
 * Run `cleanup` after `err` stopped a write, and return the error to throw: always `err` (an errno error told as
 * ioError tells it), never the cleanup's own failure (a name too long, a folder it may not write), which is added to
 * the message as a second line.
 */
export function afterCleanup(err: unknown, cleanup: () => void): unknown {
  try {
    cleanup();
    return err;
  } catch (failed) {
    const errno = errnoIn(failed);
    const also = `(the cleanup failed too: ${errno ? describeErrno(errno).message : String((failed as Error)?.message ?? failed)})`;
    if (err instanceof SkillsError) {
      err.message = `${err.message}\n${also}`;
      return err;
    }
    const first = errnoIn(err);
    if (!first) return err;
    const io = ioError(first);
    io.message = `${io.message}\n${also}`;
    return io;
  }
}
