// Reading archives someone else made: a .tgz (or plain .tar), a .skill or a .zip. Nothing in an archive is
// trusted: every entry is checked before a byte of it is written (no absolute path, no `..`, no link, no
// device, nothing that lands outside the target), and the total size and the entry count are bounded while the
// archive streams, so a decompression bomb stops early. Extraction goes to a folder the caller names (a
// staging folder it renames into place later); on any failure that folder is removed. macOS litter (Finder's
// __MACOSX/, AppleDouble `._*` files, .DS_Store) is checked like any entry but not written.
import {
  closeSync,
  createReadStream,
  createWriteStream,
  mkdirSync,
  openSync,
  readSync,
  readdirSync,
  rmSync,
  lstatSync,
  statSync,
} from 'node:fs';
import { pipeline } from 'node:stream';
import { dirname, join } from 'node:path';
import { SkillsError } from '../errors.js';
import { isNeverKept } from './walk.js';
import { isErrno } from './errno.js';
import {
  Digester,
  prepareWriterThread,
  SyncWriter,
  ThreadFailure,
  ThreadWriter,
  type FileWriter,
  type WriteFailure,
} from './archive-writer.js';
import { PlainTarReader, TAR_TYPES, UnusualTar, nodeTarParser } from './archive-tar.js';
import {
  Budget,
  DEFAULT_LIMITS,
  Recorder,
  atEntry,
  corrupt,
  isLitter,
  mib,
  refusal,
  tooBig,
  type ArchiveLimits,
  type ExtractOptions,
  type ExtractedFile,
} from './archive-entries.js';

export {
  DEFAULT_LIMITS,
  entryNameProblem,
  isLitter,
  type ArchiveLimits,
  type ExtractOptions,
  type ExtractedFile,
} from './archive-entries.js';

export type ArchiveKind = 'tgz' | 'tar' | 'zip';

export interface ExtractResult {
  kind: ArchiveKind;
  files: number;
  bytes: number;
  /** With `record`: every file written, in archive order. */
  written?: ExtractedFile[];
  /** With `record`: the folders made below the target (their paths below it, forward slashes), parents implied. */
  folders?: string[];
  /** With ExtractOptions.digest: its digest (base64), when every file hashed had as many bytes as it declared. */
  digest?: string;
}

/** What an archive is, from its first bytes (not its name); undefined when it is none we read. */
export function archiveKind(file: string): ArchiveKind | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (err) {
    throw new SkillsError(
      'E_NOT_FOUND',
      `${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`,
      { cause: err },
    );
  }
  const head = Buffer.alloc(512);
  let n: number;
  try {
    n = readSync(fd, head, 0, 512, 0);
  } finally {
    closeSync(fd);
  }
  if (n >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'tgz';
  if (n >= 4 && head.readUInt32LE(0) === 0x04034b50) return 'zip';
  // An empty zip is only its end record.
  if (n >= 4 && head.readUInt32LE(0) === 0x06054b50) return 'zip';
  if (n >= 262 && head.toString('latin1', 257, 262) === 'ustar') return 'tar';
  return undefined;
}

/**
 * Extract an archive into `dest`, which must not exist yet (it is created). Every entry is checked first;
 * a refusal, a bomb or a corrupt archive removes `dest` and throws E_INVALID naming the archive and the entry.
 */
export async function extractArchive(
  file: string,
  dest: string,
  limits: ArchiveLimits = DEFAULT_LIMITS,
  options: ExtractOptions = {},
): Promise<ExtractResult> {
  const kind = archiveKind(file);
  if (!kind) {
    throw new SkillsError(
      'E_INVALID',
      `${file}: not an archive skills can read; expected a gzip tar (.tgz, made by skills pack), a .skill or a .zip`,
      {
        hint: 'make one with skills pack <dir>, or give the skill folder itself',
      },
    );
  }
  let recorder: Recorder;
  try {
    mkdirSync(dest, 0o777);
    recorder = new Recorder(options, statSync(dest).mode & 0o777);
  } catch (err) {
    throw corrupt(file, dest, err);
  }
  try {
    const budget = new Budget(file, dest, limits);
    const counts =
      kind === 'zip'
        ? await extractZip(file, budget, limits, recorder, options)
        : await extractTar(file, budget, limits, kind === 'tgz', recorder, options);
    const { digest, ...rest } = counts;
    return {
      kind,
      ...rest,
      ...(digest === undefined ? {} : { digest }),
      ...(options.record ? { written: recorder.written, folders: budget.foldersMade() } : {}),
    };
  } catch (err) {
    rmSync(dest, { recursive: true, force: true });
    // The thread that writes the files failed, not the archive: unpack it again, writing here.
    if (err instanceof ThreadFailure) return extractArchive(file, dest, limits, { ...options, threadFrom: Infinity });
    // A tar the plain reader does not read as node-tar does: node-tar reads it, from the start.
    if (err instanceof UnusualTar) return extractArchive(file, dest, limits, { ...options, nodeTar: true });
    throw corrupt(file, dest, err);
  }
}

