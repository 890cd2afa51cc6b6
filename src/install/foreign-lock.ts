// Replaying the other installer's skills-lock.json (see formats/foreign-lock.ts): its git and local sources become
// sources of ours, its names the skills chosen; what it locked is checked against what was installed, its way.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { isInside, present } from '../fs/walk.js';
import { LOCKFILE_NAME } from '../formats/lockfile.js';
import { SIDE_LOCKFILE_NAME, foreignSource, parseForeignLock, type ForeignEntry } from '../formats/foreign-lock.js';
import { readRegularText } from '../fs/read.js';

/** The other tool's lock beside ours, when ours is the side lock: its entries; else undefined. */
export function foreignLockBeside(lockfile: string): { file: string; entries: ForeignEntry[] } | undefined {
  if (basename(lockfile) !== SIDE_LOCKFILE_NAME) return undefined;
  const file = join(dirname(lockfile), LOCKFILE_NAME);
  let text: string;
  try {
    text = readRegularText(file);
  } catch {
    return undefined;
  }
  const entries = parseForeignLock(text);
  return entries ? { file, entries } : undefined;
}

/** True when the file is the other tool's lock (a file that cannot be read or parsed is not). */
export function isForeignLock(file: string): boolean {
  try {
    return parseForeignLock(readRegularText(file)) !== undefined;
  } catch {
    return false;
  }
}

/** The sources and skill names that replay the other tool's entries, and a warning for each that cannot be. */
export function replayForeign(
  file: string,
  entries: ForeignEntry[],
): { sources: string[]; names: string[]; warnings: string[] } {
  const project = dirname(file);
  const sources = new Set<string>();
  const names: string[] = [];
  const warnings: string[] = [];
  for (const e of entries) {
    const s = foreignSource(e);
    if ('reason' in s) {
      warnings.push(`${file}: ${e.name} is not installed: ${s.reason}`);
      continue;
    }
    // A local folder is taken only inside the project, and only when it is there: a stranger's lock cannot copy a
    // folder from elsewhere on this machine into the project, and one missing folder does not stop the others.
    if (e.sourceType === 'local') {
      const abs = resolve(project, s.source);
      if (!isInside(project, abs) || !present(abs)) {
        warnings.push(
          `${file}: ${e.name} is not installed: its folder ${s.source} is ${present(abs) ? 'outside the project' : 'not there'}`,
        );
        continue;
      }
    }
    sources.add(s.source);
    names.push(e.name);
  }
  return { sources: [...sources], names, warnings };
}

/** The other tool's hash of a skill folder: sha256 over each file's path then bytes, paths in localeCompare order. */
export function foreignHash(dir: string): string {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) =>
      relative(dir, join(d.parentPath ?? d.path, d.name))
        .split(sep)
        .join('/'),
    )
    .filter((rel) => !rel.split('/').some((p) => p === '.git' || p === 'node_modules'))
    .sort((a, b) => a.localeCompare(b));
  const hash = createHash('sha256');
  for (const rel of files) {
    hash.update(rel);
    hash.update(readFileSync(join(dir, ...rel.split('/'))));
  }
  return hash.digest('hex');
}
