// The registry on disk: its file names, where a release's stored copy lives, and the index's timestamps.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SkillsError } from '../errors.js';

export const INDEX_FILE = 'index.json';
export const BACKUP_FILE = 'index.json.bak';
/** The folder of the releases files: releases/<id>.json. */
export const RELEASES_DIR = 'releases';
/** The lock folder proper-lockfile creates, inside the registry so nothing appears beside it. */
export const LOCK_FILE = '.lock';
/** Prefixes of the folders a writer works in beside the store's copies (see store.ts). */
export const STAGING_PREFIX = '.staging-';
export const TRASH_PREFIX = '.trash-';

/** releases/<id>.json, relative to the registry. */
export function releasesPath(id: string): string {
  return `${RELEASES_DIR}/${id}.json`;
}

/** The absolute path of releases/<id>.json; an id that cannot name a file is a located E_CONFIG. */
export function releasesFile(dir: string, id: string): string {
  if (id === '' || id.includes('/') || id.includes('\\') || id.startsWith('.')) {
    throw new SkillsError('E_CONFIG', `${join(dir, INDEX_FILE)}: the id "${id}" cannot name a releases file`, {
      hint: `remove the entry from ${join(dir, INDEX_FILE)}`,
    });
  }
  return join(dir, RELEASES_DIR, `${id}.json`);
}

/** The store folder of a release, relative to the registry (seed 001's layout). */
export function storePath(id: string, version: string, owner: string): string {
  return `${owner === 'built-in' ? 'built-in' : 'custom'}/${id}@${version}`;
}

/** A timestamp as the index keeps it: ISO 8601 to the second. */
export const stamp = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Create the registry folder (or one inside it); a located E_IO when it cannot be. */
export function ensureDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new SkillsError('E_IO', `cannot create the registry folder ${dir}: ${(err as Error).message}`, {
      cause: err,
      hint: 'choose another folder with --registry or SKILLS_REGISTRY',
    });
  }
}