/** From this size on (of the archive file: 1 MiB, some thousand files), files are written on a thread of their own. */
const THREAD_FROM = 1024 * 1024;

/**
 * For an archive that will be extracted once the caller has done other work: start now what its extraction will
 * wait for (a big tar's writer thread, which takes tens of milliseconds to start). Nothing for a small one, a zip,
 * or a file that is not there (the extraction says so).
 */
export function prepareExtraction(file: string): void {
  try {
    if (statSync(file).size >= THREAD_FROM && archiveKind(file) !== 'zip') prepareWriterThread();
  } catch {
    // Not there, or not readable: extractArchive tells it.
  }
}

/** Inflated pieces (256 KiB each) that may wait to be parsed while the next is inflated. */
const WAITING_PIECES = 4;

/**
 * Read a tar through node-tar's Parser, which frames entries and applies pax and GNU long names. Each entry is
 * checked before its data is read; file data is written as it arrives, in archive order, by one thread: this one
 * for a small archive, one of its own for a big one (archive-writer), as `tar xzf` writes while gzip inflates. One
 * thread creating files in a folder is cheaper than several (they queue on the folder's lock, and a thread pool
 * adds a hand-over per call), while gunzip runs on the thread pool. The gzip layer is ours, so the decompressed
 * stream is counted and a bomb stops at the limit however the tar headers lie.
 */
