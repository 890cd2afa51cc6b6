import { createHash, type Hash } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  watch,
  writeSync,
  type FSWatcher,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import rcompare from 'semver/functions/rcompare.js';
import { SkillsError, isSkillsError } from '../errors.js';
import { EMPTY_INDEX, parseIndex, parseReleases, serializeIndex, serializeReleases, summaryOf, type IndexEntry, type RegistryIndex, type Release } from '../formats/index-file.js';
import type { Skill } from '../model/skill.js';
import { DEFAULT_LIMITS } from '../fs/archive.js';
import { cleanStale, tempName, writeAtomic } from '../fs/atomic.js';
import { SKIP_DIRS, isInside, present } from '../fs/walk.js';
import { skillFileIn } from '../skill/skill-file.js';
import { closest } from '../skill/names.js';
import { isStrictSemver } from '../model/spec.js';

export const INDEX_FILE = 'index.json';
export const BACKUP_FILE = 'index.json.bak';
/** The folder of the releases files: releases/<id>.json. */
export const RELEASES_DIR = 'releases';
/** The lock folder proper-lockfile creates, inside the registry so nothing appears beside it. */
export const LOCK_FILE = '.lock';
const STAGING_PREFIX = '.staging-';
const TRASH_PREFIX = '.trash-';
/** A lock whose holder stopped updating it (crashed, killed) is taken over after this long. */
const LOCK_STALE_MS = 10_000;

export type RegisterStatus = 'added' | 'updated' | 'unchanged' | 'replaced';

export interface RegisterOptions {
  /** Overrides the skill's own owner (manifest `owner`, SKILL.md `metadata.author`); default built-in. */
  owner?: string;
  /** Replace a registered version whose content differs. */
  force?: boolean;
  now?: Date;
  /**
   * The skill's folder is a scratch copy of this process's own (an unpacked archive) on the registry's file
   * system: move it into the store instead of copying it. Creating files is what costs, so this halves an install.
   */
  adopt?: boolean;
  /** With `adopt`: the folder's integrity, already computed by the caller (the folder is its own: nothing changed it). */
  integrity?: string;
}

export interface RegisterResult {
  status: RegisterStatus;
  id: string;
  version: string;
  /** The stored copy, relative to the registry: `built-in/<id>@<version>` or `custom/<id>@<version>`. */
  path: string;
  integrity: string;
}

export interface RemoveResult {
  id: string;
  /** Versions removed, newest first. */
  removed: string[];
  /** Versions still registered (none when the whole entry went). */
  remaining: string[];
  /** Stored copies removed, relative to the registry. */
  paths: string[];
}

export interface UsageResult {
  id: string;
  usedBy: string[];
  /** False when the consumer was already (use) or not (unuse) in usedBy. */
  changed: boolean;
}

/** One file the registry hashes and copies; symlinks that stay inside the skill are kept as links. */
export interface StoredFile {
  /** Path relative to the skill root, forward slashes. */
  rel: string;
  abs: string;
  kind: 'file' | 'symlink';
  /** Permission bits (files). */
  mode: number;
  /** Link text to store, relative to the link's folder (symlinks). */
  link?: string;
}

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

