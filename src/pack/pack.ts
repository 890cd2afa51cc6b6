// Packing a skill into an archive whose bytes depend on its content alone: entries sorted, one fixed mtime,
// modes 644/755, no owner, the gzip header's OS byte fixed (node-tar's `portable`). The same skill gives the
// same .tgz on any machine, and so the same integrity.
import { DEFAULT_LIMITS, type ArchiveLimits } from '../fs/archive.js';
import { entryNameProblem, packedMode } from '../fs/archive-entries.js';
import { isUnversioned, registryVersion, unversionedWarning } from '../registry/unversioned.js';
import { createHash } from 'node:crypto';
import {
  closeSync,
  createReadStream,
  createWriteStream,
  fstatSync,
  mkdirSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { basename, join, posix, relative, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable, Transform } from 'node:stream';
import { GATHER, gathered, portableGzipHeader } from './gzip-stream.js';
import type { Skill } from '../model/skill.js';
import { linksOut } from './links-out.js';
import { openPacked, readPacked, type PlannedFile } from './open-packed.js';
import { SkillsError } from '../errors.js';
import { isInside, isNeverKept } from '../fs/walk.js';
import { NOT_UTF8_HINT, notUtf8Failure } from '../fs/byte-names.js';
import {
  leadsToFolder,
  leftOutBy,
  linkReason,
  listFolder,
  readLinkText,
  realPlaceJudge,
  type LeftOut,
} from '../skill/left-out.js';
import { syncDir, syncFile, tempName } from '../fs/atomic.js';
import { afterCleanup, errnoIn, explainErrno } from '../fs/errno.js';
import { IGNORE_FILE, ignoreLevel, requiredFiles, type IgnoreLevel, type IgnoreRuleAt } from '../skill/ignore-rules.js';

export { IGNORE_FILE } from '../skill/ignore-rules.js';

/** npm's fixed date for packed files (1985-10-26 08:15 UTC): after zip's 1980 epoch, and the same everywhere. */
export const PACK_MTIME = new Date('1985-10-26T08:15:00.000Z');
/** Above this many bytes of files, pack warns: agents read skills whole, and big ones are usually a mistake. */
export const SIZE_WARNING_BYTES = 10 * 1024 * 1024;

export type PackFormat = 'tgz' | 'skill';

export interface PackFile extends PlannedFile {
  /** Path inside the skill, forward slashes. */
  path: string;
  size: number;
  mode: 0o644 | 0o755;
}

export interface PackPlan {
  files: PackFile[];
  /** Folders holding files or empty, sorted (entries of the tar, not of the zip). */
  dirs: string[];
  /** Secrets found and left out (.env, .env.local …). */
  secrets: string[];
  /** Files and folders left out by the ignore files inside the skill (.skillignore, else .gitignore, per folder). */
  ignored: string[];
  /** Temp files an interrupted write of skills left (`.SKILL.md.tmp-w.<pid>.<hex>`): never packed. */
  leftovers: string[];
  /** Links (and what is below a link to a folder) left out as what they lead to is: to .env, into an ignored folder. */
  linked: LinkLeftOut[];
  unpackedSize: number;
}

/** A path reached through a link, left out as what it leads to is; also listed in secrets, ignored or leftovers. */
export interface LinkLeftOut {
  path: string;
  /** What is left out where it leads: the target, or the folder above it that is (forward slashes). */
  target: string;
  /** Why, as the end of a sentence: `and secrets are never packed`, `which .skillignore:1 ("secrets/") leaves out`. */
  reason: string;
}

export interface PackResult extends PackPlan {
  id: string;
  version?: string;
  format: PackFormat;
  /** Absolute path of the archive (what it would be, with dryRun). */
  file: string;
  /** Bytes of the archive; undefined with dryRun. */
  size?: number;
  /** npm's SRI form of the archive's sha512: `sha512-<base64>`; undefined with dryRun. */
  integrity?: string;
  warnings: string[];
}

export interface PackOptions {
  format?: PackFormat;
  /** Folder to write into (created when missing). */
  outDir: string;
  dryRun?: boolean;
  /** What install reads at most (default: install's own limits); a skill over them is not packed. */
  limits?: ArchiveLimits;
}

const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * What goes into the archive of the skill at `root`: every file but .git, node_modules, macOS's .DS_Store and ._*,
 * secrets (.env, .env.*), what the ignore files inside the skill name (in each folder its .skillignore, else its
 * .gitignore, as npm-packlist reads .npmignore and .gitignore), and `exclude` (the archive being written). A symlink
 * is read through when it stays inside the skill; one that leads out throws E_INVALID naming it. `required` (paths
 * below the root: the skill file, declared scripts) may not be ignored: E_CONFIG names the file and the rule.
 */
export async function planPack(
  root: string,
  exclude: string[] = [],
  required: readonly string[] = [],
): Promise<PackPlan> {
  const realRoot = realpathSync.native(root);
  const excluded = new Set(exclude.map((p) => resolve(p)));
  const plan: PackPlan = { files: [], dirs: [], secrets: [], ignored: [], leftovers: [], linked: [], unpackedSize: 0 };
  // Real folders on the way down, so a symlink to a folder above itself is a cycle, not an endless walk.
  const stack: string[] = [];
  const judge = realPlaceJudge(realRoot);
  // Links that lead out of the skill: every one is named at the end, so one run tells the author all there are to fix
  // (richfrem/agent-plugins-skills' audit-plugin has 24).
  const out: { abs: string; path: string; real: string }[] = [];
  const leaveOut = (leftOut: LeftOut, path: string, isDir: boolean) => {
    if (leftOut.why === 'leftover') plan.leftovers.push(path);
    else if (leftOut.why === 'secret') plan.secrets.push(path);
    else if (leftOut.why === 'ignored') {
      const needed = required.find((r) => r === path || (isDir && r.startsWith(`${path}/`)));
      if (needed !== undefined) throw ignoredRequired(root, needed, leftOut.rule, needed !== path);
      plan.ignored.push(path);
    }
  };
  const visit = (dir: string, rel: string, real: string, above: IgnoreLevel[]) => {
    stack.push(real);
    const list = listFolder(dir);
    const own = ignoreLevel(dir, rel, list);
    const levels = own ? [...above, own] : above;
    let kept = 0;
    for (const d of list) {
      const abs = join(dir, d.name);
      const path = rel === '' ? d.name : `${rel}/${d.name}`;
      if (d.name === IGNORE_FILE) continue;
      if (excluded.has(resolve(abs))) continue;
      // A `.git` entry is left out whatever it is, before a link named so is followed or refused.
      if (isNeverKept(d.name, d.isDirectory())) continue;
      let isDir = d.isDirectory();
      let realPath = join(real, d.name);
      // What .skillignore names is left out before a link is followed: a link it names is never refused.
      const own = leftOutBy(d.name, path, d.isSymbolicLink() ? leadsToFolder(abs) : isDir, levels);
      if (own) {
        leaveOut(own, path, isDir);
        continue;
      }
      if (d.isSymbolicLink()) {
        try {
          realPath = realpathSync.native(abs);
        } catch {
          throw new SkillsError('E_INVALID', `${abs} is a symlink that leads nowhere (${readLinkText(abs)})`, {
            hint: 'remove it, point it at a file inside the skill, or list it in .skillignore',
          });
        }
        if (!isInside(realRoot, realPath)) {
          out.push({ abs, path, real: realPath });
          continue;
        }
        const target = statSync(abs);
        isDir = target.isDirectory();
        if (!isDir && !target.isFile()) continue; // a link to a FIFO or a socket: reading it could wait forever
        if (isDir && stack.includes(realPath)) {
          throw new SkillsError(
            'E_INVALID',
            `${abs} is a symlink to a folder that holds it (a cycle); nothing was packed`,
            { hint: 'remove the link, or list it in .skillignore' },
          );
        }
      } else if (!isDir && !d.isFile()) {
        continue; // sockets, FIFOs: nothing an archive should carry
      }
      // An entry reached through a link is packed as what it leads to, so it is left out as that is (a link to .env).
      const realRel = relative(realRoot, realPath).split(sep).join('/');
      const there = realRel === path ? undefined : judge(realPath, isDir);
      if (there) {
        plan.linked.push({ path, target: there.target, reason: linkReason(there.leftOut) });
        leaveOut(there.leftOut, path, isDir);
        continue;
      }
      refuseName(abs, path, realRoot);
      kept++;
      if (isDir) {
        plan.dirs.push(path);
        visit(abs, path, realPath, levels);
      } else {
        const st = statSync(abs);
        plan.files.push({ path, abs, real: realPath, within: realRoot, size: st.size, mode: packedMode(st.mode) });
        plan.unpackedSize += st.size;
      }
    }
    stack.pop();
    return kept;
  };
  visit(root, '', realRoot, []);
  if (out.length > 0) throw linksOut(out);
  plan.files.sort((a, b) => byPath(a.path, b.path));
  plan.dirs.sort(byPath);
  plan.secrets.sort(byPath);
  plan.ignored.sort(byPath);
  plan.leftovers.sort(byPath);
  plan.linked.sort((a, b) => byPath(a.path, b.path));
  return plan;
}

/** A file the skill needs, left out by an ignore rule: refused, naming both, rather than packed without it. */
function ignoredRequired(root: string, needed: string, rule: IgnoreRuleAt, byFolder: boolean): SkillsError {
  const base = posix.dirname(rule.file);
  const below = base === '.' ? needed : needed.slice(base.length + 1);
  return new SkillsError(
    'E_CONFIG',
    `${join(root, needed)} is needed by the skill, and ${join(root, rule.file)}:${rule.line} ("${rule.pattern}") leaves ${byFolder ? 'its folder' : 'it'} out of the archive; nothing was packed`,
    {
      hint: byFolder
        ? `narrow the rule in ${rule.file} so the folder stays in (a "!" line cannot take back a file whose folder is left out)`
        : `take it back with a line "!/${below}" after the rule in ${rule.file}, or narrow the rule`,
    },
  );
}

/**
 * A name install refuses in an archive (archive-entries' own check, so the two cannot disagree) is not packed: a
 * backslash, legal on Linux, is a folder separator on Windows.
 */
function refuseName(abs: string, path: string, root: string): void {
  const notUtf8 = notUtf8Failure(abs, 'nothing was packed', undefined, NOT_UTF8_HINT);
  if (notUtf8) throw notUtf8;
  const problem = entryNameProblem(path, root);
  if (problem === undefined) return;
  const why = path.includes('\\')
    ? 'its name holds a backslash, a folder separator on Windows, which skills install refuses in an archive'
    : `skills install refuses an archive entry that ${problem}`;
  throw new SkillsError('E_INVALID', `${abs}: ${why}; nothing was packed`, {
    hint: 'rename it (lint: SK129), or list it in .skillignore',
  });
}

/** The archive's file name: `<id>-<version>.tgz`, or for a .skill Anthropic's `<folder>.skill`. */
export function archiveName(skill: Skill, format: PackFormat): string {
  return format === 'skill' ? `${basename(skill.root)}.skill` : `${skill.id}-${registryVersion(skill)}.tgz`;
}

/** Pack a loaded, valid skill. The archive is written to a temp file beside the target and renamed into place. */
export async function packSkill(skill: Skill, options: PackOptions): Promise<PackResult> {
  const format = options.format ?? 'tgz';
  const file = resolve(options.outDir, archiveName(skill, format));
  const plan = await planPack(skill.root, [file], requiredFiles(skill));
  // A .skill's entries are under the folder's own name.
  if (format === 'skill') refuseName(skill.root, `${basename(skill.root)}/`, skill.root);
  const warnings: string[] = [];
  if (format === 'tgz' && isUnversioned(skill)) warnings.push(unversionedWarning(skill));
  const linked = new Set(plan.linked.map((l) => l.path));
  for (const l of plan.linked) warnings.push(`${l.path} left out: it leads to ${l.target}, ${l.reason}`);
  for (const s of plan.secrets) if (!linked.has(s)) warnings.push(`${s} left out: secrets are never packed`);
  for (const s of plan.leftovers.filter((p) => !linked.has(p)))
    warnings.push(`${s} left out: a temp file an interrupted write of skills left (skills lint --fix removes it)`);
  // What install would refuse is not packed.
  const limits = options.limits ?? DEFAULT_LIMITS;
  if (plan.unpackedSize > limits.maxBytes || plan.files.length + plan.dirs.length > limits.maxEntries) {
    throw new SkillsError(
      'E_INVALID',
      `${skill.id}: ${plan.files.length} files adding up to ${(plan.unpackedSize / 1024 / 1024).toFixed(1)} MiB; skills install reads at most ${limits.maxEntries} entries and ${limits.maxBytes / 1024 / 1024} MiB; nothing was packed`,
      {
        hint: `list what agents need not read (data, builds, media) in ${IGNORE_FILE}`,
      },
    );
  }
  if (plan.unpackedSize > SIZE_WARNING_BYTES) {
    warnings.push(
      `the files add up to ${(plan.unpackedSize / 1024 / 1024).toFixed(1)} MiB, more than ${SIZE_WARNING_BYTES / 1024 / 1024} MiB: agents read skills whole; list what they need not read in ${IGNORE_FILE}`,
    );
  }
  const result: PackResult = {
    id: skill.id,
    ...(format === 'tgz' ? { version: registryVersion(skill) } : skill.version ? { version: skill.version } : {}),
    format,
    file,
    ...plan,
    warnings,
  };
  if (options.dryRun) return result;

  try {
    mkdirSync(options.outDir, { recursive: true });
  } catch (err) {
    throw new SkillsError('E_IO', `cannot create ${options.outDir}: ${(err as Error).message}`, { cause: err });
  }
  const tmp = join(options.outDir, tempName('.', `${basename(file)}.tmp`));
  const hash = createHash('sha512');
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      hash.update(chunk);
      size += chunk.length;
      cb(null, chunk);
    },
  });
  try {
    const out = createWriteStream(tmp, { flags: 'wx', mode: 0o644 });
    if (format === 'skill') await pipeline(await zipStream(skill, plan), tap, out);
    else {
      // A stream end to end: the file being read, the tar blocks and the gzip output are in memory a chunk at a time.
      const { createGzip } = await import('node:zlib');
      const tar = Readable.from(gathered(tarChunks(plan, `${skill.id}/`), GATHER));
      await pipeline(tar, createGzip({ level: 6 }), portableGzipHeader(), tap, out);
    }
    syncFile(tmp);
    renameSync(tmp, file);
    syncDir(options.outDir);
  } catch (err) {
    throw afterCleanup(packFailure(err, file, options.outDir), () => rmSync(tmp, { force: true }));
  }
  return { ...result, size, integrity: `sha512-${hash.digest('base64')}` };
}

