// Shared pieces of the benchmarks: a seeded PRNG, a temp folder that is always removed, timed child processes,
// medians, aims and the table. Progress goes to stderr; only the report goes to stdout.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as tick } from 'node:timers/promises';

/** mulberry32: a tiny PRNG, so the same seed always gives the same skills. Returns floats in [0, 1). */
export function mulberry32(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  next.int = (n) => Math.floor(next() * n);
  next.pick = (list) => list[Math.floor(next() * list.length)];
  next.chance = (p) => next() < p;
  return next;
}

let tempRoot;
let handlersSet = false;

/** os.tmpdir()/skills-bench-<pid>, created once and removed on exit, on error and on SIGINT/SIGTERM. */
export function benchTempDir() {
  if (tempRoot) return tempRoot;
  tempRoot = join(tmpdir(), `skills-bench-${process.pid}`);
  rmSync(tempRoot, { recursive: true, force: true });
  mkdirSync(tempRoot, { recursive: true });
  if (handlersSet) return tempRoot;
  handlersSet = true;
  process.on('exit', removeTempDir);
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ]) {
    process.on(signal, () => {
      process.stderr.write(`\n${signal}: removing ${tempRoot}\n`);
      process.exit(code);
    });
  }
  return tempRoot;
}

export function removeTempDir() {
  if (!tempRoot) return;
  rmSync(tempRoot, { recursive: true, force: true });
  tempRoot = undefined;
}

/** Let pending signal handlers run; the timing loops are synchronous spawns otherwise. */
export const yieldToEvents = () => tick();

export function log(message) {
  process.stderr.write(`${message}\n`);
}

/** A command to time: node with the given arguments, run from `cwd`. */
export function nodeCommand(args, { cwd = process.cwd(), label, env } = {}) {
  return { file: process.execPath, args, cwd, env, label: label ?? `node ${args.join(' ')}` };
}

/**
 * Spawn a command once and return its wall time in ms (spawn to exit, as a user sees it). A command that fails
 * is a broken benchmark, not a slow one: it throws with the command's stderr.
 */
export function timeOnce(cmd) {
  return timeAndCpu(cmd).ms;
}

/**
 * The CPU time (user + system, ms) of every child process this process has waited for, those children's own waited
 * children included (a shell's commands): on Linux, from /proc/self/stat (cutime, cstime, in USER_HZ ticks, which
 * are 1/100 s on every Linux architecture); undefined elsewhere. A spawnSync waits for its child, so the difference
 * across one is that command's CPU time, which load on the machine or a slow disk moves far less than its wall time.
 */
export function childCpuMs() {
  let stat;
  try {
    stat = readFileSync('/proc/self/stat', 'utf8');
  } catch {
    return undefined;
  }
  // The fields after the command name (in parentheses, which may hold spaces): state is field 3, cutime 16, cstime 17.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(f[13]) + Number(f[14]);
  return Number.isFinite(ticks) ? ticks * 10 : undefined;
}

/** timeOnce's wall time (ms) and the command's CPU time (ms; see childCpuMs; undefined where it cannot be read). */
export function timeAndCpu(cmd) {
  const cpuBefore = childCpuMs();
  const start = process.hrtime.bigint();
  const r = spawnSync(cmd.file, cmd.args, spawnOptions(cmd));
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const cpuAfter = childCpuMs();
  const cpu = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
  // Ctrl-C reaches the child too; stop here (the exit handler removes the temp folder).
  if (r.signal === 'SIGINT') process.exit(130);
  if (r.signal === 'SIGTERM') process.exit(143);
  if (r.error || r.status !== 0) {
    const why = r.error ? r.error.message : r.signal ? `killed by ${r.signal}` : `exit code ${r.status}`;
    throw new Error(`${cmd.label}: ${why}\n${firstLines(r.stderr || r.stdout || '', 10)}`);
  }
  return { ms, cpu };
}

/** Run a command once, untimed, and hand back what spawnSync gives (status, stdout, stderr). */
export function runOnce(cmd) {
  return spawnSync(cmd.file, cmd.args, spawnOptions(cmd));
}

// Output is piped and kept (as when a script reads `--format json`); 10,000 skills print more than the 1 MB
// that spawnSync buffers by default.
const spawnOptions = (cmd) => ({
  cwd: cmd.cwd,
  env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, ...cmd.env },
  encoding: 'utf8',
  maxBuffer: 1 << 30,
});

/**
 * Time `measured` against `baseline`, interleaved (A B A B …) so that load on the machine hits both alike.
 * Warm-ups are interleaved too and thrown away.
 */
export async function comparePair({ measured, baseline, runs, warmups = 0 }) {
  const a = [];
  const b = [];
  for (let i = 0; i < warmups + runs; i++) {
    const ta = timeAndCpu(measured);
    await yieldToEvents();
    const tb = timeAndCpu(baseline);
    await yieldToEvents();
    if (i >= warmups) {
      a.push(ta);
      b.push(tb);
    }
  }
  const m = summarize(a.map((t) => t.ms));
  const base = summarize(b.map((t) => t.ms));
  const result = {
    measured: { label: measured.label, ...m },
    baseline: { label: baseline.label, ...base },
    ratio: m.median / base.median,
  };
  // CPU time beside the wall time: what a command costs, whatever the disk and the other processes do meanwhile.
  if (a.every((t) => t.cpu !== undefined) && b.every((t) => t.cpu !== undefined)) {
    result.measured.cpu = summarize(a.map((t) => t.cpu));
    result.baseline.cpu = summarize(b.map((t) => t.cpu));
    result.cpuRatio =
      result.baseline.cpu.median > 0 ? result.measured.cpu.median / result.baseline.cpu.median : undefined;
  }
  return result;
}

