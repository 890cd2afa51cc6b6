// `skills sync`: every valid skill below a folder registered, once or again on each change (--watch).
import type { Skill } from '../model/skill.js';
import { statSync, type Dirent } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import { SkillsError, isSkillsError } from '../errors.js';
import type { Diagnostic } from '../model/diagnostic.js';
import { isInside } from '../fs/walk.js';
import { discoverSkills } from '../skill/discover.js';
import { splitTemplates } from '../skill/template-folders.js';
import { loadSkill } from '../skill/load.js';
import type { HeldFile } from '../fs/read-held.js';
import { validateSkills, type SkillReport } from '../skill/validate.js';
import { registerSkills, TwiceInBatch, type RegisterResult, type RegisterStatus } from '../registry/register.js';
import { settleNamesakes } from '../skill/namesakes.js';
import {
  blocksCopying,
  isUnversioned,
  looseVersion,
  looseVersionWarning,
  registryVersion,
  unversionedWarning,
} from '../registry/unversioned.js';
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
  /** The version as its SKILL.md writes it, when it is kept as the one it plainly means (`1.0`: 1.0.0). */
  looseVersion?: string;
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
  /** Told what failed once the index was written (the skills are registered): see UpdateIndexOptions.warn. */
  onWarning?: (message: string) => void;
  /** Told of the deeper namesakes a sync (each of --watch's) left out, when there are any. */
  onLeftOut?: (left: LeftOut[]) => void;
  /** Keep watching the folder, syncing the skills a change touches, until `signal` aborts; `started` is told first. */
  watch?: { signal: AbortSignal; started: (dir: string) => void };
}

/**
 * A copy of a version deeper in the folder than the one registered, with other content or invalid (a repository's
 * translations of its skill): left out for it, as install leaves it out (skill/namesakes.ts), not refused.
 */
export interface LeftOut {
  id: string;
  version: string;
  /** Its folder (absolute). */
  source: string;
  /** The shallower folder registered instead (absolute). */
  kept: string;
  /** It is invalid itself (it would have been skipped). */
  invalid?: true;
}

export interface SyncOutcome {
  /** The folder synced (absolute). */
  dir: string;
  skills: SyncItem[];
  counts: Record<SyncStatus, number>;
  leftOut: LeftOut[];
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
  const leftOut: LeftOut[] = [];
  const emit = (item: SyncItem) => {
    items.push(item);
    opts.onItem?.(item);
  };
  const leave = (left: LeftOut[]) => {
    leftOut.push(...left);
    if (left.length > 0) opts.onLeftOut?.(left);
  };
  await syncRoots(dir, rootsBelow(dir, registry), opts, emit, leave);
  if (opts.watch) {
    opts.watch.started(dir);
    await watchTree(
      dir,
      async (paths) => syncRoots(dir, { roots: await changedSkillRoots(dir, paths, registry) }, opts, emit, leave),
      {
        signal: opts.watch.signal,
      },
    );
  }
  return { dir, skills: items, counts: countOf(items), leftOut };
}

/**
 * Skill folders below dir, leaving out the registry's own store and, as install does, the skeletons of a collection
 * (templates/…); none is not an error here (a folder may start empty).
 */
function rootsBelow(dir: string, registry: string): Roots {
  try {
    const { roots, listings } = discoverSkills([dir], { cwd: dir });
    const inside = (r: string) => relative(dir, r).split(sep).join('/');
    const { skills } = splitTemplates(
      roots.filter((r) => !isInside(registry, r)),
      inside,
    );
    return { roots: skills, listings };
  } catch (err) {
    if (isSkillsError(err) && err.code === 'E_NOT_FOUND') return { roots: [] };
    throw err;
  }
}

/** Skill folders to sync, and the listing of each that discovery read on the way (load need not read it again). */
interface Roots {
  roots: string[];
  listings?: Map<string, Dirent[]>;
}

