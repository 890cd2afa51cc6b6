// Reading the registry: index.json and the releases/<id>.json files, validated, with a version 1 index (releases
// inside) still readable until the next write migrates it.
import { closeSync, fstatSync, readFileSync, statSync, type BigIntStats } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { SkillsError } from '../errors.js';
import { readRegularText } from '../fs/read.js';
import { openRegularFile } from '../fs/walk.js';
import { EMPTY_INDEX, parseIndex, parseReleases, type RegistryIndex, type Release } from '../formats/index-file.js';
import { closest } from '../skill/names.js';
import { BACKUP_FILE, INDEX_FILE, releasesFile, releasesPath } from './layout.js';

/** Read a registry's index.json; an empty index when there is none yet, a located E_CONFIG when it is corrupt. */
export function readIndex(dir: string): RegistryIndex {
  const file = join(dir, INDEX_FILE);
  const text = readIndexText(file);
  if (text === undefined) {
    legacyReleases.delete(resolve(dir));
    return { ...EMPTY_INDEX, skills: [] };
  }
  return parseIndexText(text, file).index;
}

/**
 * index.json's identity: its device, inode, size, and modification and change times in nanoseconds (files derived
 * from it are keyed by it: registry/followers.ts); undefined when there is none.
 */
export function indexIdentity(dir: string): string | undefined {
  try {
    return identityOfIndex(statSync(join(dir, INDEX_FILE), { bigint: true }));
  } catch {
    return undefined;
  }
}

/** indexIdentity of the index.json `st` describes (a stat or fstat of it). */
export function identityOfIndex(st: BigIntStats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
}

