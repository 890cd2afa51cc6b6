// What the registry keeps of a skill folder, and its integrity: the files (no .env, no links leading out) hashed
// in a fixed order into one sha512 SRI.
import { createHash, type Hash } from 'node:crypto';
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { SkillsError } from '../errors.js';
import { onceEach } from '../model/memo.js';
import type { Skill, SkillEntry } from '../model/skill.js';
import { packedMode } from '../fs/archive-entries.js';
import type { HeldFile } from '../fs/read-held.js';
import { STORE_LIMITS, hashFrom, tooBig, tooManyBytes } from './file-bytes.js';
import { notUtf8Failure } from '../fs/byte-names.js';
import { isInside, isLeftover, isMacFile, isNeverKept, isSecretFile, walkedWhole } from '../fs/walk.js';

/** One file the registry hashes and copies; a symlink that stays inside the skill is the file it leads to. */
export interface StoredFile {
  /** Path relative to the skill root, forward slashes. */
  rel: string;
  abs: string;
  kind: 'file' | 'symlink';
  /** Permission bits (files): 644, or 755 with any execute bit (packedMode), as pack writes them. */
  mode: number;
  /** Link text to store, relative to the link's folder (symlinks). */
  link?: string;
  /**
   * A file reached through a symlink inside the skill (the link itself, or a file below a linked folder): that
   * link's path and text, for the integrity skills before 0.13 gave it (legacyDigest), which hashed the link.
   */
  via?: { rel: string; link: string };
  /** Its bytes, when the caller already holds them (what it just wrote to `abs`): not read again. */
  content?: Buffer;
  /** Its size, once a stat saw it: the walk's, or the open file's when an unstatted one is read (files). */
  size?: number;
  /**
   * A file a walk listed without a stat: its `mode` (0 until then) and size are learnt when its content is read
   * (contentOf), from the open file itself, which must still be a regular file and not a link.
   */
  unstatted?: true;
  /**
   * An unstatted file's bytes, mode and size as the skill's load read them (LoadOptions.held): taken for its read,
   * within the same bound, instead of opening it again.
   */
  held?: HeldFile;
}

/** A file whose path, mode and size are known without a walk (what an extraction wrote), and maybe its bytes. */
export interface KnownFile {
  /** Path relative to the skill root, forward slashes. */
  rel: string;
  mode: number;
  size: number;
  content?: Buffer;
}

/** Set while withMacFiles hashes a folder as an older skills did: macOS's ._ files counted. */
let macFilesCounted = false;

/** Names that are never copied or hashed: VCS and OS litter, and secrets (.env, .env.local; not .env.example). */
export function skipped(name: string, isDir: boolean): boolean {
  if (isNeverKept(name, isDir)) return true;
  if (isDir) return false;
  if (isLeftover(name) || (isMacFile(name) && !(macFilesCounted && name !== '.DS_Store'))) return true;
  return isSecretFile(name);
}

/**
 * The integrity skills gave a folder that holds AppleDouble `._` files before it left them out (as it always left
 * out .DS_Store): a lock or a registry written then still holds the same content. Undefined when it holds none.
 */
function withMacFiles(root: string): string | undefined {
  macFilesCounted = true;
  let files: StoredFile[];
  try {
    files = skillFiles(root);
  } finally {
    macFilesCounted = false;
  }
  return files.some((f) => isMacFile(basename(f.rel))) ? digest(files) : undefined;
}

export { isSecretFile };
export { HASH_CHUNK, contentOf, fileHeader, hashFile } from './file-bytes.js';

const byRel = (a: StoredFile, b: StoredFile) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0);

/**
 * True when the place a link inside a skill leads to (`rel`, from the skill's real root) is left out of copies:
 * a secret's or a never-kept name, or a never-kept folder on the way.
 */
export function leftOutThere(rel: string, isDir: boolean): boolean {
  const slash = rel.lastIndexOf('/');
  if (skipped(rel.slice(slash + 1), isDir)) return true;
  return slash > 0 && skippedFolderIn(rel.slice(0, slash));
}

/** True when a folder path ("a/b/c") has a folder that is never kept in it. */
function skippedFolderIn(dirs: string): boolean {
  return dirs.split('/').some((d) => isNeverKept(d, true));
}

