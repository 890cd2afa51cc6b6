// What an archive's entries may be, checked one by one while it streams: the names (no absolute path, no `..`,
// nothing outside the target), the limits (entries, bytes), and what an extraction keeps of each file it writes.
import { mkdirSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { SkillsError, isSkillsError } from '../errors.js';
import { isInside, isMacFile } from './walk.js';
import { errnoIn, explainErrno } from './errno.js';

export interface ArchiveLimits {
  /** Most bytes the files of an archive may add up to, unpacked. */
  maxBytes: number;
  /** Most entries (files and folders) an archive may hold. */
  maxEntries: number;
}

/** 256 MiB and 20,000 entries: far above any real skill (walkSkill stops at 20,000 entries too). */
export const DEFAULT_LIMITS: ArchiveLimits = { maxBytes: 256 * 1024 * 1024, maxEntries: 20_000 };

/** A file an extraction wrote. */
export interface ExtractedFile {
  /** Its path below the target folder, forward slashes. */
  rel: string;
  /** Its permission bits as written (the umask applied). */
  mode: number;
  /** Its length in bytes. */
  size: number;
  /** Its bytes, kept while the extraction's `keepBytes` allows: what is on disk, without reading it again. */
  content?: Buffer;
}

export interface ExtractOptions {
  /** List the files written (ExtractResult.written), keeping up to `keepBytes` of their content in memory. */
  record?: boolean;
  /** Most bytes of content `record` keeps in memory (64 MiB); the rest is on disk only. */
  keepBytes?: number;
  /** Write files without write permission (what the registry's store seals them to): a folder bound for the store. */
  readOnly?: boolean;
  /**
   * A digest of files as they are written, by the thread that writes them. `header` is told of each file about to
   * be written, once its entry passed every check, in archive order (its path below the target, forward slashes;
   * its mode as written, ExtractedFile's; its size) and gives the text to hash before its bytes, or undefined to
   * leave the file out. ExtractResult.digest is the base64 digest (`algorithm`) of each header and its file's bytes;
   * undefined when a file's bytes were not its size.
   */
  digest?: { algorithm: string; header: (rel: string, mode: number, size: number) => string | undefined };
  /** The size of a tar archive (in bytes of the file) from which its files are written on a thread of their own. */
  threadFrom?: number;
  /** Read a tar with node-tar's Parser, not the plain reader (which leaves it any archive it does not read alike). */
  nodeTar?: boolean;
  /**
   * Leave out, rather than refuse, a symbolic or hard link entry (its name, as the archive spells it, is told here):
   * nothing is written for it, so it leads nowhere, as npm's pacote drops links when it unpacks a package.
   */
  onLink?: (name: string) => void;
}

/**
 * Bytes of files a run may hold in memory so as not to read them again (to hash or copy them), for each budget an
 * install keeps (an archive's, a tree's, stored copies'): 64 MiB, so a skill far bigger than any real one still is.
 */
export const KEEP_BYTES = 64 * 1024 * 1024;

/** What an extraction does with each file written: its mode, and the record of it when one is kept. */
export class Recorder {
  readonly written: ExtractedFile[] = [];
  private kept = 0;
  constructor(
    private readonly options: ExtractOptions,
    /** The permission bits a file of mode 777 gets in the target (the umask, as the target folder was made). */
    private readonly allowed: number,
  ) {}

  /** The mode to create a file with, from the mode the archive gives it. */
  mode(archived: number | undefined): number {
    return packedMode(archived) & (this.options.readOnly ? 0o555 : 0o777);
  }

  /** Record a file written with `mode`; `chunks` are its bytes, undefined when they could not all be kept. */
  add(rel: string, mode: number, size: number, chunks: Buffer[] | undefined): void {
    if (!this.options.record) return;
    const f: ExtractedFile = { rel, mode: mode & this.allowed, size };
    const got = chunks?.reduce((n, c) => n + c.length, 0) ?? 0;
    if (chunks && this.kept + got <= (this.options.keepBytes ?? KEEP_BYTES)) {
      this.kept += got;
      // One chunk is kept as it is: a view into the decompressor's output, which nothing writes to again.
      f.content = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, got);
    }
    this.written.push(f);
  }

  /** digest.header of a file to be written with `mode` (the mode asked for; the record's is what the umask leaves). */
  header(rel: string, mode: number, size: number): string | undefined {
    return this.options.digest?.header(rel, mode & this.allowed, size);
  }

  /** True when a file of `size` bytes may still be kept whole (so its chunks are worth collecting). */
  keeps(size: number): boolean {
    return this.options.record === true && this.kept + size <= (this.options.keepBytes ?? KEEP_BYTES);
  }
}

