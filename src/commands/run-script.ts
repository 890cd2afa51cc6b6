import type { Context } from '../context.js';
import type { ScriptsDocument } from '../run/listing.js';
import { runSkillScript, type RunScriptRequest, type RunScriptResult } from '../run/run.js';
import { paint, useColor, type Paint } from '../ui/color.js';
import { columns, padColumns } from '../ui/columns.js';
import { safeJson, forTerminal, forTerminalLine } from '../ui/terminal-text.js';

export type { RunDocument } from '../run/report.js';
export type { ScriptsDocument } from '../run/listing.js';
export type { RunScriptResult } from '../run/run.js';

export interface RunScriptOptions extends RunScriptRequest {
  color?: boolean;
}

/** `skills run-script <skill> <script>`: run a skill's script with JSON arguments, a clean environment and limits. */
export async function runScript(options: RunScriptOptions, ctx: Context): Promise<RunScriptResult> {
  const result = await runSkillScript(options, {
    cwd: ctx.cwd,
    env: ctx.env,
    stdin: ctx.stdin,
    stdout: ctx.stdout,
    stderr: ctx.stderr,
    notice: (line) => ctx.stderr.write(`${forTerminal(line)}\n`),
  });
  if (result.scripts)
    ctx.stdout.write(
      options.json
        ? `${safeJson(result.scripts)}\n`
        : formatScripts(result.scripts, paint(useColor(options.color, ctx))),
    );
  else if (options.json) ctx.stdout.write(`${safeJson(result.run)}\n`);
  return result;
}

/**
 * --list: the skill, then one line per script: path, interpreter, description (or why it is refused). Every piece
 * comes from the skill (its name, its files' names, their first comment lines): each is shown on one line with
 * escapes for what a terminal would act on, and the columns are measured on what is shown.
 */
export function formatScripts(doc: ScriptsDocument, c: Paint): string {
  const lines = [`${c.bold(forTerminalLine(doc.skill))}  ${c.dim(`${doc.layout}  ${forTerminalLine(doc.path)}`)}`];
  if (doc.scripts.length === 0)
    return `${lines[0]}\n${c.dim('  no scripts (files below scripts/, or declared in "scripts")')}\n`;
  const rows = doc.scripts.map((s) => ({
    path: forTerminalLine(s.path),
    interpreter: forTerminalLine(s.interpreter ?? '-'),
    note: s.refused
      ? c.red(`refused: ${forTerminalLine(s.refused)}`)
      : s.problem
        ? c.yellow(forTerminalLine(s.problem))
        : c.dim(forTerminalLine(s.description ?? '')),
  }));
  const pathWidth = Math.max(...rows.map((r) => columns(r.path)));
  const interpWidth = Math.max(...rows.map((r) => columns(r.interpreter)));
  for (const r of rows)
    lines.push(`  ${padColumns(r.path, pathWidth)}  ${padColumns(r.interpreter, interpWidth)}  ${r.note}`.trimEnd());
  return `${lines.join('\n')}\n`;
}
