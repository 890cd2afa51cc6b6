// `skills sync`: every valid skill below a folder registered, once or again on each change (--watch).
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SkillsError, isSkillsError } from '../errors.js';
import type { Diagnostic } from '../model/diagnostic.js';
import { isInside } from '../fs/walk.js';
import { discoverSkills } from '../skill/discover.js';
import { loadSkill } from '../skill/load.js';
import { validateSkills } from '../skill/validate.js';
import { registerSkill, type RegisterStatus } from '../registry/register.js';
import { isUnversioned, unversionedWarning } from '../registry/unversioned.js';
import { changedSkillRoots } from './changed-roots.js';
import { watchTree } from './watch.js';

export type SyncStatus = RegisterStatus | 'invalid' | 'refused';

export const SYNC_STATUSES: SyncStatus[] = ['added', 'updated', 'replaced', 'unchanged', 'invalid', 'refused'];

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

export interface SyncSkillsOptions {
  /** The folder as typed: resolved against cwd, named as typed in errors. */
  dir: string;
  cwd: string;
  /** The registry written to (absolute). */
  registry: string;
  owner?: string;
  force?: boolean;
  /** Decide each skill's status and write nothing (no --watch). */
  dryRun?: boolean;
  /** Told of each skill as soon as it is synced. */
  onItem?: (item: SyncItem) => void;
  /** Keep watching the folder, syncing the skills a change touches, until `signal` aborts; `started` is told first. */
  watch?: { signal: AbortSignal; started: (dir: string) => void };
}

export interface SyncOutcome {
  /** The folder synced (absolute). */
  dir: string;
  skills: SyncItem[];
  counts: Record<SyncStatus, number>;
}

/**
 * Register every valid skill below `dir`; an invalid one is skipped and a refused one (E_EXISTS, E_INVALID) reported.
 */
export async function syncSkills(opts: SyncSkillsOptions): Promise<SyncOutcome> {
  const dir = resolve(opts.cwd, opts.dir);
  const { registry } = opts;
  if (opts.owner !== undefined && opts.owner.trim() === '') {
    throw new SkillsError(
      'E_USAGE',
      '--owner is empty: expected "built-in" or the id of the agent that owns the skills',
      { hint: 'e.g. --owner analytics-bee' },
    );
  }
  let st;
  try {
    st = statSync(dir);
  } catch {
    throw new SkillsError('E_NOT_FOUND', `${opts.dir}: no such folder`, {
      hint: 'give the folder that holds the skills to register',
    });
  }
  if (!st.isDirectory())
    throw new SkillsError('E_USAGE', `${opts.dir} is not a folder: sync registers the skills in a folder`, {
      hint: 'give the skill folder, or the folder that holds skills',
    });

  const items: SyncItem[] = [];
  const emit = (item: SyncItem) => {
    items.push(item);
    opts.onItem?.(item);
  };
  await syncRoots(rootsBelow(dir, registry), opts, emit);
  if (opts.watch) {
    opts.watch.started(dir);
    await watchTree(dir, async (paths) => syncRoots(await changedSkillRoots(dir, paths, registry), opts, emit), {
      signal: opts.watch.signal,
    });
  }
  return { dir, skills: items, counts: countOf(items) };
}

/**
 * Skill folders below dir, leaving out the registry's own store; none is not an error here (a folder may start empty).
 */
function rootsBelow(dir: string, registry: string): string[] {
  try {
    return discoverSkills([dir], { cwd: dir }).roots.filter((r) => !isInside(registry, r));
  } catch (err) {
    if (isSkillsError(err) && err.code === 'E_NOT_FOUND') return [];
    throw err;
  }
}

async function syncRoots(roots: string[], opts: SyncSkillsOptions, emit: (item: SyncItem) => void): Promise<void> {
  const { registry } = opts;
  const skills = roots.map((r) => loadSkill(r));
  const reports = await validateSkills(skills);
  for (const { skill, valid, diagnostics } of reports) {
    const base = { id: skill.id, ...(skill.version ? { version: skill.version } : {}), source: skill.root };
    if (!valid) {
      emit({ status: 'invalid', ...base, diagnostics });
      continue;
    }
    try {
      const r = await registerSkill(registry, skill, {
        owner: opts.owner?.trim(),
        force: opts.force,
        dryRun: opts.dryRun,
      });
      const warnings = isUnversioned(skill) ? [unversionedWarning(skill)] : [];
      emit({
        status: r.status,
        ...base,
        version: r.version,
        path: join(registry, r.path),
        ...(warnings.length ? { warnings } : {}),
      });
    } catch (err) {
      // Refusals concern one skill; a corrupt index or a lock that cannot be had stops the whole run.
      if (!isSkillsError(err) || !['E_EXISTS', 'E_INVALID'].includes(err.code)) throw err;
      emit({
        status: 'refused',
        ...base,
        error: { code: err.code, message: err.message, ...(err.hint ? { hint: err.hint } : {}) },
      });
    }
  }
}

function countOf(items: SyncItem[]): Record<SyncStatus, number> {
  const counts = Object.fromEntries(SYNC_STATUSES.map((s) => [s, 0])) as Record<SyncStatus, number>;
  for (const i of items) counts[i.status]++;
  return counts;
}