export function summarize(samples) {
  return { median: median(samples), min: Math.min(...samples), samples };
}

export function median(values) {
  const s = [...values].sort((x, y) => x - y);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * Where NODE_EXTRA_CA_CERTS is set, what the same pair takes with it unset: node reads the file it names (a system's
 * whole CA bundle) at every start, before any code of ours runs, which on a machine that sets it adds tens of ms to
 * every run. Said in a note, the verdict staying on the run as the environment is. Undefined where it is not set.
 */
export async function caUnsetNote({ measured, baseline, runs, warmups = 1 }) {
  const caFile = process.env.NODE_EXTRA_CA_CERTS;
  if (!caFile) return undefined;
  const unset = (cmd) =>
    cmd.file === process.execPath
      ? {
          ...cmd,
          env: { ...cmd.env, NODE_EXTRA_CA_CERTS: undefined },
          label: `${cmd.label}, NODE_EXTRA_CA_CERTS unset`,
        }
      : cmd;
  const without = await comparePair({ measured: unset(measured), baseline: unset(baseline), runs, warmups });
  return (
    `NODE_EXTRA_CA_CERTS=${caFile} is set here, and node reads that file at every start; unset, the same run takes ` +
    `${formatMs(without.measured.median)} against ${formatMs(without.baseline.median)} (${without.ratio.toFixed(2)}x)`
  );
}

/** Aim on the ratio measured / baseline (of medians). */
export const ratioAim = (max) => ({ kind: 'ratio', max, text: `≤ ${max}x`, met: (r) => r.ratio <= max });

/** No aim: the row is shown for what it tells (the figure beside an aimed row), its verdict is '-'. */
export const noAim = (why) => ({ kind: 'none', text: `none (${why})`, info: true, met: () => true });

/** Aim on the ratio from below: the measured command must be at least `min` times the baseline's time. */
export const minRatioAim = (min) => ({ kind: 'ratio', min, text: `≥ ${min}x`, met: (r) => r.ratio >= min });

/** Aim on the measured median wall time, strictly below `ms`. */
export const timeAim = (ms) => ({
  kind: 'time',
  maxMs: ms,
  text: `< ${formatMs(ms)}`,
  met: (r) => r.measured.median < ms,
});

export function formatMs(ms) {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`;
}

const pair = (s) => `${formatMs(s.median)} / ${formatMs(s.min)}`;

export function machineInfo() {
  const list = cpus();
  return {
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpu: list[0]?.model?.trim() ?? 'unknown',
    cores: list.length,
  };
}

/** The report as text: the machine, one line per row, the rows' notes, and which aims were missed. */
export function formatTable(machine, rows) {
  const head = ['row', 'measured (median / min)', 'baseline', 'baseline (median / min)', 'ratio', 'aim', 'verdict'];
  const lines = rows.map((r) =>
    r.missing
      ? [r.name, 'not measured', '-', '-', '-', r.aim, r.verdict]
      : [r.name, pair(r.measured), r.baseline.label, pair(r.baseline), ratioCell(r), r.aim, r.verdict],
  );
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ');
  const out = [
    `Node ${machine.node} · ${machine.platform} · ${machine.cpu} · ${machine.cores} cores`,
    '',
    fmt(head),
    fmt(widths.map((w) => '-'.repeat(w))),
    ...lines.map(fmt),
  ];
  const notes = rows.flatMap((r) =>
    [...(r.missing ? [`not measured: ${r.missing}`] : []), ...(r.notes ?? []), ...cpuNote(r)].map(
      (n) => `  ${r.name}: ${n}`,
    ),
  );
  if (notes.length) out.push('', 'notes:', ...notes);
  const aimed = rows.filter((r) => r.verdict !== '-');
  const missed = aimed.filter((r) => r.verdict !== 'ok');
  out.push(
    '',
    missed.length
      ? `MISSED ${missed.length} of ${aimed.length} aims: ${missed.map((r) => r.name).join('; ')}`
      : `all ${aimed.length} aims met`,
  );
  return out.join('\n');
}

/** The wall ratio (the aim's), and the CPU ratio beside it where the CPU time was read. */
const ratioCell = (r) => `${r.ratio.toFixed(2)}x${r.cpuRatio === undefined ? '' : ` (cpu ${r.cpuRatio.toFixed(2)}x)`}`;

/** Each side's CPU time (user + system of the command's processes), where it was read. */
function cpuNote(r) {
  if (r.missing || !r.measured.cpu || !r.baseline.cpu) return [];
  return [
    `CPU time (user + system, median / min): ${r.measured.label} ${pair(r.measured.cpu)}, ${r.baseline.label} ${pair(r.baseline.cpu)}`,
  ];
}

export function firstLines(text, n) {
  return text.split('\n').slice(0, n).join('\n');
}

/** `fn` of each item, `width` at a time (and no more than the cores), results in the items' order. */
export async function mapPool(items, width, fn) {
  const out = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, availableParallelism()) }, worker));
  return out;
}
