// A path as a message shows it: relative to the working folder when inside it, ~/… when inside the home folder.
import { relative, sep } from 'node:path';
import { isInside } from '../fs/walk.js';

export function shownPath(p: string, cwd: string, home: string): string {
  if (isInside(cwd, p)) return relative(cwd, p) || '.';
  return isInside(home, p) ? `~${sep}${relative(home, p)}` : p;
}
