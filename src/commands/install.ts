import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { homeOf, NO_HOME, type Context } from '../context.js';
import { SkillsError } from '../errors.js';
import { consumerProblem } from '../model/consumer.js';
import { cacheHomeIfAny } from '../fetch/cache.js';
import { isInside, present } from '../fs/walk.js';
import { listSources, type SourceListing } from '../install/inspect.js';
import { someOf } from '../install/namesakes.js';
import { installSkills } from '../install/install.js';
import { findLockfile, globalLockfile } from '../install/lock.js';
import type { InstallOptions as CoreOptions, InstallOutcome, InstalledSkill, InvalidSource } from '../install/types.js';
import { jsonDiagnostic } from '../model/diagnostic.js';
import { askedRegistry, registryFor } from '../registry/locate.js';
import { AGENTS, agentsInUse, homeVariableWarnings, resolveAgents, userFolder } from '../skill/agents.js';
import { setDiscoveryLimits } from '../skill/discover.js';
import { paint, useColor } from '../ui/color.js';
import { startProgress } from '../ui/spinner.js';
import { formatDiagnostic } from '../ui/validate-report.js';
import { columns, cutColumns, padColumns } from '../ui/columns.js';
import { safeJson, forTerminal } from '../ui/terminal-text.js';

export interface InstallOptions {
  sources: string[];
  agent?: string[];
  global?: boolean;
  into?: string[];
  skill?: string[];
  list?: boolean;
  yes?: boolean;
  strict?: boolean;
  link?: boolean;
  from?: string;
  for?: string;
  frozen?: boolean;
  force?: boolean;
  dryRun?: boolean;
  verbose?: boolean;
  quiet?: boolean;
  json?: boolean;
  registry?: string;
  color?: boolean;
}

/** Where an install goes and what it reads: the lock, the registry (asked for, or only read), the agent folders. */
export function installTarget(
  options: Pick<InstallOptions, 'global' | 'registry' | 'for' | 'agent' | 'into'>,
  ctx: Context,
): Pick<CoreOptions, 'lockfile' | 'registry' | 'useRegistry' | 'home' | 'global' | 'into' | 'agentInto'> {
  const home = homeOf(ctx);
  if (options.global && home === NO_HOME) {
    throw new SkillsError(
      'E_CONFIG',
      `--global needs a home folder, and HOME is ${JSON.stringify(ctx.env.HOME ?? '')}`,
      {
        hint: 'set HOME to the absolute path of your home folder',
      },
    );
  }
  // Only --global reads the agents' user folders, which their variables move.
  if (options.global) for (const w of homeVariableWarnings(ctx.env)) ctx.stderr.write(`warning: ${forTerminal(w)}\n`);
  const lockfile = options.global ? globalLockfile(home, ctx.env) : findLockfile(ctx.cwd);
  const asked = askedRegistry(options, ctx, dirname(lockfile));
  const agentDirs = options.agent?.length
    ? resolveAgents(options.agent, { cwd: dirname(lockfile), home, env: ctx.env, global: options.global === true }).map(
        (a) => a.dir,
      )
    : [];
  return {
    lockfile,
    home,
    global: options.global === true,
    registry: asked ?? registryFor(options, ctx),
    useRegistry: asked !== undefined || options.for !== undefined,
    into: [...(options.into ?? []).map((d) => resolve(ctx.cwd, d)), ...agentDirs],
    agentInto: agentDirs,
  };
}

/**
 * `skills install [source…]`: exit 0 installed; 1 when a skill is invalid (skipped or refused), no resolution exists,
 * or --frozen and the lock would change or not hold (findings, reported here); 2 for usage, I/O, git and downloads, a
 * corrupt or hostile archive, an integrity mismatch without --frozen (thrown, so main.ts reports them), and a source
 * of several whose every skill lies too deep to install (reported here).
 */
