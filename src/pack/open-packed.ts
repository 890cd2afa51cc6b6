import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { SkillsError } from '../errors.js';
import { readOpenFile } from '../fs/read.js';
import { checkOpenedWithin } from '../fs/walk.js';

// The files of a pack's plan are read where the plan found them, as the registry's store reads a skill
// (registry/file-bytes.ts): at their real path (a link inside the skill checked to lead there), not through a link,
// and still inside the skill. Read by the path the plan walked, a file swapped for a link to ~/.ssh/id_rsa between the
// plan and the write was read through it, and its bytes went into the archive that publish sends out.

/** A file of a plan, as the reads below need it. */
export interface PlannedFile {
  /** Where the plan found it: the skill's path, or where a link inside the skill led. */
  abs: string;
  /** That place with every link resolved, and the skill folder's own real path. */
  real: string;
  within: string;
}

const changed = (f: PlannedFile) =>
  new SkillsError(
    'E_IO',
    `${f.abs} changed while it was being packed (it is no longer the file found); nothing was written`,
    {
      hint: 'pack again once nothing is writing to the skill',
    },
  );

/** Open a planned file for reading, with its size: not through a link, not a FIFO, still inside the skill. */
export function openPacked(f: PlannedFile): { fd: number; size: number } {
  let fd: number;
  try {
    fd = openSync(f.real, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw changed(f);
    throw new SkillsError('E_IO', `cannot read ${f.abs}: ${(err as Error).message}`, { cause: err });
  }
  try {
    // A folder on the way swapped for a link since the plan: the file must still lie in the skill.
    checkOpenedWithin(fd, f.real, f.within);
    const st = fstatSync(fd);
    if (!st.isFile()) throw changed(f);
    return { fd, size: st.size };
  } catch (err) {
    closeSync(fd);
    throw err instanceof SkillsError ? err : changed(f);
  }
}

/** A planned file's bytes, read as openPacked opens it. */
export function readPacked(f: PlannedFile): Buffer {
  const { fd, size } = openPacked(f);
  try {
    return readOpenFile(fd, size, true);
  } finally {
    closeSync(fd);
  }
}
