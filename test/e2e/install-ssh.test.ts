// Installing over ssh: `git@host:path` and `ssh://host/path` sources, run by the system git through the ssh
// command a user sets (GIT_SSH_COMMAND). No sshd runs here, so the ssh in between is a stand-in, as git's own test
// suite has one: it takes the host and runs the command git asks of the server (git-upload-pack) on this machine,
// so git's real ssh transport runs from end to end, as do our URL parsing, the lock and `outdated`.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempFolders } from '../helpers/cli.js';
import { git, makeRepo } from '../helpers/git-repos.js';
import { skillMd } from '../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-install-ssh-');
afterAll(cleanup);

const skill = (name: string, version: string) =>
  skillMd(
    `name: ${name}\ndescription: Reads ${name} files. Use when a ${name} is given.\nmetadata:\n  version: "${version}"\n`,
  );

let repo: string;
let fakeSsh: string;
let hosts: string;

beforeAll(() => {
  const base = fresh('ssh');
  repo = join(base, 'skills');
  makeRepo(repo, { 'pdf/SKILL.md': skill('pdf', '1.0.0') }, { tag: 'v1.0.0' });
  hosts = join(base, 'hosts.log');
  writeFileSync(hosts, '');
  fakeSsh = join(base, 'fake-ssh');
  // ssh [options] host command: record the host, run the command here (as `ssh host cmd` runs it there).
  writeFileSync(
    fakeSsh,
    [
      '#!/bin/sh',
      'while [ $# -gt 0 ]; do',
      `  case "$1" in -p|-P) printf 'port %s\\n' "$2" >> '${hosts}'; shift 2 ;; -o|-i|-l) shift 2 ;; -*) shift ;; *) break ;; esac`,
      'done',
      `printf '%s\\n' "$1" >> '${hosts}'`,
      'case "$1" in *@untrusted.example) echo "Host key verification failed." >&2; exit 255 ;; esac',
      'shift',
      'exec sh -c "$*"',
      '',
    ].join('\n'),
  );
  chmodSync(fakeSsh, 0o755);
});

function user(): Record<string, string> {
  const home = fresh('home');
  return { HOME: home, XDG_CACHE_HOME: join(home, '.cache'), SKILLS_REGISTRY: '', GIT_SSH_COMMAND: fakeSsh };
}

function project(): string {
  const dir = fresh('project');
  git(dir, ['init', '--quiet']);
  return dir;
}

const lockOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'skills-lock.json'), 'utf8'));

describe('skills install over ssh', () => {
  it('installs from git@host:path#tag, locks the ssh URL and commit, and outdated sees a new tag over ssh', async () => {
    const env = user();
    const dir = project();
    const source = `git@code.example:${repo}#v1.0.0`;
    const r = await runCli(['install', source, '--agent', 'claude-code'], { cwd: dir, env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('added     pdf@1.0.0  → .claude/skills/pdf');
    expect(readFileSync(join(dir, '.claude/skills/pdf/SKILL.md'), 'utf8')).toBe(skill('pdf', '1.0.0'));
    expect(lockOf(dir).skills.pdf).toMatchObject({
      source: `git:git@code.example:${repo}`,
      ref: 'v1.0.0',
      commit: git(repo, ['rev-parse', 'v1.0.0']),
    });
    expect(readFileSync(hosts, 'utf8')).toContain('git@code.example\n');

    makeRepo(repo, { 'pdf/SKILL.md': skill('pdf', '1.1.0') }, { tag: 'v1.1.0' });
    const outdated = await runCli(['outdated', '--json'], { cwd: dir, env });
    expect(outdated.exitCode, outdated.stderr).toBe(0);
    expect(JSON.parse(outdated.stdout).skills[0]).toMatchObject({
      id: 'pdf',
      outdated: true,
      current: { version: '1.0.0', tag: 'v1.0.0' },
      latest: { version: '1.1.0' },
    });
  });

  it('installs from ssh://user@host:port/path, the port given to ssh', async () => {
    const env = user();
    const dir = project();
    const r = await runCli(['install', `ssh://git@code.example:2222${repo}`, '--agent', 'claude-code'], {
      cwd: dir,
      env,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(lockOf(dir).skills.pdf.source).toBe(`git:ssh://git@code.example:2222${repo}`);
    expect(readFileSync(hosts, 'utf8')).toContain('port 2222\n');
  });

  it('a host key ssh does not trust: a clear error naming ssh’s reason, exit 2, and nothing written', async () => {
    const env = user();
    const dir = project();
    const r = await runCli(['install', `git@untrusted.example:${repo}`, '--agent', 'claude-code'], { cwd: dir, env });
    expect(r.exitCode, `${r.stdout}\n${r.stderr}`).toBe(2);
    expect(r.stderr).toContain("ssh does not trust the server's host key");
    expect(r.stderr).toContain('ssh -T');
    expect(git(dir, ['status', '--porcelain', '--untracked-files=all'])).toBe('');
  });
});
