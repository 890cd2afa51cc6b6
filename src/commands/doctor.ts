import { basename, relative } from 'node:path';
import { homeOf, type Context } from '../context.js';
import { doctor as check, PROBLEMS, type AgentReport, type DoctorReport } from '../doctor/doctor.js';
import type { SkippedSkill } from '../doctor/agent-view.js';
import type { Listing } from '../doctor/listing.js';
import { isInside } from '../fs/walk.js';
import { setDiscoveryLimits } from '../skill/discover.js';
import { homeVariableWarnings } from '../skill/agents.js';
import { projectChain } from '../skill/folders.js';
import { paint, useColor, type Paint } from '../ui/color.js';
import { forTerminal, forTerminalLine, safeJson } from '../ui/terminal-text.js';
import { counted } from '../formats/text.js';

export interface DoctorOptions {
  json?: boolean;
  /** `--agent`: names, comma-separated; repeated, a list (every one is checked, as install places into each). */
  agent?: string | string[];
  color?: boolean;
}

/** `skills doctor`: for each agent with skill folders here, what it loads, skips and lists; exit 1 on problems. */
export async function doctor(
  options: DoctorOptions,
  ctx: Context,
): Promise<{ report: DoctorReport; exitCode: number }> {
  setDiscoveryLimits(ctx.env);
  const home = homeOf(ctx);
  for (const w of homeVariableWarnings(ctx.env)) ctx.stderr.write(`warning: ${forTerminal(w)}\n`);
  // The project is checked from its top (its lockfile's folder, else the repository root), wherever in it doctor runs.
  const report = await check({
    cwd: projectChain(ctx.cwd).at(-1)!,
    home,
    env: ctx.env,
    ...(options.agent !== undefined ? { agents: [options.agent].flat() } : {}),
  });
  if (options.json) ctx.stdout.write(`${safeJson(report)}\n`);
  else ctx.stdout.write(formatDoctor(report, { cwd: ctx.cwd, home, c: paint(useColor(options.color, ctx)) }));
  return { report, exitCode: report.problems > 0 ? 1 : 0 };
}

const n = (x: number) => x.toLocaleString('en-US');

interface FormatOptions {
  cwd: string;
  home: string;
  c: Paint;
}

/** One block per agent, then a line of totals. */
export function formatDoctor(report: DoctorReport, opts: FormatOptions): string {
  const { c } = opts;
  if (report.agents.length === 0)
    return `${c.dim('No agent skill folders here or in your home: no agent reads skills yet. `skills agents` lists where each agent looks.')}\n`;
  const blocks = report.agents.map((a) => formatAgent(a, opts));
  const total =
    report.problems === 0
      ? c.green(`${counted(report.agents.length, 'agent')} checked: nothing wrong`)
      : c.red(`${counted(report.agents.length, 'agent')} checked: ${counted(report.problems, 'problem')}`);
  return `${[...blocks, total].join('\n\n')}\n`;
}

function formatAgent(a: AgentReport, opts: FormatOptions): string {
  const { c } = opts;
  const show = (p: string) => forTerminalLine(shortPath(p, opts));
  const lines = [c.bold(`${a.title} (${a.name})`)];
  const there = a.folders.filter((f) => f.exists).map((f) => show(f.dir));
  const blocked = a.blocked ?? [];
  lines.push(
    there.length > 0
      ? `  reads ${there.join(', then ')}${there.length > 1 ? ' (the first wins a name)' : ''}`
      : blocked.length > 0
        ? '  reads none of its folders'
        : '  reads none of its folders: none exists',
  );
  for (const b of blocked) {
    lines.push(c.red(`  cannot read ${show(b.dir)}: ${forTerminalLine(b.message)}`));
    lines.push(`    ${forTerminal(b.hint)}`);
  }
  lines.push(...viewLines(a, a.title, '  ', c, show));
  for (const p of a.plugins ?? []) {
    lines.push(`  plugin ${forTerminal(p.id)} (${show(p.dir)}):`);
    lines.push(...viewLines(p, a.title, '    ', c, show));
  }
  lines.push(...listingLines(a.listing, a.title, '  ', c));
  for (const v of a.nested) {
    lines.push(`  when it works in ${show(v.workingIn)}, also reads ${show(v.folder)}:`);
    lines.push(...viewLines(v, a.title, '    ', c, show));
    // The listing there is said when it goes over (the top's line already says how large the top's is).
    if (v.listing.over > 0) lines.push(...listingLines(v.listing, a.title, '    ', c));
  }
  for (const w of a.warnings) lines.push(c.yellow(`  warning: ${forTerminalLine(w)}`));
  lines.push(a.problems === 0 ? c.green('  ok') : c.red(`  ${counted(a.problems, 'problem')}`));
  return lines.join('\n');
}

