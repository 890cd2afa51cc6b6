// lint --concurrency (built CLI, real worker threads): the same output, byte for byte, as one thread, for every
// format and for --fix, on a tree of ~200 skills with findings of every kind; "auto" keeps a few skills on the main
// thread (worker_threads is not even loaded); bad values are refused by name.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, EXAMPLES, FIXTURES, ROOT, runCli, tempDir, testEnv } from '../helpers/cli.js';
import { KINDS_CONFIG, skillOf } from '../helpers/lint-kinds.js';
import { snapshot, writeTree, type TreeSpec } from '../helpers/tree.js';

const SKILLS = 200;

let root: string;
let cleanup: () => void;

beforeAll(() => {
  ({ dir: root, cleanup } = tempDir('skills-lint-par-'));
  const tree: TreeSpec = {
    'skills.config.json': KINDS_CONFIG,
  };
  for (let k = 0; k < SKILLS; k++) Object.assign(tree, skillOf(k));
  writeTree(root, tree);
  // Real shapes too: the examples and the invalid fixtures.
  cpSync(EXAMPLES, join(root, 'examples'), { recursive: true });
  cpSync(join(FIXTURES, 'invalid'), join(root, 'invalid'), { recursive: true });
});
afterAll(() => cleanup());

const lint = (args: string[], cwd = root) => runCli(['lint', ...args], { cwd, timeout: 120_000 });