export async function install(
  options: InstallOptions,
  ctx: Context,
): Promise<{ outcome?: InstallOutcome; listing?: SourceListing[]; exitCode: number }> {
  if (options.for !== undefined && options.for.trim() === '') {
    throw new SkillsError('E_USAGE', '--for is empty: expected the id of the agent or project that uses the skills', {
      hint: 'e.g. --for content-creator',
    });
  }
  // The limits of a search for skills (SKILLS_MAX_FOLDERS, …) are a source's as they are lint's.
  setDiscoveryLimits(ctx.env);
  const consumer = options.for === undefined ? undefined : consumerProblem(options.for.trim());
  if (consumer !== undefined) throw (await import('../registry/usage.js')).consumerError(options.for!.trim(), consumer);
  if (options.list && options.sources.length === 0)
    throw new SkillsError('E_USAGE', '--list needs a source: the repository, folder or archive to look into', {
      hint: 'e.g. skills install anthropics/skills --list',
    });
  const target = installTarget(options, ctx);
  // stdout first: process.stdin is a stream built on first touch (for a pipe, as a script gives, it loads net).
  const interactive = !options.yes && !options.json && ctx.stdout.isTTY === true && ctx.stdin.isTTY === true;
  const progress = await startProgress(
    ctx,
    options,
    options.sources.length ? 'installing' : `installing from ${target.lockfile}`,
  );
  const core: CoreOptions = {
    ...target,
    cacheDir: cacheHomeIfAny(ctx.env, target.home),
    env: ctx.env,
    sources: options.sources,
    from: options.from === undefined ? undefined : resolve(ctx.cwd, options.from),
    consumer: options.for?.trim(),
    frozen: options.frozen,
    force: options.force,
    dryRun: options.dryRun,
    verbose: options.verbose,
    strict: options.strict,
    link: options.link,
    ...(options.skill?.length ? { only: options.skill } : {}),
    cwd: ctx.cwd,
    nodeVersion: process.versions.node,
    progress: (t) => progress.text(t),
    ...(interactive && !options.skill?.length
      ? {
          pick: async (typed, skills) => {
            progress.stop();
            const { checkbox } = await import('@inquirer/prompts');
            return checkbox({
              message: `${typed} holds ${skills.length} skills: install which?`,
              pageSize: 15,
              // A skill whose name another one here shares is shown with its folder; one that installing all would
              // leave out is not ticked, and may be chosen instead.
              choices: skills.map((s, i) => ({
                value: i,
                name:
                  s.inside !== undefined
                    ? `${s.id} (${s.inside})`
                    : s.foundAt
                      ? `${s.id} (found at ${someOf(s.foundAt)}: the same files, installed once)`
                      : s.id,
                checked: s.problem === undefined && !s.unticked,
                description: s.description,
                disabled: s.problem === undefined ? false : `(invalid: ${s.problem})`,
              })),
            });
          },
        }
      : {}),
    ...(interactive && target.into!.length === 0
      ? {
          choosePlaces: async () => {
            progress.stop();
            const { checkbox } = await import('@inquirer/prompts');
            const base = target.global ? target.home : dirname(target.lockfile);
            const dirs = [
              ...new Map(
                AGENTS.flatMap((a) => {
                  // The agents table's own folders: a user folder moves with CLAUDE_CONFIG_DIR, XDG_CONFIG_HOME, …
                  const dir = target.global
                    ? userFolder(a, { cwd: base, home: target.home, env: ctx.env })
                    : join(base, a.project);
                  return dir === undefined ? [] : [[dir, a.title] as const];
                }),
              ),
            ];
            // The folders there are ticked; with none, those of the agents used here (install.ts defaultPlaces), and
            // with no sign of any, the generic .agents/skills that most agents read.
            const there = dirs.some(([dir]) => present(dir));
            const used = new Set(
              agentsInUse({ cwd: base, home: target.home, env: ctx.env }, target.global === true).map((u) => u.dir),
            );
            const generic = join(base, '.agents', 'skills');
            return checkbox({
              message: 'No agent folder is set for this project: which agents should read these skills?',
              pageSize: 15,
              required: true,
              choices: dirs.map(([dir, title]) => ({
                value: dir,
                name: `${title}  (${isInside(base, dir) ? `${target.global ? '~/' : ''}${relative(base, dir)}` : dir})`,
                checked: there ? present(dir) : used.size > 0 ? used.has(dir) : dir === generic,
              })),
            });
          },
        }
      : {}),
  };
  let outcome: InstallOutcome;
  try {
    if (options.list) {
      const listing = await listSources(core);
      progress.stop();
      return { listing, exitCode: printListing(listing, options, ctx) };
    }
    outcome = await installSkills(core);
  } finally {
    progress.stop();
  }
  return { outcome, exitCode: printOutcome(outcome, options, ctx) };
}

/** The columns of a description in `install --list` when the output is no terminal. */
const LISTING_WIDTH = 100;

