// The store's folders: a release's copy made (copied, or adopted from a scratch folder) and removed, and what
// killed writers left behind cleaned up.
import { createHash } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { cleanStale, tempName } from '../fs/atomic.js';
import { present } from '../fs/walk.js';
import { contentOf, hashFile, sri, type StoredFile } from './integrity.js';
import { STAGING_PREFIX, TRASH_PREFIX } from './layout.js';

/** Copy the files into `dest` (created), hashing what was copied; returns that integrity. */
export function copyFiles(files: StoredFile[], dest: string): string {
  const h = createHash('sha512');
  mkdirSync(dest, { recursive: true });
  // Each folder made once, not once per file: a recursive mkdir costs a few system calls even when it exists.
  const made = new Set<string>([dest]);
  for (const f of files) {
    const content = contentOf(f);
    hashFile(h, f, content);
    const to = join(dest, f.rel);
    const parent = dirname(to);
    if (!made.has(parent)) {
      mkdirSync(parent, { recursive: true });
      made.add(parent);
    }
    if (f.kind === 'symlink') {
      symlinkSync(f.link!, to);
    } else {
      const fd = openSync(to, 'wx', 0o600);
      try {
        writeSync(fd, content);
      } finally {
        closeSync(fd);
      }
      chmodSync(to, f.mode);
    }
  }
  return sri(h);
}

/** Move a scratch folder to `dest`, keeping only `files` (what a copy would take: no .env, no links leading out). */
export function adoptFiles(root: string, files: StoredFile[], dest: string, integrity: string): string {
  renameSync(root, dest);
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

/** Remove staging and trash folders left by writers that were killed; a live writer's are kept. */
export function cleanLeftovers(dir: string): void {
  for (const part of ['built-in', 'custom']) cleanStale(join(dir, part), [STAGING_PREFIX, TRASH_PREFIX]);
}

/** Move a folder out of the way (rename, atomic) and then delete it, so no half-deleted copy stays at its path. */
export function removeFolder(abs: string): void {
  if (!present(abs)) return;
  const trash = join(dirname(abs), tempName(TRASH_PREFIX, 'x'));
  renameSync(abs, trash);
  rmSync(trash, { recursive: true, force: true });
}
