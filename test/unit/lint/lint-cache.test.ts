// lint's result cache, through lintPaths on real files in a temp folder: a warm run gives what a run without the
// cache gives, and each kind of change (content with size and mtime put back, touch, a file added, removed or
// renamed, a chmod, the configuration, the build) makes exactly the skills it touches be linted again; a file
// outside the skills that one refers to appearing or going changes no finding, and no result. A damaged cache file
// is read as none and written again.
import {
  chmodSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lintPaths, type LintPathsOptions, type LintRun } from '../../../src/lint/lint-paths.js';
import { TOO_RECENT_MS } from '../../../src/fs/user-cache.js';
import { jsonDiagnostic } from '../../../src/model/diagnostic.js';
import { KINDS_CONFIG, skillOf } from '../../helpers/lint-kinds.js';
import { cacheScopes } from '../../../src/lint/lint-cache.js';
import { tempDir } from '../../helpers/cli.js';
import { skillMd, writeTree, type TreeSpec } from '../../helpers/tree.js';

let root: string;
let cleanup: () => void;
let cacheHome: string;
const KINDS = 24;

/** Skills the changes are made to, one each; `same` is left alone. */
const NAMES = ['content', 'touch', 'added', 'removed', 'renamed', 'chmod', 'outside', 'same'];

beforeAll(async () => {
  ({ dir: root, cleanup } = tempDir('skills-lint-cache-'));
  cacheHome = join(root, '.cache-home');
  const tree: TreeSpec = { 'project/skills.config.json': KINDS_CONFIG };
  for (let k = 0; k < KINDS; k++)
    for (const [p, v] of Object.entries(skillOf(k))) tree[`project/${p.startsWith('vendor/') ? p : `kinds/${p}`}`] = v;
  for (const n of NAMES) {
    const desc = `Checks ${n} tables against a schema. Use when the user asks to check a table.`;
    tree[`project/changes/${n}/SKILL.md`] = skillMd(
      `name: ${n}\ndescription: ${desc}`,
      `# ${n}\n\nRead [the guide](references/guide.md) and [shared](../../shared/x.md).\n\n\`\`\`sh\n./scripts/run.sh\n\`\`\`\n`,
    );
    tree[`project/changes/${n}/references/guide.md`] = '# Guide\n\nAPI_KEY=abcdefabcdefabcdef0123456789abcd\n';
    tree[`project/changes/${n}/scripts/run.sh`] = { content: '#!/bin/sh\nset -e\necho run\n', mode: 0o755 };
  }
  writeTree(root, tree);
  // A result is kept only from files changed at least TOO_RECENT_MS before the run.
  await new Promise((r) => setTimeout(r, TOO_RECENT_MS + 200));
}, 30_000);
afterAll(() => cleanup());

const project = () => join(root, 'project');
const opts = (extra: Partial<LintPathsOptions> = {}): LintPathsOptions => ({
  paths: ['.'],
  cwd: project(),
  env: { XDG_CACHE_HOME: cacheHome },
  home: root,
  version: '1.2.3',
  cacheBuild: 'build-a',
  concurrency: 'off',
  ...extra,
});

/** What every output is made from: each skill's report, and the findings as --format json prints them. */
const seen = (run: LintRun) =>
  JSON.stringify(
    run.reports.map((r) => ({
      skill: r.skill,
      valid: r.valid,
      diagnostics: r.diagnostics.map((d) => ({ ...jsonDiagnostic(d), fix: d.fix })),
    })),
  );
const names = (run: LintRun) => run.cached.map((p) => p.slice(project().length + 1)).sort();
const changes = (n: string) => join(project(), 'changes', n);
const cacheFiles = () => readdirSync(join(cacheHome, 'skills')).filter((f) => f.startsWith('lint-'));
/** The one cache file a run of opts() reads and writes: every other gone (earlier tests leave files of theirs). */
async function theFile(): Promise<string> {
  rmSync(join(cacheHome, 'skills'), { recursive: true, force: true });
  await lintPaths(opts());
  const [name, ...others] = cacheFiles();
  expect(others).toEqual([]);
  return join(cacheHome, 'skills', name!);
}

