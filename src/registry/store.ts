// The store's folders: a release's copy made (copied, or adopted from a scratch folder) and removed, and what
// killed writers left behind cleaned up.
import { createHash } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  fchmodSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { cleanLeftoversBelow, deadOwner, tempName, tempStemOf } from '../fs/atomic.js';
import { present } from '../fs/walk.js';
import type { TreeEntry, TreeWriter } from '../fs/tree-writer.js';
import { copyBytes } from './file-bytes.js';
import { contentOf, folderHolds, hashFile, sri, type StoredFile } from './integrity.js';
import { STAGING_PREFIX, TRASH_PREFIX } from './layout.js';

/**
 * Copy the files into `dest` (created), hashing what was copied; returns that integrity. `writable` adds the
 * owner's write bit to every file (a copy placed for an agent, from the read-only store); else each file is written
 * without write permission, as the store seals it (sealFolder then seals only the folders). `held`: the integrity
 * the caller hashed the files' held bytes to; when every file's bytes are held, they are copied as they are, and
 * not hashed again (a copy cannot change bytes in memory: only bytes read from disk here are hashed).
 */
export function copyFiles(files: StoredFile[], dest: string, writable = false, held?: string): string {
  const h =
    held !== undefined && files.every((f) => f.kind === 'symlink' || f.content !== undefined)
      ? undefined
      : createHash('sha512');
  mkdirSync(dest, { recursive: true });
  // Each folder made once, not once per file: a recursive mkdir costs a few system calls even when it exists.
  const made = new Set<string>([dest]);
  for (const f of files) {
    const to = join(dest, f.rel);
    const parent = dirname(to);
    if (!made.has(parent)) {
      mkdirSync(parent, { recursive: true });
      made.add(parent);
    }
    if (f.kind === 'symlink') {
      if (h) hashFile(h, f, contentOf(f));
      symlinkSync(f.link!, to);
    } else {
      const fd = openSync(to, 'wx', 0o600);
      try {
        copyBytes(fd, f, h);
        // The mode set through the open file (no second walk of the path), whatever the umask.
        fchmodSync(fd, writable ? f.mode | 0o200 : f.mode & 0o7555);
      } finally {
        closeSync(fd);
      }
    }
  }
  return h ? sri(h) : held!;
}

/**
 * Move a scratch folder to `dest`, keeping only `files` (what a copy would take: no .env, no links leading out).
 * `only`: the caller knows the folder holds nothing else (it unpacked it and kept every file), so it is not walked.
 */
export function adoptFiles(root: string, files: StoredFile[], dest: string, integrity: string, only = false): string {
  renameSync(root, dest);
  if (only) return integrity;
  const keep = new Set(files.map((f) => f.rel));
  const prune = (dir: string, rel: string): boolean => {
    let kept = false;
    for (const d of readdirSync(dir, { withFileTypes: true })) {
      const r = rel === '' ? d.name : `${rel}/${d.name}`;
      const abs = join(dir, d.name);
      if (d.isDirectory() && !d.isSymbolicLink() && prune(abs, r)) kept = true;
      else if (keep.has(r)) kept = true;
      else rmSync(abs, { recursive: true, force: true });
    }
    return kept || rel === '';
  };
  prune(dest, '');
  // Stored links point relative to themselves (see skillFiles); an unpacked archive holds none (links are refused).
  return integrity;
}

/**
 * Make a stored copy read-only: no write bit on any file or folder (the store's folders stay writable), so a script
 * run from its stored copy (run-script's working folder) cannot create, change or delete a file in it. Permission
 * bits bind every user but root; on Windows only the files' read-only attribute is set. The integrity keeps only
 * the execute bit, so it is unchanged. `files` are all the copy holds (what copyFiles or adoptFiles left), with
 * their modes: nothing is walked or stat'ed but the folders, and a file written without write permission is left.
 * `filesSealed`: copyFiles wrote the files sealed already; only the folders are.
 */
export function sealFolder(dir: string, files: StoredFile[], filesSealed = false): void {
  if (!filesSealed)
    for (const f of files)
      if (f.kind === 'file' && (f.mode & 0o222) !== 0) chmodSync(join(dir, f.rel), f.mode & 0o7555);
  for (const d of foldersOf(files)) {
    const abs = d === '' ? dir : join(dir, d);
    chmodSync(abs, lstatSync(abs).mode & 0o7555);
  }
}

/** The folders a copy of `files` holds, below it ('a/b', 'a') and itself (''): what sealFolder seals. */
export function foldersOf(files: StoredFile[]): string[] {
  const dirs = new Set<string>();
  for (const f of files) {
    // Each folder above the file, once: a folder already seen has had its own parents added too.
    for (let i = f.rel.lastIndexOf('/'); i > 0; i = f.rel.lastIndexOf('/', i - 1)) {
      const d = f.rel.slice(0, i);
      if (dirs.has(d)) break;
      dirs.add(d);
    }
  }
  return [...dirs, ''];
}

