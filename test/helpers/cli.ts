import { execa } from 'execa';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  cpSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { Context } from '../../src/context.js';

export const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
export const BIN = join(ROOT, 'bin/skills.js');
export const EXAMPLES = join(ROOT, 'examples/skills');
/** The ids of the seven skills of examples/skills, sorted. */
export const EXAMPLE_IDS = [
  'basic-tools',
  'cron-tools',
  'data-analysis',
  'hello-extended',
  'social-media-apis',
  'timeplus-sql-guide',
  'web-scraping',
];
export const FIXTURES = join(ROOT, 'test/fixtures');

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * What of the runner's environment decides what a CLI under test does, rather than the test: the npm_config_* that
 * `npm test` and npx set (npm_config_cache, npm_config_userconfig=~/.npmrc …) and the user's NPM_TOKEN, the
 * user's SKILLS_* settings, XDG folders outside the temp HOME, GIT_DIR and friends when the tests run from a git
 * hook, colour switches, CI, NODE_OPTIONS.
 */
const MACHINE_ENV = /^(npm_|skills_|xdg_|git_|pre_commit)|^(force_color|no_color|ci|node_options|init_cwd)$/i;

/**
 * The runner's environment without what ties a test to the machine (MACHINE_ENV), then NO_COLOR, `home` and the
 * test's own variables, which win: a test that wants npm_config_cache passes it.
 */
export function testEnv(home: string, env: Record<string, string> = {}): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !MACHINE_ENV.test(k)) kept[k] = v;
  return { ...kept, NO_COLOR: '1', HOME: home, ...env };
}

/**
 * Run the built CLI as a user would: a real child process, NO_COLOR, a temp HOME, and of the runner's environment
 * only what does not tie the test to the machine (testEnv).
 */
export async function runCli(
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; input?: string; timeout?: number } = {},
): Promise<CliResult> {
  const home = mkdtempSync(join(tmpdir(), 'skills-home-'));
  try {
    const r = await execa(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? ROOT,
      env: testEnv(home, options.env),
      extendEnv: false,
      reject: false,
      input: options.input,
      stdin: options.input === undefined ? 'ignore' : undefined,
      timeout: options.timeout ?? 30_000,
    });
    return { exitCode: r.exitCode ?? -1, stdout: r.stdout, stderr: r.stderr };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** The built CLI with the file size limit at 1 KiB (ulimit -f 1): a file written past it fails with EFBIG. */
export const withSmallFileLimit = (args: string[], cwd: string, home: string) =>
  execa('bash', ['-c', 'ulimit -f 1 && exec "$@"', 'bash', process.execPath, BIN, ...args], {
    cwd,
    env: testEnv(home),
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
  });

/**
 * The built CLI run to its end (spawnSync) with its own peak resident memory in bytes (Linux's maxRSS, written as it
 * exits by a preload in `dir`) and the time it took.
 */
export function runMeasured(
  args: string[],
  cwd: string,
  dir: string,
  env: Record<string, string> = {},
): { status: number | null; stderr: string; peak: number; ms: number } {
  const probe = join(dir, 'rss-probe.cjs');
  const out = join(dir, `rss-${Date.now()}-${Math.random()}.txt`);
  writeFileSync(
    probe,
    "process.on('exit', () => require('node:fs').writeFileSync(process.env.RSS_OUT, String(process.resourceUsage().maxRSS)));\n",
  );
  const started = Date.now();
  const r = spawnSync(process.execPath, ['--require', probe, BIN, ...args], {
    cwd,
    env: testEnv(process.env.HOME ?? '', { ...env, RSS_OUT: out }),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ms = Date.now() - started;
  return { status: r.status, stderr: r.stderr, peak: Number(readFileSync(out, 'utf8')) * 1024, ms };
}

/** A fresh temp folder, removed by the returned function. */
export function tempDir(prefix = 'skills-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Copy a fixture (or example) tree into a temp folder so a test may change it. */
export function copyTree(src: string): { dir: string; cleanup: () => void } {
  const t = tempDir();
  cpSync(src, t.dir, { recursive: true, verbatimSymlinks: true });
  return t;
}

/**
 * One temp folder for a test file (removed by `cleanup`), handing out fresh sub-folders: `fresh('name')`.
 * `cleanupAfterModes` gives every folder below it its modes back first (a test made one unreadable).
 */
export function tempFolders(prefix: string): {
  dir: string;
  fresh: (name?: string) => string;
  cleanup: () => void;
  cleanupAfterModes: () => void;
} {
  const t = tempDir(prefix);
  let n = 0;
  return {
    dir: t.dir,
    fresh: (name = 'd') => {
      const dir = join(t.dir, `${name}-${n++}`);
      mkdirSync(dir, { recursive: true });
      return dir;
    },
    cleanup: t.cleanup,
    cleanupAfterModes: () => {
      for (const rel of readdirSync(t.dir, { recursive: true }) as string[]) {
        const abs = join(t.dir, rel);
        if (lstatSync(abs).isDirectory()) chmodSync(abs, 0o755);
      }
      t.cleanup();
    },
  };
}

/**
 * The built CLI run as a user other than root, for what root's permissions would hide (a folder of mode 000): a
 * copy of it in `base/cli` (the checkout may sit below a folder that nobody cannot enter, as mktemp -d makes), and,
 * under root, everything below `base` owned by nobody and the CLI run as nobody. Call it once `base` holds its files.
 */
export function cliAsUser(
  base: string,
  env: Record<string, string>,
): { run: (args: string[], cwd: string) => Promise<CliResult>; nobody: boolean } {
  for (const part of ['bin', 'dist', 'package.json'])
    cpSync(join(ROOT, part), join(base, 'cli', part), { recursive: true });
  const nobody = process.getuid?.() === 0;
  if (nobody)
    for (const p of [base, ...(readdirSync(base, { recursive: true }) as string[]).map((r) => join(base, r))])
      chownSync(p, 65534, 65534);
  const run = async (args: string[], cwd: string): Promise<CliResult> => {
    const r = await execa(process.execPath, [join(base, 'cli/bin/skills.js'), ...args], {
      cwd,
      env,
      reject: false,
      stdin: 'ignore',
      ...(nobody ? { uid: 65534, gid: 65534 } : {}),
    });
    return { exitCode: r.exitCode ?? -1, stdout: r.stdout, stderr: r.stderr };
  };
  return { run, nobody };
}

/** A Context for a handler or program built in a test: the working folder, no environment, pipes for streams. */
export function pipeContext(): Context {
  return {
    cwd: process.cwd(),
    env: {},
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    stdin: new PassThrough(),
    version: '0.0.0',
  };
}
