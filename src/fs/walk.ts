import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { SkillsError } from '../errors.js';
import type { SkillEntry } from '../model/skill.js';

// Never part of a skill: version control, installed packages, and Python's byte-code cache (which running a skill's
// script writes into the skill, and which would otherwise change its integrity and go into its archive).
export const SKIP_DIRS = new Set(['.git', 'node_modules', '.hg', '.svn', '__pycache__']);
/**
 * The temp files our writers leave beside a target when killed: `.<name>.tmp-w.<pid>.<hex>` (fs/atomic.ts's
 * writeAtomic), `.<name>.tmp.<pid>.<hex>` (pack) and `.<name>.skills-fix-<pid>` (lint --fix before 0.2). Never part
 * of a skill either: not walked, packed, stored or copied; lint --fix removes those of dead writers.
 */
export const LEFTOVER = /^\..+\.(?:tmp(?:-w)?\.(\d+)\.[0-9a-f]{8}|skills-fix-(\d+))$/;

/** True when `name` is a temp file one of our writers makes (alive or not). */
export function isLeftover(name: string): boolean {
  return LEFTOVER.test(name);
}
const MAX_DEPTH = 8;
const MAX_ENTRIES = 20_000;

/**
 * Open a file for reading only if it is a regular file; returns the descriptor and size. A stranger's skill may
 * hold a symlink to a FIFO or a device (`SKILL.md -> /dev/stdin`): a plain open of a FIFO waits for a writer
 * forever, so the open does not block, and anything but a regular file is refused (E_IO) before a byte is read.
 */
export function openRegularFile(file: string): { fd: number; size: number; mode: number } {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) {
      const kind = st.isFIFO()
        ? 'a FIFO'
        : st.isCharacterDevice()
          ? 'a character device'
          : st.isBlockDevice()
            ? 'a block device'
            : st.isSocket()
              ? 'a socket'
              : st.isDirectory()
                ? 'a folder'
                : 'not a regular file';
      throw new SkillsError('E_IO', `${file} is ${kind}, not a regular file; it is not read`, {
        hint: 'a skill holds regular files (a symlink must lead to one)',
      });
    }
    return { fd, size: st.size, mode: st.mode };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
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

/** True when `child` is `root` or lies below it. */
export function isInside(root: string, child: string): boolean {
  const rel = relative(root, child);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && rel !== '..' && !/^[A-Za-z]:/.test(rel));
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
  const visit = (dir: string, rel: string, depth: number, listing?: import('node:fs').Dirent[]) => {
    let list = listing;
    if (!list) {
      try {
        list = readdirSync(dir, { withFileTypes: true });
      } catch {
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
        if (SKIP_DIRS.has(d.name)) continue;
        entries.push({ path, kind: 'dir' });
        if (depth < MAX_DEPTH) visit(join(dir, d.name), path, depth + 1);
        else truncated = true;
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
  return { entries, truncated };
}
