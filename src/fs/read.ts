import { closeSync, readSync } from 'node:fs';
import { openRegularFile } from './walk.js';

/** Read a file as UTF-8 unless it is larger than `max` bytes (then `tooLarge` holds its size). */
export function readBounded(file: string, max: number): { text?: string; tooLarge?: number } {
  const { fd, size } = openRegularFile(file);
  try {
    if (size > max) return { tooLarge: size };
    const buf = Buffer.allocUnsafe(size);
    let off = 0;
    while (off < size) {
      const n = readSync(fd, buf, off, size - off, off);
      if (n === 0) break;
      off += n;
    }
    return { text: buf.toString('utf8', 0, off) };
  } finally {
    closeSync(fd);
  }
}
