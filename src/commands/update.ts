import { relative } from 'node:path';
import type { Context } from '../context.js';
import { cacheHomeIfAny } from '../fetch/cache.js';
import { updateSkills, type PlannedUpdate, type UpdateResult } from '../install/update.js';
import { taggedLabel, withCommit } from '../install/outdated.js';
import { UNVERSIONED } from '../registry/unversioned.js';
import { paint, useColor, type Paint } from '../ui/color.js';
import { startProgress } from '../ui/spinner.js';
import { forTerminal, forTerminalLine, safeJson } from '../ui/terminal-text.js';
import { installTarget } from './install.js';
import { noSkillsLine, notCheckableNote, notInstalledLine, uncheckedLine } from './outdated.js';

export interface UpdateOptions {
  ids: string[];
  latest?: boolean;
  dryRun?: boolean;
  force?: boolean;
  global?: boolean;
  /** -q: nothing but errors (a skill that could not be checked, a refused install); no warnings, no lines. */
  quiet?: boolean;
  json?: boolean;
  registry?: string;
  color?: boolean;
}

/**
 * `skills update [ids…]`: exit 0 updated (or nothing to update, or --dry-run); 1 when the install refuses (an invalid
 * skill, no resolution); 2 when a skill could not be checked or is gone from its repository (the others are
 * updated), a placed copy was edited (without --force), or for usage, I/O and git failures.
 */
export async function update(options: UpdateOptions, ctx: Context): Promise<UpdateResult & { exitCode: number }> {
  const target = installTarget(options, ctx);
  const progress = await startProgress(
    ctx,
    { ...options, json: options.json || options.quiet },
    options.dryRun ? 'looking for updates' : 'updating',
  );
  let result: UpdateResult;
  try {
    result = await updateSkills({
      ...target,
      into: [],
      cacheDir: cacheHomeIfAny(ctx.env, target.home),
      env: ctx.env,
      ids: options.ids,
      latest: options.latest,
      dryRun: options.dryRun,
      force: options.force,
      cwd: ctx.cwd,
      nodeVersion: process.versions.node,
      progress: (t) => progress.text(t),
    });
  } finally {
    progress.stop();
  }
  const refused = result.outcome !== undefined && !result.outcome.ok;
  const exitCode = refused ? 1 : result.errors.length > 0 || result.removed.length > 0 ? 2 : 0;
  if (options.json) {
    const { outcome, lockedSkills: _count, ...rest } = result;
    const installed = outcome?.ok
      ? { lockChanged: outcome.lockChanged, skills: outcome.skills.map((s) => ({ id: s.id, version: s.version })) }
      : undefined;
    const error = outcome && !outcome.ok ? outcome.error : undefined;
    const doc = {
      ...rest,
      ...(installed ? { installed } : {}),
      ...(error
        ? { error: { code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) } }
        : {}),
    };
    ctx.stdout.write(`${safeJson(doc)}\n`);
    return { ...result, exitCode };
  }
  const c = paint(useColor(options.color, ctx));
  const ce = paint(useColor(options.color, ctx, ctx.stderr));
  const rel = (p: string) => relative(ctx.cwd, p) || '.';
  if (result.errors.length > 0) {
    const checked = result.updates.length + result.upToDate.length + result.errors.length;
    ctx.stderr.write(uncheckedLine(result.errors.length, checked, ce));
  }
  if (!options.quiet)
    for (const w of [...result.warnings, ...(result.outcome?.warnings ?? [])])
      ctx.stderr.write(`${ce.yellow('warning:')} ${forTerminal(w)}\n`);
  for (const e of result.errors) {
    ctx.stderr.write(`${ce.red('error:')} ${forTerminal(`${e.id}: cannot check: ${e.message}`)}\n`);
    if (e.hint) ctx.stderr.write(`${ce.dim('hint:')} ${forTerminal(e.hint)}\n`);
  }
  for (const r of result.removed) {
    ctx.stderr.write(`${ce.red('error:')} ${forTerminal(`${r.message}; it was not updated`)}\n`);
    ctx.stderr.write(`${ce.dim('hint:')} ${forTerminal(r.hint)}\n`);
  }
  if (result.outcome && !result.outcome.ok) {
    const { error } = result.outcome;
    ctx.stderr.write(`${ce.red('error:')} ${forTerminal(error.message)}\n`);
    if (error.hint) ctx.stderr.write(`${ce.dim('hint:')} ${forTerminal(error.hint)}\n`);
    return { ...result, exitCode };
  }
  if (options.quiet) return { ...result, exitCode };
  if (!result.locked) {
    ctx.stdout.write(notInstalledLine(result.lockfile, ctx.cwd));
    return { ...result, exitCode };
  }
  if (result.lockedSkills === 0) {
    ctx.stdout.write(`${forTerminal(noSkillsLine(result.lockfile, ctx.cwd))}\n`);
    return { ...result, exitCode };
  }
  if (result.updates.length === 0) {
    // The skills from a folder, an archive or a URL were not checked (asked by id, update refuses them): said as
    // outdated says them, not counted among the skills up to date.
    const notCheckable = options.ids?.length ? 0 : result.lockedSkills - result.upToDate.length;
    if (result.errors.length === 0 && result.removed.length === 0)
      ctx.stdout.write(`all skills are up to date${notCheckable > 0 ? ` (${notCheckableNote(notCheckable)})` : ''}\n`);
    const outside = result.newerOutside;
    if (outside.length > 0)
      ctx.stdout.write(
        c.dim(
          `${forTerminal(outside.join(', '))} ${outside.length === 1 ? 'has a newer version' : 'have newer versions'} outside the ref or range locked: skills update --latest ${forTerminal(outside.join(' '))}\n`,
        ),
      );
    return { ...result, exitCode };
  }
  for (const u of result.updates) {
    ctx.stdout.write(`${updateLine(u, result.dryRun, c)}\n`);
    if (!result.dryRun) continue;
    for (const d of u.edited) ctx.stdout.write(`  ${c.yellow('edited since installed:')} ${forTerminalLine(rel(d))}\n`);
    ctx.stdout.write(fileList(u, c));
    if (u.diff) ctx.stdout.write(forTerminal(u.diff));
    if (u.diffCut) ctx.stdout.write(c.dim('… (diff cut; the rest is not shown)\n'));
  }
  const n = result.updates.length;
  const skills = `${n} skill${n === 1 ? '' : 's'}`;
  if (result.dryRun) ctx.stdout.write(`dry run: ${skills} would be updated; nothing was written\n`);
  else {
    const lockChanged = result.outcome?.ok === true && result.outcome.lockChanged;
    const same = result.updates.filter((u) => u.sameFiles).length;
    const moved =
      same === 0
        ? ''
        : ` (${same === n ? (n === 1 ? 'its' : 'their') : `${same} with`} files unchanged: only the commit moved)`;
    ctx.stdout.write(`${skills} updated${moved}; ${rel(result.lockfile)} ${lockChanged ? 'written' : 'unchanged'}\n`);
  }
  return { ...result, exitCode };
}