/**
 * copyFiles and then sealFolder, on a thread (TreeWriter) while the caller goes on: the same files, modes and sealed
 * folders. Only for files whose bytes are all held: false (nothing sent) when one is not, and the caller copies.
 */
export function copySealedOn(writer: TreeWriter, files: StoredFile[], dest: string): boolean {
  const entries: TreeEntry[] = [];
  for (const f of files) {
    if (f.kind === 'symlink') entries.push({ rel: f.rel, mode: f.mode, link: f.link! });
    else if (f.content === undefined) return false;
    else entries.push({ rel: f.rel, mode: f.mode & 0o7555, content: f.content });
  }
  writer.copy(dest, entries, foldersOf(files));
  return true;
}

/** Give the owner write permission on a folder tree again (folders first), so it can be deleted. */
function unsealFolder(dir: string): void {
  let st;
  try {
    st = lstatSync(dir);
  } catch {
    return;
  }
  if (!st.isDirectory()) return;
  if ((st.mode & 0o200) === 0) chmodSync(dir, st.mode | 0o700);
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const abs = join(dir, d.name);
    if (d.isDirectory()) unsealFolder(abs);
    // Windows will not delete a read-only file.
    else if (d.isFile() && process.platform === 'win32') chmodSync(abs, 0o666);
  }
}

/** Delete a folder tree, sealed (read-only) or not; one that is not there is fine. */
export function removeTree(dir: string): void {
  unsealFolder(dir);
  rmSync(dir, { recursive: true, force: true });
}

/**
 * The integrity a registry records for the stored copy at `rel` (`custom/<id>@<version>`), when its index lists that
 * release at that path; undefined when nothing refers to the path.
 */
export type RecordedIntegrity = (rel: string) => string | undefined;

/**
 * Remove staging and trash folders left by writers that were killed (sealed or not), and the temp files of their
 * index and releases writes (`releases/.<id>.json.tmp-w.<pid>.<hex>`: a Ctrl-C while a batch flushed them); a live
 * writer's are kept. A trash folder is a stored copy its writer moved aside before index.json was written (a
 * replaced version, a removed skill): with `recorded`, one the registry still records is put back when its path is
 * empty, or when what is there does not hold the recorded integrity while the trash does (a new copy renamed in
 * and killed before index.json was written); any other trash is removed.
 */
export function cleanLeftovers(dir: string, recorded?: RecordedIntegrity): void {
  cleanLeftoversBelow(dir, 1);
  cleanLeftoversBelow(join(dir, 'releases'), 1);
  for (const { part, name } of deadFolders(dir)) {
    const abs = join(dir, part, name);
    if (name.startsWith(TRASH_PREFIX) && recorded && putBack(dir, part, name, abs, recorded)) continue;
    removeTree(abs);
  }
}

/** The staging and trash folders of writers that are gone, in the store's parts (built-in/, custom/). */
function* deadFolders(dir: string): Generator<{ part: string; name: string }> {
  for (const part of ['built-in', 'custom']) {
    let names: string[];
    try {
      names = readdirSync(join(dir, part));
    } catch {
      continue;
    }
    for (const name of names)
      if ((name.startsWith(STAGING_PREFIX) || name.startsWith(TRASH_PREFIX)) && deadOwner(name)) yield { part, name };
  }
}

/**
 * True when a killed writer left a stored copy moved aside (a `.trash-` folder of a dead process): a batch with nothing
 * to change still takes the lock then, so that cleanLeftovers puts it back.
 */
export function deadTrashIn(dir: string): boolean {
  for (const { name } of deadFolders(dir)) if (name.startsWith(TRASH_PREFIX)) return true;
  return false;
}

/** Put a dead writer's trash folder back at its path when the registry still records it there (cleanLeftovers). */
function putBack(dir: string, part: string, name: string, trash: string, recorded: RecordedIntegrity): boolean {
  const base = tempStemOf(name).slice(TRASH_PREFIX.length);
  const rel = `${part}/${base}`;
  const integrity = recorded(rel);
  if (integrity === undefined) return false;
  const target = join(dir, rel);
  if (!present(target)) {
    renameSync(trash, target);
    return true;
  }
  if (folderHolds(target, integrity) || !folderHolds(trash, integrity)) return false;
  const unrecorded = moveAside(target)!;
  renameSync(trash, target);
  removeTree(unrecorded);
  return true;
}

/**
 * Move a folder out of the way (rename, atomic: no half-deleted copy stays at its path) under a trash name beside
 * it; returns that name, or undefined when nothing was there.
 */
export function moveAside(abs: string): string | undefined {
  if (!present(abs)) return undefined;
  // Named after the copy, so that a killed writer's trash can be put back (cleanLeftovers).
  const trash = join(dirname(abs), tempName(TRASH_PREFIX, basename(abs)));
  renameSync(abs, trash);
  return trash;
}