/**
 * Which files below a skill's root the registry keeps, told by path alone (a folder holding only files and folders):
 * skipped's rule for the name and for each folder above. Files come folder by folder, so the verdict on the folder of
 * the last one asked about is kept for the next.
 */
export class KeptFiles {
  private lastDir = '';
  private lastSkipped = false;

  /** True when the file at `rel` (below the skill's root, forward slashes) is kept. */
  keeps(rel: string): boolean {
    const slash = rel.lastIndexOf('/');
    if (skipped(rel.slice(slash + 1), false)) return false;
    if (slash <= 0) return true;
    if (slash !== this.lastDir.length || !rel.startsWith(this.lastDir)) {
      this.lastDir = rel.slice(0, slash);
      this.lastSkipped = skippedFolderIn(this.lastDir);
    }
    return !this.lastSkipped;
  }
}

/**
 * The files of a skill the registry keeps, sorted by path, as pack would write them: a symlink that stays inside the
 * skill is the file it leads to, or a folder's files below the link's path (a link to a folder that holds it, a
 * cycle, is left out); one that leads out or nowhere is left out; modes are 644 or 755 (packedMode). So a folder, its
 * archive and a registry copy of it give the same files, and the same integrity.
 * Bounded as install bounds archives (256 MiB, 20,000 entries): the files are read whole to hash and copy them.
 * `walked`: the skill's entries (Skill.entries) when the folder is as its load found it: a walk that listed every
 * folder (walkedWhole) is taken instead of listing them again; with it, `held`: the bytes its load read
 * (LoadOptions.held), which are not read again.
 */
export function skillFiles(root: string, walked?: SkillEntry[], held?: Map<string, HeldFile>): StoredFile[] {
  const out: StoredFile[] = [];
  // The real root is needed only for a symlink: most skills have none.
  let realRoot: string | undefined;
  let bytes = 0;
  const file = (abs: string, r: string, via?: StoredFile['via']) => {
    const st = via ? statSync(abs) : lstatSync(abs);
    bytes += st.size;
    if (bytes > STORE_LIMITS.maxBytes) throw tooManyBytes(root, r);
    if (out.length >= STORE_LIMITS.maxEntries)
      throw tooBig(root, `it holds more than ${STORE_LIMITS.maxEntries} files`);
    const f: StoredFile = { rel: r, abs, kind: 'file', mode: packedMode(st.mode), size: st.size };
    if (via) f.via = via;
    out.push(f);
  };
  // `target`: the link's real path, when the caller resolved it already; null when it is dangling. Read through
  // its real path, checked inside the skill here: a link changed after this check is not followed out of it.
  function link(abs: string, r: string, target?: string | null, via?: StoredFile['via'], up: string[] = []): void {
    realRoot ??= realpathSync.native(root);
    if (target === undefined) {
      try {
        target = realpathSync.native(abs);
      } catch {
        return; // dangling
      }
    }
    if (target === null || !isInside(realRoot, target) || target === realRoot) return;
    let st;
    try {
      st = statSync(target);
    } catch {
      return;
    }
    // What the link leads to is copied as that is: a link to .env (or into .git) is left out as .env is.
    if (leftOutThere(relative(realRoot, target).split(sep).join('/'), st.isDirectory())) return;
    // The link's text as it was stored, relative to its own folder: what legacyDigests hashes.
    via ??= {
      rel: r,
      link: relative(dirname(join(realRoot, r)), target)
        .split('\\')
        .join('/'),
    };
    if (st.isFile()) file(target, r, via);
    else if (st.isDirectory()) {
      // A folder that holds the link (its real path is above it) is a cycle, as is one the walk is already in.
      const at = realpathSync.native(dirname(abs));
      if (isInside(target, at) || up.includes(target)) return;
      visit(target, r, via, [...up, target]);
    }
  }
  if (walked && walkedWhole(walked)) {
    // The walk left out what skipped() leaves out of folders; files are told by their name and their folders'. A
    // file is not stat'ed here: its mode and size come with its bytes (contentOf), bounded as they are read.
    const kept = new KeptFiles();
    const below = sep === '/' ? `${root}/` : undefined;
    for (const e of walked) {
      if (e.kind !== 'file' && e.kind !== 'symlink') continue;
      if (!kept.keeps(e.path)) continue;
      const abs = below ? below + e.path : join(root, e.path);
      if (e.kind === 'symlink') link(abs, e.path, e.target ?? null);
      else if (out.length >= STORE_LIMITS.maxEntries)
        throw tooBig(root, `it holds more than ${STORE_LIMITS.maxEntries} files`);
      else {
        const f: StoredFile = { rel: e.path, abs, kind: 'file', mode: 0, unstatted: true };
        const h = held?.get(e.path);
        if (h) f.held = h;
        out.push(f);
      }
    }
    return out.sort(byRel);
  }
  // A folder's files below `rel`: the skill's own, or (`via`) a linked folder's, whose real path `dir` is; `up`, the
  // real folders a linked walk is in (a link to one of them is a cycle).
  function visit(dir: string, rel: string, via?: StoredFile['via'], up: string[] = []): void {
    let list;
    try {
      list = readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      throw (
        notUtf8Failure(dir, 'nothing was written', err) ??
        new SkillsError('E_IO', `cannot read ${dir}: ${(err as Error).message}`, { cause: err })
      );
    }
    for (const d of list) {
      const abs = join(dir, d.name);
      const r = rel === '' ? d.name : `${rel}/${d.name}`;
      if (d.isDirectory()) {
        if (!skipped(d.name, true)) visit(abs, r, via, via ? [...up, abs] : up);
      } else if (d.isFile()) {
        if (!skipped(d.name, false)) file(abs, r, via);
      } else if (d.isSymbolicLink() && !skipped(d.name, false)) link(abs, r, undefined, via, up);
    }
  }
  visit(root, '');
  return out.sort(byRel);
}

