import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmdirSync,
  statSync,
} from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { SkillsError } from '../errors.js';
import type { SkillEntry } from '../model/skill.js';
import type { FileIdentity } from './user-cache.js';
import { fileKind } from './file-kind.js';

// Never part of a skill: version control, installed packages, and Python's byte-code cache (which running a skill's
// script writes into the skill, and which would otherwise change its integrity and go into its archive). Lower case.
export const SKIP_DIRS: ReadonlySet<string> = new Set(['node_modules', '.hg', '.svn', '__pycache__']);
const SKIP_LENGTHS = new Set([...SKIP_DIRS].map((d) => d.length));

/**
 * The one rule for what is never part of a skill by its name (pack, install from an archive or a folder, the store,
 * integrity, discovery and the watchers all ask it): a `.git` entry of any kind, and the folders of SKIP_DIRS, each
 * in any case. A `.git` *file* ("gitdir: <folder>", as a worktree or a submodule has) or a link makes the folder it
 * sits in a git repository with whatever config it points at (a `core.fsmonitor` runs a command on any `git status`
 * there), and git itself refuses one in a tree; `.GIT` and `.Git` are the same entry on macOS's and Windows's
 * case-insensitive file systems, as `.HG` and `.hg` are. `.gitignore`, `.gitattributes` and `.gitmodules` are plain
 * files and stay.
 */
export function isNeverKept(name: string, isDir: boolean): boolean {
  // Asked of every entry a walk meets: a name of no length on the lists is told without lowering its case.
  const n = name.length;
  if (n === 4 && name.toLowerCase() === '.git') return true;
  return isDir && SKIP_LENGTHS.has(n) && SKIP_DIRS.has(name.toLowerCase());
}
/** A file of secrets by its name (.env, .env.local; not .env.example), never copied, hashed or packed. */
export function isSecretFile(name: string): boolean {
  return /^\.env(\..+)?$/.test(name) && !/^\.env\.(example|sample|template)$/.test(name);
}

/**
 * The temp files our writers leave beside a target when killed: `.<name>.tmp-w.<pid>.<hex>` (fs/atomic.ts's
 * writeAtomic), `.<name>.tmp.<pid>.<hex>` (pack) and `.<name>.skills-fix-<pid>` (lint --fix before 0.2). Never part
 * of a skill either: not walked, packed, stored or copied; lint --fix removes those of dead writers.
 */
export const LEFTOVER = /^\..+\.(?:tmp(?:-w)?\.(\d+)\.[0-9a-f]{8}|skills-fix-(\d+))$/;

/**
 * macOS's own files beside a skill's: Finder's `.DS_Store` and the AppleDouble `._<name>` files it writes on volumes
 * without extended attributes (a shared drive, a zip unpacked elsewhere). Never part of a skill: not packed, stored,
 * copied or hashed, as an archive's are never written (fs/archive-entries.ts isLitter) and as npm leaves them out.
 */
export function isMacFile(name: string): boolean {
  return name === '.DS_Store' || name.startsWith('._');
}

/** True when `name` is a temp file one of our writers makes (alive or not). */
export function isLeftover(name: string): boolean {
  return LEFTOVER.test(name);
}
export const MAX_DEPTH = 8;
const MAX_ENTRIES = 20_000;

/**
 * Open a file for reading only if it is a regular file; returns the descriptor and size. A stranger's skill may
 * hold a symlink to a FIFO or a device (`SKILL.md -> /dev/stdin`): a plain open of a FIFO waits for a writer
 * forever, so the open does not block, and anything but a regular file is refused (E_IO) before a byte is read.
 */
