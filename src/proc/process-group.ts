import { spawn } from 'node:child_process';
import { atExit } from './exit-guard.js';
import { Ending, endNow } from './ending.js';
import { RunProcesses, newMarker, pipesOf } from './sweep.js';

export { groupAlive } from './ending.js';
export { livingInGroup } from './sweep.js';

// One way to run a program that may start others: in its own process group, so a timeout or an abort ends the
// whole tree, and whatever it leaves running when it exits is ended too (it would hold the pipes open). On Linux the
// run also reaches the processes that left the group (sweep.ts), and if this process exits first (a closed output
// pipe), the exit handler ends the run (exit-guard.ts).

/** The signals an abort may name to end the run with (any other reason means SIGTERM). */
const ABORT_SIGNALS: readonly string[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'];

/** How often, while the program runs, its descendants are looked for (so one that leaves early is still known). */
const TRACK_MS = 250;

/** How long pipes may stay open after the run's processes are gone before their holders are looked for. */
const HOLD_MS = 100;

/** Between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 2000;

/** Lets a reader of the output apply backpressure: pause the stream until its sink drains. */
export interface Flow {
  pause(): void;
  resume(): void;
}

export interface GroupRun {
  command: string;
  args?: string[];
  /** Run `command` through the system shell (`/bin/sh -c`), as typed. */
  shell?: boolean;
  cwd: string;
  env: Record<string, string | undefined>;
  /** Written to stdin, which is then closed (a program that does not read it is fine). */
  input: string;
  /** 0 or Infinity: no time limit. */
  timeoutMs: number;
  /** What a timeout sends the group first: SIGTERM (the default), then SIGKILL after the grace. */
  timeoutSignal?: NodeJS.Signals;
  /** Aborting ends the run, with the abort reason's signal when it is SIGINT, SIGTERM, SIGHUP or SIGQUIT. */
  signal?: AbortSignal;
  /** Between SIGTERM and SIGKILL; KILL_GRACE_MS unless given. */
  graceMs?: number;
  onStdout?: (chunk: Buffer, flow: Flow) => void;
  onStderr?: (chunk: Buffer, flow: Flow) => void;
}

export interface GroupExit {
  /** The exit code, or null when a signal ended the program. */
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  durationMs: number;
}

/**
 * Run a program in its own process group and wait until it has exited, its group is empty and its output is
 * read. On timeout or abort the whole group gets SIGTERM (or `timeoutSignal`), then SIGKILL after the grace; when
 * the program exits, whatever it left running in its group is ended the same way. Rejects with the spawn error
 * when the program cannot be started.
 */
export function runInGroup(run: GroupRun): Promise<GroupExit> {
  const grace = run.graceMs ?? KILL_GRACE_MS;
  const started = performance.now();
  return new Promise<GroupExit>((resolvePromise, reject) => {
    const marker = newMarker();
    const child = spawn(run.command, run.args ?? [], {
      cwd: run.cwd,
      env: { ...run.env, [marker]: '1' },
      shell: run.shell ?? false,
      detached: true, // its own process group, so the whole tree can be signalled
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const outFlow: Flow = { pause: () => child.stdout.pause(), resume: () => child.stdout.resume() };
    const errFlow: Flow = { pause: () => child.stderr.pause(), resume: () => child.stderr.resume() };
    child.stdout.on('data', (b: Buffer) => run.onStdout?.(b, outFlow));
    child.stderr.on('data', (b: Buffer) => run.onStderr?.(b, errFlow));
    child.stdin.on('error', () => {
      /* the program need not read stdin: EPIPE is fine */
    });
    child.stdin.end(run.input);

    let timedOut = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let settled = false;
    let ended: Promise<void> | undefined;
    const timers = new Set<NodeJS.Timeout>();
    const later = (ms: number, fn: () => void) => {
      const t = setTimeout(() => {
        timers.delete(t);
        fn();
      }, ms);
      timers.add(t);
    };
    const pgid = child.pid;
    const procs = pgid === undefined ? undefined : new RunProcesses(pgid, marker);
    const ending = new Ending(pgid, procs);
    // End the run: `sig` now, SIGKILL once the grace has passed with anything of it still alive.
    const endRun = (sig: NodeJS.Signals): Promise<void> => {
      ended ??= new Promise<void>((done) => {
        if (!ending.hit(sig)) return done();
        const deadline = performance.now() + grace;
        const poll = () => {
          if (!ending.hit(sig)) return done();
          if (performance.now() < deadline) return later(25, poll);
          // SIGKILL cannot be ignored, but dying takes a moment: wait (briefly) until nothing is left.
          const killedBy = performance.now() + 1000;
          const kill = () => (!ending.hit('SIGKILL') || performance.now() > killedBy ? done() : later(10, kill));
          kill();
        };
        later(25, poll);
      });
      return ended;
    };
    const pipes = pipesOf(pgid);
    const unguard = atExit(() => {
      endNow(ending, 'SIGTERM', grace);
      if (procs?.adoptHolders(pipes)) endNow(ending, 'SIGTERM', grace);
    });
    const tracker = procs?.scan(false) === undefined ? undefined : setInterval(() => procs.scan(false), TRACK_MS);

    const onAbort = () => {
      const reason: unknown = run.signal?.reason;
      void endRun(
        typeof reason === 'string' && ABORT_SIGNALS.includes(reason) ? (reason as NodeJS.Signals) : 'SIGTERM',
      );
    };
    if (run.signal?.aborted) onAbort();
    else run.signal?.addEventListener('abort', onAbort, { once: true });
    if (run.timeoutMs > 0 && Number.isFinite(run.timeoutMs)) {
      later(run.timeoutMs, () => {
        if (exit) return; // it ended in time; what it left behind is being ended already
        timedOut = true;
        void endRun(run.timeoutSignal ?? 'SIGTERM');
      });
    }

    const cleanup = () => {
      settled = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      clearInterval(tracker);
      unguard();
      run.signal?.removeEventListener('abort', onAbort);
    };

    child.on('error', (e: NodeJS.ErrnoException) => {
      if (settled) return;
      cleanup();
      child.stdout.destroy();
      child.stderr.destroy();
      reject(e);
    });
    let closed = false;
    let onClose = () => {};
    let groupEnded = false;
    const finish = () => {
      if (settled || !exit || !closed || !groupEnded) return;
      cleanup();
      resolvePromise({ ...exit, timedOut, durationMs: Math.round(performance.now() - started) });
    };
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // What the program left running would keep its pipes open and outlive it: end it.
      void endRun('SIGTERM')
        // Output may still be on its way: give the pipes a moment to close before looking for who holds them.
        .then(() =>
          closed
            ? undefined
            : new Promise<void>((wait) => {
                onClose = wait;
                later(HOLD_MS, wait);
              }),
        )
        .then(() => {
          if (closed || !procs?.adoptHolders(pipes)) return;
          // Something that left every other trail (a cleared environment, its parent gone) still holds the pipes.
          ended = undefined;
          return endRun('SIGTERM');
        })
        .then(() => {
          groupEnded = true;
          finish();
          if (settled) return;
          // A process that left the group (setsid) may still hold the pipes: do not wait for it forever.
          later(grace, () => {
            if (closed) return;
            closed = true;
            child.stdout.destroy();
            child.stderr.destroy();
            finish();
          });
        });
    });
    child.on('close', () => {
      closed = true;
      onClose();
      finish();
    });
  });
}
