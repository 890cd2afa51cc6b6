// Linting on more than one thread (ESLint's --concurrency): worker threads each lint whole skills, the main thread
// lints its share too, and every result is kept in the order of the skills found, so that the tree rules (which
// compare skills) and the output are those of a run on one thread. A skill on which linting stops (an exception, or
// its worker dying: out of memory, say) is reported with one error finding, and the other skills are linted.
import { readdirSync, type Dirent } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, join } from 'node:path';
import { isSkillsError, SkillsError, type ErrorCode } from '../errors.js';
import { loadSkill } from '../skill/load.js';
import { skillFileIn } from '../skill/skill-file.js';
import type { TokenCache } from '../tokens/token-cache.js';
import type { Linter, SkillResult } from './linter.js';

/** --concurrency: a number of threads (the main thread counted), "auto" or "off" (one thread). */
export type Concurrency = number | 'auto' | 'off';

/**
 * "auto" starts worker threads once the skills left would keep the main thread busy this long (projected from the
 * CPU time the skills linted so far took): starting a worker and loading the linter into it costs about a tenth of a
 * second, so below this it would not pay (measured; see the README).
 */
export const SPREAD_MS = 300;
/**
 * CPU time "auto" lints on the main thread, after the first skill, before it projects. The first skill is left out
 * of the pace: it runs while the code warms up (a 1 MB body takes 150 ms, the next ones 15 ms each), and a pace
 * judged from it would start workers whose own warming up costs more than they save.
 */
export const SAMPLE_MS = 20;
/**
 * Fewest skills left for "auto" to start workers for, unless they would take FEW_LEFT_MS: a worker warms up over its
 * first skills as the main thread did (20 skills of 1 MB: 150 ms for the first, 50 to 75 ms for the next five, then
 * 15 to 25 ms each), so a pace judged from the main thread's early skills overstates what a few skills left would
 * take, and a worker for them cost 0.4 s of CPU and gained no time (measured; see the README).
 */
export const MIN_LEFT = 32;
/** Work projected for fewer than MIN_LEFT skills past which "auto" spreads them all the same (a few huge skills). */
export const FEW_LEFT_MS = 3000;
/** Most threads "auto" runs: past this, finding the skills and printing the results, on one thread, dominate. */
export const MAX_AUTO_THREADS = 8;
/**
 * Fewest cores "auto" starts workers on. On two, V8's own threads (compiling, collecting garbage) already keep the
 * second core busy (the main thread alone uses 1.3 to 1.4 times its wall time): a worker lost time on every tree
 * measured there, median wall one thread against auto: the 122 real skills 0.585 against 0.65 s, 800 / 3,000 /
 * 10,000 generated ones 0.48 / 1.16 / 2.66 against 0.51 / 1.24 / 2.75 s, 979 real skills of four large public
 * collections 4.04 against 4.41 s (quiet machine, 5 or 3 runs each, cold: --no-cache). A worker's CPU is the
 * cost: starting one costs 80 ms (an empty Node 20 worker 34 ms of it, the rest loading the bundle), and it warms
 * its code up afresh; CPU (user+sys) one thread against two, medians of 6 to 10 alternating runs, cold, on two
 * busy cores: 20 skills with 1 MB bodies 0.43 against 0.57 s, the 122 real skills 0.89 against 1.18 s.
 */
export const MIN_AUTO_CORES = 3;

/** The id of the finding on a skill that linting stopped on. It is no rule, so no setting turns it off. */
export const CRASH_ID = 'SK000';

/** What linting one skill came to: its result (none when ignored), a SkillsError to end the run, or a crash. */
export type Outcome =
  | { result: SkillResult | undefined; tokens?: TokenUse[] }
  | { error: { code: ErrorCode; message: string; hint?: string } }
  | { crash: string };

/** A token count a worker used: [key, count, whether it counted it afresh]. */
export type TokenUse = [string, number, boolean];

/**
 * Most threads --concurrency may ask for: each worker holds its own heap (tens of MiB), so a typo (1000) must not
 * start a thousand of them.
 */
export const MAX_THREADS = 64;

/** Parse --concurrency as typed: a whole number from 1 to MAX_THREADS, "auto" or "off". */
export function parseConcurrency(value: string | number | undefined): Concurrency {
  if (value === undefined || value === 'auto') return 'auto';
  if (value === 'off') return 'off';
  const n = typeof value === 'number' ? value : /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_THREADS) {
    throw new SkillsError(
      'E_USAGE',
      `--concurrency takes a number of threads from 1 to ${MAX_THREADS}, auto or off, not "${value}"`,
      {
        hint: 'e.g. --concurrency 4; --concurrency off (or 1) lints on one thread',
      },
    );
  }
  return n;
}

/**
 * Threads "auto" spreads over when the `left` skills left would take `projectedMs` on one thread: 1, or more.
 */
