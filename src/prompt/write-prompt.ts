import { existsSync, lstatSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import type { Context } from '../context.js';
import { SkillsError } from '../errors.js';
import { readOnlyMode, writeKeepingLinks } from '../fs/atomic.js';
import { explainErrno, isErrno } from '../fs/errno.js';
import { readBoundedBytes } from '../fs/read.js';
import { findBlock, withBlock } from './managed-block.js';
import { formatOf, renderPrompt, type RenderPromptOptions, type RenderPromptResult } from './render-prompt.js';
import { markSkillWarnings, skillWarningsOf } from './skill-warnings.js';
import { isFolder } from '../fs/walk.js';

// render-prompt --write FILE [--check]: the prompt kept in a managed block of a file (AGENTS.md, CLAUDE.md …) that
// is committed, so locations are relative to the file's folder. The file is read and its markers checked before
// anything is rendered; it is written whole (writeAtomic) and only when its bytes change. --check writes nothing.

/**
 * The most a file --write edits may hold besides its skills block: larger than any instructions file an agent reads
 * (Codex reads 32 KiB of AGENTS.md).
 */
export const MAX_PROMPT_FILE_BYTES = 1024 * 1024;
/** The most a file --write edits may hold with its block: the catalog of 100,000 skills is about 17 MB. */
export const MAX_PROMPT_FILE_WITH_BLOCK = 64 * 1024 * 1024;

/**
 * What --write did (created, appended, updated, unchanged) or what --check found (current, or missing: no file or
 * no block; stale: the block differs from what would be written).
 */
export type WriteStatus = 'created' | 'appended' | 'updated' | 'unchanged' | 'current' | 'missing' | 'stale';

export interface WritePromptResult extends RenderPromptResult {
  write: {
    /** The file as given. */
    file: string;
    /** The file written (a symlink's target). */
    path: string;
    status: WriteStatus;
    /** For --check's missing: no file, or a file without a block. */
    missing?: 'file' | 'block';
    /** The command that brings the block up to date. */
    fix: string;
  };
  exitCode: number;
}

/** Render the prompt into `options.write`'s managed block, or with `check` say whether it is up to date. */
export async function writePrompt(
  options: RenderPromptOptions,
  ctx: Pick<Context, 'cwd' | 'env'> & Partial<Pick<Context, 'version'>>,
): Promise<WritePromptResult> {
  const shown = options.write ?? '';
  if (shown.trim() === '') throw new SkillsError('E_USAGE', '--write needs a file, such as AGENTS.md');
  if (formatOf(options) === 'json') {
    throw new SkillsError('E_USAGE', '--write puts markdown or xml into the file, not json', {
      hint: 'leave out --json (or --format json), or print the JSON without --write',
    });
  }
  const target = readTarget(resolve(ctx.cwd, shown), shown, ctx.cwd);
  const result = await renderPrompt(options, ctx);
  const next = withBlock(target.text, result.prompt, shown);
  const same = next.text === target.text;
  const fix = fixCommand(options);
  let status: WriteStatus;
  if (options.check) {
    status = same ? 'current' : next.change === 'replaced' ? 'stale' : 'missing';
  } else {
    // A file made afresh holds nothing but what this run can write again: not flushed (on a busy disk the flushes are
    // most of the time of --write). A file that was there may hold the user's own text, flushed before the rename.
    // A file nobody may write is one its owner keeps as it is, as lint --fix leaves one: the rename would replace it.
    const readOnly = same ? undefined : readOnlyMode(target.path);
    if (readOnly !== undefined)
      throw new SkillsError(
        'E_IO',
        `${shown} is read-only (mode ${readOnly}); render-prompt --write left it as it was`,
        { hint: `chmod u+w ${shellWord(shown)} lets --write change it, or print the prompt without --write` },
      );
    // A file with other names (hard links) is written in place, so that every name holds the block.
    if (!same)
      writeKeepingLinks(
        target.path,
        next.text,
        target.mode === undefined ? { flush: false } : { mode: target.mode, old: target.bytes },
      );
    status = same ? 'unchanged' : next.change === 'replaced' ? 'updated' : next.change;
  }
  const missing = status === 'missing' ? (target.text === undefined ? 'file' : 'block') : undefined;
  const written: WritePromptResult = {
    ...result,
    write: { file: shown, path: target.path, status, ...(missing ? { missing } : {}), fix },
    exitCode: status === 'missing' || status === 'stale' ? 1 : 0,
  };
  return markSkillWarnings(written, skillWarningsOf(result));
}

interface Target {
  /** Where to write: the path, or the file a symlink there leads to. */
  path: string;
  /** The text; undefined when there is no file yet. */
  text?: string;
  /** The permission bits to keep. */
  mode?: number;
  /** The bytes read: put back when a file with other names (hard links), written in place, fails. */
  bytes?: Uint8Array;
}

/**
 * Read the file the block goes into: a folder, a special file, a file over MAX_PROMPT_FILE_BYTES, one that is not
 * UTF-8 text, or one whose markers are broken is refused before anything is rendered or written. A symlink
 * (CLAUDE.md → AGENTS.md) is written through to its target; a missing file is created, in a folder that exists.
 */
function readTarget(file: string, shown: string, cwd: string): Target {
  checkInsideProject(file, shown, cwd);
  let link;
  try {
    link = lstatSync(file).isSymbolicLink();
  } catch (err) {
    if (!isErrno(err) || err.code !== 'ENOENT') throw ioError(err, shown, 'read');
    // Nothing there: the file is created, in a folder that must exist.
    if (!isFolder(dirname(file)))
      throw new SkillsError('E_NOT_FOUND', `${shown}: the folder ${dirname(file)} does not exist`, {
        hint: 'create the folder first, or give a file in an existing folder',
      });
    return { path: file };
  }
  let path = file;
  if (link) {
    try {
      path = realpathSync(file);
    } catch (err) {
      throw new SkillsError('E_NOT_FOUND', `${shown} is a symlink that leads to nothing; the file was not changed`, {
        cause: err,
        hint: `create the file it leads to, or remove the link and run again`,
      });
    }
  }
  let st;
  try {
    st = statSync(path);
  } catch (err) {
    throw ioError(err, shown, 'read');
  }
  if (st.isDirectory())
    throw new SkillsError('E_USAGE', `${shown} is a folder; --write needs a file`, {
      hint: `name a file, such as ${shown.replace(/[\\/]+$/, '')}/AGENTS.md`,
    });
  if (!st.isFile()) throw new SkillsError('E_USAGE', `${shown} is not a regular file; --write needs one`);
  let read;
  try {
    read = readBoundedBytes(path, st.size > MAX_PROMPT_FILE_BYTES ? MAX_PROMPT_FILE_WITH_BLOCK : MAX_PROMPT_FILE_BYTES);
  } catch (err) {
    throw isErrno(err) ? ioError(err, shown, 'read') : err;
  }
  const tooLarge = (size: number) =>
    new SkillsError(
      'E_INVALID',
      `${shown} is ${size} bytes, over the ${MAX_PROMPT_FILE_BYTES} a file --write edits (its skills block aside); the file was not changed`,
      { hint: 'give the instructions file agents read (AGENTS.md, CLAUDE.md), not a larger one' },
    );
  if (read.bytes === undefined) throw tooLarge(read.tooLarge ?? st.size);
  // A block this command wrote for many skills may be large; what the file holds besides it may not.
  if (read.bytes.length > MAX_PROMPT_FILE_BYTES && !read.bytes.includes('skills:begin'))
    throw tooLarge(read.bytes.length);
  const text = textOf(read.bytes, shown);
  const block = findBlock(text, shown);
  const outside = Buffer.byteLength(text) - (block ? Buffer.byteLength(text.slice(block.start, block.end)) : 0);
  if (outside > MAX_PROMPT_FILE_BYTES) throw tooLarge(read.bytes.length);
  return { path, text, mode: st.mode & 0o7777, bytes: read.bytes };
}

/**
 * A file named through a symlink (the file itself, or a folder on its way) is written only when it really is in the
 * project: below the working folder, or below the repository (the nearest folder upward with a .git) the name is in.
 * A cloned repository's `AGENTS.md -> ~/.bashrc` (or a `.pth` file Python runs) must not be appended to. A path
 * named as it is, without a link, is the user's own choice.
 */
function checkInsideProject(file: string, shown: string, cwd: string): void {
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    try {
      real = join(realpathSync(dirname(file)), basename(file));
    } catch {
      return; // nothing there, or a dangling link: readTarget says so
    }
  }
  if (real === file) return;
  const roots = [cwd];
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) {
      roots.push(dir);
      break;
    }
    if (dirname(dir) === dir) break;
  }
  const inside = roots.some((r) => {
    let root: string;
    try {
      root = realpathSync(r);
    } catch {
      return false;
    }
    return real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);
  });
  if (!inside)
    throw new SkillsError(
      'E_INVALID',
      `${shown} leads through a symlink to ${real}, outside the project; --write writes only inside it, and nothing was changed`,
      {
        hint: `if that file is really the one agents read, name it as it is: --write ${real}`,
      },
    );
}

