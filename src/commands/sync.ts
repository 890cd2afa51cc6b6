import { registryFor } from '../registry/locate.js';
import { statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Paint } from '../ui/color.js';
import type { Context } from '../context.js';
import { discoverSkills } from '../skill/discover.js';
import { isInside } from '../fs/walk.js';
import { loadSkill } from '../skill/load.js';
import { changedSkillRoots, registerSkill, watchTree, type RegisterStatus, isUnversioned, unversionedWarning } from '../registry/registry.js';
import { validateSkills } from '../skill/validate.js';
import { SkillsError, isSkillsError } from '../errors.js';
import { jsonDiagnostic, type Diagnostic } from '../model/diagnostic.js';
import { paint, useColor } from '../ui/color.js';
import { formatDiagnostic } from '../ui/validate-report.js';

export interface SyncOptions {
  dir: string;
  owner?: string;
  force?: boolean;
  watch?: boolean;
  json?: boolean;
  registry?: string;
  color?: boolean;
  /** Ends --watch (the CLI wires SIGINT and SIGTERM to it); tests pass their own. */
  signal?: AbortSignal;
}

export type SyncStatus = RegisterStatus | 'invalid' | 'refused';

export interface SyncItem {
  status: SyncStatus;
  id: string;
  version?: string;
  /** The skill folder that was synced (absolute). */
  source: string;
  /** The stored copy (absolute), when the skill is registered. */
  path?: string;
  diagnostics?: Diagnostic[];
  error?: { code: string; message: string; hint?: string };
  /** E.g. that the skill has no version and is kept as 0.0.0. */
  warnings?: string[];
}

export interface SyncResult {
  registry: string;
  skills: SyncItem[];
  counts: Record<SyncStatus, number>;
  exitCode: number;
}

const STATUSES: SyncStatus[] = ['added', 'updated', 'replaced', 'unchanged', 'invalid', 'refused'];

/** `skills sync <dir>`: register every valid skill below dir; exit 1 when one was invalid or refused. */
export async function sync(options: SyncOptions, ctx: Context): Promise<SyncResult> {
  const dir = resolve(ctx.cwd, options.dir);
  const registry = registryFor(options, ctx);
  if (options.owner !== undefined && options.owner.trim() === '') {
    throw new SkillsError('E_USAGE', '--owner is empty: expected "built-in" or the id of the agent that owns the skills', { hint: 'e.g. --owner analytics-bee' });
  }
  let st;
  try {
    st = statSync(dir);
  } catch {
    throw new SkillsError('E_NOT_FOUND', `${options.dir}: no such folder`, { hint: 'give the folder that holds the skills to register' });
  }
  if (!st.isDirectory()) throw new SkillsError('E_USAGE', `${options.dir} is not a folder: sync registers the skills in a folder`, { hint: 'give the skill folder, or the folder that holds skills' });

  const c = paint(useColor(options.color, ctx));
  const items: SyncItem[] = [];
  const emit = (item: SyncItem) => {
    items.push(item);
    if (options.watch) ctx.stdout.write(options.json ? `${JSON.stringify(eventOf(item))}\n` : formatItem(item, c, registry, ctx.cwd));
  };
  await syncRoots(rootsBelow(dir, registry), registry, options, emit);

  if (options.watch) {
    ctx.stderr.write(`watching ${dir} for skills (registry ${registry}); Ctrl-C to stop\n`);
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    options.signal?.addEventListener('abort', onSignal, { once: true });
    // A signal ends the watch cleanly: the sync under way finishes, then the command returns (exit 0).
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      await watchTree(
        dir,
        async (paths) => {
          await syncRoots(await changedSkillRoots(dir, paths, registry), registry, options, emit);
        },
        { signal: stop.signal },
      );
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    return { registry, skills: items, counts: countOf(items), exitCode: 0 };
  }

  const counts = countOf(items);
  const exitCode = counts.invalid + counts.refused > 0 ? 1 : 0;
  if (options.json) {
    ctx.stdout.write(`${JSON.stringify({ registry, skills: items.map(jsonItem), counts }, null, 2)}\n`);
  } else {
    ctx.stdout.write(items.map((i) => formatItem(i, c, registry, ctx.cwd)).join('') + summary(items, counts, registry, c));
  }
  return { registry, skills: items, counts, exitCode };
}

