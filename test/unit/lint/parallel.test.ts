// --concurrency: its values, how many threads "auto" takes for the work projected, the report of a skill that
// linting stopped on, and lintRoots on worker threads (src/lint/worker.ts through tsx) against one thread.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Config } from '../../../src/config/config.js';
import { lintPaths } from '../../../src/lint/lint-paths.js';
import { createLinter, type LintReport } from '../../../src/lint/linter.js';
import { TOKEN_CACHE_FILE } from '../../../src/tokens/token-cache.js';
import {
  autoThreads,
  CRASH_ID,
  type Concurrency,
  keepOutcome,
  lintRoots,
  FEW_LEFT_MS,
  MAX_AUTO_THREADS,
  MIN_AUTO_CORES,
  MIN_LEFT,
  parseConcurrency,
  SPREAD_MS,
} from '../../../src/lint/parallel.js';
import { discoverSkills } from '../../../src/skill/discover.js';
import { tempFolders } from '../../helpers/cli.js';
import { skillMd, writeTree, type TreeSpec } from '../../helpers/tree.js';

const temp = tempFolders('skills-parallel-');
afterAll(() => temp.cleanup());

const config = (dir: string): Config => ({ dir, rules: {}, ignores: [] });

describe('parseConcurrency', () => {
  it('takes a number of threads, auto (also when not given) or off', () => {
    expect(parseConcurrency(undefined)).toBe('auto');
    expect(parseConcurrency('auto')).toBe('auto');
    expect(parseConcurrency('off')).toBe('off');
    expect(parseConcurrency('3')).toBe(3);
    expect(parseConcurrency(1)).toBe(1);
    expect(parseConcurrency('64')).toBe(64);
  });

  it('refuses anything else, naming it, as a usage error', () => {
    for (const bad of ['0', '-2', '2.5', 'all', '', '65', '1000'])
      expect(() => parseConcurrency(bad)).toThrow(
        expect.objectContaining({ code: 'E_USAGE', message: expect.stringContaining(`not "${bad}"`) }),
      );
  });
});

describe('autoThreads', () => {
  it('stays on one thread below the work a worker pays for, then adds one a SPREAD_MS, up to the cores and 8', () => {
    expect(autoThreads(0, 4)).toBe(1);
    expect(autoThreads(SPREAD_MS - 1, 4)).toBe(1);
    expect(autoThreads(SPREAD_MS, 4)).toBe(2);
    expect(autoThreads(3 * SPREAD_MS, 4)).toBe(4);
    expect(autoThreads(100 * SPREAD_MS, 3)).toBe(3);
    // Two cores: one thread, however much work (V8's own threads keep the second core busy).
    expect(autoThreads(100 * SPREAD_MS, MIN_AUTO_CORES - 1)).toBe(1);
    expect(autoThreads(100 * SPREAD_MS, 64)).toBe(MAX_AUTO_THREADS);
    expect(autoThreads(100 * SPREAD_MS, 1)).toBe(1);
  });

  it('keeps fewer than MIN_LEFT skills left on one thread unless they would take FEW_LEFT_MS', () => {
    expect(autoThreads(FEW_LEFT_MS - 1, 4, MIN_LEFT - 1)).toBe(1);
    expect(autoThreads(FEW_LEFT_MS - 1, 4, MIN_LEFT)).toBe(4);
    expect(autoThreads(FEW_LEFT_MS, 4, MIN_LEFT - 1)).toBe(4);
    expect(autoThreads(SPREAD_MS, 4, MIN_LEFT)).toBe(2);
  });
});

/** Skills of a few kinds, two sharing a name (the tree rule), under a fresh folder. */
function tree(count: number): string {
  const dir = temp.fresh('tree');
  const spec: TreeSpec = {};
  for (let k = 0; k < count; k++) {
    const n = `s${k}`;
    const name = k % 5 === 0 ? 'same' : n;
    spec[`${n}/SKILL.md`] =
      k % 7 === 3
        ? '# no frontmatter\n'
        : skillMd(
            `name: ${name}\ndescription: Checks ${n}. Use when asked to check.`,
            `# ${n}\n\nSee [x](missing.md).\n`,
          );
    if (k % 4 === 1) spec[`${n}/scripts/run.sh`] = { content: 'echo hi\n', mode: 0o644 };
  }
  writeTree(dir, spec);
  return dir;
}

async function lintTree(dir: string, concurrency: Parameters<typeof parseConcurrency>[0]) {
  const { roots, listings } = discoverSkills(['.'], { cwd: dir });
  const linter = createLinter({ config: config(dir) });
  const threads = await lintRoots(linter, roots, listings, {
    concurrency: parseConcurrency(concurrency),
    workerData: () => ({ config: config(dir) }),
  });
  return { threads, reports: linter.finish() };
}

