// A pool of worker threads that work through items 0..count-1 in batches, with the calling thread taking its own
// share. Batches are handed out as threads ask (two in flight a worker), so at most a few batches of payloads are
// in memory at once whatever the count. A worker that dies (out of memory, killed, exited) takes only the item it was
// on: the item is reported as a crash, the rest of its batches go back to the queue, and a new worker takes its
// place. Which item it was on, each worker writes to a SharedArrayBuffer slot before it starts on it, so the answer
// survives the worker.
import { createRequire } from 'node:module';
import { parentPort, Worker, workerData, type ResourceLimits } from 'node:worker_threads';

export interface PoolOptions<R> {
  /** The worker script (it calls serveBatches; a .ts file runs through tsx: tests), and its arguments. */
  file: string;
  argv?: string[];
  /** Given to every worker (with its slot, as `poolSlot`). */
  workerData: Record<string, unknown>;
  resourceLimits?: ResourceLimits;
  /** Worker threads to start. */
  workers: number;
  /** Items to work through: 0..count-1. */
  count: number;
  /**
   * Most items a batch for a worker. Batches shrink as the items run out (a share of what is left, as guided
   * scheduling does), so that no thread is left with a long tail while the others wait; the calling thread takes a
   * quarter as many at a time, to answer the workers sooner.
   */
  batchSize: number;
  /** What a worker gets of item i. */
  payload(index: number): unknown;
  /** Item i's result, from a worker or from `local`. */
  onResult(index: number, result: R): void;
  /** Item i stopped the worker that had it (out of memory, say); `reason` says how. */
  onCrash(index: number, reason: string): void;
  /** Work on some items in the calling thread (calling onResult for each); without it, workers do everything. */
  local?(indexes: number[]): Promise<void>;
}

interface Slot {
  worker: Worker;
  /** The item it is on (-1: none), written by the worker. */
  current: Int32Array;
  inflight: Map<number, number[]>;
  ended: boolean;
  error?: Error;
}

interface Batch {
  id: number;
  items: [number, unknown][];
}

/** Messages from a worker: a batch's results, in order, or a failure that is no item's. */
type FromWorker<R> = { id: number; results: [number, R][] };

