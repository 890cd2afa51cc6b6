import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

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