describe('skills lint --concurrency (built CLI)', () => {
  it('prints what one thread prints, byte for byte, in every format, on 200 skills with every kind of finding', async () => {
    const one = await lint(['--format', 'json', '--concurrency', 'off', '.']);
    expect(one.exitCode).toBe(1);
    const doc = JSON.parse(one.stdout) as { skills: { id: string; diagnostics: { ruleId: string }[] }[] };
    // The tree is what it should be: many skills, many rules, the tree rule and the ignores at work.
    expect(doc.skills.length).toBeGreaterThan(SKILLS * 0.85);
    const ids = new Set(doc.skills.flatMap((s) => s.diagnostics.map((d) => d.ruleId)));
    expect(ids.size).toBeGreaterThanOrEqual(25);
    for (const id of ['SK127', 'SK101', 'SK003', 'SK100']) expect(ids).toContain(id);
    expect(doc.skills.some((s) => s.id.startsWith('vendor'))).toBe(false);
    for (const format of ['json', 'sarif', 'stylish']) {
      const serial = format === 'json' ? one : await lint(['--format', format, '--concurrency', 'off', '.']);
      for (const c of ['2', '4', 'auto']) {
        const r = await lint(['--format', format, '--concurrency', c, '.']);
        expect(r.exitCode, `${format} --concurrency ${c}`).toBe(serial.exitCode);
        expect(r.stdout, `${format} --concurrency ${c}`).toBe(serial.stdout);
        expect(r.stderr).toBe(serial.stderr);
      }
    }
    const quiet = await lint(['--quiet', '--verbose', '--concurrency', '3', '.']);
    expect(quiet.exitCode).toBe(2);
  }, 300_000);

  // A thread that cannot start (a preload that throws in threads, a limit on threads) is no bug of the skills nor of
  // ours to report: its work is done on the main thread, and the output is the same.
  it('prints what one thread prints when no worker thread can start', async () => {
    const side = tempDir('skills-lint-par-preload-');
    try {
      const preload = join(side.dir, 'no-threads.cjs');
      writeFileSync(preload, "if (!require('node:worker_threads').isMainThread) throw new Error('no threads here');\n");
      const serial = await lint(['--format', 'json', '--concurrency', 'off', '.']);
      const r = await runCli(['lint', '--format', 'json', '--concurrency', '2', '.'], {
        cwd: root,
        timeout: 120_000,
        env: { NODE_OPTIONS: `--require ${preload}` },
      });
      expect(r.stderr).toBe(serial.stderr);
      expect(r.exitCode).toBe(serial.exitCode);
      expect(r.stdout).toBe(serial.stdout);
    } finally {
      side.cleanup();
    }
  }, 120_000);

  it('fixes the same files the same way on threads as on one', async () => {
    const a = tempDir('skills-lint-par-fix-');
    const b = tempDir('skills-lint-par-fix-');
    try {
      cpSync(root, a.dir, { recursive: true });
      cpSync(root, b.dir, { recursive: true });
      const one = await lint(['--fix', '--concurrency', 'off', '.'], a.dir);
      const par = await lint(['--fix', '--concurrency', '3', '.'], b.dir);
      expect(one.stdout).toMatch(/fixed {2}/);
      // Messages name other skills by absolute path: the two copies differ only in their folder.
      expect(par.stdout.replaceAll(b.dir, a.dir)).toBe(one.stdout);
      expect(par.exitCode).toBe(one.exitCode);
      expect(snapshot(b.dir)).toEqual(snapshot(a.dir));
    } finally {
      a.cleanup();
      b.cleanup();
    }
  }, 300_000);

  it('keeps a few skills on the main thread with auto: worker_threads is never loaded', async () => {
    const t = tempDir('skills-lint-par-few-');
    try {
      const probe = join(t.dir, 'probe.cjs');
      const out = join(t.dir, 'loaded.txt');
      // Written at exit: whether this process loaded worker_threads (what starting a worker takes).
      writeFileSync(
        probe,
        `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, String(process.moduleLoadList.includes('NativeModule worker_threads'))));`,
      );
      const { execa } = await import('execa');
      for (const args of [['examples/basic-tools'], ['examples']]) {
        const r = await execa(process.execPath, ['-r', probe, BIN, 'lint', ...args], {
          cwd: root,
          reject: false,
          env: testEnv(t.dir),
          extendEnv: false,
        });
        expect(r.exitCode, r.stderr).toBeLessThanOrEqual(1);
        expect(readFileSync(out, 'utf8'), args.join(' ')).toBe('false');
      }
      // And a forced run does load it, so the probe can tell (without the result cache, which the runs above filled:
      // only the skills it misses go to workers).
      await execa(process.execPath, ['-r', probe, BIN, 'lint', '--concurrency', '2', '--no-cache', 'examples'], {
        cwd: root,
        reject: false,
        env: testEnv(t.dir),
        extendEnv: false,
      });
      expect(readFileSync(out, 'utf8')).toBe('true');
    } finally {
      t.cleanup();
    }
  }, 60_000);

  it('runs its workers from the packed package (npm pack, unpacked elsewhere): dist/lint-worker.cjs ships', async () => {
    const t = tempDir('skills-lint-par-pack-');
    try {
      const { execa } = await import('execa');
      const packed = await execa('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', t.dir], {
        cwd: ROOT,
        env: { npm_config_update_notifier: 'false' },
      });
      const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
      expect(info!.files.map((f) => f.path)).toContain('dist/lint-worker.cjs');
      await execa('tar', ['xzf', join(t.dir, info!.filename), '-C', t.dir]);
      const bin = join(t.dir, 'package/bin/skills.js');
      const serial = await execa(process.execPath, [bin, 'lint', '--format', 'json', '--concurrency', 'off', '.'], {
        cwd: root,
        reject: false,
        env: testEnv(t.dir),
        extendEnv: false,
      });
      const par = await execa(process.execPath, [bin, 'lint', '--format', 'json', '--concurrency', '2', '.'], {
        cwd: root,
        reject: false,
        env: testEnv(t.dir),
        extendEnv: false,
      });
      expect(par.stderr).toBe('');
      expect(par.exitCode).toBe(1);
      expect(par.stdout).toBe(serial.stdout);
    } finally {
      t.cleanup();
    }
  }, 120_000);

  it('refuses a --concurrency that is no number of threads, auto or off, and documents it in --help', async () => {
    for (const bad of ['0', '-1', 'many', '1.5', '65', '99999']) {
      const r = await lint(['--concurrency', bad, 'examples']);
      expect(r.exitCode, bad).toBe(2);
      expect(r.stderr).toContain(`--concurrency takes a number of threads from 1 to 64, auto or off, not "${bad}"`);
    }
    const help = await runCli(['lint', '--help'], { env: { COLUMNS: '200' } });
    expect(help.stdout).toMatch(/--concurrency <n>\s+threads to lint on/);
  }, 60_000);
});
