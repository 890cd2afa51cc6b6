import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Ending, endNow } from '../../../src/proc/ending.js';
import { atExit } from '../../../src/proc/exit-guard.js';
import { runInGroup } from '../../../src/proc/process-group.js';
import { forwardTerminationSignals } from '../../../src/proc/signals.js';
import { MARKER_PATTERN, RunProcesses, newMarker, pipesOf } from '../../../src/proc/sweep.js';

const linux = process.platform === 'linux';

/** A process is living while /proc has it in a state other than zombie (Z) or dead (X). */
const living = (pid: number) => /\) [^ZX] /.test(statOf(pid));
function statOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return ''; // gone
  }
}

/** The fields of /proc/<pid>/stat after the command name: state, ppid, pgrp, …; none when it is gone. */
const statFields = (pid: number) =>
  statOf(pid)
    .slice(statOf(pid).lastIndexOf(')') + 2)
    .split(' ');
const parentOf = (pid: number) => Number(statFields(pid)[1] ?? 0);
const groupOf = (pid: number) => Number(statFields(pid)[2] ?? 0);

/** Start `sh -c script` as Node's runner does (its own session and group), with `env`; resolves its first line. */
function start(script: string, env: Record<string, string>) {
  const child = spawn('sh', ['-c', script], { detached: true, env: { PATH: process.env.PATH, ...env } });
  const line = new Promise<string>((done) => {
    let out = '';
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('\n')) done(out.split('\n')[0]!);
    });
  });
  return { child, line };
}

describe('newMarker', () => {
  it('names a fresh variable each time, of the one pattern', () => {
    const a = newMarker();
    expect(a).toMatch(MARKER_PATTERN);
    expect(newMarker()).not.toBe(a);
  });
});

describe.runIf(linux)('RunProcesses', () => {
  it('finds a process that left the group and session by its marker, and its descendants', async () => {
    const marker = newMarker();
    const { child, line } = start("setsid sh -c 'sleep 30 & echo $$ $!; wait' & wait", { [marker]: '1' });
    const [escaped, grandchild] = (await line).split(' ').map(Number);
    const procs = new RunProcesses(child.pid!, marker);
    const found = procs.scan()!.map((p) => p.pid);
    expect(found).toEqual(expect.arrayContaining([child.pid, escaped, grandchild]));
    // Without reading environments, only what was seen before (and descends from it) counts: all of it, now.
    expect(procs.scan(false)!.map((p) => p.pid)).toEqual(expect.arrayContaining([escaped, grandchild]));
    const ending = new Ending(child.pid, procs);
    endNow(ending, 'SIGTERM', 500);
    expect([child.pid!, escaped!, grandchild!].filter(living)).toEqual([]);
    expect(ending.hit('SIGTERM')).toBe(false);
  });

  it('never counts this process, nor an unmarked process outside the group', async () => {
    const { child, line } = start("setsid sh -c 'echo $$; exec sleep 30' & wait", {});
    const outsider = Number(await line);
    // Another run's marker: the outsider is not ours (it is found only through its parent, which is in the group).
    const procs = new RunProcesses(process.pid + 1_000_000, newMarker());
    expect(procs.scan()!.map((p) => p.pid)).not.toContain(outsider);
    expect(procs.scan()!.map((p) => p.pid)).not.toContain(process.pid);
    process.kill(outsider, 'SIGKILL');
    process.kill(-child.pid!, 'SIGKILL');
  });

  it('adopts a process holding the run’s pipes, even with a cleared environment', async () => {
    const marker = newMarker();
    // The run's shell stays a while, so its pipes can be read from /proc (one that had exited would have none).
    const { child, line } = start("(env -i setsid sh -c 'echo $$; exec sleep 30' &); sleep 5", { [marker]: '1' });
    const holder = Number(await line);
    const pipes = pipesOf(child.pid);
    expect(pipes.length).toBeGreaterThan(0);
    // Until the subshell that started it is gone, the holder still descends from the run: wait for that (a fixed
    // pause is too short on a loaded machine).
    for (let i = 0; i < 100 && groupOf(parentOf(holder)) === child.pid; i++)
      await new Promise((r) => setTimeout(r, 50));
    const procs = new RunProcesses(child.pid!, marker);
    expect(procs.scan()!.map((p) => p.pid)).not.toContain(holder);
    expect(procs.adoptHolders(pipes)).toBe(true);
    expect(procs.scan()!.map((p) => p.pid)).toContain(holder);
    endNow(new Ending(child.pid, procs), 'SIGTERM', 500);
    expect(living(holder)).toBe(false);
  });
});

describe.runIf(linux)('runInGroup beyond the group', () => {
  it('ends a process that left the session, on normal exit and on timeout', async () => {
    for (const timeoutMs of [0, 300]) {
      let out = '';
      await runInGroup({
        command: `setsid sh -c 'echo $$; exec sleep 30' & sleep 0.2; ${timeoutMs ? 'sleep 30' : 'exit 0'}`,
        shell: true,
        cwd: process.cwd(),
        env: { PATH: process.env.PATH },
        input: '',
        timeoutMs,
        graceMs: 300,
        onStdout: (b) => (out += b.toString()),
      });
      expect(living(Number(out.trim()))).toBe(false);
    }
  });

  it('ends the run from the exit handler when this process exits first', () => {
    // A child Node process starts a run, then exits at once: the run's escaped process must be gone with it.
    const code = `
      const { runInGroup } = require(${JSON.stringify(require.resolve('../../../src/proc/process-group.ts'))});
      runInGroup({ command: "setsid sh -c 'echo $$; exec sleep 30' & sleep 30", shell: true, cwd: process.cwd(),
        env: { PATH: process.env.PATH }, input: '', timeoutMs: 0, graceMs: 300,
        onStdout: (b) => { process.stdout.write(b); setTimeout(() => process.exit(7), 100); } });`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', code], { encoding: 'utf8', timeout: 20_000 });
    expect(r.status).toBe(7);
    const pid = Number(r.stdout.trim());
    expect(pid).toBeGreaterThan(0);
    expect(living(pid)).toBe(false);
  });
});

describe('forwardTerminationSignals and atExit', () => {
  it('forwards SIGHUP and SIGQUIT too, until undone', () => {
    const before = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'].map((s) => process.listenerCount(s));
    const stop = new AbortController();
    const undo = forwardTerminationSignals(stop);
    (process.listeners('SIGHUP').at(-1) as (sig: NodeJS.Signals) => void)('SIGHUP');
    expect(stop.signal.reason).toBe('SIGHUP');
    expect(process.listenerCount('SIGQUIT')).toBe(before[3]! + 1);
    undo();
    expect(['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'].map((s) => process.listenerCount(s))).toEqual(before);
  });

  it('atExit installs one exit handler for any number of runs', () => {
    const undo = atExit(() => {});
    const count = process.listenerCount('exit');
    atExit(() => {})();
    expect(process.listenerCount('exit')).toBe(count);
    undo();
  });
});