/** The error a failed write of the archive `file` is told as. */
function packFailure(err: unknown, file: string, outDir: string): unknown {
  if (err instanceof SkillsError) return err;
  const errno = errnoIn(err);
  if (errno) {
    const { reason, hint } = explainErrno(errno, outDir);
    return new SkillsError('E_IO', `cannot write ${file}: ${reason}; nothing was written`, { cause: err, hint });
  }
  return new SkillsError('E_IO', `cannot write ${file}: ${(err as Error).message}`, { cause: err });
}

/** One entry of a tar built by `gzipTar`: a folder (no content) or a file. */
export interface TarEntry {
  /** The path in the archive, forward slashes, no trailing slash. */
  path: string;
  /** A file's bytes; undefined for a folder. */
  content?: Buffer;
  mode?: 0o644 | 0o755;
}

/**
 * The header blocks of one tar entry: node-tar's Header (and Pax before it, for a long or non-ASCII path) with what
 * pack decides, not what the disk says: the fixed mtime, 644/755, uid and gid 0, no user names. `size` undefined: a
 * folder.
 */
async function headerBlocks(
  path: string,
  size: number | undefined,
  mode: 0o644 | 0o755 | undefined,
): Promise<Buffer[]> {
  const { Header, Pax } = await import('tar');
  const isFile = size !== undefined;
  const name = isFile ? path : `${path}/`;
  const fields = {
    path: name,
    mode: isFile ? (mode ?? 0o644) : 0o755,
    uid: 0,
    gid: 0,
    size: size ?? 0,
    mtime: PACK_MTIME,
    type: isFile ? 'File' : 'Directory',
    uname: '',
    gname: '',
  } as const;
  const block = Buffer.alloc(512);
  const header = new Header(fields);
  header.encode(block);
  return header.needPax ? [new Pax({ path: name, mtime: PACK_MTIME, size: fields.size }).encode(), block] : [block];
}

