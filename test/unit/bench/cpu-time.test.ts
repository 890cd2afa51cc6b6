import { describe, expect, it } from 'vitest';
// @ts-expect-error: a bench script in plain JavaScript, without types
import { comparePair, formatTable } from '../../../bench/lib.mjs';

// The bench prints each command's CPU time beside its wall time: on a loaded machine or disk the wall ratio swings
// (tar xzf from 0.5 to 3.4 s), the CPU a command spends much less.
describe.runIf(process.platform === 'linux')('CPU time in the bench (Linux: /proc/self/stat)', () => {
  const node = (code: string, label: string) => ({ file: process.execPath, args: ['-e', code], label });
  // 600 ms of CPU (counted by the process itself, however loaded the machine) against a process that sleeps about
  // as long and spends next to nothing but its start.
  const busy = node('while (process.cpuUsage().user < 600000);', 'busy');
  const idle = node('setTimeout(() => {}, 600)', 'idle');

  it('reads what each side spent, child processes of a shell included, and prints it beside the wall ratio', async () => {
    const r = await comparePair({
      measured: { file: '/bin/sh', args: ['-c', `"${process.execPath}" -e "${busy.args[1]}"`], label: 'sh busy' },
      baseline: idle,
      runs: 1,
    });
    // Both sides take about 600 ms of wall time on an idle machine; only the busy one spends it on the CPU.
    expect(r.measured.cpu.median).toBeGreaterThanOrEqual(590);
    expect(r.baseline.cpu.median).toBeLessThan(r.measured.cpu.median / 2);
    expect(r.cpuRatio).toBeGreaterThan(2);
    const row = { name: 'row', ...r, aim: '≤ 1x', verdict: 'ok' };
    const text = formatTable({ node: 'v', platform: 'p', cpu: 'c', cores: 2 }, [row]) as string;
    expect(text).toContain(`(cpu ${r.cpuRatio.toFixed(2)}x)`);
    expect(text).toMatch(
      /row: CPU time \(user \+ system, median \/ min\): sh busy [\d.]+ m?s \/ [\d.]+ m?s, idle [\d.]+ m?s \/ [\d.]+ m?s$/m,
    );
  });
});

describe('rows without an aim', () => {
  const side = (ms: number, label: string) => ({ label, median: ms, min: ms, samples: [ms] });
  const row = (name: string, ratio: number, aim: string, verdict: string) => ({
    name,
    measured: side(ratio * 10, 'ours'),
    baseline: side(10, 'theirs'),
    ratio,
    aim,
    verdict,
  });
  const machine = { node: 'v', platform: 'p', cpu: 'c', cores: 2 };

  it('count neither as met nor as missed', () => {
    const info = row('shown only', 17, 'none (fixed costs)', '-');
    const text = formatTable(machine, [row('aimed', 1.5, '≤ 2x', 'ok'), info]) as string;
    expect(text).toMatch(/all 1 aims met$/);
    const missed = formatTable(machine, [row('aimed', 3, '≤ 2x', 'MISSED'), info]) as string;
    expect(missed).toMatch(/MISSED 1 of 1 aims: aimed$/);
  });
});