/**
 * skillFiles of a folder that holds only regular files and folders, all known without a walk (an archive this run
 * unpacked): the same files, in the same order and within the same bounds, with their bytes where known. `known`
 * may hold more than the skill: only those below `inner/` (all when '') count, and `root` is where that folder is now.
 */
export function knownSkillFiles(root: string, known: KnownFile[], inner = ''): StoredFile[] {
  const prefix = inner === '' ? '' : `${inner}/`;
  const out: StoredFile[] = [];
  let bytes = 0;
  // Paths below a resolved root, normalized: joined by hand where the separator is "/" (join costs a normalize).
  const below = sep === '/' ? `${root}/` : undefined;
  const kept = new KeptFiles();
  for (const k of known) {
    if (!k.rel.startsWith(prefix)) continue;
    const rel = k.rel.slice(prefix.length);
    if (!kept.keeps(rel)) continue;
    bytes += k.size;
    if (bytes > STORE_LIMITS.maxBytes) throw tooManyBytes(root, rel);
    if (out.length >= STORE_LIMITS.maxEntries)
      throw tooBig(root, `it holds more than ${STORE_LIMITS.maxEntries} files`);
    const f: StoredFile = { rel, abs: below ? below + rel : join(root, rel), kind: 'file', mode: packedMode(k.mode) };
    if (k.content) f.content = k.content;
    out.push(f);
  }
  return sortedByRel(out);
}

/** The files sorted by path; an archive's usually are already (skills pack writes them so), which one pass tells. */
function sortedByRel(files: StoredFile[]): StoredFile[] {
  for (let i = 1; i < files.length; i++) if (byRel(files[i - 1]!, files[i]!) > 0) return files.sort(byRel);
  return files;
}

/** The same files at another folder (a copy moved or made there): read from there when their bytes are not held. */
export function filesAt(root: string, files: StoredFile[]): StoredFile[] {
  return files.map((f) => ({ ...f, abs: join(root, f.rel) }));
}

/** The hash the integrity is made with, and the SRI prefix naming it. */
export const ALGORITHM = 'sha512';

/** The SRI text of a finished hash. */
export const sri = (h: Hash) => `${ALGORITHM}-${h.digest('base64')}`;

/** The integrity of a list of files (see skillFiles). */
export function digest(files: StoredFile[]): string {
  const h = createHash(ALGORITHM);
  const bound = { bytes: 0 };
  for (const f of files) hashFrom(h, f, bound);
  return sri(h);
}

