// Found by an adversary's check (issue 18's hardening), through the built CLI: an install or update that fails
// leaves the project as it was (no staged copy, no journal); names of any valid length install, pack and sync; an
// agent folder in the way (a link leading nowhere, a file, a folder not to be looked into) is named; a lock with
// merge-conflict markers says so.
import { afterAll, describe, expect, it } from 'vitest';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { BIN, cliAsUser, runCli, tempFolders, withSmallFileLimit, testEnv } from '../helpers/cli.js';
import { skillMd, writeTree } from '../helpers/tree.js';
import { tempStem } from '../../src/fs/atomic.js';

const root = tempFolders('skills-fix11-e2e-');
// Folders made unreadable get their modes back before they are removed.
afterAll(root.cleanupAfterModes);
const { fresh } = root;

const skill = (dir: string, name: string, version: string, body = '# Skill\n\nDo it.\n') =>
  writeTree(dir, {
    [`${name}/SKILL.md`]: skillMd(
      `name: ${name}\ndescription: A skill to test with. Use when testing.\nmetadata:\n  version: ${version}\n`,
      body,
    ),
  });

describe.skipIf(process.platform === 'win32')('an install or update that fails writing its lock', () => {
  it('removes what it staged and its journal: the project is as it was, the old copy intact', async () => {
    const base = fresh();
    const home = join(base, 'home');
    mkdirSync(home);
    // A source folder with a long path: the lock that records it passes 1 KiB, the copy and the journal do not.
    const src = join(base, ...Array.from({ length: 6 }, () => 'd'.repeat(200)));
    skill(src, 'tiny', '1.0.0');
    const project = join(base, 'project');
    mkdirSync(join(project, '.claude'), { recursive: true });
    const agent = join(project, '.claude/skills');

    const r = await withSmallFileLimit(['install', join(src, 'tiny'), '--agent', 'claude-code'], project, home);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: cannot write .*skills-lock\.json: .*\(EFBIG\); nothing was written$/m);
    // .claude/skills, which this install made, goes; .claude, which was there, stays.
    expect(existsSync(agent)).toBe(false);
    expect(readdirSync(project).sort()).toEqual(['.claude']);
    expect(readdirSync(join(project, '.claude'))).toEqual([]);
    // doctor sees no skill an agent loads.
    const d = await runCli(['doctor', '--agent', 'claude-code'], { cwd: project, env: { HOME: home } });
    expect(d.stdout).toContain('loads 0 skills');

    // Installed (no limit), then a new version whose lock write fails.
    expect((await runCli(['install', join(src, 'tiny'), '--agent', 'claude-code'], { cwd: project })).exitCode).toBe(0);
    const lock = readFileSync(join(project, 'skills-lock.json'), 'utf8');
    skill(src, 'tiny', '1.1.0', '# Skill\n\nDo it better.\n');
    const u = await withSmallFileLimit(['install', join(src, 'tiny'), '--agent', 'claude-code'], project, home);
    expect(u.exitCode).toBe(2);
    expect(u.stderr).toMatch(/cannot write .*skills-lock\.json: .*\(EFBIG\); the file was left as it was$/m);
    expect(readdirSync(agent)).toEqual(['tiny']);
    expect(readFileSync(join(agent, 'tiny/SKILL.md'), 'utf8')).toContain('version: 1.0.0');
    expect(readFileSync(join(project, 'skills-lock.json'), 'utf8')).toBe(lock);
    expect(existsSync(join(project, 'skills-lock.json.placing'))).toBe(false);
  });

  it('removes only the folders it made and left empty: never one that was there, never one with anything in it', async () => {
    const base = fresh();
    const home = join(base, 'home');
    mkdirSync(home);
    const src = join(base, ...Array.from({ length: 6 }, () => 'd'.repeat(200)));
    skill(src, 'tiny', '1.0.0');
    const install = (project: string, ...agents: string[]) =>
      withSmallFileLimit(['install', join(src, 'tiny'), ...agents.flatMap((a) => ['--agent', a])], project, home);

    // Nothing there: .claude and .claude/skills are both this install's, and both go.
    const bare = join(base, 'bare');
    mkdirSync(bare);
    const r = await install(bare, 'claude-code');
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/cannot write .*skills-lock\.json: .*\(EFBIG\); nothing was written$/m);
    expect(readdirSync(bare)).toEqual([]);

    // An empty agent folder that was there stays; .cursor, which was there, keeps what it holds and loses only the
    // skills folder this install made in it.
    const kept = join(base, 'kept');
    mkdirSync(join(kept, '.claude/skills'), { recursive: true });
    mkdirSync(join(kept, '.cursor'));
    writeFileSync(join(kept, '.cursor/notes.md'), 'mine\n');
    const k = await install(kept, 'claude-code', 'cursor');
    expect(k.exitCode).toBe(2);
    expect(readdirSync(join(kept, '.claude/skills'))).toEqual([]);
    expect(readdirSync(join(kept, '.cursor'))).toEqual(['notes.md']);
    expect(readdirSync(kept).sort()).toEqual(['.claude', '.cursor']);
  });

  it('update: the same, the old copy intact', async () => {
    const base = fresh();
    const home = join(base, 'home');
    mkdirSync(home);
    const src = join(base, 'src');
    // Twelve skills from a registry: a lock past 1 KiB; the update of one stages one copy and a small journal.
    for (let i = 0; i < 12; i++) skill(src, `skill-number-${i}`, '1.0.0');
    const env = { SKILLS_REGISTRY: join(base, 'reg'), HOME: home };
    expect((await runCli(['registry', 'sync', src], { cwd: base, env })).exitCode).toBe(0);
    const project = join(base, 'project');
    mkdirSync(join(project, '.claude'), { recursive: true });
    const ids = Array.from({ length: 12 }, (_, i) => `skill-number-${i}`);
    expect((await runCli(['install', ...ids, '--agent', 'claude-code'], { cwd: project, env })).exitCode).toBe(0);
    const lock = readFileSync(join(project, 'skills-lock.json'), 'utf8');
    expect(lock.length).toBeGreaterThan(1024);
    skill(src, 'skill-number-0', '1.1.0', '# Skill\n\nDo it better.\n');
    expect((await runCli(['registry', 'sync', src], { cwd: base, env })).exitCode).toBe(0);
    const u = await execa(
      'bash',
      ['-c', 'ulimit -f 1 && exec "$@"', 'bash', process.execPath, BIN, 'update', 'skill-number-0'],
      { cwd: project, env: testEnv(home, env), extendEnv: false, reject: false, stdin: 'ignore' },
    );
    expect(u.exitCode).toBe(2);
    expect(u.stderr).toMatch(/cannot write .*skills-lock\.json: .*\(EFBIG\); the file was left as it was$/m);
    const agent = join(project, '.claude/skills');
    expect(readdirSync(agent).sort()).toEqual([...ids].sort());
    expect(readFileSync(join(agent, 'skill-number-0/SKILL.md'), 'utf8')).toContain('version: 1.0.0');
    expect(readFileSync(join(project, 'skills-lock.json'), 'utf8')).toBe(lock);
    expect(existsSync(join(project, 'skills-lock.json.placing'))).toBe(false);
  });
});