/** The zeros after `size` bytes of content that fill its last 512-byte block. */
const padding = (size: number) => Buffer.alloc((512 - (size % 512)) % 512);

/**
 * The gzip tar of `entries`, in the order given, built in memory (npm packages and well-known archives, whose
 * files are small): the same bytes packSkill streams for the same entries. Streaming through node-tar's Pack costs
 * ten times as much for a thousand small files.
 */
export async function gzipTar(entries: TarEntry[]): Promise<Buffer> {
  const { gzipSync } = await import('node:zlib');
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const { content } = entry;
    blocks.push(...(await headerBlocks(entry.path, content?.length, entry.mode)));
    if (content && content.length > 0) blocks.push(content, padding(content.length));
  }
  blocks.push(Buffer.alloc(1024));
  const gz = gzipSync(Buffer.concat(blocks), { level: 6 });
  // The gzip header: no mtime (zlib writes 0) and the OS byte set to "unknown", as node-tar's portable does.
  gz[9] = 0xff;
  return gz;
}

/**
 * The entries of a skill's tar: its folders and files, sorted, each path after `prefix` (`<id>/` for pack,
 * `package/` for npm, nothing for a well-known archive). A symlink inside the skill is stored as the file it leads
 * to, a hard link as a whole file.
 */
export function tarEntries(plan: PackPlan, prefix: string): TarEntry[] {
  return sortedEntries(plan).map(({ path, file }) => {
    if (!file) return { path: `${prefix}${path}` };
    return { path: `${prefix}${path}`, content: readPacked(file), mode: file.mode };
  });
}