describe('lintRoots', () => {
  it('gives on worker threads the reports one thread gives, in the same order', async () => {
    const dir = tree(40);
    const one = await lintTree(dir, 'off');
    const three = await lintTree(dir, '3');
    expect(one.threads).toBe(1);
    expect(three.threads).toBe(3);
    expect(three.reports).toEqual(one.reports);
    // The tree rule saw every skill: the seven that share a name (s10 has no frontmatter) are each told so.
    const dup = one.reports.filter((r) => r.diagnostics.some((d) => d.ruleId === 'SK127'));
    expect(dup).toHaveLength(7);
  }, 60_000);

  it('keeps a few skills on the main thread with auto', async () => {
    const dir = tree(4);
    expect((await lintTree(dir, 'auto')).threads).toBe(1);
  });

  it('judges the pace with auto from the skills after the first, which runs while the code warms up', async () => {
    const dir = tree(30);
    const { roots, listings } = discoverSkills(['.'], { cwd: dir });
    // A clock of CPU time that each skill advances by what it costs: `first` ms for the first, `rest` for the others.
    const run = async (first: number, rest: number, cores = MIN_AUTO_CORES) => {
      let now = 0;
      const linter = createLinter({ config: config(dir) });
      const timed = {
        ...linter,
        check(skill: Parameters<typeof linter.check>[0]) {
          now += skill.root === roots[0] ? first : rest;
          return linter.check(skill);
        },
      };
      const threads = await lintRoots(timed, roots, new Map(listings), {
        concurrency: 'auto',
        cores,
        cpu: () => now,
        workerData: () => ({ config: config(dir) }),
      });
      return { threads, reports: linter.finish().length };
    };
    // A slow first skill and quick others (29 × 5 ms left): no worker would pay.
    expect(await run(500, 5)).toEqual({ threads: 1, reports: 30 });
    // Skills of 60 ms after a quick first one (29 left, 1.7 s): the pace of the first few overstates the rest, and
    // a worker would warm up on them as the main thread did; one thread.
    expect(await run(1, 60)).toEqual({ threads: 1, reports: 30 });
    // Slow skills after a quick first one (29 × 150 ms left): workers for the rest, one a core.
    expect((await run(1, 150)).threads).toBe(MIN_AUTO_CORES);
    // On two cores, one thread all the same.
    expect((await run(1, 150, MIN_AUTO_CORES - 1)).threads).toBe(1);
  }, 60_000);
});

describe('lintPaths on threads and the token cache', () => {
  it("counts tokens in the workers from the main thread's cache, and saves the counts they made", async () => {
    const dir = temp.fresh('tokens');
    const home = temp.fresh('home');
    const spec: TreeSpec = {};
    const long = (k: number) => Array.from({ length: 1500 }, (_, i) => `w${k}x${i} check`).join(' ');
    for (let k = 0; k < 12; k++)
      spec[`t${k}/SKILL.md`] = skillMd(
        `name: t${k}\ndescription: Checks t${k}. Use when asked.`,
        `# t${k}\n\n${long(k)}\n`,
      );
    writeTree(dir, spec);
    const env = { XDG_CACHE_HOME: join(home, 'cache') };
    const run = (concurrency: Concurrency) => lintPaths({ paths: ['.'], cwd: dir, env, home, concurrency });
    const one = await run('off');
    const file = join(home, 'cache/skills', TOKEN_CACHE_FILE);
    const serialCounts = JSON.parse(readFileSync(file, 'utf8')).counts;
    expect(Object.keys(serialCounts)).toHaveLength(12);
    rmSync(file);
    const par = await run(3);
    expect(par.reports).toEqual(one.reports);
    expect(par.reports.filter((r) => r.diagnostics.some((d) => d.ruleId === 'SK101'))).toHaveLength(12);
    // The workers counted (the file was gone), and the main thread saved what they counted.
    expect(JSON.parse(readFileSync(file, 'utf8')).counts).toEqual(serialCounts);
  }, 60_000);
});

describe('keepOutcome', () => {
  it('reports a skill that linting stopped on with one SK000 error, and leaves it out of the tree rules', async () => {
    const dir = temp.fresh('crash');
    writeTree(dir, {
      'same/manifest.json': '{}',
      'a/SKILL.md': skillMd('name: same\ndescription: Checks a. Use when asked.'),
    });
    const linter = createLinter({ config: config(dir) });
    await linter.add((await import('../../../src/skill/load.js')).loadSkill(join(dir, 'a')));
    keepOutcome(linter, join(dir, 'same'), { crash: 'RangeError: Maximum call stack size exceeded' });
    const reports: LintReport[] = linter.finish();
    const crashed = reports[1]!;
    expect(crashed.skill).toMatchObject({ id: 'same', layout: 'manifest', file: join(dir, 'same/manifest.json') });
    expect(crashed.valid).toBe(false);
    expect(crashed.diagnostics).toEqual([
      expect.objectContaining({
        ruleId: CRASH_ID,
        severity: 'error',
        message:
          'linting stopped on this skill: RangeError: Maximum call stack size exceeded; its findings are not known',
      }),
    ]);
    // "a" is named "same", as the crashed folder is: no duplicate is claimed from a skill that was not read.
    expect(reports[0]!.diagnostics.map((d) => d.ruleId)).not.toContain('SK127');
  });

  it('throws a SkillsError a worker met, as one thread would', () => {
    const linter = createLinter({ config: config('/') });
    expect(() =>
      keepOutcome(linter, '/x', { error: { code: 'E_IO', message: 'cannot read skill folder /x', hint: 'h' } }),
    ).toThrow(expect.objectContaining({ code: 'E_IO', message: 'cannot read skill folder /x', hint: 'h' }));
  });
});