/** The bytes as UTF-8 text (a BOM kept), or a refusal: --write edits text files only. */
function textOf(bytes: Buffer, shown: string): string {
  const refuse = (why: string) =>
    new SkillsError('E_INVALID', `${shown} is not a text file (${why}); the file was not changed`, {
      hint: '--write edits a UTF-8 text file such as AGENTS.md',
    });
  if (bytes.includes(0)) throw refuse('it holds NUL bytes');
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw refuse('it is not UTF-8');
  }
}

function ioError(err: unknown, shown: string, verb: string): SkillsError {
  if (!isErrno(err)) return err instanceof SkillsError ? err : new SkillsError('E_IO', String(err), { cause: err });
  const { reason, hint } = explainErrno(err, shown);
  return new SkillsError('E_IO', `cannot ${verb} ${shown}: ${reason}`, { cause: err, ...(hint ? { hint } : {}) });
}

/** The command line that renders the same block: the one --check tells to run. */
export function fixCommand(o: RenderPromptOptions): string {
  const args = ['skills', 'render-prompt', '--write', o.write ?? ''];
  const add = (flag: string, v: string | number | undefined) => {
    if (v !== undefined) args.push(flag, String(v));
  };
  add('--query', o.query);
  add('--max-skills', o.maxSkills);
  add('--select', o.select);
  add('--selector', o.selector);
  add('--selector-timeout', o.selectorTimeout);
  add('--tier', o.tier);
  if (formatOf(o) !== 'markdown') add('--format', formatOf(o));
  add('--soul', o.soul);
  add('--budget', o.budget);
  add('--config', o.config);
  if (o.registry === false) args.push('--no-registry');
  else add('--registry', o.registry);
  const dirs = o.dirs ?? [];
  if (dirs.some((d) => d.startsWith('-'))) args.push('--');
  args.push(...dirs);
  return args.map(shellWord).join(' ');
}

/** A word as a POSIX shell reads it back: as is when plain, else in single quotes. */
function shellWord(w: string): string {
  return /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}