/** Work through the items with the pool; resolves once every item has a result or a crash. */
export function runPool<R>(options: PoolOptions<R>): Promise<void> {
  const { count, batchSize } = options;
  let next = 0;
  const requeued: number[] = [];
  let batchIds = 0;
  const slots = new Set<Slot>();
  let settled = false;
  let localBusy = false;

  const threads = options.workers + (options.local ? 1 : 0);
  const take = (most: number): number[] => {
    const left = requeued.length + count - next;
    const size = Math.max(1, Math.min(most, Math.ceil(left / (threads * 4))));
    const out = requeued.splice(0, size);
    while (out.length < size && next < count) out.push(next++);
    return out;
  };
  const workLeft = () => requeued.length > 0 || next < count;
  const inflight = () => [...slots].some((s) => s.inflight.size > 0);

  return new Promise<void>((resolve, reject) => {
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      for (const s of slots) void s.worker.terminate();
      reject(err);
    };
    const checkDone = () => {
      if (settled || workLeft() || inflight() || localBusy) return;
      settled = true;
      for (const s of slots) end(s);
      resolve();
    };
    // A worker that has had work exits by itself (its code cache is written at exit); one still starting is stopped.
    const end = (s: Slot) => {
      s.ended = true;
      if (s.current[0] === -2) void s.worker.terminate();
      else s.worker.postMessage(null);
    };
    const feed = (s: Slot) => {
      while (!settled && !s.ended && s.inflight.size < 2 && workLeft()) {
        const indexes = take(batchSize);
        const batch: Batch = { id: batchIds++, items: indexes.map((i) => [i, options.payload(i)]) };
        s.inflight.set(batch.id, indexes);
        s.worker.postMessage(batch);
      }
    };
    const start = () => {
      const current = new Int32Array(new SharedArrayBuffer(4));
      current[0] = -2; // not started on anything yet
      const ts = options.file.endsWith('.ts');
      const tsx = () => createRequire(import.meta.url).resolve('tsx/cjs/api');
      const source = ts
        ? `require(${JSON.stringify(tsx())}).register(); require(${JSON.stringify(options.file)});`
        : '';
      const worker = new Worker(ts ? source : options.file, {
        eval: ts,
        argv: options.argv,
        workerData: { ...options.workerData, poolSlot: current },
        resourceLimits: options.resourceLimits,
        // A worker given no stdin ends its process.stdin as it starts, which builds that stream (and loads the
        // stream code, with no start-up snapshot in a worker): 25 ms of its CPU. With one, nothing is built until
        // read, and no worker reads it.
        stdin: true,
      });
      const s: Slot = { worker, current, inflight: new Map(), ended: false };
      slots.add(s);
      worker.on('message', (m: FromWorker<R>) => {
        const indexes = s.inflight.get(m.id);
        if (!indexes) return;
        s.inflight.delete(m.id);
        try {
          for (const [i, r] of m.results) options.onResult(i, r);
        } catch (err) {
          fail(err);
          return;
        }
        feed(s);
        checkDone();
      });
      worker.on('error', (err) => {
        s.error = err;
      });
      worker.on('exit', (code) => {
        slots.delete(s);
        if (settled || (s.ended && s.inflight.size === 0)) return;
        const at = s.current[0]!;
        const lost = [...s.inflight.values()].flat();
        if (at < 0 || !lost.includes(at)) {
          // Not on any item: the worker itself is broken (a failed start: a preload that throws in threads, a limit on
          // threads or memory), not the skills. Its work goes back to the queue, for the other workers and this thread;
          // no worker is started in its place (it would fail alike).
          if (!options.local) {
            fail(
              new Error(`a lint worker stopped before it finished its work (exit code ${code})`, {
                cause: s.error,
              }),
            );
            return;
          }
          requeued.unshift(...lost);
          requeued.sort((a, b) => a - b);
          if (!localRunning) runLocal();
          return;
        }
        options.onCrash(at, describe(s.error, code));
        requeued.unshift(...lost.filter((i) => i !== at));
        requeued.sort((a, b) => a - b);
        if (workLeft()) feed(start());
        else checkDone();
      });
      return s;
    };

    let localRunning = false;
    const runLocal = () => {
      localRunning = true;
      localLoop().then(() => {
        localRunning = false;
        checkDone();
      }, fail);
    };
    const localLoop = async () => {
      const local = options.local;
      if (!local) return;
      const size = Math.max(1, Math.floor(batchSize / 4));
      while (!settled && workLeft()) {
        const indexes = take(size);
        localBusy = true;
        try {
          await local(indexes);
        } finally {
          localBusy = false;
        }
        // Let the workers' messages in between batches, so that none waits long for its next one.
        await new Promise((r) => setImmediate(r));
      }
    };
    for (let k = 0; k < options.workers; k++) feed(start());
    runLocal();
  });
}

function describe(err: Error | undefined, code: number): string {
  const c = (err as { code?: string } | undefined)?.code;
  if (c === 'ERR_WORKER_OUT_OF_MEMORY') return 'it ran out of memory';
  if (err) return `it failed: ${err.message}`;
  return `it stopped (exit code ${code})`;
}

/**
 * In a worker: answer the pool's batches in turn with `handle` (one item at a time, its index written to the
 * pool's slot first); returns once the pool says there is no more work.
 */
export function serveBatches<R>(handle: (payload: unknown) => Promise<R> | R): void {
  const port = parentPort;
  if (!port) throw new Error('serveBatches runs in a worker thread');
  const current = (workerData as { poolSlot: Int32Array }).poolSlot;
  const queue: (Batch | null)[] = [];
  let running = false;
  const run = async () => {
    running = true;
    for (let b = queue.shift(); b !== undefined; b = queue.shift()) {
      if (b === null) {
        port.close();
        return;
      }
      const results: [number, R][] = [];
      for (const [i, payload] of b.items) {
        Atomics.store(current, 0, i);
        results.push([i, await handle(payload)]);
      }
      Atomics.store(current, 0, -1);
      port.postMessage({ id: b.id, results } satisfies FromWorker<R>);
    }
    running = false;
  };
  port.on('message', (m: Batch | null) => {
    queue.push(m);
    if (!running) void run();
  });
}
