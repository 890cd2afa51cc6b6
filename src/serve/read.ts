// Reading what a skill:// URI names, and nothing else: a file listed in its skill's entry (the walk's files, no
// .env secrets, no link leading out), checked again on disk (its real path inside the skill's real folder, a
// regular file) and read with a bound, or a folder's direct children.
import { closeSync, realpathSync } from 'node:fs';
import { SkillsError } from '../errors.js';
import { readOpenFile } from '../fs/read.js';
import { isInside, LinkOutside, openedPath, openRegularFile } from '../fs/walk.js';
import { DIRECTORY_MIME, asText, mimeByName, mimeOf } from './mime.js';
import { checkRoot, SKILL_MD, type ServedFile, type ServedSkill, type SkillSet } from './skill-set.js';
import { parseSkillUri, skillUri, UriProblem } from './uri.js';

/** The most a read returns: larger files are refused (their digest is still listed). */
export const MAX_READ_BYTES = 4 * 1024 * 1024;

export interface FileRead {
  entry: ServedSkill;
  file: ServedFile;
  uri: string;
  mimeType: string;
  /** The content as text (UTF-8 without NUL), else undefined and `bytes` is binary. */
  text?: string;
  bytes: Buffer;
}

/** Parse a URI into its skill's entry and path; E_USAGE for a malformed or escaping URI, E_NOT_FOUND for no skill. */
export function locate(set: SkillSet, uri: string): { entry: ServedSkill; path: string } {
  let parsed;
  try {
    parsed = parseSkillUri(uri);
  } catch (err) {
    if (err instanceof UriProblem) throw new SkillsError('E_USAGE', err.message);
    throw err;
  }
  return { entry: set.entry(set.named(parsed.skill)), path: parsed.path };
}

/** Read one file of a served skill by URI. */
export function readFile(set: SkillSet, uri: string): FileRead {
  const { entry, path } = locate(set, uri);
  return readPath(entry, path);
}

/** Read one file of a served skill by its path in the skill (read_skill_file's way in). */
export function readPath(entry: ServedSkill, path: string): FileRead {
  const file = entry.byPath.get(path);
  const uri = skillUri(entry.name, path);
  if (!file) {
    if (entry.dirs.has(path))
      throw new SkillsError('E_USAGE', `${uri} is a folder, not a file`, {
        hint: 'resources/directory/read (or load_skill) lists what it holds',
      });
    const near = entry.files
      .map((f) => f.path)
      .filter((p) => p.endsWith(`/${path}`) || p.split('/').pop() === path.split('/').pop())
      .slice(0, 3);
    throw new SkillsError(
      'E_NOT_FOUND',
      `${uri}: the skill ${entry.name} has no file "${path}"${near.length ? `; did you mean ${near.map((p) => `"${p}"`).join(', ')}?` : ''}`,
      {
        hint: `its files: ${entry.files
          .slice(0, 20)
          .map((f) => f.path)
          .join(', ')}${entry.files.length > 20 ? ', …' : ''}`,
      },
    );
  }
  const bytes = file.made ?? readOnDisk(entry, file, uri);
  const text = asText(bytes);
  return {
    entry,
    file,
    uri,
    bytes,
    text,
    mimeType: path === SKILL_MD ? 'text/markdown' : mimeOf(path, text !== undefined),
  };
}

function readOnDisk(entry: ServedSkill, file: ServedFile, uri: string): Buffer {
  if (file.size > MAX_READ_BYTES) throw tooLarge(uri, file.size);
  // The entry was made from a walk; the disk may have changed since: a file swapped for a link leading out, or the
  // skill's folder itself swapped for one. Only a file inside the folder's real path as walked is read.
  checkRoot(entry, uri);
  let real: string;
  try {
    real = realpathSync.native(file.abs!);
  } catch (err) {
    throw new SkillsError('E_NOT_FOUND', `${uri}: the file is gone (${(err as Error).message})`);
  }
  if (!isInside(entry.realRoot, real)) throw outside(uri);
  let opened;
  try {
    opened = openRegularFile(real, entry.realRoot);
  } catch (err) {
    if (err instanceof LinkOutside) throw outside(uri);
    throw new SkillsError('E_USAGE', `${uri} cannot be read: ${(err as Error).message}`);
  }
  let bytes: Buffer;
  let at: string | undefined;
  try {
    // Where the open went, as the kernel says: a folder swapped between the check and the open is caught here.
    at = openedPath(opened.fd);
    if (at !== undefined && !isInside(entry.realRoot, at)) throw outside(uri);
    if (opened.size > MAX_READ_BYTES) throw tooLarge(uri, opened.size);
    try {
      bytes = readOpenFile(opened.fd, opened.size);
    } catch (err) {
      throw new SkillsError('E_USAGE', `${uri} cannot be read: ${(err as Error).message}`);
    }
  } finally {
    closeSync(opened.fd);
  }
  // Where the kernel cannot say where the open went, the folder is checked again after the read.
  if (at === undefined) checkRoot(entry, uri);
  return bytes;
}

function outside(uri: string): SkillsError {
  return new SkillsError('E_USAGE', `${uri} leads outside the skill; it is not read`);
}

function tooLarge(uri: string, size: number): SkillsError {
  return new SkillsError(
    'E_INVALID',
    `${uri} is ${size} bytes, too big to serve: this server returns files of at most ${MAX_READ_BYTES} bytes (4 MiB)`,
  );
}

/** A child of a folder, as resources/directory/read returns it. */
export interface DirectoryChild {
  uri: string;
  name: string;
  /** Absent for a file whose name says nothing of its type (its content decides when it is read). */
  mimeType?: string;
  size?: number;
}

/** The direct children of a folder of a served skill (the skill's root: skill://<name>). */
export function readDirectory(set: SkillSet, uri: string): DirectoryChild[] {
  const { entry, path } = locate(set, uri);
  if (!entry.dirs.has(path)) {
    if (entry.byPath.has(path))
      throw new SkillsError('E_USAGE', `${uri} is a file, not a folder`, { hint: 'read it with resources/read' });
    throw new SkillsError('E_NOT_FOUND', `${uri}: the skill ${entry.name} has no folder "${path}"`);
  }
  const prefix = path === '' ? '' : `${path}/`;
  const children = new Map<string, DirectoryChild>();
  for (const d of entry.dirs) {
    if (d === '' || !d.startsWith(prefix) || d.slice(prefix.length).includes('/')) continue;
    children.set(d, { uri: skillUri(entry.name, d), name: d.slice(prefix.length), mimeType: DIRECTORY_MIME });
  }
  for (const f of entry.files) {
    if (!f.path.startsWith(prefix) || f.path.slice(prefix.length).includes('/')) continue;
    const mimeType = f.path === SKILL_MD ? 'text/markdown' : mimeByName(f.path);
    children.set(f.path, {
      uri: skillUri(entry.name, f.path),
      name: f.path.slice(prefix.length),
      ...(mimeType ? { mimeType } : {}),
      size: f.size,
    });
  }
  return [...children.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, c]) => c);
}
