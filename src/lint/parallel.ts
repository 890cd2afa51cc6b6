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
import type { Linter, SkillResult } from './linter.js';

/** --concurrency: a number of threads (the main thread counted), "auto" or "off" (one thread). */
export type Concurrency = number | 'auto' | 'off';

/**
 * Skills a thread must have for "auto" to start it: starting a worker and loading the linter into it costs about
 * as much as linting this many small skills on the main thread (measured; see the README).
 */
export const AUTO_SKILLS_PER_THREAD = 24;
/** Most threads "auto" runs: past this, finding the skills and printing the results, on one thread, dominate. */
export const MAX_AUTO_THREADS = 8;

/** The id of the finding on a skill that linting stopped on. It is no rule, so no setting turns it off. */
export const CRASH_ID = 'SK000';

/** What linting one skill came to: its result (none when ignored), a SkillsError to end the run, or a crash. */
export type Outcome =
  | { result: SkillResult | undefined; tokens?: TokenUse[] }
  | { error: { code: ErrorCode; message: string; hint?: string } }
  | { crash: string };

/** A token count a worker used: [key, count, whether it counted it afresh]. */
export type TokenUse = [string, number, boolean];

/** Parse --concurrency as typed: a whole number of 1 or more, "auto" or "off". */
export function parseConcurrency(value: string | number | undefined): Concurrency {
  if (value === undefined || value === 'auto') return 'auto';
  if (value === 'off') return 'off';
  const n = typeof value === 'number' ? value : /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new SkillsError(
      'E_USAGE',
      `--concurrency takes a number of threads (1 or more), auto or off, not "${value}"`,
      {
        hint: 'e.g. --concurrency 4; --concurrency off (or 1) lints on one thread',
      },
    );
  }
  return n;
}

/** Threads to lint `skills` skills on, the main thread counted: 1 means the main thread alone. */
export function lintThreads(concurrency: Concurrency, skills: number, cores = availableParallelism()): number {
  if (concurrency === 'off') return 1;
  if (concurrency === 'auto') {
    return Math.max(1, Math.min(cores, MAX_AUTO_THREADS, Math.floor(skills / AUTO_SKILLS_PER_THREAD)));
  }
  return Math.max(1, Math.min(concurrency, skills));
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
  /** Where the user's token cache is, when there is one. */
  tokenCache?: { env: Record<string, string | undefined>; home: string };
}
