// The real pre-commit framework installs this repository's hooks (.pre-commit-hooks.yaml: skills-validate,
// skills-lint, skills-agents-md) the way a user's repository would, and `git commit` runs them. Slow: the hook
// install runs `npm install` and `npm pack` of this package: about 15 s here, warm or cold npm cache; the timeouts
// allow minutes.
import { execa, type Options } from 'execa';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, tempDir, testEnv } from '../helpers/cli.js';

const INSTALL_TIMEOUT = 240_000;
const COMMIT_TIMEOUT = 60_000;

const GOOD =
  '---\nname: greeter\ndescription: Greets people by name. Use when the user asks to say hello.\n---\n# Greeter\n';
const BROKEN = '---\nname: greeter\n---\n# Greeter\n';

// Everything git or pre-commit reads from the outside world is pinned: no system or global git config (hooksPath,
// signing), no GIT_DIR or GIT_INDEX_FILE leaking in when the tests themselves run from a git hook, no colour.
function isolatedEnv(home: string): Record<string, string> {
  return testEnv(home, {
    XDG_CONFIG_HOME: join(home, '.config'),
    GIT_CONFIG_NOSYSTEM: '1',
    PRE_COMMIT_HOME: join(home, 'pre-commit'),
    // The developer's npm cache (warm after `npm ci`) spares the hook install most downloads.
    npm_config_cache: process.env.npm_config_cache ?? join(homedir(), '.npm'),
    npm_config_prefer_offline: 'true',
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
  });
}