/** The plan's folders and files in the tar's order (sorted by path), each file with its plan entry. */
function sortedEntries(plan: PackPlan): { path: string; file?: PackFile }[] {
  const files = new Map(plan.files.map((f) => [f.path, f]));
  return [...plan.dirs, ...plan.files.map((f) => f.path)].sort(byPath).map((path) => ({ path, file: files.get(path) }));
}

/** Bytes read from a file at a time while packing: memory stays this, whatever the size of the skill's files. */
const READ_CHUNK = 1024 * 1024;

/**
 * The tar of a skill, block by block: the bytes gzipTar(tarEntries(plan, prefix)) makes, with one file's chunk in
 * memory at a time. A file whose size changed since the plan stops the pack (its header already holds the size).
 */
async function* tarChunks(plan: PackPlan, prefix: string): AsyncGenerator<Buffer> {
  for (const { path, file } of sortedEntries(plan)) {
    if (!file) {
      yield* await headerBlocks(`${prefix}${path}`, undefined, undefined);
      continue;
    }
    const { fd, size } = openPacked(file);
    try {
      yield* await headerBlocks(`${prefix}${path}`, size, file.mode);
      let done = 0;
      while (done < size) {
        const chunk = Buffer.allocUnsafe(Math.min(READ_CHUNK, size - done));
        const n = readSync(fd, chunk, 0, chunk.length, done);
        if (n === 0) throw changedWhilePacking(file.abs);
        done += n;
        yield n === chunk.length ? chunk : chunk.subarray(0, n);
      }
      if (fstatSync(fd).size !== size) throw changedWhilePacking(file.abs);
      yield padding(size);
    } finally {
      closeSync(fd);
    }
  }
  yield Buffer.alloc(1024);
}

