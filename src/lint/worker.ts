// A lint worker thread (parallel.ts starts it; the build makes it dist/lint-worker.cjs): it lints the skill folders
// the pool hands it with the main thread's configuration, and answers with each skill's outcome.
import { workerData } from 'node:worker_threads';
import { snapshotCount, type TokenCache } from '../tokens/token-cache.js';
import { cachedWholeCounter } from '../tokens/tokens.js';
import { createLinter } from './linter.js';
import { lintOne, type LintWorkerData, type Outcome, type TokenUse } from './parallel.js';
import { serveBatches } from './pool.js';

const data = workerData as LintWorkerData;
let used: TokenUse[] = [];
// The token counts come from the main thread, which owns the cache file: the counts this worker uses (and those it
// makes) go back to it with each skill's outcome, to be saved there.
const counts = data.tokenCounts;
const cache: TokenCache | undefined = counts && {
  get(key) {
    const n = snapshotCount(counts, key);
    if (n !== undefined) used.push([key, n, false]);
    return n;
  },
  set(key, n) {
    counts.used.set(key, n);
    used.push([key, n, true]);
  },
  save() {},
};
const linter = createLinter({
  config: data.config,
  spec: data.spec,
  ...(cache ? { countTokens: cachedWholeCounter(cache) } : {}),
  ...(data.inputsSince !== undefined ? { inputsSince: data.inputsSince } : {}),
});

serveBatches<Outcome>(async (root) => {
  const outcome = await lintOne(linter, root as string, data.spec);
  if (used.length > 0 && 'result' in outcome) {
    outcome.tokens = used;
    used = [];
  }
  return outcome;
});