describe('a name of 240 bytes (60 four-byte letters), valid', () => {
  it('installs, packs and syncs: no temp name passes the 255 bytes a name may hold', async () => {
    const dir = fresh();
    const name = Array.from({ length: 60 }, (_, i) => String.fromCodePoint(0x20000 + i)).join('');
    skill(join(dir, 'src'), name, '1.0.0');
    const project = join(dir, 'project');
    mkdirSync(join(project, '.claude'), { recursive: true });
    const env = { SKILLS_REGISTRY: join(dir, 'reg') };
    expect((await runCli(['validate', 'src'], { cwd: dir })).exitCode).toBe(0);
    const i = await runCli(['install', join(dir, 'src', name), '--agent', 'claude-code'], { cwd: project, env });
    expect(i.stderr).toBe('');
    expect(i.exitCode).toBe(0);
    expect(readdirSync(join(project, '.claude/skills'))).toEqual([name]);
    const p = await runCli(['pack', join('src', name), '--out', 'out'], { cwd: dir });
    expect(p.exitCode).toBe(0);
    expect(readdirSync(join(dir, 'out'))).toEqual([`${name}-1.0.0.tgz`]);
    const s = await runCli(['registry', 'sync', 'src', '--registry', 'reg2'], { cwd: dir });
    expect(s.exitCode).toBe(0);
    expect(readdirSync(join(dir, 'reg2/built-in'))).toEqual([`${name}@1.0.0`]);
  });
});