export const mib = (n: number) => (n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MiB` : `${n} bytes`);

/** Why an entry name is refused, or undefined when it may be written below the target. */
export function entryNameProblem(name: string, dest: string): string | undefined {
  const top = resolve(dest);
  const placed = placeEntry(name, top, top.endsWith(sep) ? top : `${top}${sep}`);
  return typeof placed === 'string' ? undefined : placed.problem;
}

/**
 * entryNameProblem below a target already resolved (`top`, and `below`: it with a separator): the path to write
 * the entry at, or why it is refused.
 */
function placeEntry(name: string, top: string, below: string): string | { problem: string } {
  if (name === '') return { problem: 'has an empty name' };
  if (name.includes('\0')) return { problem: 'has a NUL byte in its name' };
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return { problem: 'is an absolute path' };
  if (name.includes('\\')) return { problem: 'has a backslash in its name (archives use "/")' };
  const parts = name.split('/');
  if (parts.includes('..')) return { problem: 'contains ".."' };
  // Plain segments (none empty but a trailing slash's, none "."): below the target as written, which is what
  // resolve gives, without its normalizing pass over every character.
  if (sep === '/' && parts.every((p, i) => p !== '.' && (p !== '' || i === parts.length - 1)))
    return below + (name.endsWith('/') ? name.slice(0, -1) : name);
  const abs = resolve(top, name);
  if (!insideResolved(top, below, abs)) return { problem: 'would land outside the target folder' };
  return abs;
}

/**
 * isInside for two paths made by resolve (absolute, normalized), without its two resolves: what path.relative
 * finds for a path below the target is the rest of it, tested as isInside tests it. Else isInside decides.
 */
function insideResolved(top: string, below: string, abs: string): boolean {
  if (sep !== '/' || !abs.startsWith(below)) return isInside(top, abs);
  const rel = abs.slice(below.length);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel));
}

/** macOS litter: Finder's `__MACOSX/` tree, AppleDouble `._<name>` files and `.DS_Store`. Never part of a skill. */
export function isLitter(name: string): boolean {
  // Most names hold none of the three: told without splitting them.
  if (!name.includes('__MACOSX') && !name.includes('.DS_Store') && !name.includes('._')) return false;
  const parts = name
    .replace(/^(\.\/)+/, '')
    .replace(/\/+$/, '')
    .split('/');
  const base = parts.at(-1) ?? '';
  return parts.includes('__MACOSX') || isMacFile(base);
}

export function refusal(
  archive: string,
  entry: string,
  problem: string,
  expected = 'regular files and folders inside one skill folder, e.g. "my-skill/SKILL.md"',
): SkillsError {
  return new SkillsError(
    'E_INVALID',
    `${archive}: refused: entry "${entry}" ${problem}; expected ${expected}. Nothing was installed`,
    {
      hint: 'this archive was not made by skills pack, or was changed since: get the skill from a source you trust',
    },
  );
}

export function tooBig(archive: string, what: string, limits: ArchiveLimits, entry?: string): SkillsError {
  return new SkillsError(
    'E_INVALID',
    `${archive}: refused: ${what}${entry ? ` (stopped at entry "${entry}")` : ''}; the limits are ${mib(limits.maxBytes)} unpacked and ${limits.maxEntries} entries. Nothing was installed`,
    {
      hint: 'a skill is instructions and small scripts: an archive this big is a mistake or a decompression bomb',
    },
  );
}

/**
 * A failure of the file system while writing an entry (a full disk, a name too long for it, a file over the size
 * limit): told as such, with the entry, not as an unreadable archive.
 */
function writeFailure(archive: string, entry: string | undefined, dest: string, err: NodeJS.ErrnoException) {
  const { reason, hint } = explainErrno(err, dest);
  const what = entry === undefined ? `cannot extract it into ${dest}` : `cannot write entry "${entry}" into ${dest}`;
  return new SkillsError('E_IO', `${archive}: ${what}: ${reason}. Nothing was installed`, { cause: err, hint });
}

/** An error met at an entry: an errno error becomes a writeFailure naming it; anything else passes. */
export function atEntry(archive: string, entry: string, dest: string, err: unknown): unknown {
  const errno = isSkillsError(err) ? undefined : errnoIn(err);
  return errno ? writeFailure(archive, entry, dest, errno) : err;
}

export function corrupt(archive: string, dest: string, err: unknown): SkillsError {
  if (isSkillsError(err)) return err;
  const errno = errnoIn(err);
  // A stream's own errors (zlib, the tar framing) have codes too (Z_DATA_ERROR, TAR_BAD_ARCHIVE), but no errno.
  if (errno && typeof errno.syscall === 'string') return writeFailure(archive, undefined, dest, errno);
  return new SkillsError(
    'E_INVALID',
    `${archive}: not a readable archive: ${(err as Error).message}. Nothing was installed`,
    {
      cause: err,
      hint: 'expected a .tgz made by skills pack, or a .skill / .zip archive',
    },
  );
}

/**
 * The mode every copy of a file gets, whatever way it came in (a folder, an archive, a registry copy, a git
 * checkout), and the mode pack writes: 644, or 755 when it has any execute bit; never setuid, setgid or sticky.
 */
export const packedMode = (mode: number | undefined): 0o644 | 0o755 => ((mode ?? 0) & 0o111 ? 0o755 : 0o644);

/** Tracks entries and bytes against the limits; one instance per archive. */
export class Budget {
  entries = 0;
  bytes = 0;
  private readonly seen = new Set<string>();
  /** Folders the archive holds, named or implied by a path below them. */
  private readonly dirs = new Set<string>();
  /** Folders this extraction has made: each mkdir once, not once per file (a thousand files, a few folders). */
  private readonly made = new Set<string>();
  /** The target, resolved; and that with a separator: what every admitted path starts with. */
  private readonly top: string;
  private readonly below: string;
  constructor(
    private readonly archive: string,
    readonly dest: string,
    private readonly limits: ArchiveLimits,
  ) {
    this.top = resolve(dest);
    this.below = this.top.endsWith(sep) ? this.top : `${this.top}${sep}`;
  }

  /** Make a folder below the destination (and those above it), once. */
  folder(dir: string): void {
    if (this.made.has(dir)) return;
    mkdirSync(dir, { recursive: true });
    this.made.add(dir);
  }

  /** The folders made below the target, as paths below it (the parents of each made with it are implied). */
  foldersMade(): string[] {
    const out: string[] = [];
    for (const d of this.made) if (d !== this.dest && d !== this.top) out.push(this.rel(d));
    return out;
  }

  /** Check one entry; returns the absolute path to write. `size` is what the archive declares. */
  admit(name: string, kind: 'file' | 'dir', size: number): string {
    const clean = name.startsWith('./') ? name.replace(/^(\.\/)+/, '') : name;
    // `tar czf x.tgz -C skill .` stores the folder itself as "./": that is the target, already made.
    if (kind === 'dir' && (clean === '' || clean === '.')) return this.dest;
    const abs = placeEntry(clean, this.top, this.below);
    if (typeof abs !== 'string') throw refusal(this.archive, name, abs.problem);
    const key = abs.endsWith('/') ? abs.replace(/\/+$/, '') : abs;
    if (++this.entries > this.limits.maxEntries)
      throw tooBig(this.archive, `it holds more than ${this.limits.maxEntries} entries`, this.limits, name);
    this.bytes += size;
    if (this.bytes > this.limits.maxBytes)
      throw tooBig(this.archive, `its files add up to more than ${mib(this.limits.maxBytes)}`, this.limits, name);
    if (kind === 'file') {
      if (this.seen.has(key)) throw refusal(this.archive, name, 'appears twice', 'each path once');
      if (this.dirs.has(key)) throw this.both(name, key);
      this.seen.add(key);
    } else {
      if (this.seen.has(key)) throw this.both(name, key);
      this.dirs.add(key);
    }
    // Every folder above the entry: none may be a file of the archive. The entry is inside the target, so each
    // folder above it is too until the target itself: the one longer than it.
    for (let up = dirname(key); up.length > this.top.length; up = dirname(up)) {
      if (this.seen.has(up)) throw this.both(name, up);
      if (this.dirs.has(up)) break;
      this.dirs.add(up);
    }
    return abs;
  }

  /** An admitted path as a path below the target, forward slashes. */
  rel(abs: string): string {
    const rel = abs.startsWith(this.below) ? abs.slice(this.below.length) : relative(this.top, abs);
    return sep === '/' ? rel : rel.split(sep).join('/');
  }

  private both(name: string, path: string): SkillsError {
    const rel = relative(this.dest, path).split('\\').join('/');
    return refusal(
      this.archive,
      name,
      `makes "${rel}" both a file and a folder`,
      'each path either a file or a folder, once',
    );
  }
}