describe('lint result cache', () => {
  it('gives, warm, the findings a run without it gives; each change relints exactly the skill it touches', async () => {
    const off = await lintPaths(opts({ cache: false }));
    expect(off.cached).toEqual([]);
    expect(off.reports.length).toBeGreaterThan(KINDS * 0.8);
    const cold = await lintPaths(opts());
    expect(cold.cached).toEqual([]);
    expect(seen(cold)).toBe(seen(off));
    const warm = await lintPaths(opts());
    // Every skill is kept (none holds a symlink), and the tree rule (duplicate-skill) still runs over all of them.
    expect(warm.cached.length).toBe(off.reports.length);
    expect(seen(warm)).toBe(seen(off));
    expect(warm.reports.some((r) => r.diagnostics.some((d) => d.rule === 'duplicate-skill'))).toBe(true);

    // Content changed with the same size, its mtime put back: only the ctime tells.
    const guide = join(changes('content'), 'references', 'guide.md');
    const before = statSync(guide);
    writeFileSync(guide, readFileSync(guide, 'utf8').replace('API_KEY=abcdef', 'API_KEY=ghijkl'));
    utimesSync(guide, before.atime, before.mtime);
    expect(statSync(guide).size).toBe(before.size);
    // Touched, nothing else.
    const now = new Date();
    utimesSync(join(changes('touch'), 'SKILL.md'), now, now);
    writeFileSync(join(changes('added'), 'references', 'new.md'), '# New\n');
    rmSync(join(changes('removed'), 'references', 'guide.md'));
    renameSync(join(changes('renamed'), 'scripts', 'run.sh'), join(changes('renamed'), 'scripts', 'go.sh'));
    chmodSync(join(changes('chmod'), 'scripts', 'run.sh'), 0o644);
    // A file outside every skill that one refers to (../../shared/x.md) appears: the reference leads out of the
    // skill whether or not it is there, and no rule looks.
    writeTree(root, { 'project/shared/x.md': '# Shared\n' });

    const after = await lintPaths(opts());
    const relinted = after.reports.map((r) => r.skill.root).filter((p) => !after.cached.includes(p));
    expect(relinted.map((p) => p.slice(project().length + 1)).sort()).toEqual(
      ['added', 'chmod', 'content', 'removed', 'renamed', 'touch'].map((n) => `changes/${n}`),
    );
    expect(seen(after)).toBe(seen(await lintPaths(opts({ cache: false }))));
    // The changes show: the new secret, the file gone, the script's execute bit.
    const findingsOf = (run: LintRun, n: string) =>
      run.reports.find((r) => r.skill.root === changes(n))!.diagnostics.map((d) => `${d.rule}: ${d.message}`);
    expect(findingsOf(after, 'content').join('\n')).toBe(findingsOf(off, 'content').join('\n'));
    expect(findingsOf(after, 'removed').join('\n')).not.toBe(findingsOf(off, 'removed').join('\n'));
    expect(findingsOf(after, 'renamed').join('\n')).not.toBe(findingsOf(off, 'renamed').join('\n'));
    expect(findingsOf(after, 'chmod').join('\n')).not.toBe(findingsOf(off, 'chmod').join('\n'));

    // And it goes again: the outside file removed changes nothing either.
    rmSync(join(project(), 'shared'), { recursive: true });
    const again = await lintPaths(opts());
    expect(names(again)).toContain('changes/outside');
    expect(seen(again)).toBe(seen(await lintPaths(opts({ cache: false }))));
  }, 60_000);

  it('keeps nothing with --no-cache or SKILLS_LINT_CACHE=0, and nothing of another build or configuration', async () => {
    await lintPaths(opts());
    const warm = await lintPaths(opts());
    expect(warm.cached.length).toBeGreaterThan(0);
    expect((await lintPaths(opts({ cache: false }))).cached).toEqual([]);
    expect((await lintPaths(opts({ env: { XDG_CACHE_HOME: cacheHome, SKILLS_LINT_CACHE: '0' } }))).cached).toEqual([]);
    // Another build: nothing of this one's is used.
    expect((await lintPaths(opts({ cacheBuild: 'build-b' }))).cached).toEqual([]);
    expect((await lintPaths(opts({ cacheBuild: 'build-b' }))).cached.length).toBeGreaterThanOrEqual(warm.cached.length);
    // Another configuration: a rule's level, then an option.
    const config = join(project(), 'skills.config.json');
    const original = readFileSync(config, 'utf8');
    try {
      for (const text of [
        original.replace('"description-too-short":"error"', '"description-too-short":"warning"'),
        original.replace('"maxLines":400', '"maxLines":401'),
      ]) {
        expect(text).not.toBe(original);
        writeFileSync(config, text);
        const changed = await lintPaths(opts());
        expect(changed.cached).toEqual([]);
        expect(seen(changed)).toBe(seen(await lintPaths(opts({ cache: false }))));
      }
    } finally {
      writeFileSync(config, original);
    }
    // The first configuration's rows are still there.
    expect((await lintPaths(opts())).cached.length).toBeGreaterThanOrEqual(warm.cached.length);
  }, 60_000);

  it('reads a truncated, corrupt or foreign cache file as none, and writes it again', async () => {
    const file = await theFile();
    const off = seen(await lintPaths(opts({ cache: false })));
    const whole = readFileSync(file, 'utf8');
    const rows = JSON.parse(whole) as { skills: unknown[][] };
    // Rows whose result is damaged (a layout that is no string of the table; a finding's line that is text) are
    // dropped, not used.
    type Row = [string, [unknown[], number, unknown[][], unknown], ...unknown[]];
    const damaged = (rows.skills as Row[]).map((row, i) => {
      const [skill, valid, findings, disables] = row[1];
      const bad = i % 2 === 0 ? [...skill.slice(0, 2), 99_999, ...skill.slice(3)] : skill;
      const worse = findings.map((f) => [...f.slice(0, 5), 'one']);
      return [row[0], [bad, valid, i % 2 === 0 ? findings : worse, disables], ...row.slice(2)];
    });
    expect(damaged.some((r, i) => i % 2 === 1 && (r[1] as unknown[][])[2]!.length > 0)).toBe(true);
    for (const text of [
      whole.slice(0, whole.length >> 1),
      'not json',
      JSON.stringify({ ...rows, skills: damaged }),
      // The table of strings gone, or not strings.
      JSON.stringify({ ...rows, strings: undefined }),
      JSON.stringify({ ...rows, strings: [1, 2, 3] }),
      JSON.stringify({ ...rows, skills: rows.skills.map((r) => [r[0], 7, ...r.slice(2)]) }),
      JSON.stringify({ ...rows, skills: rows.skills.map((r) => [...r.slice(0, 3), '../../etc', ...r.slice(4)]) }),
    ]) {
      writeFileSync(file, text);
      const run = await lintPaths(opts());
      expect(seen(run)).toBe(off);
      const rewritten = await lintPaths(opts());
      expect(seen(rewritten)).toBe(off);
      expect(rewritten.cached.length).toBeGreaterThanOrEqual(rows.skills.length);
    }
    truncateSync(file, 0);
    expect(seen(await lintPaths(opts()))).toBe(off);
  }, 60_000);

  it('relints only the skill whose line of the cache file is damaged, and uses every other line', async () => {
    const file = await theFile();
    const off = await lintPaths(opts({ cache: false }));
    const whole = readFileSync(file, 'utf8');
    // One row a line, each starting with its skill folder's path (past the base all of them share).
    const lines = whole.split('\n');
    // The header, then the rows (skills changed by the tests before, in the last seconds, are not kept), the table.
    const rows = lines.length - 3;
    expect(rows).toBeGreaterThan(1);
    const at = lines.findIndex((l) => /^\["[^"]*changes\/same",/.test(l));
    expect(at).toBeGreaterThan(0);
    // The skill's result made unreadable (its valid flag is no 0 or 1): the row goes, the skill is linted again.
    const comma = lines[at]!.endsWith(',') ? ',' : '';
    const row = JSON.parse(lines[at]!.slice(0, lines[at]!.length - comma.length)) as [string, unknown[], ...unknown[]];
    row[1][1] = 'yes';
    lines[at] = JSON.stringify(row) + comma;
    writeFileSync(file, lines.join('\n'));
    const run = await lintPaths(opts());
    expect(seen(run)).toBe(seen(off));
    expect(run.cached).toHaveLength(rows - 1);
    expect(run.cached).not.toContain(changes('same'));
    // Written again with that skill's row: it is kept once more.
    const again = await lintPaths(opts());
    expect(again.cached).toContain(changes('same'));
    expect(again.cached.length).toBeGreaterThanOrEqual(rows);
  }, 60_000);

  it('keeps one file for each set of folders linted, so a small tree never reads the rows of a large one', async () => {
    const home = join(root, '.cache-folders');
    const at = (paths: string[]) => opts({ paths, env: { XDG_CACHE_HOME: home } });
    const files = () => readdirSync(join(home, 'skills')).filter((f) => f.startsWith('lint-'));
    await lintPaths(at(['.']));
    expect((await lintPaths(at(['.']))).cached.length).toBeGreaterThanOrEqual(KINDS);
    expect(files()).toHaveLength(1);
    // Another set of folders: its own file, none of the first one's rows used.
    const some = ['changes/same', 'kinds'];
    const first = await lintPaths(at(some));
    expect(first.cached).toEqual([]);
    expect(files()).toHaveLength(2);
    // The same set written another way, or with a folder given twice, is the same set: the same findings, kept.
    const again = await lintPaths(at(['changes/same', './kinds/', 'changes/same']));
    expect(again.cached.length).toBe(first.reports.length);
    expect(seen(again)).toBe(seen(first));
    // And in another order.
    expect((await lintPaths(at(['kinds', 'changes/same']))).cached.length).toBe(first.reports.length);
    expect(files()).toHaveLength(2);
  }, 60_000);

  it('keeps one file for a git work tree, whichever of its files are given (the pre-commit hook passes the changed ones)', async () => {
    const repo = join(root, 'repo');
    writeTree(repo, {
      '.git/HEAD': 'ref: refs/heads/main\n',
      'a/SKILL.md': skillMd('name: a\ndescription: Checks a tables. Use when the user asks to check a table.'),
      'b/SKILL.md': skillMd('name: b\ndescription: Checks b tables. Use when the user asks to check a table.'),
      'b/references/r.md': '# R\n',
    });
    const loose = join(root, 'loose');
    writeTree(loose, { 'x/SKILL.md': skillMd('name: x\ndescription: Checks x tables. Use when asked.') });
    expect(cacheScopes([join(repo, 'a', 'SKILL.md'), join(repo, 'b', 'references', 'r.md'), join(repo, 'b')])).toEqual([
      repo,
    ]);
    // Outside any work tree, each path is its own; two of them are never taken for one.
    expect(cacheScopes([join(loose, 'x'), join(root, 'project')])).toEqual([join(loose, 'x'), join(root, 'project')]);
    expect(cacheScopes([join(repo, 'a'), join(loose, 'x')])).toEqual([repo, join(loose, 'x')].sort());
    await new Promise((r) => setTimeout(r, TOO_RECENT_MS + 200));
    const home = join(root, '.cache-repo');
    const at = (paths: string[]) => opts({ paths, cwd: repo, env: { XDG_CACHE_HOME: home } });
    await lintPaths(at(['a/SKILL.md']));
    // The second set of files, in the same work tree: the first run's row of a is used.
    expect((await lintPaths(at(['b/references/r.md', 'a']))).cached).toEqual([join(repo, 'a')]);
    expect(readdirSync(join(home, 'skills')).filter((f) => f.startsWith('lint-'))).toHaveLength(1);
  }, 60_000);

  it('lints as usual when the cache folder cannot be made', async () => {
    const off = seen(await lintPaths(opts({ cache: false })));
    // XDG_CACHE_HOME is a file: no folder can be made in it, whoever runs this.
    const blocked = join(root, 'blocked');
    writeFileSync(blocked, '');
    for (let i = 0; i < 2; i++) {
      const run = await lintPaths(opts({ env: { XDG_CACHE_HOME: blocked } }));
      expect(run.cached).toEqual([]);
      expect(seen(run)).toBe(off);
    }
  }, 60_000);

  it('with --fix, lints every skill afresh and keeps what the last pass found', async () => {
    await lintPaths(opts());
    const fixed = await lintPaths(opts({ fix: true }));
    expect(fixed.cached).toEqual([]);
    expect(fixed.fixed.length).toBeGreaterThan(0);
    const next = await lintPaths(opts());
    // The skills the fixes rewrote changed too recently to be kept; the others are, as the last pass found them.
    expect(next.cached.length).toBeGreaterThan(0);
    expect(next.cached.length).toBeLessThan(next.reports.length);
    expect(seen(next)).toBe(seen(await lintPaths(opts({ cache: false }))));
  }, 60_000);
  it("does not keep a skill whose SK109 looked outside it (a link into its plugin): the sibling's going shows", async () => {
    const { dir, cleanup: done } = tempDir('skills-lint-cache-plugin-');
    try {
      const desc = 'Checks tables against a schema. Use when the user asks to check a table.';
      writeTree(dir, {
        'plugin/.claude-plugin/plugin.json': '{"name":"plugin"}',
        'plugin/skills/a/SKILL.md': skillMd(`name: a\ndescription: ${desc}`, '# A\n\nThen [b](../b/SKILL.md).\n'),
        'plugin/skills/b/SKILL.md': skillMd(`name: b\ndescription: ${desc}`, '# B\n\nCheck the table.\n'),
      });
      await new Promise((r) => setTimeout(r, TOO_RECENT_MS + 200));
      const at = () => opts({ cwd: dir, env: { XDG_CACHE_HOME: join(dir, '.cache-home') } });
      const outside = (run: LintRun) =>
        run.reports.flatMap((r) => r.diagnostics.filter((d) => d.ruleId === 'SK109').map((d) => d.message));
      expect(outside(await lintPaths(at()))).toEqual([]);
      const warm = await lintPaths(at());
      expect(warm.cached).toEqual([join(dir, 'plugin/skills/b')]);
      expect(outside(warm)).toEqual([]);
      rmSync(join(dir, 'plugin/skills/b'), { recursive: true });
      expect(outside(await lintPaths(at()))).toEqual(['"../b/SKILL.md" leads out of the skill folder']);
    } finally {
      done();
    }
  }, 60_000);
});