function printListing(listing: SourceListing[], options: InstallOptions, ctx: Context): number {
  if (options.json) {
    ctx.stdout.write(`${safeJson({ sources: listing })}\n`);
    return 0;
  }
  const c = paint(useColor(options.color, ctx));
  for (const l of listing) {
    ctx.stdout.write(`${c.bold(forTerminal(l.source))}: ${l.skills.length} skill${l.skills.length === 1 ? '' : 's'}\n`);
    if (l.note !== undefined) ctx.stdout.write(`  ${c.dim(`(${l.note})`)}\n`);
    for (const w of l.warnings ?? []) ctx.stderr.write(`${c.yellow('warning:')} ${forTerminal(w)}\n`);
    // Ids padded and descriptions cut by terminal columns (ui/columns.ts), to the terminal's width when it has one.
    const ids = l.skills.map((s) => forTerminal(s.id));
    const width = Math.max(...ids.map(columns));
    const room = Math.max(20, (ctx.stdout.columns || LISTING_WIDTH + width + 4) - width - 4);
    l.skills.forEach((s, k) => {
      const text = cutColumns(
        forTerminal(s.problem === undefined ? s.description.replace(/\s+/g, ' ') : `invalid: ${s.problem}`),
        room,
      );
      ctx.stdout.write(`  ${padColumns(ids[k]!, width)}  ${s.problem === undefined ? text : c.red(text)}\n`);
      // The same files at two paths of the source are one skill, listed once and installed once: say where.
      if (s.foundAt)
        ctx.stdout.write(
          `  ${' '.repeat(width)}  ${c.dim(forTerminal(`found at ${s.foundAt.join(', ')} (the same files; installed once)`))}\n`,
        );
      // Installing all leaves it out for a namesake: say why, and how to take this one.
      if (s.leftOut)
        ctx.stdout.write(
          `  ${' '.repeat(width)}  ${c.yellow(forTerminal(`left out of "all": ${s.leftOut.why}${s.leftOut.alone === undefined ? '' : `; alone: ${s.leftOut.alone}`}`))}\n`,
        );
    });
  }
  return 0;
}

/**
 * A line a skill left out: what it is, why, and where. Namesakes left out at a tie are one line a name (a course
 * with 52 translations of one skill is not 53 lines), naming their folders and the source of the first alone.
 */
function skippedLines(skipped: readonly InvalidSource[], rel: (p: string) => string): string[] {
  // In order of the first of each: a line, or the namesakes of one name in one source (filled as they come).
  const lines: (string | InvalidSource[])[] = [];
  const tied = new Map<string, InvalidSource[]>();
  for (const i of skipped) {
    if (i.namesake) {
      const key = `${i.namesake.of}\0${i.id}`;
      const same = tied.get(key);
      if (same) same.push(i);
      else {
        tied.set(key, [i]);
        lines.push(tied.get(key)!);
      }
      continue;
    }
    const d = i.diagnostics[0];
    const at = d ? `${rel(d.file)}${d.line ? `:${d.line}` : ''}: ` : '';
    lines.push(`${i.id ?? i.source} (${i.source}): ${at}${d?.message ?? i.message}`);
  }
  return lines.map((line) => {
    if (typeof line === 'string') return line;
    const first = line[0]!;
    return `${first.id}: ${line.length} different skills of ${first.namesake!.of} are named ${first.id} (${someOf(line.map((i) => i.namesake!.inside))}): a folder an agent reads holds one skill of a name, so none was installed. One alone: ${first.namesake!.alone}`;
  });
}