describe('a copy moved aside by an install killed between its two renames (kill -9)', () => {
  it('is put back by the next install, a shortened .trash- name (a name over 200 bytes) as a short one', async () => {
    const dir = fresh();
    const long = Array.from({ length: 60 }, (_, i) => String.fromCodePoint(0x20000 + i)).join('');
    for (const n of [long, 'short', 'third']) skill(join(dir, 'src'), n, '1.0.0');
    const project = join(dir, 'project');
    mkdirSync(join(project, '.claude'), { recursive: true });
    const agent = join(project, '.claude/skills');
    for (const n of [long, 'short'])
      expect(
        (await runCli(['install', join(dir, 'src', n), '--agent', 'claude-code'], { cwd: project })).exitCode,
      ).toBe(0);
    const before = readFileSync(join(agent, long, 'SKILL.md'), 'utf8');
    // What swapIn leaves when killed after moving the old copy aside and before renaming the new one in: the copy
    // under its trash name (`.trash-<id>.<pid>.<hex>`, shortened past 200 bytes), the pid a dead process's.
    const dead = 4194304 + 1; // above the largest pid Linux gives
    renameSync(join(agent, long), join(agent, `${tempStem('.trash-', long)}.${dead}.00000000`));
    renameSync(join(agent, 'short'), join(agent, `.trash-short.${dead}.00000000`));
    const r = await runCli(['install', join(dir, 'src', 'third'), '--agent', 'claude-code'], { cwd: project });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readdirSync(agent).sort()).toEqual([long, 'short', 'third'].sort());
    expect(readFileSync(join(agent, long, 'SKILL.md'), 'utf8')).toBe(before);
  });
});

