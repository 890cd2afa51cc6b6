// The main thread's side of linting on more than one thread (loaded only then): the pool of workers, the main
// thread's own share, and every outcome kept in the order of the skills found.
import type { Dirent } from 'node:fs';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TokenCache } from '../tokens/token-cache.js';
import type { Linter } from './linter.js';
import { keepOutcome, lintOne, type LintWorkerData, type Outcome } from './parallel.js';
import { runPool } from './pool.js';

export interface ParallelOptions {
  linter: Linter;
  roots: string[];
  listings: Map<string, Dirent[]>;
  threads: number;
  /** Given to each worker: the configuration and flags the main thread's linter has. */
  workerData: LintWorkerData;
  /** The main thread's token cache, which takes the counts the workers used. */
  cache?: TokenCache;
}

/** Lint the skills at `roots` on `threads` threads; results are kept in the linter in the order of `roots`. */
export async function lintInParallel(options: ParallelOptions): Promise<void> {
  const { linter, roots, listings, threads } = options;
  const outcomes: (Outcome | undefined)[] = new Array(roots.length);
  const batchSize = Math.max(1, Math.min(64, Math.ceil(roots.length / (threads * 16))));
  const entry = workerEntry();
  await runPool<Outcome>({
    ...entry,
    workerData: { ...options.workerData },
    workers: threads - 1,
    count: roots.length,
    batchSize,
    payload: (i) => roots[i],
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
        outcomes[i] = await lintOne(linter, root, options.workerData.spec, listing);
      }
    },
  });
  for (let i = 0; i < roots.length; i++) keepOutcome(linter, roots[i]!, outcomes[i]!);
}

/**
 * The worker's script: dist/lint-worker.cjs next to the built file this code is in (main.cjs, or one folder down in
 * commands/ or chunks/); from the sources (tests), worker.ts through tsx.
 */
function workerEntry(): { file: string; execArgv?: string[] } {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const dir of [here, dirname(here)]) {
    const file = join(dir, 'lint-worker.cjs');
    if (existsSync(file)) return { file };
  }
  return { file: join(here, 'worker.ts'), execArgv: ['--import', 'tsx'] };
}
