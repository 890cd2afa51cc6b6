import { isUtf8 } from 'node:buffer';
import { chmodSync, lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { SkillsError, isSkillsError } from '../errors.js';
import { errnoIn, explainErrno, isErrno } from '../fs/errno.js';
import { FileChanged, readOnlyMode, writeKeepingLinks } from '../fs/atomic.js';
import { isInside } from '../fs/walk.js';
import { AFTER_BREAK, LINE_BREAK } from '../formats/text.js';
import type { Change, Fix } from './types.js';

export interface FileEdit {
  file: string;
  before: string | undefined;
  /** The bytes `before` was read from; null when there was no file, undefined when it could not be read. */
  read?: Buffer | null;
  after: string;
  /** Mode to set after writing, when a chmod change asks for one. */
  mode?: number;
  modeBefore?: number;
  fixes: string[];
  /** The skill the file belongs to: a fix writes nothing outside it. Without one, the file's own folder. */
  root?: string;
}

/** A fix that no pass will apply, and why: the file it would rewrite is one a fix must not write. */
export interface RefusedFix {
  fix: Fix;
  file: string;
  reason: string;
}

/** Why a fix never rewrites a file whose bytes are not UTF-8: it reads as text, and writes back what it read. */
export const NOT_UTF8 =
  'the file is not UTF-8 (SK037), and rewriting it would turn each byte that is not into U+FFFD; convert it to UTF-8 first (Latin-1 or Windows-1252 text: iconv -f windows-1252 -t utf-8), then run --fix again';

/**
 * Work out what a set of fixes does to each file, without writing: fixes whose changes overlap one already
 * taken, or whose expected text is no longer there, are left for the next pass; fixes that would rewrite a file
 * that is not UTF-8 are refused (no pass applies them).
 */
export function planFixes(
  fixes: Fix[],
  rootOf?: (fix: Fix) => string | undefined,
): { edits: FileEdit[]; applied: Fix[]; skipped: Fix[]; refused: RefusedFix[] } {
  const files = new Map<
    string,
    {
      text?: string;
      lines?: string[];
      regular: boolean;
      /** Why its text may not be rewritten. */
      refuse?: string;
      eol: string;
      bom: boolean;
      taken: [number, number][];
      edit: FileEdit;
      replaces: { start: number; end: number; text: string }[];
      appends: string[];
    }
  >();
  const open = (file: string) => {
    let f = files.get(file);
    if (!f) {
      let text: string | undefined;
      let regular = true;
      let refuse: string | undefined;
      let read: Buffer | null | undefined;
      try {
        // A FIFO or a device is not a file a fix may read or replace (reading a FIFO waits forever).
        regular = statSync(file).isFile();
        const bytes = regular ? readFileSync(file) : undefined;
        // Decoded, a byte that is not UTF-8 becomes U+FFFD: written back, what it was is lost for good.
        if (bytes && !isUtf8(bytes)) refuse = NOT_UTF8;
        text = bytes?.toString('utf8');
        read = bytes;
      } catch (err) {
        text = undefined;
        if (isErrno(err) && err.code === 'ENOENT') read = null;
      }
      const bom = text?.charCodeAt(0) === 0xfeff;
      const body = bom ? text!.slice(1) : text;
      // Lines end as the skill's reader ends them (formats/text.ts: CRLF, a lone CR or LF); new lines end as most do.
      const eol = body === undefined ? '\n' : commonEnding(body);
      let modeBefore: number | undefined;
      try {
        modeBefore = statSync(file).mode & 0o7777;
      } catch {
        modeBefore = undefined;
      }
      f = {
        text: body,
        lines: body?.split(LINE_BREAK),
        eol,
        bom,
        regular,
        ...(refuse ? { refuse } : {}),
        taken: [],
        edit: { file, before: text, ...(read === undefined ? {} : { read }), after: text ?? '', fixes: [], modeBefore },
        replaces: [],
        appends: [],
      };
      files.set(file, f);
    }
    return f;
  };
  const applied: Fix[] = [];
  const skipped: Fix[] = [];
  const refused: RefusedFix[] = [];
  for (const fix of fixes) {
    const no = fix.changes.find((c) => c.kind !== 'chmod' && open(c.file).refuse !== undefined);
    if (no) {
      refused.push({ fix, file: no.file, reason: open(no.file).refuse! });
      continue;
    }
    const ok = fix.changes.every((c) => fits(c, open(c.file)));
    if (!ok) {
      skipped.push(fix);
      continue;
    }
    const root = rootOf?.(fix);
    for (const c of fix.changes) {
      const f = open(c.file);
      if (root !== undefined) f.edit.root ??= root;
      if (c.kind === 'replace') {
        const end = c.endLine ?? c.line;
        f.taken.push([c.line, end]);
        f.replaces.push({ start: c.line, end, text: c.text });
      } else if (c.kind === 'append') f.appends.push(c.text);
      else f.edit.mode = c.mode;
      if (!f.edit.fixes.includes(fix.description)) f.edit.fixes.push(fix.description);
    }
    applied.push(fix);
  }
  const edits: FileEdit[] = [];
  for (const f of files.values()) {
    if (f.replaces.length > 0 || f.appends.length > 0) {
      // Lines keep their own endings: a file with mixed endings stays as it was outside the replaced lines.
      const lines = (f.text ?? '').split(AFTER_BREAK);
      for (const r of f.replaces.sort((a, b) => b.start - a.start)) {
        const ending = (lines[r.end - 1] ?? '').match(ENDING)?.[0] ?? '';
        const eol = ending || f.eol;
        lines.splice(r.start - 1, r.end - r.start + 1, r.text.split('\n').join(eol) + ending);
      }
      let body = lines.join('');
      for (const a of f.appends) {
        if (body !== '' && !ENDING.test(body)) body += f.eol;
        body += a.split('\n').join(f.eol);
      }
      f.edit.after = (f.bom ? '\ufeff' : '') + body;
    }
    if (
      f.edit.after !== (f.edit.before ?? '') ||
      f.edit.before === undefined ||
      (f.edit.mode !== undefined && f.edit.mode !== f.edit.modeBefore)
    )
      edits.push(f.edit);
  }
  return { edits, applied, skipped, refused };
}

const ENDING = /(?:\r\n|\r|\n)$/;

/** The line ending most lines of `text` have (LF when it has none). */
function commonEnding(text: string): string {
  let crlf = 0;
  let cr = 0;
  let lf = 0;
  for (const m of text.matchAll(/\r\n|\r|\n/g)) {
    if (m[0] === '\r\n') crlf++;
    else if (m[0] === '\r') cr++;
    else lf++;
  }
  return crlf >= cr && crlf >= lf && crlf > 0 ? '\r\n' : cr > lf ? '\r' : '\n';
}

function fits(c: Change, f: { lines?: string[]; regular: boolean; taken: [number, number][] }): boolean {
  if (!f.regular) return false;
  if (c.kind !== 'replace') return true;
  const end = c.endLine ?? c.line;
  if (!f.lines || end > f.lines.length || c.line < 1) return false;
  if (f.taken.some(([a, b]) => c.line <= b && end >= a)) return false;
  const current = f.lines
    .slice(c.line - 1, end)
    .join('\n')
    .replace(/^\ufeff/, '');
  return current === c.expect;
}

/** A planned edit that was not written, and why. */
export interface UnwrittenEdit {
  edit: FileEdit;
  reason: string;
}

/**
 * Write planned edits, each file whole through writeAtomic (a killed run leaves whole files; a file with hard links
 * is written in place, its old bytes put back on a failed write), and only while it
 * still holds what the edit was planned from: an edit made since (an editor's save) is never written over. A symlink
 * is written through to its target when that lies inside the skill, and so are files in a symlinked folder; every
 * target is checked before anything is written, and one outside the skill stops the run (E_INVALID) with nothing
 * written. A file not written (it cannot be, or it changed since it was read) or whose mode cannot be set does not
 * stop the others: it is returned, with the reason.
 */
export function writeEdits(edits: FileEdit[]): UnwrittenEdit[] {
  const targets = edits.map((e) => writeTarget(e.file, e.root ?? dirname(e.file)));
  const unwritten: UnwrittenEdit[] = [];
  edits.forEach((e, i) => {
    const target = targets[i]!;
    try {
      if (e.before === undefined || e.after !== e.before) {
        // A file nobody may write is one its owner keeps as it is; the rename would replace it all the same.
        const readOnly = readOnlyMode(target);
        if (readOnly !== undefined) return unwritten.push({ edit: e, reason: readOnlyReason(readOnly, true) });
        // A file with other names (hard links) is written in place, so that every name holds the fix.
        writeKeepingLinks(target, e.after, {
          mode: e.modeBefore,
          ...(e.read === undefined ? {} : { unlessChanged: e.read }),
        });
      }
    } catch (err) {
      const reason =
        err instanceof FileChanged
          ? 'it changed while lint was running; run lint --fix again'
          : `cannot write it: ${why(err)}; it was left as it was`;
      return unwritten.push({ edit: e, reason });
    }
    if (e.mode !== undefined) {
      try {
        chmodSync(target, e.mode);
      } catch (err) {
        unwritten.push({ edit: e, reason: `cannot change its mode: ${why(err)}` });
      }
    }
  });
  return unwritten;
}

/** Why a fix of a read-only file is not written: by --fix (`written`), or by a --fix to come. */
function readOnlyReason(mode: string, written: boolean): string {
  const left = written ? 'it was left as it was' : '--fix leaves it as it is';
  return `the file is read-only (mode ${mode}); ${left} (chmod u+w lets --fix change it)`;
}

/**
 * Why --fix would not write `file` of the skill at `root` (writeEdits's test, before any fix is tried), or
 * undefined: a lint without --fix does not offer such a fix as fixable.
 */
export function wontWrite(file: string, root: string): string | undefined {
  let mode: string | undefined;
  try {
    mode = readOnlyMode(writeTarget(file, root));
  } catch {
    return undefined;
  }
  return mode === undefined ? undefined : readOnlyReason(mode, false);
}

/** What an error of a write says, without the path (the report names the file). */
function why(err: unknown): string {
  const errno = errnoIn(err);
  if (errno) return explainErrno(errno).reason;
  if (isSkillsError(err)) return err.message;
  throw err;
}

/** Where a fix of `file` writes: the file itself, or the real file a symlink leads to when that is inside `root`. */
function writeTarget(file: string, root: string): string {
  let realRoot: string;
  try {
    realRoot = realpathSync.native(root);
  } catch (err) {
    throw new SkillsError('E_IO', `cannot fix ${file}: ${(err as Error).message}`, { cause: err });
  }
  let link = false;
  try {
    link = lstatSync(file).isSymbolicLink();
  } catch {
    /* missing: a file a fix creates */
  }
  let real: string;
  try {
    real = link ? realpathSync.native(file) : join(realpathSync.native(dirname(file)), basename(file));
  } catch {
    throw new SkillsError(
      'E_INVALID',
      `${file} is a symlink that leads nowhere${link ? '' : ' (its folder is missing)'}; lint --fix did not fix it, and wrote nothing`,
      { hint: 'point the link at a file inside the skill, or replace it with the file' },
    );
  }
  if (!isInside(realRoot, real)) {
    const how = link ? 'is a symlink that leads' : 'lies in a symlinked folder that leads';
    throw new SkillsError(
      'E_INVALID',
      `${file} ${how} out of the skill (to ${real}); lint --fix writes only inside the skill (${root}), and wrote nothing`,
      { hint: 'fix that file by hand, or replace the link with a copy of the file inside the skill' },
    );
  }
  return real;
}