describe('an agent folder in the way', () => {
  const brand = () => {
    const src = fresh('src');
    skill(src, 'brand', '1.0.0');
    return join(src, 'brand');
  };

  it('a link that leads nowhere: doctor says it (a problem, exit 1), install names it and where it leads', async () => {
    const project = fresh('project');
    mkdirSync(join(project, '.claude'));
    symlinkSync('/nonexistent/skills', join(project, '.claude/skills'));
    const d = await runCli(['doctor', '--agent', 'claude-code'], { cwd: project });
    expect(d.exitCode).toBe(1);
    expect(d.stdout).toContain(
      `cannot read .claude/skills: ${join(project, '.claude/skills')} is a link to /nonexistent/skills, which leads nowhere`,
    );
    expect(d.stdout).toContain('1 problem');
    const j = JSON.parse((await runCli(['doctor', '--agent', 'claude-code', '--json'], { cwd: project })).stdout);
    expect(j.agents[0].blocked).toEqual([
      expect.objectContaining({ dir: join(project, '.claude/skills'), scope: 'project', kind: 'dangling-link' }),
    ]);
    const i = await runCli(['install', brand(), '--agent', 'claude-code'], { cwd: project });
    expect(i.exitCode).toBe(2);
    expect(i.stderr).toContain(
      `${join(project, '.claude/skills')} is a link to /nonexistent/skills, which leads nowhere; nothing was installed`,
    );
    expect(i.stderr).toContain(
      `hint: create the folder it leads to, or remove the link (rm ${join(project, '.claude/skills')})`,
    );
    // Without --agent too: doctor finds the agent by its folder that is in the way.
    expect((await runCli(['doctor'], { cwd: project })).stdout).toContain('which leads nowhere');
  });

  it('a file where the folder goes: install and doctor name the file, not the folder below it', async () => {
    const project = fresh('project');
    writeFileSync(join(project, '.claude'), 'x\n');
    const i = await runCli(['install', brand(), '--agent', 'claude-code'], { cwd: project });
    expect(i.exitCode).toBe(2);
    expect(i.stderr).toContain(
      `${join(project, '.claude')} is a file, where a folder is needed; nothing was installed`,
    );
    expect(i.stderr).toContain(`hint: move the file ${join(project, '.claude')} out of the way`);
    const d = await runCli(['doctor', '--agent', 'claude-code'], { cwd: project });
    expect(d.exitCode).toBe(1);
    expect(d.stdout).toContain(`${join(project, '.claude')} is a file, where a folder is needed`);
  });

  it.skipIf(process.platform === 'win32')(
    'a folder that may not be looked into (as a user other than root): named, by doctor and install',
    async () => {
      const base = fresh('user');
      chmodSync(root.dir, 0o755);
      const src = join(base, 'src');
      skill(src, 'brand', '1.0.0');
      const project = join(base, 'project');
      mkdirSync(join(project, '.claude'), { recursive: true });
      mkdirSync(join(base, 'home'));
      // Root ignores permission bits: run as nobody, with everything owned by nobody.
      const cli = cliAsUser(base, { NO_COLOR: '1', HOME: join(base, 'home') });
      chmodSync(join(project, '.claude'), 0);
      const run = (args: string[]) => cli.run(args, project);
      const d = await run(['doctor']);
      expect(d.exitCode).toBe(1);
      expect(d.stdout).toContain(`cannot look into ${join(project, '.claude')}: permission denied (EACCES)`);
      const i = await run(['install', join(src, 'brand'), '--agent', 'claude-code']);
      expect(i.exitCode).toBe(2);
      expect(i.stderr).toContain(
        `cannot look into ${join(project, '.claude')}: permission denied (EACCES); nothing was installed`,
      );
      expect(i.stderr).toContain(`hint: check the owner and mode of ${join(project, '.claude')} (ls -ld)`);
      // The agent folder itself unwritable: the write's error, not its cleanup's, and a hint naming the folder.
      chmodSync(join(project, '.claude'), 0o755);
      mkdirSync(join(project, '.claude/skills'));
      if (cli.nobody) chownSync(join(project, '.claude/skills'), 65534, 65534);
      chmodSync(join(project, '.claude/skills'), 0o555);
      const w = await run(['install', join(src, 'brand'), '--agent', 'claude-code']);
      expect(w.exitCode).toBe(2);
      expect(w.stderr).toMatch(/^error: cannot write .*\.claude\/skills\/brand: permission denied \(EACCES\)$/m);
      expect(w.stderr).not.toContain('cannot remove');
      expect(w.stderr).toContain(`hint: check the owner and mode of ${join(project, '.claude/skills')} (ls -ld)`);
    },
  );
});

describe('a lock with merge-conflict markers', () => {
  it('says so, at the marker line, and how to resolve it; nothing is written', async () => {
    const project = fresh('project');
    const src = fresh('src');
    skill(src, 'a', '1.0.0');
    mkdirSync(join(project, '.claude'));
    expect((await runCli(['install', join(src, 'a'), '--agent', 'claude-code'], { cwd: project })).exitCode).toBe(0);
    const lock = readFileSync(join(project, 'skills-lock.json'), 'utf8').split('\n');
    const at = lock.findIndex((l) => l.includes('"skills"')) + 1;
    const merged = [
      ...lock.slice(0, at),
      '<<<<<<< HEAD',
      ...lock.slice(at, at + 2),
      '=======',
      '>>>>>>> theirs',
      ...lock.slice(at),
    ];
    writeFileSync(join(project, 'skills-lock.json'), merged.join('\n'));
    const r = await runCli(['install'], { cwd: project });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(
      `error: ${join(project, 'skills-lock.json')}:${at + 1}:1: skills-lock.json holds git merge-conflict markers (<<<<<<< at line ${at + 1}): a merge left it unresolved`,
    );
    expect(r.stderr).toMatch(
      /^hint: nothing was installed or written: resolve the merge in .* then run skills install to check it/m,
    );
    expect(readFileSync(join(project, 'skills-lock.json'), 'utf8')).toBe(merged.join('\n'));
  });
});
