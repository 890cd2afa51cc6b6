// The Git LFS pointers among a skill's files: install warns that it copies the pointer, not the content.
import { MAX_POINTER_BYTES, lfsPointerSize } from '../formats/lfs-pointer.js';
import { readHead } from '../skill/script-info.js';
import type { Prepared } from './types.js';

/**
 * The files of a skill fetched from a git repository that are Git LFS pointers (formats/lfs-pointer.ts), in path order;
 * worked out once a skill. Only files small enough to be one are read, and only their first bytes.
 */
export const lfsPointers = (p: Prepared): string[] => {
  if (p.origin?.commit === undefined) return [];
  let found = pointersOf.get(p);
  if (found) return found;
  found = [];
  for (const f of p.files ?? []) {
    if (f.kind !== 'file' || (f.size !== undefined && f.size > MAX_POINTER_BYTES)) continue;
    let head: string;
    try {
      head = f.content ? f.content.toString('latin1') : readHead(f.abs, MAX_POINTER_BYTES + 1);
    } catch {
      continue;
    }
    if (lfsPointerSize(head) !== undefined) found.push(f.rel);
  }
  found.sort();
  pointersOf.set(p, found);
  return found;
};
const pointersOf = new WeakMap<Prepared, string[]>();
