import { execa } from 'execa';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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

/** Run the built CLI as a user would: a real child process, NO_COLOR, a temp HOME. */
export async function runCli(
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; input?: string; timeout?: number } = {},
): Promise<CliResult> {
  const home = mkdtempSync(join(tmpdir(), 'skills-home-'));
  try {
    const r = await execa(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? ROOT,
      env: { NO_COLOR: '1', HOME: home, ...options.env },
      extendEnv: true,
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

/** One temp folder for a test file (removed by `cleanup`), handing out fresh sub-folders: `fresh('name')`. */
export function tempFolders(prefix: string): { fresh: (name?: string) => string; cleanup: () => void } {
  const t = tempDir(prefix);
  let n = 0;
  return {
    fresh: (name = 'd') => {
      const dir = join(t.dir, `${name}-${n++}`);
      mkdirSync(dir, { recursive: true });
      return dir;
    },
    cleanup: t.cleanup,
  };
}