export function openRegularFile(
  file: string,
  within?: string,
): { fd: number; size: number; mode: number; identity: FileIdentity } {
  const fd =
    within === undefined ? openSync(file, constants.O_RDONLY | constants.O_NONBLOCK) : openWithin(file, within);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) {
      throw new SkillsError('E_IO', `${file} is ${fileKind(st)}, not a regular file; it is not read`, {
        hint: 'a skill holds regular files (a symlink must lead to one)',
      });
    }
    return { fd, size: st.size, mode: st.mode, identity: statIdentity(st) };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/**
 * Open a file a walk found regular, at the real path it found it (no link is meant to be followed there), and its
 * size: not through a link (O_NOFOLLOW: one swapped in since, to ~/.ssh/id_rsa or anywhere, is refused rather than
 * read), not waiting on a FIFO or a device swapped in, and, with `within`, still inside that folder (a folder on the
 * way swapped for a link). `changed` is the error for a file that is no longer the regular file found (`link`: it is
 * a symbolic link now); open()'s other errors are thrown as they are. The registry's store and pack read a skill's
 * files so. With the open file's size and mode.
 */
export function openFoundFile(
  file: string,
  changed: (link: boolean) => Error,
  within?: string,
): { fd: number; size: number; mode: number } {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw changed(true);
    throw err;
  }
  try {
    if (within !== undefined) checkOpenedWithin(fd, file, within);
    const st = fstatSync(fd);
    if (!st.isFile()) throw changed(false);
    return { fd, size: st.size, mode: st.mode };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/** What a cache keeps a reading of a file by (fs/user-cache.ts), from its stat: of the open file, when it is read. */
export function statIdentity(st: {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}): FileIdentity {
  return [st.dev, st.ino, st.size, st.mtimeMs, st.ctimeMs];
}

/** A file read within a folder (a skill's) that is a symbolic link leading out of it: it is not read. */
export class LinkOutside extends SkillsError {
  constructor(
    readonly file: string,
    readonly target: string,
    /** The link is a folder on the way to the file (`context/` -> elsewhere), not the file itself. */
    readonly throughFolder = false,
  ) {
    super(
      'E_INVALID',
      throughFolder
        ? `${file} goes through a symbolic link to a folder out of its skill (to ${target}); it is not read`
        : `${file} is a symbolic link that leads out of its skill (to ${target}); it is not read`,
      {
        hint: throughFolder
          ? 'put a copy of the folder in the skill, or point the link at a folder inside it'
          : 'put a copy of the file in the skill, or point the link at a file inside it',
      },
    );
  }
}

/**
 * Open `file` for reading, through a symbolic link only when where it leads lies inside the folder `within`: a
 * skill's SKILL.md linked to a file elsewhere (another user's, a secret) is never read into a prompt or an answer.
 * The open does not follow a link (O_NOFOLLOW), so a file that is no link costs nothing more; a link is resolved,
 * and the real path it resolved to is opened, not the link again.
 */
function openWithin(file: string, within: string): number {
  const flags = constants.O_RDONLY | constants.O_NONBLOCK;
  const noFollow = constants.O_NOFOLLOW as number | undefined;
  if (noFollow !== undefined) {
    let fd: number | undefined;
    try {
      fd = openSync(file, flags | noFollow);
    } catch (err) {
      // ELOOP (EMLINK on FreeBSD): the last name is a link. Anything else is the open's own failure.
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ELOOP' && code !== 'EMLINK') throw err;
    }
    if (fd !== undefined) {
      try {
        checkOpenedWithin(fd, file, within);
      } catch (err) {
        closeSync(fd);
        throw err;
      }
      return fd;
    }
  }
  let target: string;
  try {
    target = realpathSync.native(file);
  } catch {
    // A link that leads nowhere or loops: the plain open says so, as it would have.
    return openSync(file, flags);
  }
  if (!isInside(realpathSync.native(within), target)) throw new LinkOutside(file, target);
  return openSync(target, flags | (noFollow ?? 0));
}

/**
 * The folders between `within` and a file opened without following its last name: when one of them is a link, the
 * kernel went through it, so where the open file really lies decides (inside `within`'s real folder, or LinkOutside).
 * A file right in `within` has no folder between and costs nothing; one below folders costs one readlink of
 * /proc/self/fd (Linux), or an lstat a folder where there is no /proc.
 */
export function checkOpenedWithin(fd: number, file: string, within: string): void {
  const rest = below(within, file);
  if (rest === undefined || !(rest.includes('/') || rest.includes(sep))) return;
  let real: string | undefined;
  try {
    real = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    real = undefined;
  }
  if (real !== undefined) {
    // The same path as asked: no link anywhere on the way (the path as given first: callers give absolute,
    // normalised paths, and resolve costs more than the readlink).
    if (real === file || real === resolve(file)) return;
    if (!isInside(realWithin(within), real)) throw new LinkOutside(file, real, true);
    return;
  }
  const parts = sep === '/' ? rest.split('/') : rest.split(/[\\/]/);
  let dir = within;
  for (let i = 0; i < parts.length - 1; i++) {
    dir = join(dir, parts[i]!);
    if (!lstatSync(dir).isSymbolicLink()) continue;
    const target = realpathSync.native(file);
    if (!isInside(realWithin(within), target)) throw new LinkOutside(file, target, true);
    return;
  }
}

/** Where an open file lies, as the kernel says (Linux's /proc/self/fd); undefined where it cannot say. */
export function openedPath(fd: number): string | undefined {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/** `file`'s path below the folder `within` (undefined when it is not below it as written). */
function below(within: string, file: string): string | undefined {
  const w = within.endsWith(sep) || within.endsWith('/') ? within.slice(0, -1) : within;
  if (file.length > w.length + 1 && file.startsWith(w) && (file[w.length] === sep || file[w.length] === '/'))
    return file.slice(w.length + 1);
  const rel = relative(within, file);
  return rel === '' || rel.startsWith('..') ? undefined : rel;
}

// The real folders of the skill folders a check has needed, so a skill's files resolve their folder once.
const realWithins = new Map<string, string>();

function realWithin(within: string): string {
  let real = realWithins.get(within);
  if (real === undefined) {
    real = realpathSync.native(within);
    if (realWithins.size >= 256) realWithins.clear();
    realWithins.set(within, real);
  }
  return real;
}

/** True when something (a file, a folder, a link, even a dangling one) is at `p`. */
export function present(p: string): boolean {
  try {
    // A missing path answers undefined rather than throwing: an error's stack costs more than the stat.
    return lstatSync(p, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/** True when `p` is a folder, or a link to one; false when nothing is there or it cannot be looked at. */
export function isFolder(p: string): boolean {
  try {
    return statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

/** A path with its symlinks resolved, or as given when it cannot be. */
export function real(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
}

/** True when `child` is `root` or lies below it. */
export function isInside(root: string, child: string): boolean {
  const rel = relative(root, child);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && rel !== '..' && !/^[A-Za-z]:/.test(rel));
}

/** The topmost of `dir` and its parents that is not there yet (`dir` itself at most), or undefined when it is. */
export function firstMissing(dir: string): string | undefined {
  if (present(dir)) return undefined;
  let top = dir;
  for (let up = dirname(top); up !== top && !present(up); up = dirname(up)) top = up;
  return top;
}

/**
 * Remove `dir` and its parents up to `top` (a folder the caller created, from firstMissing) while they are empty:
 * a run that failed leaves no folder it made, and never one that holds anything.
 */
export function removeEmptyUpTo(dir: string, top: string): void {
  for (let d = dir; isInside(top, d); d = dirname(d)) {
    try {
      rmdirSync(d);
    } catch (err) {
      // Not empty (the run, or someone, wrote to it): what is in it stays, and so do the folders above.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return;
    }
    if (d === top) return;
  }
}

/** The entries of walks that listed every folder of the skill: neither cut at their bounds nor kept out of one. */
const wholeWalks = new WeakSet<SkillEntry[]>();

/**
 * True when `entries` are a walkSkill's that listed every folder below the root (none too deep, too many or
 * unreadable): every file and link is in them, and a caller may take them instead of listing the folders again.
 */
export function walkedWhole(entries: SkillEntry[]): boolean {
  return wholeWalks.has(entries);
}

/**
 * Every file and folder of a skill, bounded in depth and count; symlinks are not followed but resolved, so
 * callers can tell one that leads out of the skill. `top` is the root's listing when the caller already has it.
 */
export function walkSkill(
  root: string,
  top?: import('node:fs').Dirent[],
): { entries: SkillEntry[]; truncated: boolean } {
  const entries: SkillEntry[] = [];
  let realRoot: string | undefined;
  let truncated = false;
  let unread = false;
  const visit = (dir: string, rel: string, depth: number, listing?: import('node:fs').Dirent[]) => {
    let list = listing;
    if (!list) {
      try {
        list = readdirSync(dir, { withFileTypes: true });
      } catch {
        unread = true;
        return;
      }
    }
    for (const d of list) {
      if (entries.length >= MAX_ENTRIES) {
        truncated = true;
        return;
      }
      const path = rel === '' ? d.name : `${rel}/${d.name}`;
      if (d.isDirectory()) {
        if (isNeverKept(d.name, true)) continue;
        entries.push({ path, kind: 'dir' });
        if (depth < MAX_DEPTH) visit(join(dir, d.name), path, depth + 1);
        else truncated = true;
      } else if (isNeverKept(d.name, false)) {
        continue;
      } else if (d.isFile()) {
        if (!isLeftover(d.name)) entries.push({ path, kind: 'file' });
      } else if (d.isSymbolicLink()) {
        realRoot ??= realpathSync.native(root);
        let target: string | undefined;
        let inside = false;
        try {
          target = realpathSync.native(join(dir, d.name));
          inside = isInside(realRoot, target);
        } catch {
          target = undefined;
        }
        let targetIsDir = false;
        try {
          targetIsDir = inside && statSync(join(dir, d.name)).isDirectory();
        } catch {
          /* dangling */
        }
        entries.push({ path, kind: 'symlink', target, inside, ...(targetIsDir ? { mode: 0o040000 } : {}) });
      } else {
        entries.push({ path, kind: 'other' });
      }
    }
  };
  visit(root, '', 1, top);
  if (!truncated && !unread) wholeWalks.add(entries);
  return { entries, truncated };
}

/**
 * walkSkill's entries of a folder that holds only regular files and folders, all known without a walk (what an
 * archive's extraction wrote): `files` and `folders` are paths below it (forward slashes; a folder's parents implied).
 * The same entries a walk finds (the same depth bound, the same folders and leftovers left out), in the order given
 * (each folder before what is in it) rather than readdir's; undefined when there are more than a walk keeps (which
 * ones it keeps then depends on readdir's order).
 */
export function knownEntries(files: readonly string[], folders: readonly string[]): SkillEntry[] | undefined {
  const entries: SkillEntry[] = [];
  // Each folder's depth as the walk counts it (1 for the root's children), or NOT when the walk does not list it;
  // a folder is listed when first met, after the folders above it.
  const NOT = -1;
  const depth = new Map<string, number>();
  const depthOf = (dir: string): number => {
    let d = depth.get(dir);
    if (d === undefined) {
      const slash = dir.lastIndexOf('/');
      const up = slash < 0 ? 0 : depthOf(dir.slice(0, slash));
      d = up === NOT || up >= MAX_DEPTH || isNeverKept(dir.slice(slash + 1), true) ? NOT : up + 1;
      depth.set(dir, d);
      if (d !== NOT) entries.push({ path: dir, kind: 'dir' });
    }
    return d;
  };
  // Files come folder by folder: the folder of the last one is looked up once for those in a row in it.
  let lastDir = '';
  let lastUp = 0;
  for (const f of files) {
    const slash = f.lastIndexOf('/');
    if (slash < 0) {
      lastDir = '';
      lastUp = 0;
    } else if (slash !== lastDir.length || !f.startsWith(lastDir)) {
      lastDir = f.slice(0, slash);
      lastUp = depthOf(lastDir);
    }
    if (lastUp === NOT || lastUp >= MAX_DEPTH) continue;
    // A leftover's name starts with a dot, as a `.git` file's does.
    if (f.charCodeAt(slash + 1) === 0x2e) {
      const name = f.slice(slash + 1);
      if (isLeftover(name) || isNeverKept(name, false)) continue;
    }
    entries.push({ path: f, kind: 'file' });
  }
  for (const d of folders) depthOf(d);
  return entries.length > MAX_ENTRIES ? undefined : entries;
}
