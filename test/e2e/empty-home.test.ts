import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repos.js';

// HOME set but empty (env HOME=, some CI images): "~/..." must never become a path in the working folder.
describe('an empty HOME', () => {
  let dir: string;
  const env = { HOME: '', XDG_CACHE_HOME: '', XDG_CONFIG_HOME: '' };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'skills-empty-home-'));
    mkdirSync(join(dir, '.claude/skills/ok'), { recursive: true });
    writeFileSync(
      join(dir, '.claude/skills/ok/SKILL.md'),
      '---\nname: ok\ndescription: "A fine skill. Use when testing."\n---\n# ok\n',
    );
    mkdirSync(join(dir, 'src/x'), { recursive: true });
    writeFileSync(
      join(dir, 'src/x/SKILL.md'),
      '---\nname: x\ndescription: "Another skill. Use when testing."\nversion: 1.0.0\n---\n# x\n',
    );
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const entries = () => readdirSync(dir).sort();

  it('refuses install --global with an E_CONFIG error naming HOME, and writes nothing', async () => {
    const r = await runCli(['install', './src/x', '--global', '--agent', 'claude-code'], { cwd: dir, env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--global needs a home folder, and HOME is ""');
    expect(entries()).toEqual(['.claude', 'src']);
    expect(readdirSync(join(dir, '.claude/skills'))).toEqual(['ok']);
  });

  // A local folder or archive needs no download cache: installed without one, nothing written outside the project.
  it.each([
    ['a folder', '../src/x'],
    ['an archive', '../x.tgz'],
  ])('installs %s into the project, writing nothing outside it', async (_, source) => {
    const proj = join(dir, 'proj');
    mkdirSync(proj);
    execFileSync('tar', ['czf', join(dir, 'x.tgz'), '-C', join(dir, 'src'), 'x']);
    const before = entries();
    const r = await runCli(['install', source, '--agent', 'claude-code'], { cwd: proj, env });
    expect(r.stderr).not.toContain('no folder to cache downloads in');
    expect(r.exitCode).toBe(0);
    expect(readdirSync(proj).sort()).toEqual(['.claude', 'skills-lock.json']);
    expect(readdirSync(join(proj, '.claude/skills'))).toEqual(['x']);
    expect(entries()).toEqual(before);
    const outdated = await runCli(['outdated'], { cwd: proj, env });
    expect(outdated.exitCode).toBe(0);
    const update = await runCli(['update'], { cwd: proj, env });
    expect(update.exitCode).toBe(0);
    expect(readdirSync(proj).sort()).toEqual(['.claude', 'skills-lock.json']);
    expect(entries()).toEqual(before);
  });

  it('refuses a git or npm source with the E_CONFIG naming HOME and SKILLS_CACHE_DIR, writing nothing', async () => {
    const repo = join(dir, 'repo');
    makeRepo(repo, { 'SKILL.md': '---\nname: repo\ndescription: "A skill. Use when testing."\n---\n# r\n' });
    const proj = join(dir, 'proj');
    mkdirSync(proj);
    for (const source of [`file://${repo}`, 'npm:some-skill']) {
      const r = await runCli(['install', source, '--json'], { cwd: proj, env });
      expect(r.exitCode, source).toBe(2);
      const { error } = JSON.parse(r.stdout) as { error: { code: string; message: string; hint: string } };
      expect(error.code).toBe('E_CONFIG');
      expect(error.message).toContain('HOME is empty or not an absolute path');
      expect(error.hint).toContain('SKILLS_CACHE_DIR');
      expect(readdirSync(proj)).toEqual([]);
    }
  });

  it('lists and checks the project skills as project skills, and keeps no cache in the working folder', async () => {
    const list = await runCli(['list', '--no-registry', '--json'], { cwd: dir, env });
    expect(list.exitCode).toBe(0);
    const skills = JSON.parse(list.stdout).skills as { id: string; scope: string }[];
    expect(skills.map((s) => [s.id, s.scope])).toEqual([['ok', 'project']]);
    const doctor = await runCli(['doctor'], { cwd: dir, env });
    expect(doctor.stdout).toContain('loads 1 skill: ok');
    const lint = await runCli(['lint', '.claude/skills'], { cwd: dir, env });
    expect(lint.exitCode).toBe(0);
    expect(entries()).toEqual(['.claude', 'src']);
  });
});