export function autoThreads(projectedMs: number, cores = availableParallelism(), left = Infinity): number {
  if (cores < MIN_AUTO_CORES || (left < MIN_LEFT && projectedMs < FEW_LEFT_MS)) return 1;
  return Math.max(1, Math.min(cores, MAX_AUTO_THREADS, 1 + Math.floor(projectedMs / SPREAD_MS)));
}

export interface LintRootsOptions {
  concurrency: Concurrency;
  spec?: boolean;
  /** What worker threads are started with, asked for only when there are any. */
  workerData(): LintWorkerData;
  /** The main thread's token cache, which takes the counts the workers used. */
  cache?: TokenCache;
  /** os.availableParallelism() unless given (tests). */
  cores?: number;
  /** The main thread's CPU time in ms, process.cpuUsage() unless given (tests). */
  cpu?: () => number;
}

/**
 * Lint the skill folders at `roots`, every result kept in the linter in their order: on the main thread, with
 * worker threads for the rest (lint-threads.ts) when --concurrency asks for them, or, with "auto", once the skills
 * left would take long enough to pay for starting them. A run of a few skills never loads worker_threads.
 * Returns the threads it used.
 */
export async function lintRoots(
  linter: Linter,
  roots: string[],
  listings: Map<string, Dirent[]>,
  options: LintRootsOptions,
): Promise<number> {
  const { concurrency, spec } = options;
  const spread = async (from: number, threads: number) => {
    const { lintInParallel } = await import('./lint-threads.js');
    await lintInParallel({ linter, roots, from, listings, threads, ...options });
    return threads;
  };
  if (typeof concurrency === 'number' && Math.min(concurrency, roots.length) > 1) {
    return spread(0, Math.min(concurrency, roots.length));
  }
  const cores = options.cores ?? availableParallelism();
  const auto = concurrency === 'auto' && cores >= MIN_AUTO_CORES;
  // CPU time, not the clock: on a busy machine the clock runs on while this thread waits, and a worker would not
  // get a core of its own there either.
  const cpu =
    options.cpu ??
    (() => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    });
  // The pace is taken from the skills after the first (see SAMPLE_MS).
  let start = 0;
  for (let i = 0; i < roots.length; i++) {
    const root = roots[i]!;
    const listing = listings.get(root);
    listings.delete(root);
    keepOutcome(linter, root, await lintOne(linter, root, spec, listing), listing);
    const left = roots.length - i - 1;
    if (!auto || left === 0) continue;
    if (i === 0) {
      start = cpu();
      continue;
    }
    const elapsed = cpu() - start;
    if (elapsed < SAMPLE_MS) continue;
    const threads = autoThreads((elapsed / i) * left, cores, left);
    if (threads > 1) return spread(i + 1, threads);
  }
  return 1;
}

/** Load and lint one skill folder, the outcome caught (a SkillsError is kept to be thrown by the main thread). */
export async function lintOne(linter: Linter, root: string, spec?: boolean, listing?: Dirent[]): Promise<Outcome> {
  try {
    return { result: await linter.check(loadSkill(root, { spec, listing })) };
  } catch (err) {
    if (isSkillsError(err)) return { error: { code: err.code, message: err.message, hint: err.hint } };
    return { crash: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
  }
}

/** Keep an outcome in the linter: a result as it is, a crash as a report of one error; a SkillsError is thrown. */
export function keepOutcome(linter: Linter, root: string, outcome: Outcome, listing?: Dirent[]): void {
  if ('error' in outcome) {
    const { code, message, hint } = outcome.error;
    throw new SkillsError(code, message, hint === undefined ? {} : { hint });
  }
  if ('crash' in outcome) linter.keep(crashResult(root, outcome.crash, listing));
  else if (outcome.result) linter.keep(outcome.result);
}

/** The report of a skill that linting stopped on: what its folder shows of it, and one error. */
function crashResult(root: string, reason: string, listing?: Dirent[]): SkillResult {
  let names: string[] = [];
  try {
    names = (listing ?? readdirSync(root, { withFileTypes: true })).map((d) => d.name);
  } catch {
    // The finding says what it can without the folder's listing.
  }
  const found = skillFileIn(names);
  const file = join(root, found?.name ?? 'SKILL.md');
  const id = basename(root);
  return {
    report: {
      skill: { id, name: id, layout: found?.layout ?? 'skill-md', root, file, positions: {} },
      valid: false,
      diagnostics: [
        {
          ruleId: CRASH_ID,
          rule: 'lint-crashed',
          severity: 'error',
          message: `linting stopped on this skill: ${reason}; its findings are not known`,
          file,
          hint: 'the other skills were linted; please report this (a bug in skills, or a skill made to break it)',
        },
      ],
    },
    failed: true,
  };
}

/** What a lint worker is started with (src/lint/worker.ts). */
export interface LintWorkerData {
  config: import('../config/config.js').Config;
  spec?: boolean;
  /** The counts the user's token cache holds, when there is one (the main thread saves what workers add). */
  tokenCounts?: import('../tokens/token-cache.js').TokenSnapshot;
  /** For the result cache: when the run began (LintOptions.inputsSince). */
  inputsSince?: number;
}