function printOutcome(outcome: InstallOutcome, options: InstallOptions, ctx: Context): number {
  const c = paint(useColor(options.color, ctx));
  const ce = paint(useColor(options.color, ctx, ctx.stderr));
  // A finding inside an archive is named `<archive>: <path inside>`, which is no path to make relative.
  const rel = (p: string) => (isAbsolute(p) ? relative(ctx.cwd, p) || '.' : p);
  // `skipped` and its text start where a skill's id does beside `added   ` (as sync prints it).
  const skippedLine = (l: string) => `${ce.yellow('skipped')}   ${forTerminal(l)}\n`;
  if (!options.quiet)
    for (const w of outcome.warnings) ctx.stderr.write(`${ce.yellow('warning:')} ${forTerminal(w)}\n`);

  if (!outcome.ok) {
    const { error } = outcome;
    if (options.json) {
      const doc = {
        error: {
          code: error.code,
          kind: outcome.kind,
          message: error.message,
          ...(error.hint ? { hint: error.hint } : {}),
        },
        ...(outcome.invalid
          ? {
              invalid: outcome.invalid.map((i) => ({
                source: i.source,
                id: i.id,
                diagnostics: i.diagnostics.map(jsonDiagnostic),
              })),
            }
          : {}),
        ...(outcome.changes ? { changes: outcome.changes } : {}),
      };
      ctx.stdout.write(`${safeJson(doc)}\n`);
    } else {
      if (outcome.kind === 'none') {
        for (const l of skippedLines(outcome.invalid ?? [], rel)) ctx.stderr.write(skippedLine(l));
        ctx.stderr.write(`${ce.red('error:')} ${forTerminal(error.message)}\n`);
      } else if (outcome.invalid) {
        for (const i of outcome.invalid) {
          ctx.stderr.write(`${ce.red('error:')} ${forTerminal(i.message)}\n`);
          for (const d of i.diagnostics) ctx.stderr.write(`${formatDiagnostic(d, ce, rel)}\n`);
        }
      } else ctx.stderr.write(`${ce.red('error:')} ${forTerminal(error.message)}\n`);
      if (error.hint) ctx.stderr.write(`${ce.dim('hint:')} ${forTerminal(error.hint)}\n`);
    }
    // Nothing installed because every skill lies too deep: the system's failure (exit 2), as for one alone.
    return error.code === 'E_IO' ? 2 : 1;
  }

  const exitCode = outcome.skipped.length > 0 ? 1 : 0;
  if (options.quiet && !options.json) {
    // -q: errors only. A skill left out is one (the run exits 1); what was installed is not said.
    for (const l of skippedLines(outcome.skipped, rel)) ctx.stderr.write(skippedLine(l));
    return exitCode;
  }
  if (options.json) {
    const { ok: _ok, skipped, ...rest } = outcome;
    const doc = {
      ...rest,
      skipped: skipped.map((i) => ({
        source: i.source,
        id: i.id,
        reason: i.namesake ? 'same-name' : i.tooLong ? 'path-too-long' : 'invalid',
        message: i.message,
        diagnostics: i.diagnostics.map(jsonDiagnostic),
      })),
    };
    ctx.stdout.write(`${safeJson(doc)}\n`);
    return exitCode;
  }
  // One word a skill: added (new to the lock), updated (another version or content), unchanged (as locked;
  // "placed" when it was written into a folder that lacked it). --dry-run says what would be.
  const colour = { added: c.green, updated: c.green, placed: c.green, unchanged: c.dim } as const;
  const word = (s: InstalledSkill): keyof typeof colour => {
    if (s.status !== 'unchanged') return s.status;
    const written = s.placed?.some((p) => p.status === 'written') || (s.registered ?? 'unchanged') !== 'unchanged';
    return written ? 'placed' : 'unchanged';
  };
  const counts = new Map<string, number>();
  const would = outcome.dryRun ? 'would be ' : '';
  for (const s of outcome.skills) {
    const w = word(s);
    counts.set(w, (counts.get(w) ?? 0) + 1);
    const into = s.placed?.length
      ? `  → ${s.placed.map((p) => `${rel(p.into)}${p.link ? ' (link)' : ''}${p.status === 'unchanged' && w !== 'unchanged' ? ' (unchanged)' : ''}`).join(', ')}`
      : '';
    // The registry's copy of that version was another content (changed by hand, or --force): it was replaced.
    const replaced = s.registered === 'replaced' ? c.yellow(' (stored copy replaced)') : '';
    // What it replaced, when that was another version or came from elsewhere (a release archive over a git checkout).
    const was =
      s.was && (s.was.version !== s.version || s.was.source !== undefined)
        ? c.dim(` (was ${s.was.version}${s.was.source === undefined ? '' : ` from ${s.was.source}`})`)
        : '';
    ctx.stdout.write(
      `${colour[w](`${would}${w}`.padEnd(would ? 18 : 9))} ${c.bold(forTerminal(`${s.id}@${s.version}`))}${s.requested ? '' : c.dim(' (dependency)')}${forTerminal(`${was}${replaced}${into}`)}\n`,
    );
  }
  for (const l of skippedLines(outcome.skipped, rel)) ctx.stderr.write(skippedLine(l));
  const where =
    outcome.registry ??
    [...new Set(outcome.skills.flatMap((s) => (s.placed ?? []).map((p) => rel(dirname(p.into)))))].join(', ');
  const tally = (['added', 'updated', 'placed', 'unchanged'] as const)
    .filter((w) => counts.has(w))
    .map((w) => `${counts.get(w)} ${w}`);
  const namesakes = outcome.skipped.filter((i) => i.namesake).length;
  const tooLong = outcome.skipped.filter((i) => i.tooLong).length;
  const invalid = outcome.skipped.length - namesakes - tooLong;
  if (invalid) tally.push(`${invalid} skipped (invalid)`);
  if (tooLong) tally.push(`${tooLong} skipped (path too long)`);
  if (namesakes) tally.push(`${namesakes} skipped (same name)`);
  const lock = `${rel(outcome.lockfile)} ${outcome.lockChanged ? (outcome.dryRun ? 'would be written' : 'written') : 'unchanged'}`;
  ctx.stdout.write(
    `${forTerminal(`${outcome.dryRun ? 'dry run, nothing was written: ' : ''}${where ? `${where}: ` : ''}${tally.join(', ') || 'nothing to install'}; ${lock}`)}\n`,
  );
  return exitCode;
}