/**
 * `pdf  1.0.0 → 1.1.0  (<url>#v1.0.0:skills/pdf)`. A git skill whose own version is not its tag's is shown with the
 * version the lock records and the tag as a tag: `0.3.0 (tag v1.0.0) → 0.4.0 (tag v2.0.0)`.
 */
function updateLine(u: PlannedUpdate, dryRun: boolean, c: Paint): string {
  const verb = dryRun ? 'would update' : 'updated';
  const same = u.sameFiles ? c.dim('  no file changes') : '';
  // Following a branch, the current one is shown as outdated shows it, by its commit, even where a tag names it.
  const atCommit = u.target.branch !== undefined && u.current.commit !== undefined && u.recorded !== undefined;
  const current = atCommit
    ? withCommit(u.recorded!.current, u.current.commit!)
    : pointLabel(u.current, u.recorded?.current);
  const target = pointLabel(u.target, u.recorded?.target);
  return `${c.green(verb)} ${c.bold(forTerminal(u.id))} ${forTerminal(current)} → ${c.bold(forTerminal(target))}  ${c.dim(forTerminal(`(${u.from})`))}${same}`;
}

/**
 * A point as shown: its label, or the version recorded and its version tag when the two differ. A branch's head
 * (`HEAD (1726b00)`) is shown by the version the skill has there and its commit, as outdated shows the current one:
 * `1.2.0 (1726b00)`; a skill without a version keeps the branch.
 */
function pointLabel(p: PlannedUpdate['target'], recorded: string | undefined): string {
  if (p.branch !== undefined && p.commit !== undefined && recorded !== undefined && recorded !== UNVERSIONED)
    return withCommit(recorded, p.commit);
  if (recorded === undefined || p.tag === undefined || p.version === undefined) return p.label;
  if (p.version !== recorded) return taggedLabel(recorded, p.tag);
  // The tag says the skill's own version (its version caught up with the repository's tags): the version, where
  // outdated, from a current tag that did not say it, labels the target `tag v2.0.0`.
  return p.label === `tag ${p.tag}` ? recorded : p.label;
}

/** The files an update adds (+), removes (-) and changes (~). */
function fileList(u: PlannedUpdate, c: Paint): string {
  if (!u.files) return '';
  const { added, removed, changed } = u.files;
  if (added.length + removed.length + changed.length === 0) return `  ${c.dim('no file changes')}\n`;
  const lines = [
    ...added.map((p) => `  ${c.green('+')} ${forTerminalLine(p)}`),
    ...removed.map((p) => `  ${c.red('-')} ${forTerminalLine(p)}`),
    ...changed.map((p) => `  ${c.yellow('~')} ${forTerminalLine(p)}`),
  ];
  return `${lines.join('\n')}\n`;
}
