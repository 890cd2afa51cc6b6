// The main thread's side of linting on more than one thread (loaded only then): the pool of workers, the main
// thread's own share, and every outcome kept in the order of the skills found.
import { existsSync, type Dirent } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Linter } from './linter.js';
import { keepOutcome, lintOne, type LintRootsOptions, type Outcome } from './parallel.js';
import { runPool } from './pool.js';

/** The young generation of a worker's heap, in MiB, when there are many skills (V8's default is 48). */
const YOUNG_MB = 8;
/** Skills from which workers get the smaller young generation. */
const MANY = 5000;

export interface ParallelOptions extends LintRootsOptions {
  linter: Linter;
  roots: string[];
  /** The first of `roots` to lint: those before it are linted and kept already. */
  from: number;
  listings: Map<string, Dirent[]>;
  threads: number;
}

/** Lint the skills at `roots` (from `from`) on `threads` threads; results are kept in the order of `roots`. */
export async function lintInParallel(options: ParallelOptions): Promise<void> {
  const { linter, from, listings, threads } = options;
  const roots = options.roots.slice(from);
  const outcomes: (Outcome | undefined)[] = new Array(roots.length);
  const batchSize = Math.max(1, Math.min(64, Math.ceil(roots.length / (threads * 16))));
  const entry = workerEntry();
  await runPool<Outcome>({
    ...entry,
    workerData: { ...options.workerData() },
    workers: threads - 1,
    // Many skills: a smaller nursery than V8 gives a thread by default, since every worker's heap counts in the
    // process's memory (the 100,000-skill run must stay under 400 MiB). Few: V8's, which collects less often.
    ...(roots.length >= MANY ? { resourceLimits: { maxYoungGenerationSizeMb: YOUNG_MB } } : {}),
    count: roots.length,
    batchSize,
    payload: (i) => {
      // A worker reads the folder's listing again: a Dirent does not cross threads. This one is let go.
      listings.delete(roots[i]!);
      return roots[i];
    },
    onResult(i, outcome) {
      outcomes[i] = outcome;
      if ('result' in outcome && outcome.tokens) {
        for (const [key, n, fresh] of outcome.tokens) {
          if (fresh) options.cache?.set(key, n);
          else options.cache?.get(key);
        }
        delete outcome.tokens;
      }
    },
    onCrash(i, reason) {
      outcomes[i] = { crash: `the worker thread linting it stopped: ${reason}` };
    },
    async local(indexes) {
      for (const i of indexes) {
        const root = roots[i]!;
        const listing = listings.get(root);
        listings.delete(root);
        outcomes[i] = await lintOne(linter, root, options.spec, listing);
      }
    },
  });
  for (let i = 0; i < roots.length; i++) keepOutcome(linter, roots[i]!, outcomes[i]!);
}

/**
 * The worker's script: dist/lint-worker.cjs next to the built file this code is in (main.cjs, or one folder down in
 * commands/ or chunks/), started through bin/skills.js when the package has it, so that the worker's code is loaded
 * through the same code cache as the command's; from the sources (tests), worker.ts through tsx.
 */
function workerEntry(): { file: string; argv?: string[] } {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const dir of [here, dirname(here)]) {
    const file = join(dir, 'lint-worker.cjs');
    if (!existsSync(file)) continue;
    const bin = join(dir, '..', 'bin', 'skills.js');
    return existsSync(bin) ? { file: bin, argv: ['lint-worker'] } : { file };
  }
  return { file: join(here, 'worker.ts') };
}
