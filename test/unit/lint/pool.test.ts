// The worker pool with tiny real workers (test/fixtures/workers, run through tsx): every item gets its result or its
// crash, in any mix of workers and the calling thread, and a worker that dies takes only the item it was on.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPool } from '../../../src/lint/pool.js';
import { FIXTURES } from '../../helpers/cli.js';

const WORKER = join(FIXTURES, 'workers/marked.ts');

async function run(items: unknown[], options: { workers: number; batchSize: number; local?: boolean; file?: string }) {
  const results = new Map<number, number>();
  const crashes = new Map<number, string>();
  const byLocal: number[] = [];
  await runPool<number>({
    file: options.file ?? WORKER,
    workerData: {},
    // Small enough that the worker marked 'oom' runs out soon.
    resourceLimits: { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16 },
    workers: options.workers,
    count: items.length,
    batchSize: options.batchSize,
    payload: (i) => items[i],
    onResult: (i, r) => {
      expect(results.has(i) || crashes.has(i), `item ${i} answered twice`).toBe(false);
      results.set(i, r);
    },
    onCrash: (i, reason) => {
      expect(results.has(i) || crashes.has(i), `item ${i} answered twice`).toBe(false);
      crashes.set(i, reason);
    },
    ...(options.local
      ? {
          local: async (indexes: number[]) => {
            for (const i of indexes) {
              byLocal.push(i);
              results.set(i, (items[i] as number) * 2);
            }
          },
        }
      : {}),
  });
  return { results, crashes, byLocal };
}

describe('runPool', () => {
  it('answers every item once, from the workers and the calling thread together', async () => {
    const items = Array.from({ length: 300 }, (_, i) => i);
    const { results, crashes, byLocal } = await run(items, { workers: 2, batchSize: 8, local: true });
    expect(crashes.size).toBe(0);
    expect([...results.keys()].sort((a, b) => a - b)).toEqual(items);
    for (const [i, r] of results) expect(r).toBe(i * 2);
    // Both sides took a share: the workers answered what the calling thread did not.
    expect(byLocal.length).toBeGreaterThan(0);
    expect(byLocal.length).toBeLessThan(items.length);
  }, 30_000);

  it('reports the item a worker died on (exit, out of memory, stack overflow, a throw) and finishes the rest', async () => {
    const items: unknown[] = Array.from({ length: 40 }, (_, i) => i);
    items[3] = 'exit';
    items[11] = 'oom';
    items[20] = 'overflow';
    items[33] = 'throw';
    const { results, crashes } = await run(items, { workers: 2, batchSize: 4 });
    expect([...crashes.keys()].sort((a, b) => a - b)).toEqual([3, 11, 20, 33]);
    expect(crashes.get(3)).toBe('it stopped (exit code 3)');
    expect(crashes.get(11)).toBe('it ran out of memory');
    expect(crashes.get(20)).toMatch(/^it failed: Maximum call stack size exceeded/);
    expect(crashes.get(33)).toBe('it failed: marked to throw');
    // Every other item has its result, those after a crash in the same batch too.
    for (let i = 0; i < items.length; i++) if (!crashes.has(i)) expect(results.get(i)).toBe(i * 2);
  }, 60_000);

  it('fails with a clear error, not a hang, when a worker cannot start and nothing else can do its work', async () => {
    await expect(
      run([1, 2, 3, 4], { workers: 1, batchSize: 2, file: join(FIXTURES, 'workers/broken.ts') }),
    ).rejects.toThrow(/a lint worker stopped before it finished its work/);
  }, 30_000);

  it('does the work of workers that cannot start in the calling thread', async () => {
    const items = Array.from({ length: 50 }, (_, i) => i);
    const { results, crashes, byLocal } = await run(items, {
      workers: 2,
      batchSize: 8,
      local: true,
      file: join(FIXTURES, 'workers/broken.ts'),
    });
    expect(crashes.size).toBe(0);
    expect(byLocal.sort((a, b) => a - b)).toEqual(items);
    for (const [i, r] of results) expect(r).toBe(i * 2);
  }, 30_000);
});
