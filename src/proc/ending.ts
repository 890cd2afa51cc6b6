import { livingInGroup, type RunProcesses } from './sweep.js';

// Ending a run: its process group gets the signal once; on Linux every other process of the run (RunProcesses:
// those that left the group) gets it once too, and a process that appears meanwhile gets it when it is found.
// Then SIGKILL, to all of them, until none is left.

/** Whether anything of a process group is still alive (kill(-pgid, 0), and on Linux not a zombie). */
export function groupAlive(pgid: number | undefined): boolean {
  if (pgid === undefined) return false;
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  return livingInGroup(pgid) ?? true;
}

function send(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    /* gone */
  }
}

export class Ending {
  private readonly signalled = new Set<number>();
  private groupSignalled = false;

  constructor(
    /** The run's process group (its leader's pid). */
    private readonly pgid: number | undefined,
    private readonly procs: RunProcesses | undefined,
  ) {}

  /**
   * Send `sig` to what is left of the run (SIGKILL to all of it, every time; another signal once to each), and
   * say whether anything was left.
   */
  hit(sig: NodeJS.Signals): boolean {
    const pgid = this.pgid;
    if (pgid === undefined) return false;
    const found = this.procs?.scan();
    if (found === undefined) {
      // No /proc: the group is all we can find.
      if (!groupAlive(pgid)) return false;
      if (sig === 'SIGKILL' || !this.groupSignalled) send(-pgid, sig);
      this.groupSignalled = true;
      return true;
    }
    if (found.length === 0) return false;
    const first = !this.groupSignalled;
    for (const p of found) {
      // The first group signal reaches the group's members; the others each get their own.
      const viaGroup = first && p.pgrp === pgid;
      if (sig === 'SIGKILL' || (!viaGroup && !this.signalled.has(p.pid))) send(p.pid, sig);
      this.signalled.add(p.pid);
    }
    if (first || sig === 'SIGKILL') send(-pgid, sig);
    this.groupSignalled = true;
    return true;
  }
}

/** Sleep without giving the event loop a turn (for the exit handler, where nothing asynchronous runs any more). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** End a run at once, synchronously: `sig`, then SIGKILL after `graceMs` if anything is left. */
export function endNow(ending: Ending, sig: NodeJS.Signals, graceMs: number): void {
  if (!ending.hit(sig)) return;
  const deadline = performance.now() + graceMs;
  while (performance.now() < deadline) {
    sleepSync(20);
    if (!ending.hit(sig)) return;
  }
  const killedBy = performance.now() + 1000;
  while (ending.hit('SIGKILL') && performance.now() < killedBy) sleepSync(10);
}
