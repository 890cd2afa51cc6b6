import type { Context } from '../context.js';
import type { ScriptsDocument } from '../run/listing.js';
import { runSkillScript, type RunScriptRequest, type RunScriptResult } from '../run/run.js';
import { paint, useColor, type Paint } from '../ui/color.js';
import { safeJson, forTerminal } from '../ui/terminal-text.js';

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

/** --list: the skill, then one line per script: path, interpreter, description (or why it is refused). */
export function formatScripts(doc: ScriptsDocument, c: Paint): string {
  const lines = [`${c.bold(doc.skill)}  ${c.dim(`${doc.layout}  ${doc.path}`)}`];
  if (doc.scripts.length === 0)
    return `${lines[0]}\n${c.dim('  no scripts (files below scripts/, or declared in "scripts")')}\n`;
  const pathWidth = Math.max(...doc.scripts.map((s) => s.path.length));
  const interpWidth = Math.max(...doc.scripts.map((s) => (s.interpreter ?? '-').length));
  for (const s of doc.scripts) {
    const note = s.refused
      ? c.red(`refused: ${s.refused}`)
      : s.problem
        ? c.yellow(s.problem)
        : c.dim(s.description ?? '');
    lines.push(`  ${s.path.padEnd(pathWidth)}  ${(s.interpreter ?? '-').padEnd(interpWidth)}  ${note}`.trimEnd());
  }
  return `${lines.join('\n')}\n`;
}
