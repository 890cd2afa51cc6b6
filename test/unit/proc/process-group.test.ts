import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { groupAlive, runInGroup, type GroupRun } from '../../../src/proc/process-group.js';
import { forwardTerminationSignals } from '../../../src/proc/signals.js';

/** Whether a process is alive and not a zombie (an orphan may stay one a while, until init reaps it). */
function living(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]![0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return true;
  }
}

/** Run a shell command in its own group; collects stdout. */
async function sh(command: string, opts: Partial<GroupRun> = {}) {
  let out = '';
  const started = Date.now();
  const exit = await runInGroup({
    command,
    shell: true,
    cwd: process.cwd(),
    env: { PATH: process.env.PATH },
    input: '',
    timeoutMs: 0,
    graceMs: 300,
    onStdout: (b) => (out += b.toString()),
    ...opts,
  });
  return { ...exit, out, took: Date.now() - started };
}

/** The pids a command printed: `$$` (the shell, which leads the group) and `$!` (its background child). */
const pids = (out: string) => out.trim().split(/\s+/).map(Number);

describe('runInGroup', () => {
  it('passes the input on stdin and the output back, with the exit code', async () => {
    const r = await sh('read line; echo "got $line"; exit 3', { input: 'hello\n' });
    expect(r).toMatchObject({ code: 3, signal: null, timedOut: false, out: 'got hello\n' });
  });

  it('ends the whole group on timeout: the program and what it started in the background', async () => {
    const r = await sh('sleep 30 & echo $$ $!; wait', { timeoutMs: 300 });
    const [shell, child] = pids(r.out);
    expect(r.timedOut).toBe(true);
    expect(r.signal).toBe('SIGTERM');
    expect(r.took).toBeLessThan(5000);
    expect(living(shell!)).toBe(false);
    expect(living(child!)).toBe(false);
    expect(groupAlive(shell)).toBe(false);
  });

  it('sends SIGKILL after the grace to a group that ignores SIGTERM', async () => {
    const r = await sh("trap '' TERM; sleep 30 & echo $$ $!; while :; do wait; done", { timeoutMs: 200, graceMs: 300 });
    const [shell, child] = pids(r.out);
    expect(r.timedOut).toBe(true);
    expect(r.signal).toBe('SIGKILL');
    expect(living(child!)).toBe(false);
    expect(groupAlive(shell)).toBe(false);
  });

  it('kills at once with timeoutSignal SIGKILL', async () => {
    const r = await sh("trap '' TERM; echo $$; sleep 30", {
      timeoutMs: 200,
      graceMs: 10_000,
      timeoutSignal: 'SIGKILL',
    });
    expect(r.timedOut).toBe(true);
    expect(r.signal).toBe('SIGKILL');
    expect(r.took).toBeLessThan(5000);
    expect(groupAlive(pids(r.out)[0])).toBe(false);
  });

  it('ends what the program left running in its group when it exits', async () => {
    const r = await sh('sleep 30 & echo $$ $!; exit 0');
    const [shell, child] = pids(r.out);
    expect(r).toMatchObject({ code: 0, timedOut: false });
    expect(r.took).toBeLessThan(5000);
    expect(living(child!)).toBe(false);
    expect(groupAlive(shell)).toBe(false);
  });

  it('ends the group with the signal an abort names', async () => {
    const stop = new AbortController();
    const running = sh('echo $$; sleep 30', { signal: stop.signal });
    setTimeout(() => stop.abort('SIGINT'), 200);
    const r = await running;
    expect(r).toMatchObject({ code: null, signal: 'SIGINT', timedOut: false });
  });

  it('rejects with the spawn error when the program cannot start', async () => {
    await expect(
      runInGroup({
        command: 'no-such-program-here',
        cwd: process.cwd(),
        env: { PATH: process.env.PATH },
        input: '',
        timeoutMs: 0,
      }),
    ).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('forwardTerminationSignals', () => {
  it('aborts with the name of our own SIGINT or SIGTERM until undone', () => {
    const before = process.listenerCount('SIGTERM');
    const beforeInt = process.listenerCount('SIGINT');
    const stop = new AbortController();
    const undo = forwardTerminationSignals(stop);
    expect(process.listenerCount('SIGTERM')).toBe(before + 1);
    // Call our listener rather than emit the signal: the test runner may listen for it too.
    (process.listeners('SIGTERM').at(-1) as (sig: NodeJS.Signals) => void)('SIGTERM');
    expect(stop.signal.reason).toBe('SIGTERM');
    undo();
    expect(process.listenerCount('SIGTERM')).toBe(before);
    expect(process.listenerCount('SIGINT')).toBe(beforeInt);
  });
});
