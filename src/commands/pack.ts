import { statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { Context } from '../context.js';
import { loadOneSkill } from '../skill/one-skill.js';
import { packSkill, type PackFormat, type PackResult } from '../pack/pack.js';
import { packRefusal } from '../pack/check.js';
import { isSkillsError, SkillsError } from '../errors.js';
import { jsonDiagnostic, type Diagnostic } from '../model/diagnostic.js';
import { paint, useColor } from '../ui/color.js';
import { startProgress } from '../ui/spinner.js';
import { formatDiagnostic } from '../ui/validate-report.js';
import { forTerminal, forTerminalLine, safeJson } from '../ui/terminal-text.js';

export interface PackOptions {
  dir?: string;
  out?: string;
  format?: PackFormat;
  dryRun?: boolean;
  /** -q: the archive's path alone on stdout (what a script keeps); errors still on stderr. */
  quiet?: boolean;
  json?: boolean;
  color?: boolean;
}

export type PackOutcome =
  | { ok: true; result: PackResult }
  | { ok: false; skill: string; error: { code: string; message: string; hint?: string }; diagnostics: Diagnostic[] };

const kb = (n: number) =>
  n < 1000 ? `${n} B` : n < 1e6 ? `${(n / 1000).toFixed(1)} kB` : `${(n / 1e6).toFixed(1)} MB`;

/**
 * `skills pack [dir]`: validate, then write `<id>-<version>.tgz` (or `<folder>.skill`). Exit 0 packed; 1 when the
 * skill cannot be packed as it is (invalid, a version that is not MAJOR.MINOR.PATCH, a symlink leading out); 2 for
 * usage
 * and I/O (thrown).
 */
export async function pack(options: PackOptions, ctx: Context): Promise<{ outcome: PackOutcome; exitCode: number }> {
  checkOut(options.out, ctx.cwd);
  const root = resolve(ctx.cwd, options.dir ?? '.');
  const format = options.format ?? 'tgz';
  const skill = loadOneSkill(root, 'pack', ctx.cwd);
  const c = paint(useColor(options.color, ctx));
  const ce = paint(useColor(options.color, ctx, ctx.stderr));
  const rel = (p: string) => relative(ctx.cwd, p) || '.';

  const refuse = (message: string, hint: string | undefined, diagnostics: Diagnostic[]) => {
    const outcome: PackOutcome = {
      ok: false,
      skill: root,
      error: { code: 'E_INVALID', message, ...(hint ? { hint } : {}) },
      diagnostics,
    };
    if (options.json)
      ctx.stdout.write(`${safeJson({ error: outcome.error, diagnostics: diagnostics.map(jsonDiagnostic) })}\n`);
    else {
      ctx.stderr.write(`${ce.red('error:')} ${forTerminal(message)}\n`);
      for (const d of diagnostics) ctx.stderr.write(`${formatDiagnostic(d, ce, rel)}\n`);
      if (hint) ctx.stderr.write(`${ce.dim('hint:')} ${forTerminal(hint)}\n`);
    }
    return { outcome, exitCode: 1 };
  };

  const refusal = await packRefusal(skill, format, ctx.cwd);
  if (refusal) return refuse(refusal.message, refusal.hint, refusal.diagnostics);

  const progress = options.quiet ? { stop: () => undefined } : await startProgress(ctx, options, `packing ${skill.id}`);
  let result: PackResult;
  try {
    const outDir = resolve(ctx.cwd, options.out ?? '.');
    result = await packSkill(skill, { format, outDir, dryRun: options.dryRun });
  } catch (err) {
    progress.stop();
    if (isSkillsError(err) && err.code === 'E_INVALID') return refuse(err.message, err.hint, []);
    throw err;
  }
  progress.stop();

  if (!options.quiet || options.json)
    for (const w of result.warnings) ctx.stderr.write(`${ce.yellow('warning:')} ${forTerminal(w)}\n`);
  if (options.json) {
    const { files, dirs: _dirs, ...rest } = result;
    ctx.stdout.write(
      `${safeJson({ ...rest, dryRun: options.dryRun === true, files: files.map((f) => ({ path: f.path, size: f.size, mode: `0${f.mode.toString(8)}` })) })}\n`,
    );
    return { outcome: { ok: true, result }, exitCode: 0 };
  }
  if (options.quiet) {
    ctx.stdout.write(`${forTerminalLine(rel(result.file))}\n`);
    return { outcome: { ok: true, result }, exitCode: 0 };
  }
  const name = result.version ? `${result.id}@${result.version}` : result.id;
  const count = `${result.files.length} file${result.files.length === 1 ? '' : 's'}`;
  if (options.dryRun) {
    const width = Math.max(0, ...result.files.map((f) => kb(f.size).length));
    for (const f of result.files)
      ctx.stdout.write(`${kb(f.size).padStart(width)}  ${f.mode === 0o755 ? 'x' : ' '} ${forTerminalLine(f.path)}\n`);
    // What the skill's .gitignore or .skillignore files keep out, so the author sees it before anything is sent.
    if (result.ignored.length > 0)
      ctx.stdout.write(c.dim(`left out by ignore files: ${forTerminalLine(result.ignored.join(', '))}\n`));
    ctx.stdout.write(
      `${c.bold(forTerminalLine(name))}: ${count}, ${kb(result.unpackedSize)} unpacked, would be ${forTerminalLine(rel(result.file))} ${c.dim('(dry run: nothing written)')}\n`,
    );
  } else {
    ctx.stdout.write(`${c.green('packed')} ${c.bold(forTerminalLine(name))} → ${forTerminalLine(rel(result.file))}\n`);
    ctx.stdout.write(`size:      ${kb(result.size!)} (${kb(result.unpackedSize)} unpacked)\n`);
    ctx.stdout.write(`files:     ${result.files.length}\n`);
    ctx.stdout.write(`integrity: ${result.integrity}\n`);
  }
  return { outcome: { ok: true, result }, exitCode: 0 };
}

// An archive's name: what a user who reads --out as "the output file" writes (`--out my.tgz`, as for tar -czf).
const ARCHIVE_NAME = /\.(?:tgz|tar\.gz|tar|zip|skill)$/i;

/**
 * --out is the folder the archive is written to (as npm pack's --pack-destination), and the archive is named
 * `<id>-<version>.tgz`. A value that reads as an archive's name and is no folder yet would become a folder of that
 * name holding the archive: refused before anything is written, with what to write instead.
 */
function checkOut(out: string | undefined, cwd: string): void {
  if (out === undefined || !ARCHIVE_NAME.test(out)) return;
  let folder = false;
  try {
    folder = statSync(resolve(cwd, out)).isDirectory();
  } catch {
    folder = false;
  }
  if (folder) return;
  throw new SkillsError('E_USAGE', `--out takes the folder to write the archive to, not the archive's name: "${out}"`, {
    hint: 'the archive is named <id>-<version>.tgz (or <folder>.skill); write --out . or --out dist, and rename it after',
  });
}
