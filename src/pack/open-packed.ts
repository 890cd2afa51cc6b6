import { closeSync } from 'node:fs';
import { SkillsError } from '../errors.js';
import { readOpenFile } from '../fs/read.js';
import { openFoundFile } from '../fs/walk.js';

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
  try {
    return openFoundFile(f.real, () => changed(f), f.within);
  } catch (err) {
    if (err instanceof SkillsError) throw err;
    if ((err as NodeJS.ErrnoException).syscall === 'open')
      throw new SkillsError('E_IO', `cannot read ${f.abs}: ${(err as Error).message}`, { cause: err });
    throw changed(f);
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
