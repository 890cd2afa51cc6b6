import { relative } from 'node:path';
import { homeOf, type Context } from '../context.js';
import { detectAgents, homeVariableWarnings, type AgentReads } from '../skill/agents.js';
import { isInside } from '../fs/walk.js';
import { paint, useColor, type Paint } from '../ui/color.js';
import { columns, padColumns } from '../ui/columns.js';
import { forTerminal, safeJson } from '../ui/terminal-text.js';

export interface AgentsOptions {
  json?: boolean;
  color?: boolean;
}

/** One agent as `skills agents` shows it. */
export interface AgentRow {
  name: string;
  title: string;
  aliases: string[];
  /** Relative to the project root. */
  project: string;
  /** Relative to the home folder, as the table lists it; null when the agent reads no user folder. */
  user: string | null;
  /** The folders on this machine, absolute: the project's below cwd, the user's as the environment moves it. */
  projectDir: string;
  userDir: string | null;
  reads: AgentReads;
  detected: { here: boolean; user: boolean };
  /** The paths that made it detected. */
  found: string[];
}

export interface AgentsResult {
  agents: AgentRow[];
}

/** `skills agents`: every agent skills knows, the folders it reads skills from, and whether it is used here. */
export async function agents(options: AgentsOptions, ctx: Context): Promise<AgentsResult> {
  const home = homeOf(ctx);
  for (const w of homeVariableWarnings(ctx.env)) ctx.stderr.write(`warning: ${forTerminal(w)}\n`);
  const rows: AgentRow[] = detectAgents({ cwd: ctx.cwd, home, env: ctx.env }).map((d) => ({
    name: d.agent.name,
    title: d.agent.title,
    aliases: [...d.agent.aliases],
    project: d.agent.project,
    user: d.agent.user ?? null,
    projectDir: d.projectDir,
    userDir: d.userDir ?? null,
    reads: d.agent.reads,
    detected: { here: d.here, user: d.user },
    found: d.found,
  }));
  if (options.json) ctx.stdout.write(`${safeJson(rows)}\n`);
  else ctx.stdout.write(formatAgents(rows, { home, c: paint(useColor(options.color, ctx)) }));
  return { agents: rows };
}

/** The table, then the legend. */
export function formatAgents(rows: AgentRow[], opts: { home: string; c: Paint }): string {
  const { c } = opts;
  const tilde = (dir: string | null) =>
    dir === null ? '-' : isInside(opts.home, dir) ? `~/${relative(opts.home, dir)}` : dir;
  const mark = (on: boolean) => (on ? '✓' : '-');
  const head = ['AGENT', 'NAME', 'PROJECT FOLDER', 'USER FOLDER', 'HERE', 'USER'];
  const cells = rows.map((r) =>
    [r.name, r.title, r.project, tilde(r.userDir), mark(r.detected.here), mark(r.detected.user)].map(forTerminal),
  );
  const widths = head.map((h, i) => Math.max(columns(h), ...cells.map((row) => columns(row[i]!))));
  const pad = (s: string, i: number) => padColumns(s, widths[i]!);
  const lines = [c.bold(head.map(pad).join('  ').trimEnd())];
  for (const row of cells)
    lines.push(
      row
        .map((s, i) => (i >= 4 && s === '✓' ? c.green(pad(s, i)) : pad(s, i)))
        .join('  ')
        .trimEnd(),
    );
  lines.push(
    c.dim(
      "HERE ✓: its skill folder or config is in this project; USER ✓: in your home. Agents read SKILL.md skills, not manifest.json ones (only skills' own commands do).",
    ),
  );
  return `${lines.join('\n')}\n`;
}