/** The skills a view loads, loads though invalid, skips, and the names that collide, each line after `indent`. */
function viewLines(
  v: Pick<AgentReport, 'loaded' | 'loadedInvalid' | 'skipped' | 'collisions'>,
  title: string,
  indent: string,
  c: Paint,
  show: (p: string) => string,
): string[] {
  const name = (s: string) => forTerminalLine(s);
  const skipName = (s: SkippedSkill) => name(s.name ?? basename(s.root));
  const lines = [
    `${indent}loads ${counted(v.loaded.length, 'skill')}${v.loaded.length > 0 ? `: ${firstOf(v.loaded.map((s) => name(s.name)))}` : ''}`,
  ];
  if (v.loadedInvalid.length > 0) {
    lines.push(
      `${indent}loads though invalid ${n(v.loadedInvalid.length)} (${title} minds none of their errors; other agents may skip them):`,
    );
    const width = Math.max(...v.loadedInvalid.map((s) => [...name(s.name)].length));
    for (const s of v.loadedInvalid) {
      const shown = name(s.name);
      lines.push(
        c.red(
          `${indent}  ${shown}${' '.repeat(width - [...shown].length)}  ${show(s.root)}: ${forTerminalLine(s.message)}`,
        ),
      );
    }
  }
  if (v.skipped.length > 0) {
    lines.push(`${indent}skips ${n(v.skipped.length)}:`);
    const width = Math.max(...v.skipped.map((s) => [...skipName(s)].length));
    for (const s of v.skipped) {
      const why = skipText(s, show);
      const shown = skipName(s);
      const text = `${indent}  ${shown}${' '.repeat(width - [...shown].length)}  ${why}`;
      lines.push(PROBLEMS.includes(s.reason) ? c.red(text) : text);
      if (s.moveTo !== undefined)
        lines.push(`${indent}    hint: move it up to ${show(s.moveTo)}/, where ${title} finds it`);
    }
  }
  if (v.collisions.length > 0) {
    lines.push(`${indent}collisions:`);
    for (const k of v.collisions) {
      lines.push(
        c.red(
          k.kind === 'same-name'
            ? `${indent}  "${forTerminalLine(k.names[0]!)}" names two different skills: ${show(k.roots[0]!)} is used, ${show(k.roots[1]!)} is not`
            : `${indent}  ${k.names.map((x) => `"${forTerminalLine(x)}"`).join(' and ')} look alike (${k.roots.map(show).join(', ')})`,
        ),
      );
    }
  }
  return lines;
}

function skipText(s: SkippedSkill, show: (p: string) => string): string {
  switch (s.reason) {
    case 'invalid':
      return `invalid (${show(s.root)}): ${forTerminalLine(s.message)}`;
    case 'unreadable':
      return `unreadable: ${forTerminalLine(s.message)}`;
    case 'manifest':
      return `not read: ${forTerminalLine(s.message)}`;
    case 'shadowed':
      return `shadowed: ${show(s.root)} by ${show(s.by!)}${s.copy ? ' (the same skill)' : ''}`;
    case 'disabled':
      return `disabled: ${forTerminalLine(s.message)}`;
    case 'too-deep':
      return `too deep (${show(s.root)}): ${forTerminalLine(s.message)}`;
  }
}

/** The first ten of a long list, then how many more (--json has them all). */
function firstOf(items: string[], most = 10): string {
  return items.length <= most
    ? items.join(', ')
    : `${items.slice(0, most).join(', ')} and ${items.length - most} more (--json lists them all)`;
}

function listingLines(listing: Listing, title: string, indent: string, c: Paint): string[] {
  const size = `${counted(listing.characters, 'character')}, ${counted(listing.tokens, 'token')}`;
  const budget = listing.budget;
  if (!budget) return [`${indent}listing: ${size}; ${title} documents no budget`];
  const limit = `${n(budget.limit)} ${budget.unit}`;
  if (listing.over === 0) return [`${indent}listing: ${size}, within its budget of ${limit}`];
  const out = [c.red(`${indent}listing: ${size}, over its budget of ${limit} by ${n(listing.over)}`)];
  const each = listing.trim.map((t) => `${forTerminalLine(t.name)} (saves ${n(t.saves[budget.unit])} ${budget.unit})`);
  out.push(`${indent}  trim first, the entries that save most: ${firstOf(each)}`);
  return out;
}

/** A path as the user would type it: relative below the current folder, `~/` below home, else absolute. */
function shortPath(p: string, opts: { cwd: string; home: string }): string {
  if (isInside(opts.cwd, p)) return relative(opts.cwd, p) || '.';
  if (isInside(opts.home, p)) return `~/${relative(opts.home, p)}`;
  return p;
}