const changedWhilePacking = (file: string) =>
  new SkillsError('E_IO', `${file} changed while it was being packed; nothing was written`, {
    hint: 'pack again once nothing is writing to the skill',
  });

async function zipStream(skill: Skill, plan: PackPlan): Promise<NodeJS.ReadableStream> {
  const yazl = (await import('yazl')).default;
  const zip = new yazl.ZipFile();
  // The DOS date in a zip is local time: a date made from local fields writes the same fields in every zone.
  const d = PACK_MTIME;
  const mtime = new Date(
    d.getUTCFullYear(),
    d.getUTCMonth(),
    d.getUTCDate(),
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds(),
  );
  const folder = basename(skill.root);
  for (const f of plan.files) {
    // Opened when its turn comes (one file open at a time), as openPacked opens it.
    const read = (cb: (err: unknown, stream: NodeJS.ReadableStream) => void) => {
      let stream: NodeJS.ReadableStream;
      try {
        stream = createReadStream('', { fd: openPacked(f).fd });
      } catch (err) {
        return cb(err, undefined as never);
      }
      cb(null, stream);
    };
    zip.addReadStreamLazy(
      `${folder}/${f.path}`,
      {
        size: f.size,
        mtime,
        mode: 0o100000 | f.mode,
        compress: true,
        compressionLevel: 6,
        forceDosTimestamp: true,
      },
      read,
    );
  }
  zip.end();
  return zip.outputStream;
}