function readIndexText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SkillsError('E_IO', `cannot read ${file}: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * A version 1 index.json kept the releases inside; read, they are held here (by registry folder) so that
 * readReleases answers from them until the next write turns the registry into version 2.
 */
const legacyReleases = new Map<string, Map<string, Record<string, Release>>>();

function parseIndexText(text: string, file: string): { index: RegistryIndex; legacy?: Map<string, Record<string, Release>> } {
  const { index, releases, problem } = parseIndex(text);
  if (!index) {
    throw new SkillsError('E_CONFIG', `${file}:${problem!.line}:${problem!.column}: ${problem!.message}`, {
      hint: `nothing was overwritten: fix ${file} by hand, or restore the last good index kept in ${join(dirname(file), BACKUP_FILE)} (cp ${BACKUP_FILE} ${INDEX_FILE})`,
    });
  }
  const dir = resolve(dirname(file));
  if (releases) legacyReleases.set(dir, releases);
  else legacyReleases.delete(dir);
  return { index, legacy: releases };
}

/** releases/<id>.json, relative to the registry. */
export function releasesPath(id: string): string {
  return `${RELEASES_DIR}/${id}.json`;
}

function releasesFile(dir: string, id: string): string {
  if (id === '' || id.includes('/') || id.includes('\\') || id.startsWith('.')) {
    throw new SkillsError('E_CONFIG', `${join(dir, INDEX_FILE)}: the id "${id}" cannot name a releases file`, { hint: `remove the entry from ${join(dir, INDEX_FILE)}` });
  }
  return join(dir, RELEASES_DIR, `${id}.json`);
}

/** Parsed releases files, checked against the file's identity (inode, size, mtime) before each use. */
const releasesCache = new Map<string, { ino: number; size: number; mtimeMs: number; releases: Record<string, Release> }>();

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
      hint: `register ${id} again (skills sync <dir>), or remove it with skills remove ${id} --force`,
    });
  }
  return found;
}

/** Read releases/<id>.json; undefined when there is none. */
function readReleasesFile(dir: string, id: string, useCache: boolean): Record<string, Release> | undefined {
  const file = releasesFile(dir, id);
  let fd: number;
  try {
    fd = openSync(file, 'r');
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
    if (useCache && cached && cached.ino === st.ino && cached.size === st.size && cached.mtimeMs === st.mtimeMs) return cached.releases;
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
    throw new SkillsError('E_CONFIG', `${file}:1:1: ${releasesPath(id)} holds the releases of "${parsed.id}", not of "${id}"`, { hint: `fix ${file} by hand: its "id" must be "${id}"` });
  }
  releasesCache.set(file, { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, releases: parsed.releases });
  return parsed.releases;
}

/** What an update may change besides the index: the releases of the skills it touches. */
export interface IndexUpdate {
  /**
   * The releases of `id` (version → release), read afresh under the lock; change the object in place. Only the
   * versions the index lists for `id` once the update is done are kept; the entry's `latest` is set from them.
   */
  releases(id: string): Record<string, Release>;
}

/**
 * Change the registry under its lock: the index is re-read inside the lock, a corrupt one is never touched,
 * the previous index is kept as index.json.bak, and every file is replaced by a rename (atomic). Creates the
 * registry folder on first use. `fn` may change files of the store too; it runs inside the lock.
 *
 * Order of writes: releases/<id>.json first, holding the new releases and still the removed ones; then
 * index.json; then the releases files are pruned to the versions the index lists (deleted for a skill that
 * went). A crash in between leaves a releases file with versions the index does not list: readers ignore
 * them, and the next write of that skill prunes them. A version 1 index is rewritten as version 2, every
 * skill's releases file first.
 */
export async function updateIndex(dir: string, fn: (index: RegistryIndex, update: IndexUpdate) => RegistryIndex | Promise<RegistryIndex>): Promise<RegistryIndex> {
  ensureDir(dir);
  const lockfile = (await import('proper-lockfile')).default;
  let compromised: Error | undefined;
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(dir, {
      realpath: false,
      lockfilePath: join(dir, LOCK_FILE),
      stale: LOCK_STALE_MS,
      // 20 processes writing at once each hold the lock for milliseconds; a crashed holder's lock goes stale.
      retries: { retries: 300, factor: 1.3, minTimeout: 5, maxTimeout: 200, randomize: true },
      onCompromised: (err) => {
        compromised = err;
      },
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new SkillsError('E_IO', code === 'ELOCKED' ? `the registry ${dir} is locked by another process (${join(dir, LOCK_FILE)})` : `cannot lock the registry ${dir}: ${(err as Error).message}`, {
      cause: err,
      hint: code === 'ELOCKED' ? `wait for it to finish; a lock left by a killed process is taken over after ${LOCK_STALE_MS / 1000} s` : undefined,
    });
  }
  try {
    const file = join(dir, INDEX_FILE);
    const before = readIndexText(file);
    const { index: current, legacy } = before === undefined ? { index: { ...EMPTY_INDEX, skills: [] } as RegistryIndex, legacy: undefined } : parseIndexText(before, file);
    // id → releases as on disk (undefined: no file) and as the update leaves them.
    const onDisk = new Map<string, Record<string, Release> | undefined>();
    const working = new Map<string, Record<string, Release>>();
    const releasesOf = (id: string): Record<string, Release> => {
      let r = working.get(id);
      if (!r) {
        const disk = readReleasesFile(dir, id, false);
        onDisk.set(id, disk);
        r = { ...(disk ?? {}), ...(legacy?.get(id) ?? {}) };
        working.set(id, r);
      }
      return r;
    };
    // Migrating from version 1: every skill's releases get their file.
    if (legacy) for (const e of current.skills) releasesOf(e.id);
    const next = await fn(current, { releases: releasesOf });
    // What each touched releases file should hold: the versions the index lists; `latest` follows from it.
    const entries = new Map(next.skills.map((e) => [e.id, e]));
    const wanted = new Map<string, Record<string, Release> | undefined>();
    for (const [id, r] of working) {
      const entry = entries.get(id);
      if (!entry) {
        wanted.set(id, undefined);
        continue;
      }
      const kept: Record<string, Release> = {};
      for (const v of entry.versions) if (Object.hasOwn(r, v)) kept[v] = r[v]!;
      wanted.set(id, kept);
      const latest = kept[entry.latestVersion];
      if (latest) entry.latest = summaryOf(latest);
    }
    const text = serializeIndex(next);
    if (compromised) throw new SkillsError('E_IO', `lost the lock on the registry ${dir} (${compromised.message}); the index was not written`, { cause: compromised });
    const textOf = (id: string, r: Record<string, Release> | undefined) => (r === undefined ? undefined : serializeReleases(id, r, entries.get(id)?.versions));
    const writeReleases = (id: string, r: Record<string, Release>) => {
      const path = releasesFile(dir, id);
      ensureDir(dirname(path));
      writeAtomic(path, textOf(id, r)!);
    };
    // 1. New and changed releases, the removed ones still there.
    const written = new Map<string, string | undefined>();
    for (const [id, kept] of wanted) {
      const disk = onDisk.get(id);
      const union = kept === undefined ? disk : { ...(disk ?? {}), ...kept };
      const unionText = textOf(id, union);
      if (union !== undefined && unionText !== textOf(id, disk)) writeReleases(id, union);
      written.set(id, unionText);
    }
    // 2. The index.
    if (text !== before) {
      if (before !== undefined) writeAtomic(join(dir, BACKUP_FILE), before);
      writeAtomic(file, text);
    }
    legacyReleases.delete(resolve(dir));
    // 3. Prune what the index no longer lists.
    for (const [id, kept] of wanted) {
      if (kept === undefined) {
        if (written.get(id) !== undefined) rmSync(releasesFile(dir, id), { force: true });
        releasesCache.delete(releasesFile(dir, id));
      } else if (textOf(id, kept) !== written.get(id)) writeReleases(id, kept);
    }
    return next;
  } finally {
    await release().catch(() => {});
  }
}

function ensureDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new SkillsError('E_IO', `cannot create the registry folder ${dir}: ${(err as Error).message}`, { cause: err, hint: 'choose another folder with --registry or SKILLS_REGISTRY' });
  }
}


/** Names that are never copied or hashed: VCS and OS litter, and secrets (.env, .env.local; not .env.example). */
function skipped(name: string, isDir: boolean): boolean {
  if (isDir) return SKIP_DIRS.has(name);
  if (name === '.DS_Store') return true;
  return /^\.env(\..+)?$/.test(name) && !/^\.env\.(example|sample|template)$/.test(name);
}

/**
 * The files of a skill the registry keeps, sorted by path; symlinks that lead out of the skill are left out.
 * Bounded as install bounds archives (256 MiB, 20,000 entries): the files are read whole to hash and copy them.
 */
export function skillFiles(root: string): StoredFile[] {
  const out: StoredFile[] = [];
  const realRoot = realpathSync.native(root);
  let bytes = 0;
  const tooBig = (what: string) =>
    new SkillsError('E_INVALID', `${root}: ${what}; the registry keeps at most ${STORE_LIMITS.maxEntries} files and ${STORE_LIMITS.maxBytes / 1024 / 1024} MiB a skill`, {
      hint: 'a skill is instructions and small scripts: move data, builds and media out of the folder',
    });
  const visit = (dir: string, rel: string) => {
    let list;
    try {
      list = readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      throw new SkillsError('E_IO', `cannot read ${dir}: ${(err as Error).message}`, { cause: err });
    }
    for (const d of list) {
      const abs = join(dir, d.name);
      const r = rel === '' ? d.name : `${rel}/${d.name}`;
      if (d.isDirectory()) {
        if (!skipped(d.name, true)) visit(abs, r);
      } else if (d.isFile()) {
        if (skipped(d.name, false)) continue;
        const st = lstatSync(abs);
        bytes += st.size;
        if (bytes > STORE_LIMITS.maxBytes) throw tooBig(`its files add up to more than ${STORE_LIMITS.maxBytes / 1024 / 1024} MiB (at ${r})`);
        if (out.length >= STORE_LIMITS.maxEntries) throw tooBig(`it holds more than ${STORE_LIMITS.maxEntries} files`);
        out.push({ rel: r, abs, kind: 'file', mode: st.mode & 0o7777 });
      } else if (d.isSymbolicLink() && !skipped(d.name, false)) {
        let target: string;
        try {
          target = realpathSync.native(abs);
        } catch {
          continue; // dangling
        }
        if (!isInside(realRoot, target) || target === realRoot) continue;
        // Stored relative to the link's own folder, so the copy points into itself, not back at the source.
        const link = relative(dirname(join(realRoot, r)), target).split('\\').join('/');
        out.push({ rel: r, abs, kind: 'symlink', mode: 0o777, link });
      }
    }
  };
  visit(root, '');
  return out.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}

/** Feed one file into the hash: path, execute bit and content, each length-prefixed so boundaries are unambiguous. */
function hashFile(h: Hash, f: StoredFile, content: Buffer): void {
  const rel = Buffer.from(f.rel, 'utf8');
  const exec = f.kind === 'file' && (f.mode & 0o111) !== 0 ? 1 : 0;
  h.update(`${f.kind === 'file' ? 'f' : 'l'}${rel.length}:`);
  h.update(rel);
  h.update(`${exec}${content.length}:`);
  h.update(content);
}

function contentOf(f: StoredFile): Buffer {
  try {
    return f.kind === 'symlink' ? Buffer.from(f.link!, 'utf8') : readFileSync(f.abs);
  } catch (err) {
    throw new SkillsError('E_IO', `cannot read ${f.abs}: ${(err as Error).message}`, { cause: err });
  }
}

const sri = (h: Hash) => `sha512-${h.digest('base64')}`;

function digest(files: StoredFile[]): string {
  const h = createHash('sha512');
  for (const f of files) hashFile(h, f, contentOf(f));
  return sri(h);
}

/** sha512 SRI over the skill's files (sorted paths, execute bits, bytes); .env files and outside symlinks are ignored. */
export function integrityOf(skill: Skill): string {
  return folderIntegrity(skill.root);
}

/** integrityOf for any folder (a stored copy, an installed `<into>/<id>`), whether or not it loads as a skill. */
export function folderIntegrity(root: string): string {
  return digest(skillFiles(root));
}

/** Copy the files into `dest` (created), hashing what was copied; returns that integrity. */
function copyFiles(files: StoredFile[], dest: string): string {
  const h = createHash('sha512');
  mkdirSync(dest, { recursive: true });
  // Each folder made once, not once per file: a recursive mkdir costs a few system calls even when it exists.
  const made = new Set<string>([dest]);
  for (const f of files) {
    const content = contentOf(f);
    hashFile(h, f, content);
    const to = join(dest, f.rel);
    const parent = dirname(to);
    if (!made.has(parent)) {
      mkdirSync(parent, { recursive: true });
      made.add(parent);
    }
    if (f.kind === 'symlink') {
      symlinkSync(f.link!, to);
    } else {
      const fd = openSync(to, 'wx', 0o600);
      try {
        writeSync(fd, content);
      } finally {
        closeSync(fd);
      }
      chmodSync(to, f.mode);
    }
  }
  return sri(h);
}

/** Move a scratch folder to `dest`, keeping only `files` (what a copy would take: no .env, no links leading out). */
function adoptFiles(root: string, files: StoredFile[], dest: string, integrity: string): string {
  renameSync(root, dest);
  const keep = new Set(files.map((f) => f.rel));
  const prune = (dir: string, rel: string): boolean => {
    let kept = false;
    for (const d of readdirSync(dir, { withFileTypes: true })) {
      const r = rel === '' ? d.name : `${rel}/${d.name}`;
      const abs = join(dir, d.name);
      if (d.isDirectory() && !d.isSymbolicLink() && prune(abs, r)) kept = true;
      else if (keep.has(r)) kept = true;
      else rmSync(abs, { recursive: true, force: true });
    }
    return kept || rel === '';
  };
  prune(dest, '');
  // Stored links point relative to themselves (see skillFiles); an unpacked archive holds none (links are refused).
  return integrity;
}

/** What the store takes of one skill: what install takes of an archive. */
const STORE_LIMITS = DEFAULT_LIMITS;

const stamp = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The store folder of a release, relative to the registry (seed 001's layout). */
export function storePath(id: string, version: string, owner: string): string {
  return `${owner === 'built-in' ? 'built-in' : 'custom'}/${id}@${version}`;
}




/** The releases of a skill the index lists, for a decision taken before the lock (none when its file is missing). */
function peekReleases(dir: string, id: string): Record<string, Release> | undefined {
  const legacy = legacyReleases.get(resolve(dir))?.get(id);
  return legacy ?? readReleasesFile(dir, id, true);
}

/** Remove staging and trash folders left by writers that were killed; a live writer's are kept. */
function cleanLeftovers(dir: string): void {
  for (const part of ['built-in', 'custom']) cleanStale(join(dir, part), [STAGING_PREFIX, TRASH_PREFIX]);
}

/** Move a folder out of the way (rename, atomic) and then delete it, so no half-deleted copy stays at its path. */
function removeFolder(abs: string): void {
  if (!present(abs)) return;
  const trash = join(dirname(abs), tempName(TRASH_PREFIX, 'x'));
  renameSync(abs, trash);
  rmSync(trash, { recursive: true, force: true });
}

/**
 * The version a skill is kept under: 0.0.0 when it has none. The Agent Skills standard has no version field, so
 * most public skills have none; they are registered, packed and installed as 0.0.0, and a changed copy replaces
 * the registered one (there is no version to bump).
 */
export const UNVERSIONED = '0.0.0';

/** True when the skill declares no version (see UNVERSIONED). */
export function isUnversioned(skill: Skill): boolean {
  return skill.version === undefined || skill.version.trim() === '';
}

/** The skill's version as the registry keeps it: its own, else UNVERSIONED. */
export function registryVersion(skill: Skill): string {
  return isUnversioned(skill) ? UNVERSIONED : skill.version!;
}

/** The warning for a skill kept as UNVERSIONED. */
export function unversionedWarning(skill: Skill): string {
  const how = skill.layout === 'skill-md' ? 'metadata.version to its SKILL.md' : '"version" to its manifest.json';
  return `${skill.id} has no version; it is kept as ${UNVERSIONED}, and a changed copy replaces it (to version it, add ${how})`;
}

function versionOf(skill: Skill): string {
  const v = registryVersion(skill);
  if (!isStrictSemver(v)) {
    throw new SkillsError('E_INVALID', `${skill.id}: version "${v}" is not a semantic version: expected MAJOR.MINOR.PATCH, e.g. "1.0.0"`, {
      hint: `fix metadata.version (or version) in ${skill.file}`,
    });
  }
  return v;
}

function releaseOf(skill: Skill, integrity: string, path: string, now: string): Release {
  const r: Release = {
    integrity,
    layout: skill.layout,
    name: skill.name,
    description: skill.description,
    dependencies: skill.dependencies.map((d) => d.raw.trim()),
    path,
    registeredAt: now,
  };
  if (skill.triggers) r.triggers = skill.triggers;
  if (skill.briefDescription !== undefined) r.briefDescription = skill.briefDescription;
  if (skill.disableModelInvocation || !skill.defaultEnabled) r.hidden = true;
  if (skill.nodeVersion) r.nodeVersion = skill.nodeVersion;
  if (skill.systemPackages.length > 0) r.systemPackages = skill.systemPackages;
  return r;
}

/**
 * Register a loaded (valid) skill: copy it into the store through a staging folder renamed into place, and add
 * its version to the index. The same version with the same content is a no-op; with other content it is
 * refused (E_EXISTS) unless `force`.
 */
export async function registerSkill(dir: string, skill: Skill, opts: RegisterOptions = {}): Promise<RegisterResult> {
  const version = versionOf(skill);
  const id = skill.id;
  if (!/^[\p{L}\p{N}][\p{L}\p{N}-]*$/u.test(id)) {
    throw new SkillsError('E_INVALID', `"${id}" cannot be registered: an id holds only letters, digits and hyphens`, { hint: `run skills validate ${skill.root}` });
  }
  const owner = opts.owner ?? skill.owner ?? 'built-in';
  const now = stamp(opts.now ?? new Date());
  const path = storePath(id, version, owner);
  const files = skillFiles(skill.root);
  const integrity = opts.adopt && opts.integrity ? opts.integrity : digest(files);
  // The registered copy's folder, when the version is already there (its owner may differ from this one's).
  let existingPath: string | undefined;
  const result = (status: RegisterStatus): RegisterResult => ({ status, id, version, path: existingPath ?? path, integrity });

  // Decide what can be decided without the lock, so an unchanged skill costs no copy and no write.
  // Only a version the index lists counts: a releases file may hold one a crash left before index.json was written.
  const decide = (entry: IndexEntry | undefined, releases: Record<string, Release> | undefined): 'unchanged' | 'write' => {
    const release = entry?.versions.includes(version) && releases && Object.hasOwn(releases, version) ? releases[version] : undefined;
    if (!release) return 'write';
    existingPath = release.path;
    if (release.integrity === integrity) return present(join(dir, release.path)) ? 'unchanged' : 'write';
    if (!opts.force && !isUnversioned(skill)) {
      throw new SkillsError('E_EXISTS', `${id}@${version} is already registered with different content (${join(dir, release.path)})`, {
        hint: `bump the version (${id} ${version} → a higher one), or run again with --force to replace the registered copy`,
      });
    }
    return 'write';
  };
  const known = readIndex(dir).skills.find((s) => s.id === id);
  if (decide(known, known ? peekReleases(dir, id) : undefined) === 'unchanged') return result('unchanged');

  const parent = join(dir, dirname(path));
  ensureDir(parent);
  const staging = join(parent, tempName(STAGING_PREFIX, `${id}@${version}`));
  let status: RegisterStatus = 'added';
  try {
    const copied = opts.adopt ? adoptFiles(skill.root, files, staging, integrity) : copyFiles(files, staging);
    if (copied !== integrity) {
      throw new SkillsError('E_IO', `${skill.root} changed while it was being copied; nothing was registered`, { hint: 'run sync again once the skill is written' });
    }
    await updateIndex(dir, (index, update) => {
      cleanLeftovers(dir);
      existingPath = undefined;
      const entry = index.skills.find((s) => s.id === id);
      // Releases the index does not list are what a crash left before index.json was written: dropped here.
      const releases = update.releases(id);
      for (const v of Object.keys(releases)) if (!entry?.versions.includes(v)) delete releases[v];
      if (decide(entry, releases) === 'unchanged') {
        status = 'unchanged';
        return index;
      }
      const old = Object.hasOwn(releases, version) ? releases[version] : undefined;
      const target = join(dir, path);
      // A stored copy of another owner's folder, or one left by a killed run after its rename, goes first.
      if (old && old.path !== path) removeFolder(join(dir, old.path));
      removeFolder(target);
      renameSync(staging, target);
      const release = releaseOf(skill, integrity, path, now);
      if (!entry) {
        status = 'added';
        releases[version] = release;
        const fresh: IndexEntry = { id, versions: [version], latestVersion: version, owner, usedBy: [], registeredAt: now, updatedAt: now, latest: summaryOf(release) };
        index.skills.push(fresh);
      } else {
        status = old ? 'replaced' : 'updated';
        releases[version] = release;
        entry.versions = [...new Set([...entry.versions, version])].sort(rcompare);
        entry.latestVersion = entry.versions[0]!;
        if (entry.latestVersion === version) entry.owner = owner;
        entry.updatedAt = now;
      }
      existingPath = undefined;
      return index;
    });
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return result(status);
}

function notFound(index: RegistryIndex, id: string): SkillsError {
  const near = closest(id, index.skills.map((s) => s.id));
  return new SkillsError('E_NOT_FOUND', `no skill "${id}" in the registry${near ? `; did you mean "${near}"?` : ''}`, {
    hint: index.skills.length === 0 ? 'the registry is empty: register skills with skills sync <dir>' : 'see what is registered with skills list',
  });
}

/** Remove one version (or every version) of a skill from the store and the index; refused while it is used, unless force. */
export async function removeSkill(dir: string, id: string, version?: string, opts: { force?: boolean; now?: Date } = {}): Promise<RemoveResult> {
  const check = (index: RegistryIndex): IndexEntry => {
    const entry = index.skills.find((s) => s.id === id);
    if (!entry) throw notFound(index, id);
    if (version !== undefined && !entry.versions.includes(version)) {
      throw new SkillsError('E_NOT_FOUND', `${id}@${version} is not registered; registered versions: ${entry.versions.join(', ')}`, {
        hint: `e.g. skills remove ${id}@${entry.versions[0]}`,
      });
    }
    if (entry.usedBy.length > 0 && !opts.force) {
      throw new SkillsError('E_USAGE', `${id} is used by ${entry.usedBy.join(', ')}; nothing was removed`, {
        hint: `run skills unuse ${id} --by <consumer> for each, or remove it anyway with --force`,
      });
    }
    return entry;
  };
  check(readIndex(dir));
  let result: RemoveResult | undefined;
  await updateIndex(dir, (index, update) => {
    cleanLeftovers(dir);
    const entry = check(index);
    const removed = version === undefined ? [...entry.versions] : [version];
    const releases = update.releases(id);
    const paths = removed.map((v) => (Object.hasOwn(releases, v) ? releases[v]!.path : undefined)).filter((p): p is string => p !== undefined);
    for (const p of paths) removeFolder(join(dir, p));
    for (const v of removed) delete releases[v];
    entry.versions = entry.versions.filter((v) => !removed.includes(v));
    if (entry.versions.length === 0) index.skills = index.skills.filter((s) => s !== entry);
    else {
      entry.latestVersion = entry.versions[0]!;
      entry.updatedAt = stamp(opts.now ?? new Date());
    }
    result = { id, removed, remaining: [...entry.versions], paths };
    return index;
  });
  return result!;
}

async function changeUsage(dir: string, id: string, consumer: string, add: boolean): Promise<UsageResult> {
  const who = consumer.trim();
  if (who === '') throw new SkillsError('E_USAGE', '--by is empty: expected the id of the agent or project that uses the skill', { hint: `e.g. skills use ${id} --by content-creator` });
  const find = (index: RegistryIndex) => {
    const entry = index.skills.find((s) => s.id === id);
    if (!entry) throw notFound(index, id);
    return entry;
  };
  find(readIndex(dir));
  let result: UsageResult | undefined;
  await updateIndex(dir, (index) => {
    const entry = find(index);
    const had = entry.usedBy.includes(who);
    const set = new Set(entry.usedBy);
    if (add) set.add(who);
    else set.delete(who);
    entry.usedBy = [...set].sort();
    result = { id, usedBy: entry.usedBy, changed: had !== add };
    return index;
  });
  return result!;
}

/** Record that `consumer` uses the skill (usedBy stays sorted, without duplicates). */
export function useSkill(dir: string, id: string, consumer: string): Promise<UsageResult> {
  return changeUsage(dir, id, consumer, true);
}

/** Record that `consumer` no longer uses the skill. */
export function unuseSkill(dir: string, id: string, consumer: string): Promise<UsageResult> {
  return changeUsage(dir, id, consumer, false);
}

function listing(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * The skill folders a set of changed paths touches, below `root`: the skill holding each path, or the skills
 * below a folder that appeared. Paths inside `exclude` (the registry itself) are ignored.
 */
export async function changedSkillRoots(root: string, paths: string[], exclude?: string): Promise<string[]> {
  const out = new Set<string>();
  const { discoverSkills } = await import('../skill/discover.js');
  for (const p of paths) {
    if (exclude && isInside(exclude, p)) continue;
    let holder: string | undefined;
    for (let d = p; isInside(root, d); d = dirname(d)) {
      if (skillFileIn(listing(d))) {
        holder = d;
        break;
      }
      if (d === root) break;
    }
    if (holder) {
      out.add(holder);
      continue;
    }
    let isDir = false;
    try {
      isDir = statSync(p).isDirectory();
    } catch {
      /* gone */
    }
    if (!isDir) continue;
    try {
      for (const r of discoverSkills([p], { cwd: root }).roots) if (!exclude || !isInside(exclude, r)) out.add(r);
    } catch (err) {
      if (!isSkillsError(err)) throw err;
    }
  }
  return [...out];
}

export interface WatchOptions {
  signal: AbortSignal;
  /** Quiet time after the last change before onChange runs. */
  debounceMs?: number;
  /** Force per-folder watchers (what platforms without recursive fs.watch get). */
  recursive?: boolean;
}

/**
 * Watch a folder tree and call onChange with the absolute paths that changed, once each burst of changes has
 * been quiet for debounceMs; calls never overlap. Resolves when the signal aborts and the running call ends.
 */
export function watchTree(root: string, onChange: (paths: string[]) => Promise<void>, options: WatchOptions): Promise<void> {
  const debounce = options.debounceMs ?? 200;
  const watchers = new Map<string, FSWatcher>();
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let failure: unknown;

  return new Promise<void>((resolvePromise, reject) => {
    const finish = () => {
      clearTimeout(timer);
      for (const w of watchers.values()) w.close();
      watchers.clear();
      void (running ?? Promise.resolve()).then(() => (failure ? reject(failure) : resolvePromise()));
    };
    const flush = () => {
      timer = undefined;
      if (running || pending.size === 0 || options.signal.aborted) return;
      const batch = [...pending];
      pending = new Set();
      running = onChange(batch)
        .catch((err) => {
          failure = err;
          if (!options.signal.aborted) finish();
        })
        .finally(() => {
          running = undefined;
          if (pending.size > 0 && !options.signal.aborted) schedule();
        });
    };
    const schedule = () => {
      clearTimeout(timer);
      timer = setTimeout(flush, debounce);
    };
    const changed = (abs: string) => {
      pending.add(abs);
      schedule();
    };
    const watchOne = (dir: string) => {
      if (watchers.has(dir)) return;
      let w: FSWatcher;
      try {
        w = watch(dir, (_event, name) => {
          const abs = name ? join(dir, name.toString()) : dir;
          // A folder that appears gets its own watcher (and everything below it).
          if (name) {
            try {
              if (lstatSync(abs).isDirectory()) watchBelow(abs);
            } catch {
              /* gone again */
            }
          }
          changed(abs);
        });
      } catch {
        return;
      }
      w.on('error', () => {
        w.close();
        watchers.delete(dir);
      });
      watchers.set(dir, w);
    };
    const watchBelow = (dir: string) => {
      watchOne(dir);
      for (const d of (() => {
        try {
          return readdirSync(dir, { withFileTypes: true });
        } catch {
          return [];
        }
      })()) {
        if (d.isDirectory() && !SKIP_DIRS.has(d.name)) watchBelow(join(dir, d.name));
      }
    };
    let recursive = options.recursive !== false;
    if (recursive) {
      try {
        const w = watch(root, { recursive: true }, (_event, name) => changed(name ? join(root, name.toString()) : root));
        w.on('error', (err) => {
          failure = err;
          finish();
        });
        watchers.set(root, w);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM') {
          reject(new SkillsError('E_IO', `cannot watch ${root}: ${(err as Error).message}`, { cause: err }));
          return;
        }
        recursive = false;
      }
    }
    if (!recursive) watchBelow(root);
    if (options.signal.aborted) finish();
    else options.signal.addEventListener('abort', finish, { once: true });
  });
}
