// -q is --quiet on every command that writes: nothing on stdout but what a script keeps (pack's archive path, the
// skills a sync left out), no warnings; errors still on stderr with their exit code.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempFolders } from '../helpers/cli.js';
import { skillMd, writeTree } from '../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-quiet-e2e-');
afterAll(cleanup);

/** A folder with a valid, versioned skill and an invalid one (no description). */
function sources(): { dir: string; env: Record<string, string> } {
  const dir = fresh('src');
  writeTree(dir, {
    'good/SKILL.md': skillMd(
      'name: good\ndescription: A good skill. Use when testing quiet.\nmetadata:\n  version: 1.0.0',
    ),
    'bad/SKILL.md': skillMd('name: bad'),
  });
  const home = fresh('home');
  return { dir, env: { HOME: home, XDG_CACHE_HOME: join(home, '.cache'), XDG_CONFIG_HOME: join(home, '.config') } };
}

describe('-q, --quiet (built CLI)', () => {
  it('registry sync -q prints only the skill it skipped, with its error, and exits 1; remove -q prints nothing', async () => {
    const { dir, env } = sources();
    const reg = join(fresh('reg'), 'registry');
    const loud = await runCli(['registry', 'sync', dir, '--registry', reg, '--dry-run'], { env });
    expect(loud.stdout).toContain('good@1.0.0');
    const r = await runCli(['registry', 'sync', dir, '--registry', reg, '-q'], { env });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/^skipped {3}bad \(.*bad: invalid, 1 error\)\n.*description is missing/);
    expect(r.stdout).not.toContain('good');
    expect(r.stderr).toBe('');
    const listed = await runCli(['registry', 'list', '--registry', reg, '--json'], { env });
    expect(JSON.parse(listed.stdout).skills.map((s: { id: string }) => s.id)).toEqual(['good']);
    const removed = await runCli(['registry', 'remove', 'good', '--registry', reg, '-q'], { env });
    expect([removed.exitCode, removed.stdout, removed.stderr]).toEqual([0, '', '']);
    const gone = await runCli(['registry', 'remove', 'good', '--registry', reg, '-q'], { env });
    expect(gone.exitCode).toBe(2);
    expect(gone.stderr).toMatch(/^error: /);
  });

  it('pack -q prints the archive path alone, which a script can use', async () => {
    const { dir, env } = sources();
    const out = fresh('out');
    const r = await runCli(['pack', join(dir, 'good'), '--out', out, '-q'], { env, cwd: out });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('good-1.0.0.tgz');
    expect(existsSync(join(out, r.stdout.trim()))).toBe(true);
    const refused = await runCli(['pack', join(dir, 'bad'), '-q'], { env, cwd: out });
    expect(refused.exitCode).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('description is missing');
  });

  it('uninstall -q and update -q print nothing, and still do their work', async () => {
    const { dir, env } = sources();
    const project = fresh('project');
    mkdirSync(join(project, '.claude'));
    const installed = await runCli(['install', join(dir, 'good'), '--agent', 'claude-code'], { env, cwd: project });
    expect(installed.exitCode, installed.stderr).toBe(0);
    const loud = await runCli(['update'], { env, cwd: project });
    expect(loud.stdout).not.toBe('');
    const update = await runCli(['update', '-q'], { env, cwd: project });
    expect([update.exitCode, update.stdout, update.stderr]).toEqual([0, '', '']);
    const dry = await runCli(['uninstall', 'good', '-q', '--dry-run'], { env, cwd: project });
    expect([dry.exitCode, dry.stdout, dry.stderr]).toEqual([0, '', '']);
    expect(existsSync(join(project, '.claude/skills/good/SKILL.md'))).toBe(true);
    const r = await runCli(['uninstall', 'good', '-q'], { env, cwd: project });
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, '', '']);
    expect(existsSync(join(project, '.claude/skills/good'))).toBe(false);
    const again = await runCli(['uninstall', 'good', '-q'], { env, cwd: project });
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toMatch(/^error: /);
  });
});

describe('--verbose: warnings about single skills (built CLI)', () => {
  it('list shows the first 10 and how many more; --verbose shows them all', async () => {
    const dir = fresh('list-warnings');
    // 14 pairs of skills of one name: the second of each is shadowed, with a warning.
    for (let i = 0; i < 14; i++) {
      for (const side of ['a', 'b'])
        writeTree(dir, {
          [`${side}/s${i}/SKILL.md`]: skillMd(`name: s${i}\ndescription: Copy ${side} of s${i}. Use when testing.`),
        });
    }
    const r = await runCli(['list', join(dir, 'a'), join(dir, 'b'), '--no-registry']);
    expect(r.exitCode).toBe(0);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(11);
    expect(lines.slice(0, 10).every((l) => / \(project\) is shadowed by /.test(l))).toBe(true);
    expect(lines[10]).toBe('warning: … and 4 more warnings about single skills; --verbose shows them all');
    const all = await runCli(['list', join(dir, 'a'), join(dir, 'b'), '--no-registry', '--verbose']);
    expect(
      all.stderr
        .trim()
        .split('\n')
        .filter((l) => /is shadowed by/.test(l)),
    ).toHaveLength(14);
  });
});

describe('flags that contradict each other (built CLI)', () => {
  it('refuse --json with a --format other than json, naming both, in validate, lint and render-prompt (exit 2)', async () => {
    const { dir } = sources();
    const runs: [string[], string][] = [
      [['validate', '--json', '--format', 'stylish', 'good'], 'stylish'],
      [['lint', '--json', '--format', 'sarif', 'good'], 'sarif'],
      [['lint', '-f', 'stylish', '--json', 'good'], 'stylish'],
      [['render-prompt', '--json', '--format', 'xml', '--no-registry', 'good'], 'xml'],
    ];
    for (const [args, format] of runs) {
      const r = await runCli(args, { cwd: dir });
      expect(r.exitCode, args.join(' ')).toBe(2);
      // --json asks for errors as JSON too: one document on stdout, nothing else.
      expect(JSON.parse(r.stdout).error, args.join(' ')).toEqual({
        code: 'E_USAGE',
        message: `use --json or --format ${format}, not both: they ask for two formats`,
        hint: '--json is the same as --format json',
      });
    }
    // Agreeing, they are fine.
    const same = await runCli(['validate', '--json', '--format', 'json', 'good'], { cwd: dir });
    expect(same.exitCode).toBe(0);
    expect(JSON.parse(same.stdout).skills).toHaveLength(1);
  });

  it('refuse -q with --verbose in every command that has both (exit 2), with one message', async () => {
    const { dir } = sources();
    for (const args of [
      ['lint', '--quiet', '--verbose', 'good'],
      ['lint', '-q', '--verbose', 'good'],
      ['render-prompt', '-q', '--verbose', '--no-registry', 'good'],
    ]) {
      const r = await runCli(args, { cwd: dir });
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toBe('error: use --quiet (less output) or --verbose (more), not both');
      expect(r.stdout, args.join(' ')).toBe('');
    }
  });
});