// The framework comes from Debian's package (`.ci/run` installs it as root). Where it is missing and cannot be
// installed, this one file is skipped, and says so; every other test runs.
const hasPreCommit = (() => {
  try {
    execFileSync('pre-commit', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!hasPreCommit)
  console.warn('pre-commit.test.ts: skipped, as pre-commit is not installed (install it: apt-get install pre-commit)');

describe.skipIf(!hasPreCommit)('pre-commit hook skills-validate (skipped when pre-commit is not installed)', () => {
  const tmp = tempDir('skills-pre-commit-');
  const home = join(tmp.dir, 'home');
  const hookRepo = join(tmp.dir, 'hook-repo');
  const userRepo = join(tmp.dir, 'user-repo');
  let env: Record<string, string>;
  let rev: string;
  /** The user's .pre-commit-config.yaml, with these hooks of this repository. */
  const config = (...ids: string[]) =>
    `repos:\n  - repo: ${JSON.stringify(hookRepo)}\n    rev: ${rev}\n    hooks:\n${ids.map((id) => `      - id: ${id}\n`).join('')}`;

  const run = (file: string, args: string[], cwd: string, opts: Options = {}) =>
    execa(file, args, {
      cwd,
      env,
      extendEnv: false,
      reject: false,
      all: true,
      stdin: 'ignore',
      timeout: COMMIT_TIMEOUT,
      ...opts,
    });
  const git = async (args: string[], cwd = userRepo) => {
    const r = await run('git', args, cwd);
    if (r.exitCode !== 0) throw new Error(`git ${args.join(' ')} failed (${r.exitCode}):\n${r.all}`);
    return String(r.stdout);
  };
  const write = (rel: string, text: string) => {
    mkdirSync(dirname(join(userRepo, rel)), { recursive: true });
    writeFileSync(join(userRepo, rel), text);
  };
  const commit = async (message: string, ...files: string[]) => {
    await git(['add', '--', ...files]);
    const before = await run('git', ['rev-parse', '-q', '--verify', 'HEAD'], userRepo);
    const r = await run('git', ['commit', '-m', message], userRepo);
    const after = await run('git', ['rev-parse', '-q', '--verify', 'HEAD'], userRepo);
    return { exitCode: r.exitCode, output: String(r.all), committed: after.stdout !== before.stdout };
  };

  beforeAll(async () => {
    mkdirSync(home, { recursive: true });
    env = isolatedEnv(home);
    const version = await execa('pre-commit', ['--version'], {
      env,
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
    }).catch((e: Error) => e);
    if (version instanceof Error || version.exitCode !== 0) {
      throw new Error(
        'pre-commit is not installed, and this test needs the real framework: `apt-get install pre-commit` or `pip install pre-commit` ' +
          '(.ci/run installs it)',
      );
    }

    // pre-commit installs a hook repository from a commit (try-repo's shadow commit leaves untracked files out),
    // so commit what this working tree would commit into a throw-away repository.
    // (The developer's own git config applies here: this repository may need their safe.directory.)
    const listed = await execa('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: ROOT,
      stdin: 'ignore',
    });
    const files = listed.stdout.split('\0').filter((f) => f && existsSync(join(ROOT, f)));
    expect(files).toContain('.pre-commit-hooks.yaml');
    for (const f of files) {
      mkdirSync(dirname(join(hookRepo, f)), { recursive: true });
      copyFileSync(join(ROOT, f), join(hookRepo, f));
    }
    await git(['init', '-q'], hookRepo);
    await git(['-c', 'user.name=skills tests', '-c', 'user.email=tests@example.invalid', 'add', '-A'], hookRepo);
    await git(
      ['-c', 'user.name=skills tests', '-c', 'user.email=tests@example.invalid', 'commit', '-q', '-m', 'snapshot'],
      hookRepo,
    );
    rev = (await git(['rev-parse', 'HEAD'], hookRepo)).trim();

    mkdirSync(userRepo);
    await git(['init', '-q']);
    await git(['config', 'user.name', 'skills tests']);
    await git(['config', 'user.email', 'tests@example.invalid']);
    write('.pre-commit-config.yaml', config('skills-validate', 'skills-lint'));
    const install = await run('pre-commit', ['install', '--install-hooks'], userRepo, { timeout: INSTALL_TIMEOUT });
    if (install.exitCode !== 0)
      throw new Error(`pre-commit could not install the hook (${install.exitCode}):\n${install.all}`);

    write('README.md', '# a repository with skills\n');
    write('skills/greeter/SKILL.md', GOOD);
    const first = await commit('add greeter', '.');
    if (!first.committed) throw new Error(`the first commit, with a valid skill, was refused:\n${first.output}`);
  }, INSTALL_TIMEOUT + 30_000);

  afterAll(() => tmp.cleanup());

  it('refuses a commit with a broken SKILL.md, naming the file and the problem once', async () => {
    write('skills/greeter/SKILL.md', BROKEN);
    write('skills/greeter/references/notes.md', 'more about greeting\n');
    const r = await commit('break greeter', 'skills/greeter');
    expect(r.exitCode, r.output).not.toBe(0);
    expect(r.committed).toBe(false);
    expect(r.output).toMatch(/validate agent skills\.+Failed/);
    // Two changed files of one skill: each hook (validate, then lint) checks the skill, and reports it, once.
    expect(r.output.match(/skills\/greeter\/SKILL\.md:\d+:\d+ .*description/g), r.output).toHaveLength(2);
    expect(r.output).toMatch(/lint agent skills\.+Failed/);
  });

  it('accepts the commit once SKILL.md is fixed', async () => {
    write('skills/greeter/SKILL.md', GOOD);
    const r = await commit('fix greeter', 'skills/greeter');
    expect(r.exitCode, r.output).toBe(0);
    expect(r.committed).toBe(true);
    expect(r.output).toMatch(/validate agent skills\.+Passed/);
  });

  it('refuses, through the skills-lint hook, a valid skill that breaks a lint rule', async () => {
    // A key-looking string in a skill's file: valid for validate, an error for lint (SK119, secret-in-file).
    write('skills/leaky/SKILL.md', GOOD.replace(/name: greeter/, 'name: leaky'));
    write('skills/leaky/notes.md', 'The deploy key is ' + 'AK' + 'IA' + 'Q7ZP3M9XK2L8VR4T' + '.\n');
    const r = await commit('add leaky', 'skills/leaky');
    expect(r.committed, r.output).toBe(false);
    expect(r.output).toMatch(/validate agent skills\.+Passed/);
    expect(r.output).toMatch(/lint agent skills\.+Failed/);
    expect(r.output).toMatch(/skills\/leaky\/notes\.md:\d+:\d+ .*(secret-in-file|looks like a secret)/);
    await git(['rm', '-r', '-q', '--cached', '--', 'skills/leaky']);
    rmSync(join(userRepo, 'skills/leaky'), { recursive: true, force: true });
  });

  it('accepts a commit touching only files outside any skill', async () => {
    write('README.md', '# a repository with skills\n\nNow with more words.\n');
    write('docs/guide.md', 'how we write skills\n');
    const r = await commit('docs', 'README.md', 'docs/guide.md');
    expect(r.exitCode, r.output).toBe(0);
    expect(r.committed).toBe(true);
    expect(r.output).toMatch(/validate agent skills\.+Passed/);
  });

  // Added last, so that the tests above run without it. The same repository and rev: pre-commit reuses the
  // environment it installed, so this costs a few commits, not another npm install.
  it('skills-agents-md refuses a commit while AGENTS.md has no block or a stale one, and says how to fix it', async () => {
    write('.pre-commit-config.yaml', config('skills-validate', 'skills-lint', 'skills-agents-md'));
    write('AGENTS.md', '# Agents\n\nRun the tests first.\n');
    const missing = await commit('agents', '.pre-commit-config.yaml', 'AGENTS.md');
    expect(missing.committed, missing.output).toBe(false);
    expect(missing.output).toMatch(/check the skills block of AGENTS\.md\.+Failed/);
    expect(missing.output).toContain('AGENTS.md: no skills block; run: skills render-prompt --write AGENTS.md');

    const fix = await runCli(['render-prompt', '--write', 'AGENTS.md'], { cwd: userRepo });
    expect(fix.exitCode, fix.stderr).toBe(0);
    const written = await commit('agents', '.pre-commit-config.yaml', 'AGENTS.md');
    expect(written.committed, written.output).toBe(true);
    expect(written.output).toMatch(/check the skills block of AGENTS\.md\.+Passed/);
    expect(readFileSync(join(userRepo, 'AGENTS.md'), 'utf8')).toContain('(skills/greeter/SKILL.md)');

    // A valid change to a skill's description: validate passes, the block is stale.
    write('skills/greeter/SKILL.md', GOOD.replace('Greets people by name.', 'Greets people warmly by name.'));
    const stale = await commit('warmer', 'skills/greeter');
    expect(stale.committed, stale.output).toBe(false);
    expect(stale.output).toMatch(/validate agent skills\.+Passed/);
    expect(stale.output).toContain('AGENTS.md: the skills block is stale');

    await runCli(['render-prompt', '--write', 'AGENTS.md'], { cwd: userRepo });
    const fixed = await commit('warmer', 'skills/greeter', 'AGENTS.md');
    expect(fixed.committed, fixed.output).toBe(true);
  });
});