/** Skill folders below dir, leaving out the registry's own store; none is not an error here (a folder may start empty). */
function rootsBelow(dir: string, registry: string): string[] {
  try {
    return discoverSkills([dir], { cwd: dir }).roots.filter((r) => !isInside(registry, r));
  } catch (err) {
    if (isSkillsError(err) && err.code === 'E_NOT_FOUND') return [];
    throw err;
  }
}

async function syncRoots(roots: string[], registry: string, options: SyncOptions, emit: (item: SyncItem) => void): Promise<void> {
  const skills = roots.map((r) => loadSkill(r));
  const reports = await validateSkills(skills);
  for (const { skill, valid, diagnostics } of reports) {
    const base = { id: skill.id, ...(skill.version ? { version: skill.version } : {}), source: skill.root };
    if (!valid) {
      emit({ status: 'invalid', ...base, diagnostics });
      continue;
    }
    try {
      const r = await registerSkill(registry, skill, { owner: options.owner?.trim(), force: options.force });
      const warnings = isUnversioned(skill) ? [unversionedWarning(skill)] : [];
      emit({ status: r.status, ...base, version: r.version, path: join(registry, r.path), ...(warnings.length ? { warnings } : {}) });
    } catch (err) {
      // Refusals concern one skill; a corrupt index or a lock that cannot be had stops the whole run.
      if (!isSkillsError(err) || !['E_EXISTS', 'E_INVALID'].includes(err.code)) throw err;
      emit({ status: 'refused', ...base, error: { code: err.code, message: err.message, ...(err.hint ? { hint: err.hint } : {}) } });
    }
  }
}

function countOf(items: SyncItem[]): Record<SyncStatus, number> {
  const counts = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<SyncStatus, number>;
  for (const i of items) counts[i.status]++;
  return counts;
}

function jsonItem(i: SyncItem) {
  return {
    ...i,
    ...(i.diagnostics ? { diagnostics: i.diagnostics.map(jsonDiagnostic) } : {}),
  };
}

/** One --watch --json line: seed 000's "skill:created" in spirit. */
function eventOf(i: SyncItem) {
  const { status, ...rest } = jsonItem(i);
  return { event: status, ...rest };
}

function formatItem(i: SyncItem, c: Paint, registry: string, cwd: string): string {
  const rel = (p: string) => relative(cwd, p) || '.';
  const name = i.version ? `${i.id}@${i.version}` : i.id;
  const label = i.status === 'invalid' ? 'skipped' : i.status;
  const colour = { added: c.green, updated: c.green, replaced: c.yellow, unchanged: c.dim, invalid: c.red, refused: c.red }[i.status];
  let line = `${colour(label.padEnd(9))} ${c.bold(name)}`;
  if (i.path) line += c.dim(`  ${relative(registry, i.path)}`);
  if (i.status === 'invalid') {
    const errors = i.diagnostics!.filter((d) => d.severity === 'error').length;
    line += ` ${c.dim(`(${rel(i.source)}: invalid, ${errors} error${errors === 1 ? '' : 's'})`)}\n`;
    return line + i.diagnostics!.map((d) => `${formatDiagnostic(d, c, rel)}\n`).join('');
  }
  for (const w of i.warnings ?? []) line += `\n      ${c.yellow(`warning: ${w}`)}`;
  if (i.error) return `${line}: ${i.error.message}\n${i.error.hint ? `      ${c.dim(`hint: ${i.error.hint.replace(/\n/g, '\n            ')}`)}\n` : ''}`;
  return `${line}\n`;
}

function summary(items: SyncItem[], counts: Record<SyncStatus, number>, registry: string, c: Paint): string {
  if (items.length === 0) return c.dim(`no skills to sync (registry ${registry})\n`);
  const parts = STATUSES.filter((s) => counts[s] > 0).map((s) => `${counts[s]} ${s === 'invalid' ? 'skipped (invalid)' : s}`);
  const line = `${items.length} skill${items.length === 1 ? '' : 's'} synced into ${registry}: ${parts.join(', ')}`;
  return `${counts.invalid + counts.refused > 0 ? c.red.bold(line) : c.green(line)}\n`;
}
