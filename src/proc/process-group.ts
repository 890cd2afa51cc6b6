import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

// One way to run a program that may start others: in its own process group, so a timeout or an abort ends the
// whole tree, and whatever it leaves running when it exits is ended too (it would hold the pipes open).

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
  /** Aborting ends the group, with the abort reason's signal when it is SIGINT or SIGTERM. */
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
 * Whether a process group has a member that is not a zombie, from /proc (Linux); undefined where there is no
 * /proc. kill(-pgid, 0) alone also counts zombies, and an orphan stays one until init reaps it, which some
 * container inits do late.
 */
export function livingInGroup(pgid: number): boolean | undefined {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return undefined;
  }
  for (const name of names) {
    if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') return true;
  }
  return false;
}

/** Whether anything of a process group is still alive. */
export function groupAlive(pgid: number | undefined): boolean {
  if (pgid === undefined) return false;
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  return livingInGroup(pgid) ?? true;
}

function signalGroup(pgid: number | undefined, sig: NodeJS.Signals): void {
  if (pgid === undefined) return;
  try {
    process.kill(-pgid, sig);
  } catch {
    /* the group is gone */
  }
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
    const child = spawn(run.command, run.args ?? [], {
      cwd: run.cwd,
      env: run.env,
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
    let ending: Promise<void> | undefined;
    const timers = new Set<NodeJS.Timeout>();
    const later = (ms: number, fn: () => void) => {
      const t = setTimeout(() => {
        timers.delete(t);
        fn();
      }, ms);
      timers.add(t);
    };
    const pgid = child.pid;
    // End the group: `sig` now, SIGKILL once the grace has passed with anything of the group still alive.
    const endGroup = (sig: NodeJS.Signals): Promise<void> => {
      ending ??= new Promise<void>((done) => {
        if (!groupAlive(pgid)) return done();
        signalGroup(pgid, sig);
        const deadline = performance.now() + grace;
        const poll = () => {
          if (!groupAlive(pgid)) return done();
          if (performance.now() < deadline) return later(25, poll);
          signalGroup(pgid, 'SIGKILL');
          // SIGKILL cannot be ignored, but dying takes a moment: wait (briefly) until the group is empty.
          const killedBy = performance.now() + 1000;
          const gone = () => (!groupAlive(pgid) || performance.now() > killedBy ? done() : later(10, gone));
          gone();
        };
        later(25, poll);
      });
      return ending;
    };

    const onAbort = () => {
      const reason: unknown = run.signal?.reason;
      void endGroup(reason === 'SIGINT' || reason === 'SIGTERM' ? reason : 'SIGTERM');
    };
    if (run.signal?.aborted) onAbort();
    else run.signal?.addEventListener('abort', onAbort, { once: true });
    if (run.timeoutMs > 0 && Number.isFinite(run.timeoutMs)) {
      later(run.timeoutMs, () => {
        if (exit) return; // it ended in time; what it left behind is being ended already
        timedOut = true;
        void endGroup(run.timeoutSignal ?? 'SIGTERM');
      });
    }

    const cleanup = () => {
      settled = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
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
    let groupEnded = false;
    const finish = () => {
      if (settled || !exit || !closed || !groupEnded) return;
      cleanup();
      resolvePromise({ ...exit, timedOut, durationMs: Math.round(performance.now() - started) });
    };
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // What the program left running in its group would keep its pipes open and outlive it: end it.
      void endGroup('SIGTERM').then(() => {
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
      finish();
    });
  });
}