async function extractTar(
  file: string,
  budget: Budget,
  limits: ArchiveLimits,
  gzip: boolean,
  recorder: Recorder,
  options: ExtractOptions,
): Promise<{ files: number; bytes: number; digest: string | undefined }> {
  const dest = budget.dest;
  // node-tar reads what the plain reader leaves it (loaded ahead: the handover is synchronous).
  const tar = await import('tar');
  // The tar stream itself is bounded too (headers and padding on top of the files).
  const streamLimit = limits.maxBytes + 2048 * (limits.maxEntries + 1);
  const input = createReadStream(file, { highWaterMark: 256 * 1024 });
  const gunzip = gzip ? (await import('node:zlib')).createGunzip({ chunkSize: 256 * 1024 }) : undefined;
  let files = 0;
  let failure: unknown;
  let writer: FileWriter | undefined;
  const extraction = new Promise<void>((done, fail) => {
    const stop = (err: unknown) => {
      if (failure !== undefined) return;
      failure = err;
      input.destroy();
      gunzip?.destroy();
      fail(err);
    };
    const algorithm = options.digest?.algorithm;
    if (statSync(file).size >= (options.threadFrom ?? THREAD_FROM)) {
      try {
        writer = new ThreadWriter(
          (err) => stop(err instanceof ThreadFailure ? err : atEntry(file, err.entry ?? file, dest, err)),
          algorithm,
        );
      } catch {
        // A thread that cannot be started (a limit on threads): the files are written here, as a small archive's.
      }
    }
    writer ??= new SyncWriter(algorithm);
    const out = writer;
    // An entry passed on by the tar reader: checked, then its bytes written as they come (none for a folder).
    const startEntry = (name: string, type: string, size: number, archivedMode: number | undefined) => {
      if (failure !== undefined) return undefined;
      try {
        if (type === 'Directory') {
          const dir = budget.admit(name, 'dir', 0);
          if (!isLitter(name)) budget.folder(dir);
          return undefined;
        }
        if ((type === 'SymbolicLink' || type === 'Link') && options.onLink) {
          options.onLink(name);
          return undefined;
        }
        if (type !== 'File' && type !== 'OldFile' && type !== 'ContiguousFile') {
          throw refusal(file, name, TAR_TYPES[type] ?? `has the unsupported type ${type}`);
        }
        const abs = budget.admit(name, 'file', size);
        if (isLitter(name)) return undefined;
        budget.folder(dirname(abs));
        const mode = recorder.mode(archivedMode);
        files++;
        const rel = budget.rel(abs);
        out.open(abs, name, mode, size, recorder.header(rel, mode, size));
        let chunks = recorder.keeps(size) ? ([] as Buffer[]) : undefined;
        return {
          data: (chunk: Buffer) => {
            if (failure !== undefined) return;
            chunks?.push(chunk);
            // A write that throws here would escape the parser: a full disk is stopped and told as such.
            try {
              out.data(chunk);
            } catch (err) {
              chunks = undefined;
              stop(atEntry(file, name, dest, err));
            }
          },
          end: () => {
            try {
              out.end();
            } catch (err) {
              return stop(atEntry(file, name, dest, err));
            }
            if (failure === undefined) recorder.add(rel, mode, size, chunks);
          },
        };
      } catch (err) {
        stop(atEntry(file, name, dest, err));
        return undefined;
      }
    };
    const ended = () => (failure === undefined ? done() : undefined);
    let parser: { write(c: Buffer): unknown; end(): unknown };
    if (options.nodeTar) parser = nodeTarParser(tar.Parser, file, stop, startEntry, ended, input);
    else {
      const plain = new PlainTarReader({
        entry: startEntry,
        // Left before any entry (a pax or GNU header first, as git archive and GNU tar write): node-tar reads the
        // stream from its start, here. Left later: extractArchive reads the archive again with node-tar.
        unusual: (why) => {
          const unread = plain.unread;
          if (unread === undefined) return stop(new UnusualTar(why));
          const taken = nodeTarParser(tar.Parser, file, stop, startEntry, ended, input);
          parser = taken;
          for (const c of unread) if (failure === undefined) taken.write(c);
          if (plain.ended && failure === undefined) taken.end();
        },
        done: ended,
      });
      parser = plain;
    }
    input.on('error', stop);
    if (gunzip) {
      let streamed = 0;
      // Each inflated piece is parsed (and its files written) a turn of the event loop later, so the thread pool
      // inflates the next piece meanwhile: piped, the two would take turns. At most a few pieces wait.
      const waiting: Buffer[] = [];
      let ended = false;
      const drain = () => {
        for (let c = waiting.shift(); c !== undefined && failure === undefined; c = waiting.shift()) parser.write(c);
        if (failure !== undefined) return;
        if (ended) parser.end();
        // What waits to be written (on the writer's thread) bounds what is inflated ahead.
        else out.drained(() => (failure === undefined ? gunzip.resume() : undefined));
      };
      gunzip.on('error', stop);
      gunzip.on('data', (chunk: Buffer) => {
        streamed += chunk.length;
        if (streamed > streamLimit)
          return stop(tooBig(file, `it unpacks to more than ${mib(streamLimit)} of tar data`, limits));
        if (waiting.push(chunk) === 1) setImmediate(drain);
        if (waiting.length >= WAITING_PIECES) gunzip.pause();
      });
      gunzip.on('end', () => {
        ended = true;
        if (waiting.length === 0 && failure === undefined) parser.end();
      });
      feed(input, gunzip);
    } else {
      // node-tar's Parser, once it reads, resumes the input on its own drain (nodeTarParser).
      feed(input, { write: (c) => parser.write(c) !== false, end: () => parser.end(), on: () => undefined });
    }
  });
  let digest: string | undefined;
  try {
    await extraction;
    digest = await writer!.finish();
  } catch (err) {
    // Nothing is written once this returns, so the caller may remove the target.
    await writer?.abort();
    throw isErrno(err) ? atEntry(file, (err as WriteFailure).entry ?? file, dest, err) : err;
  }
  return { files, bytes: budget.bytes, digest };
}

/**
 * What `src.pipe(dest)` does here, less its check that `dest` is not process.stdout or process.stderr: that check
 * builds both streams, and for a pipe loads net (5 to 8 ms of a run). Errors are each stream's own listeners'.
 */
function feed(
  src: NodeJS.ReadableStream,
  dest: { write(c: Buffer): boolean; end(): unknown; on(event: 'drain', then: () => void): unknown },
) {
  src.on('data', (c: Buffer) => {
    if (!dest.write(c)) src.pause();
  });
  dest.on('drain', () => src.resume());
  src.on('end', () => dest.end());
}

const ZIP_TYPES: Record<number, string> = {
  0o120000: 'is a symbolic link (links are refused)',
  0o020000: 'is a character device',
  0o060000: 'is a block device',
  0o010000: 'is a FIFO',
  0o140000: 'is a socket',
};