async function syncRoots(
  dir: string,
  { roots: found, listings }: Roots,
  opts: SyncSkillsOptions,
  emit: (item: SyncItem) => void,
  leave: (left: LeftOut[]) => void,
): Promise<void> {
  // Registered shallowest first (the order found kept among folders of one depth): the batch registers the first
  // found of a version, which is then the shallowest; the lines still come in the order found.
  const depth = (root: string) => relative(dir, root).split(sep).filter(Boolean).length;
  const order = new Map(found.map((r, i) => [r, i]));
  const roots = found
    .map((root, i) => ({ root, i, d: depth(root) }))
    .sort((a, b) => a.d - b.d || a.i - b.i)
    .map((r) => r.root);
  const { registry } = opts;
  const base = (skill: Skill) => ({
    id: skill.id,
    ...(skill.version ? { version: skill.version } : {}),
    source: skill.root,
  });
  // Each skill is loaded, validated and handed to registerSkills in turn, and the valid ones are registered as one
  // batch: one lock, one index write. Staged as they come, a big batch's copies are written (by registerSkills'
  // thread) while the next skills are read. Each was loaded just now, so its files are those its load walked
  // (walked): its folders are not listed again.
  const reports: SkillReport[] = [];
  const itemOpts = { owner: opts.owner?.trim(), force: opts.force, dryRun: opts.dryRun, walked: true };
  async function* validOnes() {
    for (const root of roots) {
      // The bytes the load reads are hashed and copied from: each file is read once.
      const held = new Map<string, HeldFile>();
      const [report] = await validateSkills([loadSkill(root, { listing: listings?.get(root), held })]);
      reports.push(report!);
      if (registrable(report!)) yield { skill: report!.skill, opts: { ...itemOpts, held } };
    }
  }
  const results = await registerSkills(registry, validOnes(), roots.length, opts.onWarning);
  const valid = reports.filter(registrable).map((r) => r.skill);
  const byRoot = new Map(valid.map((skill, i) => [skill.root, results[i]!]));
  const left = deeperNamesakes(reports, byRoot, depth);
  if (left.size > 0) leave([...left.values()].sort((a, b) => order.get(a.source)! - order.get(b.source)!));
  reports.sort((a, b) => order.get(a.skill.root)! - order.get(b.skill.root)!);
  for (const report of reports) {
    const { skill, diagnostics } = report;
    if (left.has(skill.root)) continue;
    if (!registrable(report)) {
      emit({ status: 'invalid', ...base(skill), diagnostics });
      continue;
    }
    const r = byRoot.get(skill.root)!;
    if (r instanceof SkillsError) {
      // Refusals concern one skill; a corrupt index or a lock that cannot be had stopped the whole run (thrown).
      emit({
        status: 'refused',
        ...base(skill),
        error: { code: r.code, message: r.message, ...(r.hint ? { hint: r.hint } : {}) },
      });
      continue;
    }
    const loose = looseVersion(skill);
    const warnings = isUnversioned(skill) ? [unversionedWarning(skill)] : loose ? [looseVersionWarning(skill)] : [];
    if (!report.valid)
      warnings.push(
        `${skill.id} is in a folder named ${basename(skill.root)}; it is registered as ${skill.id}, by its name`,
      );
    emit({
      status: r.status,
      ...base(skill),
      version: r.version,
      path: join(registry, r.path),
      ...(warnings.length ? { warnings } : {}),
      ...(loose ? { looseVersion: skill.version } : {}),
    });
  }
}

/**
 * The copies of a version the batch refused as a second one (or skipped as invalid) that lie deeper than the one
 * registered, alone at its depth: left out for it (skill/namesakes.ts), by folder. At a tie each stays refused.
 */
function deeperNamesakes(
  reports: SkillReport[],
  byRoot: Map<string, RegisterResult | SkillsError>,
  depth: (root: string) => number,
): Map<string, LeftOut> {
  interface Fact {
    report: SkillReport;
    key: string;
    content: string;
    valid: boolean;
  }
  const facts: Fact[] = [];
  for (const report of reports) {
    const { skill } = report;
    if (!registrable(report)) {
      if (!skill.id) continue;
      const key = `${skill.id}@${registryVersion(skill)}`;
      facts.push({ report, key, content: `invalid:${skill.root}`, valid: false });
      continue;
    }
    // A copy registered (or found unchanged), or refused as the batch's second of its version.
    const r = byRoot.get(skill.root)!;
    if (r instanceof TwiceInBatch || !(r instanceof SkillsError))
      facts.push({ report, key: `${r.id}@${r.version}`, content: r.integrity, valid: true });
  }
  const { outranked } = settleNamesakes(facts, (f) => ({ ...f, depth: depth(f.report.skill.root) }));
  const left = new Map<string, LeftOut>();
  for (const [f, kept] of outranked) {
    const r = byRoot.get(f.report.skill.root);
    // Only what the batch refused as a second copy, or skipped, and only for one it registered.
    if (f.valid && !(r instanceof TwiceInBatch)) continue;
    if (byRoot.get(kept.report.skill.root) instanceof SkillsError) continue;
    const [id, version] = [f.key.slice(0, f.key.lastIndexOf('@')), f.key.slice(f.key.lastIndexOf('@') + 1)];
    left.set(f.report.skill.root, {
      id: id!,
      version: version!,
      source: f.report.skill.root,
      kept: kept.report.skill.root,
      ...(f.valid ? {} : { invalid: true as const }),
    });
  }
  return left;
}

function countOf(items: SyncItem[]): Record<SyncStatus, number> {
  const counts = Object.fromEntries(SYNC_STATUSES.map((s) => [s, 0])) as Record<SyncStatus, number>;
  for (const i of items) counts[i.status]++;
  return counts;
}

/** Whether a skill can be registered: no finding of it keeps it out (blocksCopying; a misnamed folder does not). */
function registrable(report: SkillReport): boolean {
  return !report.diagnostics.some(blocksCopying);
}