/** The text of index.json; undefined when there is none. A FIFO or a device there is refused, never waited on. */
export function readIndexText(file: string): string | undefined {
  try {
    return readRegularText(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SkillsError('E_IO', `cannot read ${file}: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * A version 1 index.json kept the releases inside; read, they are held here (by registry folder) so that
 * readReleases answers from them until the next write turns the registry into version 2.
 */
export const legacyReleases = new Map<string, Map<string, Record<string, Release>>>();

/**
 * The way back from a broken index.json besides fixing it: the backup a write keeps (index.json.bak, from the second
 * write on) when there is one and it reads as an index, else moving the broken one aside and registering again.
 */
function otherwise(file: string): string {
  const backup = join(dirname(file), BACKUP_FILE);
  let text: string | undefined;
  try {
    text = readRegularText(backup);
  } catch {
    text = undefined;
  }
  if (text !== undefined && parseIndex(text).index)
    return `restore the last good index kept in ${backup} (cp ${BACKUP_FILE} ${INDEX_FILE})`;
  const why = text === undefined ? `there is no ${BACKUP_FILE} to restore` : `${backup} is no index either`;
  return `move it aside (mv ${file} ${file}.broken) and register the skills again with skills registry sync <their folder> (${why})`;
}

/** Parse index.json's text, or throw a located E_CONFIG; remembers a version 1 index's releases. */
export function parseIndexText(
  text: string,
  file: string,
): { index: RegistryIndex; legacy?: Map<string, Record<string, Release>> } {
  const { index, releases, problem } = parseIndex(text);
  if (!index) {
    throw new SkillsError('E_CONFIG', `${file}:${problem!.line}:${problem!.column}: ${problem!.message}`, {
      hint: problem!.conflict
        ? `nothing was overwritten: resolve the merge in ${file} (keep the skills of both sides, each once, and delete the marker lines), or ${otherwise(file)}; then skills registry sync the skills again`
        : `nothing was overwritten: fix ${file} by hand, or ${otherwise(file)}`,
    });
  }
  const dir = resolve(dirname(file));
  if (releases) legacyReleases.set(dir, releases);
  else legacyReleases.delete(dir);
  return { index, legacy: releases };
}

/** Parsed releases files, checked against the file's identity (inode, size, mtime) before each use. */
export const releasesCache = new Map<
  string,
  { ino: number; size: number; mtimeMs: number; identity: string; releases: Record<string, Release> }
>();

/**
 * A file's identity, as the files derived from the registry's key what they were made from (resolve-index.ts): its
 * device, inode, size, and modification and change times.
 */
export function fileIdentity(st: { dev: number; ino: number; size: number; mtimeMs: number; ctimeMs: number }): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
}

/**
 * The releases of one skill (version → release) from releases/<id>.json, validated; cached in the process.
 * A missing or corrupt file is a located E_CONFIG. A registry still in format version 1 answers from its index.
 */
export function readReleases(dir: string, id: string): Record<string, Release> {
  const legacy = legacyReleases.get(resolve(dir));
  if (legacy) {
    const r = legacy.get(id);
    if (r) return r;
  }
  const found = readReleasesFile(dir, id, true);
  if (found === undefined) {
    const file = releasesFile(dir, id);
    throw new SkillsError('E_CONFIG', `${file}: missing: the index lists ${id} but its releases file is gone`, {
      hint: `register ${id} again (skills registry sync <dir>), or remove it with skills registry remove ${id} --force`,
    });
  }
  return found;
}

/** Read releases/<id>.json; undefined when there is none. */
export function readReleasesFile(dir: string, id: string, useCache: boolean): Record<string, Release> | undefined {
  const file = releasesFile(dir, id);
  let fd: number;
  try {
    // A FIFO or a device in a registry is refused (openRegularFile's E_IO), never waited on.
    fd = openRegularFile(file).fd;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      releasesCache.delete(file);
      return undefined;
    }
    throw new SkillsError('E_IO', `cannot read ${file}: ${(err as Error).message}`, { cause: err });
  }
  let text: string;
  let st;
  try {
    st = fstatSync(fd);
    const cached = releasesCache.get(file);
    if (useCache && cached && cached.ino === st.ino && cached.size === st.size && cached.mtimeMs === st.mtimeMs)
      return cached.releases;
    text = readFileSync(fd, 'utf8');
  } catch (err) {
    throw new SkillsError('E_IO', `cannot read ${file}: ${(err as Error).message}`, { cause: err });
  } finally {
    closeSync(fd);
  }
  const { file: parsed, problem } = parseReleases(text, releasesPath(id));
  if (!parsed) {
    throw new SkillsError('E_CONFIG', `${file}:${problem!.line}:${problem!.column}: ${problem!.message}`, {
      hint: `nothing was overwritten: fix ${file} by hand ({"id": "${id}", "releases": {version: release}})`,
    });
  }
  if (parsed.id !== id) {
    throw new SkillsError(
      'E_CONFIG',
      `${file}:1:1: ${releasesPath(id)} holds the releases of "${parsed.id}", not of "${id}"`,
      { hint: `fix ${file} by hand: its "id" must be "${id}"` },
    );
  }
  releasesCache.set(file, {
    ino: st.ino,
    size: st.size,
    mtimeMs: st.mtimeMs,
    identity: fileIdentity(st),
    releases: parsed.releases,
  });
  return parsed.releases;
}

/** The releases of a skill the index lists, for a decision taken before the lock (none when its file is missing). */
export function peekReleases(dir: string, id: string): Record<string, Release> | undefined {
  const legacy = legacyReleases.get(resolve(dir))?.get(id);
  return legacy ?? readReleasesFile(dir, id, true);
}

/** E_NOT_FOUND for an id the index does not list, naming the nearest one it does. */
export function notFound(index: RegistryIndex, id: string): SkillsError {
  const near = closest(
    id,
    index.skills.map((s) => s.id),
  );
  return new SkillsError('E_NOT_FOUND', `no skill "${id}" in the registry${near ? `; did you mean "${near}"?` : ''}`, {
    hint:
      index.skills.length === 0
        ? 'the registry is empty: register skills with skills registry sync <dir>'
        : 'see what is registered with skills registry list',
  });
}