async function extractZip(
  file: string,
  budget: Budget,
  limits: ArchiveLimits,
  recorder: Recorder,
  options: ExtractOptions,
): Promise<{ files: number; bytes: number; digest: string | undefined }> {
  const dest = budget.dest;
  // Zip entries are written through streams, one at a time: the digest is made here.
  const digester = new Digester(options.digest?.algorithm);
  const yauzl = (await import('yauzl')).default;
  const zip = await new Promise<import('yauzl').ZipFile>((res, rej) =>
    yauzl.open(
      file,
      { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, autoClose: true },
      (err, z) => (err ? rej(err) : res(z!)),
    ),
  );
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    throw tooBig(file, `it holds ${zip.entryCount} entries`, limits);
  }
  let files = 0;
  try {
    await new Promise<void>((res, rej) => {
      let stopped = false;
      const stop = (err: unknown) => {
        if (stopped) return;
        stopped = true;
        zip.close();
        rej(err);
      };
      zip.on('error', stop);
      zip.on('end', () => {
        if (!stopped) res();
      });
      zip.on('entry', (entry: import('yauzl').Entry) => {
        if (stopped) return;
        const name = yauzl.getFileNameLowLevel(
          entry.generalPurposeBitFlag,
          entry.fileName as unknown as Buffer,
          entry.extraFields,
          false,
        );
        void (async () => {
          const mode = (entry.externalFileAttributes >>> 16) & 0xffff;
          const unix = entry.versionMadeBy >> 8 === 3;
          const type = unix ? mode & 0o170000 : 0;
          if ((entry.generalPurposeBitFlag & 0x1) !== 0) throw refusal(file, name, 'is encrypted');
          if (type === 0o120000 && options.onLink) {
            options.onLink(name);
            zip.readEntry();
            return;
          }
          if (ZIP_TYPES[type]) throw refusal(file, name, ZIP_TYPES[type]!);
          if (name.endsWith('/') || type === 0o040000) {
            const dir = budget.admit(name, 'dir', 0);
            if (!isLitter(name)) budget.folder(dir);
            zip.readEntry();
            return;
          }
          const abs = budget.admit(name, 'file', entry.uncompressedSize);
          if (isLitter(name)) {
            zip.readEntry();
            return;
          }
          budget.folder(dirname(abs));
          const stream = await new Promise<NodeJS.ReadableStream>((r, j) =>
            zip.openReadStream(entry, (err, s) => (err ? j(err) : r(s!))),
          );
          const written = recorder.mode(unix ? mode : 0o644);
          const rel = budget.rel(abs);
          const chunks = recorder.keeps(entry.uncompressedSize) ? ([] as Buffer[]) : undefined;
          digester.file(recorder.header(rel, written, entry.uncompressedSize), entry.uncompressedSize);
          stream.on('data', (chunk: Buffer) => {
            chunks?.push(chunk);
            digester.data(chunk);
          });
          const out = createWriteStream(abs, { flags: 'wx', mode: written });
          await new Promise<void>((r, j) => pipeline(stream, out, (err) => (err ? j(err) : r())));
          files++;
          recorder.add(rel, written, entry.uncompressedSize, chunks);
          zip.readEntry();
        })().catch((err: unknown) => stop(atEntry(file, name, dest, err)));
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return { files, bytes: budget.bytes, digest: digester.result() };
}

/** A skill folder found in an extracted archive: where it is now, and its path inside the archive ('' at the top). */
export interface ArchivedSkillFolder {
  dir: string;
  inner: string;
}

/** As deep below the archive's top as discovery looks below a folder it is given, plus the archive's one top folder. */
const ARCHIVE_SKILL_DEPTH = 7;

/**
 * The skill folders in an extracted archive: the archive's top when the skill file sits there; else every folder
 * below it that holds one (pack's `<id>/`, a release's `pdf-1.2.0/`, a repository's `repo-main/skills/<name>/`),
 * not looking inside a skill. E_INVALID naming the archive and its top entries when there is none.
 */
export function skillFoldersIn(
  dest: string,
  archive: string,
  isSkill: (dir: string) => boolean,
): ArchivedSkillFolder[] {
  if (isSkill(dest)) return [{ dir: dest, inner: '' }];
  const found: ArchivedSkillFolder[] = [];
  // The extraction wrote only folders and regular files, so a Dirent's type is the truth (no link to follow).
  const visit = (dir: string, inner: string, depth: number) => {
    for (const d of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    )) {
      if (!d.isDirectory() || isNeverKept(d.name, true)) continue;
      const child = join(dir, d.name);
      const rel = inner === '' ? d.name : `${inner}/${d.name}`;
      if (isSkill(child)) found.push({ dir: child, inner: rel });
      else if (depth < ARCHIVE_SKILL_DEPTH) visit(child, rel, depth + 1);
    }
  };
  visit(dest, '', 1);
  if (found.length > 0) return found;
  const names = readdirSync(dest);
  throw new SkillsError(
    'E_INVALID',
    `${archive}: holds no skill: expected SKILL.md or manifest.json at its top, in a folder ("my-skill/SKILL.md"), or in folders below one ("repo-main/skills/my-skill/SKILL.md"); found ${names.length ? names.map((n) => `"${n}"`).join(', ') : 'nothing'}${names.length === 1 && lstatSync(join(dest, names[0]!)).isDirectory() ? ' with no skill in it' : ''}. Nothing was installed`,
    { hint: 'give the archive of a skill or of a skills repository; make one with skills pack <skill folder>' },
  );
}
