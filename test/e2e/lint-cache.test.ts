// lint's result cache through the built CLI: warm output is byte for byte what --no-cache prints (json, sarif,
// stylish, --quiet, --max-warnings, --concurrency), on ~100 skills with findings of every kind and, when
// SKILLS_REAL_CORPORA is set, on the real collections; two lints at once and a lint killed midway leave a cache the
// next run reads correctly.
import { execa } from 'execa';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOO_RECENT_MS } from '../../src/fs/user-cache.js';
import { BIN, runCli, tempDir, testEnv } from '../helpers/cli.js';
import { KINDS_CONFIG, skillOf } from '../helpers/lint-kinds.js';
import { skillMd, writeTree, type TreeSpec } from '../helpers/tree.js';

const SKILLS = 96;
let root: string;
let cleanup: () => void;

beforeAll(async () => {
  ({ dir: root, cleanup } = tempDir('skills-lint-cache-e2e-'));
  const tree: TreeSpec = { 'skills.config.json': KINDS_CONFIG };
  for (let k = 0; k < SKILLS; k++) Object.assign(tree, skillOf(k));
  writeTree(root, tree);
  // Results are kept only from files changed at least TOO_RECENT_MS before the run.
  await new Promise((r) => setTimeout(r, TOO_RECENT_MS + 200));
}, 30_000);
afterAll(() => cleanup());

let n = 0;
/** A cache folder of its own. */
const freshCache = () => join(root, `.cache-${n++}`);
const lint = (args: string[], cache: string, cwd = root) =>
  runCli(['lint', ...args], { cwd, env: { XDG_CACHE_HOME: cache }, timeout: 120_000 });
const cacheRows = (cache: string) => {
  const dir = join(cache, 'skills');
  return readdirSync(dir).filter((f) => f.startsWith('lint-'));
};

const FORMS = [
  ['--format', 'json'],
  ['--format', 'sarif'],
  [],
  ['--verbose'],
  ['--quiet'],
  ['--max-warnings', '3'],
  ['--format', 'json', '--concurrency', '2'],
  ['--concurrency', '3', '--verbose'],
];

describe('skills lint, result cache (built CLI)', () => {
  it('prints warm what --no-cache prints, byte for byte, in every format and with every option', async () => {
    const cache = freshCache();
    for (const form of FORMS) {
      const off = await lint([...form, '--no-cache', '.'], cache);
      expect(off.exitCode, off.stderr).toBe(1);
      const cold = await lint([...form, '.'], cache);
      const warm = await lint([...form, '.'], cache);
      for (const r of [cold, warm]) {
        expect(r.stdout, form.join(' ')).toBe(off.stdout);
        expect(r.stderr).toBe(off.stderr);
        expect(r.exitCode).toBe(off.exitCode);
      }
    }
    // One file for this build and configuration, and it was used.
    expect(cacheRows(cache)).toHaveLength(1);
  }, 300_000);

  it('gives the right findings after two lints at once, and after a lint killed midway', async () => {
    const off = await lint(['--format', 'json', '--no-cache', '.'], freshCache());
    const cache = freshCache();
    const both = await Promise.all([lint(['--format', 'json', '.'], cache), lint(['--format', 'json', '.'], cache)]);
    for (const r of both) expect(r.stdout).toBe(off.stdout);
    expect((await lint(['--format', 'json', '.'], cache)).stdout).toBe(off.stdout);
    // Killed at several points of its run: before, while and after it writes the cache file.
    for (const ms of [150, 400, 800, 1200]) {
      const child = execa(process.execPath, [BIN, 'lint', '--format', 'json', '--concurrency', '2', '.'], {
        cwd: root,
        env: testEnv(join(cache, 'home'), { XDG_CACHE_HOME: cache }),
        extendEnv: false,
        reject: false,
      });
      setTimeout(() => child.kill('SIGKILL'), ms);
      await child;
      expect((await lint(['--format', 'json', '.'], cache)).stdout).toBe(off.stdout);
    }
  }, 300_000);

  it('says --no-cache and SKILLS_LINT_CACHE in lint --help', async () => {
    const help = await runCli(['lint', '--help']);
    expect(help.stdout).toContain('--no-cache');
    expect(help.stdout).toContain('SKILLS_LINT_CACHE=0');
  });

  it('keeps one file for a repository whichever of its files are given, a folder given twice linted once', async () => {
    const repo = join(root, '..', `${root.split('/').at(-1)}-repo`);
    const desc = (n: string) => `description: Checks ${n} tables against a schema. Use when asked to check one.`;
    writeTree(repo, {
      '.git/HEAD': 'ref: refs/heads/main\n',
      'a/SKILL.md': skillMd(`name: a\n${desc('a')}`),
      'b/SKILL.md': skillMd(`name: b\n${desc('b')}`, '# B\n\nRead [r](references/r.md).\n'),
      'b/references/r.md': '# R\n',
    });
    try {
      await new Promise((r) => setTimeout(r, TOO_RECENT_MS + 200));
      const cache = freshCache();
      // As the pre-commit hook runs it: the changed files, another set at each commit.
      const first = await lint(['--format', 'json', 'a/SKILL.md'], cache, repo);
      expect(first.exitCode, first.stderr).toBe(0);
      const second = await lint(['--format', 'json', 'b/references/r.md', 'a', 'a'], cache, repo);
      const off = await lint(['--format', 'json', '--no-cache', 'b', 'a'], cache, repo);
      expect(second.exitCode, second.stderr).toBe(0);
      expect(second.stdout).toBe(off.stdout);
      expect(JSON.parse(second.stdout).skills).toHaveLength(2);
      expect(cacheRows(cache)).toHaveLength(1);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  }, 60_000);
});

// The real collections, when there are some: what --no-cache prints, cold and warm, in json and sarif.
interface Real {
  collections?: { dir: string }[];
  cleanup?: () => void;
  skipped?: string;
}
// bench/ is plain JavaScript without types: its helper that copies the collections out, as the bench lints them.
const FALSE_POSITIVES = '../../bench/false-positives.mjs';
const real: Real | undefined = process.env.SKILLS_REAL_CORPORA
  ? ((await import(FALSE_POSITIVES)) as { realCollections: () => Real }).realCollections()
  : undefined;
const collections = real?.collections;
if (collections) {
  describe('skills lint, result cache, real collections', () => {
    afterAll(() => real?.cleanup?.());
    it('prints cold and warm what --no-cache prints', async () => {
      await new Promise((r) => setTimeout(r, TOO_RECENT_MS + 200));
      const dirs = collections.map((c) => c.dir);
      const cache = freshCache();
      for (const format of ['json', 'sarif']) {
        const off = await lint(['--format', format, '--no-cache', ...dirs], cache);
        expect(off.stdout.length).toBeGreaterThan(1000);
        for (let i = 0; i < 2; i++) expect((await lint(['--format', format, ...dirs], cache)).stdout).toBe(off.stdout);
      }
    }, 300_000);
  });
}