/**
 * The integrities skills gave these files before it took a symlink inside a skill for the file it leads to: a folder's
 * copy hashed each such link as its text, in place of what it leads to; a git tree left links out. None when no file
 * came through a link (then all agree). A lock or a registry written then is still taken to hold the same content.
 */
export function legacyDigests(files: StoredFile[]): string[] {
  if (!files.some((f) => f.via)) return [];
  const asLinks: StoredFile[] = [];
  const links = new Set<string>();
  for (const f of files) {
    if (!f.via) asLinks.push(f);
    else if (!links.has(f.via.rel)) {
      links.add(f.via.rel);
      asLinks.push({ rel: f.via.rel, abs: f.abs, kind: 'symlink', mode: 0o777, link: f.via.link });
    }
  }
  return [digest(asLinks.sort(byRel)), digest(files.filter((f) => !f.via))];
}

/** legacyDigests of a folder's files. */
export function legacyIntegrities(root: string): string[] {
  const mac = withMacFiles(root);
  return [...legacyDigests(skillFiles(root)), ...(mac === undefined ? [] : [mac])];
}

/** True when a folder holds what `integrity` records: its integrity now, or one a link inside it once gave. */
export function folderHolds(root: string, integrity: string): boolean {
  const files = skillFiles(root);
  return digest(files) === integrity || legacyDigests(files).includes(integrity) || withMacFiles(root) === integrity;
}

/** What a run may still hold in memory of the files it hashed, so that it need not read them again to copy them. */
export interface KeepBudget {
  bytes: number;
}

/**
 * digest(files), each file's bytes kept in it (`content`) while `keep` lasts: the copies made next (into the store,
 * into agent folders) take them from memory instead of reading the files again, and copy exactly what was hashed.
 */
export function digestKeeping(files: StoredFile[], keep: KeepBudget): string {
  const h = createHash(ALGORITHM);
  const bound = { bytes: 0 };
  for (const f of files) {
    // One larger than what may be kept is hashed a chunk at a time: the copy reads it again.
    const content = hashFrom(h, f, bound, keep.bytes);
    if (content && f.kind === 'file' && f.content === undefined && content.length <= keep.bytes) {
      f.content = content;
      keep.bytes -= content.length;
    }
  }
  return sri(h);
}

/**
 * sha512 SRI over the skill's files (sorted paths, execute bits, bytes); .env files and outside symlinks are ignored.
 */
export function integrityOf(skill: Skill): string {
  return folderIntegrity(skill.root);
}

/** integrityOf for any folder (a stored copy, an installed `<into>/<id>`), whether or not it loads as a skill. */
export function folderIntegrity(root: string): string {
  return digest(skillFiles(root));
}

/**
 * A test of whether two skill folders hold the same files (one skill installed into two agents' folders): a copy that
 * shadows its twin hides nothing, so nobody is warned about it. False when either cannot be read. Made once for many
 * pairs (a catalog's shadowed skills): each folder's file list and digest are read once however many pairs name it,
 * and two folders whose lists differ (other paths, execute bits or link texts) are told apart without reading a file.
 */
export function contentComparer(): (a: string, b: string) => boolean {
  const listOf = remembered(skillFiles);
  // Asked only of a folder whose list was read.
  const digestOf = remembered((root) => digest(listOf(root)!));
  return (a, b) => {
    const fa = listOf(a);
    const fb = listOf(b);
    if (!fa || !fb || !sameList(fa, fb)) return false;
    const da = digestOf(a);
    return da !== null && da === digestOf(b);
  };
}

/** `read` of each folder once, remembered; null where it threw (the folder cannot be read). */
function remembered<T>(read: (root: string) => T): (root: string) => T | null {
  const seen = new Map<string, T | null>();
  return (root) => onceEach(seen, root, read);
}

/**
 * False when two sorted file lists tell the folders apart by what a digest hashes besides the bytes: paths, kinds,
 * execute bits, link texts, and sizes where a walk saw them.
 */
function sameList(a: StoredFile[], b: StoredFile[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.rel !== y.rel || x.kind !== y.kind || x.link !== y.link) return false;
    if (x.kind === 'file' && ((x.mode & 0o111) !== 0) !== ((y.mode & 0o111) !== 0)) return false;
    if (x.size !== undefined && y.size !== undefined && x.size !== y.size) return false;
  }
  return true;
}
