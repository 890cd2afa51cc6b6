import { chmodSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import type { Change, Fix } from './types.js';

export interface FileEdit {
  file: string;
  before: string | undefined;
  after: string;
  /** Mode to set after writing, when a chmod change asks for one. */
  mode?: number;
  modeBefore?: number;
  fixes: string[];
}

/**
 * Work out what a set of fixes does to each file, without writing: fixes whose changes overlap one already
 * taken, or whose expected text is no longer there, are left for the next pass.
 */
export function planFixes(fixes: Fix[]): { edits: FileEdit[]; applied: Fix[]; skipped: Fix[] } {
  const files = new Map<
    string,
    {
      text?: string;
      lines?: string[];
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
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        text = undefined;
      }
      const bom = text?.charCodeAt(0) === 0xfeff;
      const body = bom ? text!.slice(1) : text;
      const eol = body?.includes('\r\n') ? '\r\n' : '\n';
      let modeBefore: number | undefined;
      try {
        modeBefore = statSync(file).mode & 0o7777;
      } catch {
        modeBefore = undefined;
      }
      f = {
        text: body,
        lines: body?.split(/\r?\n/),
        eol,
        bom,
        taken: [],
        edit: { file, before: text, after: text ?? '', fixes: [], modeBefore },
        replaces: [],
        appends: [],
      };
      files.set(file, f);
    }
    return f;
  };
  const applied: Fix[] = [];
  const skipped: Fix[] = [];
  for (const fix of fixes) {
    const ok = fix.changes.every((c) => fits(c, open(c.file)));
    if (!ok) {
      skipped.push(fix);
      continue;
    }
    for (const c of fix.changes) {
      const f = open(c.file);
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
      const lines = (f.text ?? '').split(/(?<=\n)/);
      for (const r of f.replaces.sort((a, b) => b.start - a.start)) {
        const last = lines[r.end - 1] ?? '';
        const ending = last.endsWith('\r\n') ? '\r\n' : last.endsWith('\n') ? '\n' : '';
        const eol = ending || f.eol;
        lines.splice(r.start - 1, r.end - r.start + 1, r.text.split('\n').join(eol) + ending);
      }
      let body = lines.join('');
      for (const a of f.appends) {
        if (body !== '' && !body.endsWith('\n')) body += f.eol;
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
  return { edits, applied, skipped };
}

function fits(c: Change, f: { lines?: string[]; taken: [number, number][] }): boolean {
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

/** Write planned edits: each file through a temp file and a rename, so a killed run leaves whole files. */
export function writeEdits(edits: FileEdit[]): void {
  for (const e of edits) {
    if (e.before === undefined || e.after !== e.before) {
      const tmp = join(dirname(e.file), `.${basename(e.file)}.skills-fix-${process.pid}`);
      writeFileSync(tmp, e.after, { mode: e.modeBefore ?? 0o644 });
      try {
        renameSync(tmp, e.file);
      } catch (err) {
        try {
          writeFileSync(tmp, '');
        } catch {
          /* best effort */
        }
        throw err;
      }
    }
    if (e.mode !== undefined) chmodSync(e.file, e.mode);
  }
}
