import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempFolders } from '../helpers/cli.js';
import { skillMd, writeTree } from '../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-agents-e2e-');
afterAll(cleanup);

/** A project with Claude Code's and Cursor's skill folders, and a home with Codex's config folder. */
function setup(): { project: string; home: string } {
  const project = fresh('project');
  const home = fresh('home');
  mkdirSync(join(project, '.claude/skills'), { recursive: true });
  mkdirSync(join(project, '.cursor/skills'), { recursive: true });
  mkdirSync(join(home, '.codex'), { recursive: true });
  return { project, home };
}

interface Row {
  name: string;
  title: string;
  project: string;
  user: string | null;
  projectDir: string;
  userDir: string | null;
  reads: string;
  detected: { here: boolean; user: boolean };
}

describe('skills agents (built CLI)', () => {
  it('prints every agent with its folders, the agents detected here and in home marked, and a legend', async () => {
    const { project, home } = setup();
    const r = await runCli(['agents'], { cwd: project, env: { HOME: home } });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^AGENT\s+NAME\s+PROJECT FOLDER\s+USER FOLDER\s+HERE\s+USER$/);
    const row = (name: string) => lines.find((l) => l.startsWith(`${name} `))!.split(/\s{2,}/);
    expect(row('claude-code')).toEqual(['claude-code', 'Claude Code', '.claude/skills', '~/.claude/skills', '✓', '-']);
    expect(row('cursor')).toEqual(['cursor', 'Cursor', '.cursor/skills', '~/.cursor/skills', '✓', '-']);
    expect(row('codex')).toEqual(['codex', 'Codex', '.agents/skills', '~/.agents/skills', '-', '✓']);
    expect(row('opencode')).toEqual([
      'opencode',
      'OpenCode',
      '.opencode/skills',
      '~/.config/opencode/skills',
      '-',
      '-',
    ]);
    expect(row('github-copilot').slice(2, 4)).toEqual(['.github/skills', '~/.copilot/skills']);
    const rows = lines.slice(1, -1).map((l) => l.split(/\s{2,}/));
    expect(rows.filter((x) => x[4] === '✓').map((x) => x[0])).toEqual(['claude-code', 'cursor']);
    expect(rows.filter((x) => x[5] === '✓').map((x) => x[0])).toEqual(['codex']);
    expect(lines.at(-1)).toMatch(/^HERE ✓: .*manifest\.json/);
  });

  it('prints one JSON array with --json: folders absolute, detection for here and user', async () => {
    const { project, home } = setup();
    const r = await runCli(['agents', '--json'], {
      cwd: project,
      env: { HOME: home, CLAUDE_CONFIG_DIR: join(home, 'claude-work') },
    });
    expect(r.exitCode).toBe(0);
    const rows = JSON.parse(r.stdout) as Row[];
    expect(rows.map((x) => x.name)).toEqual(
      expect.arrayContaining(['claude-code', 'codex', 'cursor', 'github-copilot', 'gemini-cli', 'agents']),
    );
    const by = Object.fromEntries(rows.map((x) => [x.name, x]));
    expect(by['claude-code']).toMatchObject({
      title: 'Claude Code',
      project: '.claude/skills',
      user: '.claude/skills',
      projectDir: join(project, '.claude/skills'),
      userDir: join(home, 'claude-work/skills'),
      reads: 'skill-md',
      detected: { here: true, user: false },
    });
    expect(by.cursor!.detected).toEqual({ here: true, user: false });
    expect(by.codex!.detected).toEqual({ here: false, user: true });
    expect(by.agents!.reads).toBe('both');
    expect(rows.filter((x) => x.detected.here).map((x) => x.name)).toEqual(['claude-code', 'cursor']);
  });

  it('has help with examples', async () => {
    const r = await runCli(['agents', '--help']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('Examples:');
    expect(r.stdout).toContain('skills agents --json');
  });
});

describe('CLAUDE_CONFIG_DIR moves ~/.claude for every command (built CLI)', () => {
  it('list and render-prompt find the skills install --global put below it, and no longer read ~/.claude', async () => {
    const { project, home } = setup();
    const src = fresh('src');
    writeTree(src, {
      'moved/SKILL.md': skillMd('name: moved\ndescription: Does moved things. Use when the task is moved.\n', '# M\n'),
    });
    const claude = join(home, 'claude-work');
    const env = { HOME: home, CLAUDE_CONFIG_DIR: claude, SKILLS_REGISTRY: join(home, 'no-registry') };
    const inst = await runCli(['install', join(src, 'moved'), '-g', '--agent', 'claude-code'], { cwd: project, env });
    expect(inst.exitCode).toBe(0);
    expect(existsSync(join(claude, 'skills/moved/SKILL.md'))).toBe(true);
    const list = await runCli(['list', '--json'], { cwd: project, env });
    const rows = (JSON.parse(list.stdout) as { skills: { id: string; path: string; scope: string }[] }).skills;
    expect(rows.find((r) => r.id === 'moved')).toMatchObject({ path: join(claude, 'skills/moved'), scope: 'user' });
    const prompt = await runCli(['render-prompt'], { cwd: project, env });
    expect(prompt.stdout).toContain(
      `- moved: Does moved things. Use when the task is moved. (${join(claude, 'skills/moved/SKILL.md')})`,
    );
    // ~/.claude/skills is no longer read: what is there is not the user's Claude Code folder.
    writeTree(home, {
      '.claude/skills/stale/SKILL.md': skillMd('name: stale\ndescription: Stale. Use when never.\n', '# S\n'),
    });
    const again = await runCli(['list'], { cwd: project, env });
    expect(again.stdout).toContain('moved');
    expect(again.stdout).not.toContain('stale');
  });

  it('list warns of a relative CLAUDE_CONFIG_DIR as agents does, and reads ~/.claude/skills in its place', async () => {
    const { project, home } = setup();
    writeTree(home, {
      '.claude/skills/kept/SKILL.md': skillMd('name: kept\ndescription: Kept. Use when kept.\n', '# K\n'),
    });
    const env = { HOME: home, CLAUDE_CONFIG_DIR: '~/.claude-work', SKILLS_REGISTRY: join(home, 'no-registry') };
    const list = await runCli(['list'], { cwd: project, env });
    expect(list.exitCode).toBe(0);
    expect(list.stdout).toContain('kept');
    expect(list.stderr).toContain(
      'warning: CLAUDE_CONFIG_DIR is "~/.claude-work", which is not an absolute path, so it is not used: ~/.claude is read in its place.',
    );
    // Only the folders given: no user folder is read, and nothing is said of the variable.
    const given = await runCli(['list', '--no-registry', '.claude/skills'], { cwd: project, env });
    expect(given.stderr).toBe('');
    // render-prompt reads the same folders and says the same, once; with folders given, nothing.
    const render = await runCli(['render-prompt', '--no-registry'], { cwd: project, env });
    expect(render.exitCode, render.stderr).toBe(0);
    expect(render.stdout).toContain('kept');
    expect(render.stderr.split('CLAUDE_CONFIG_DIR is "~/.claude-work"')).toHaveLength(2);
    const renderGiven = await runCli(['render-prompt', '--no-registry', '.claude/skills'], { cwd: project, env });
    expect(renderGiven.stderr).not.toContain('CLAUDE_CONFIG_DIR');
  });

  it('serve and run-script warn of a relative CLAUDE_CONFIG_DIR when they read the user folders, as list does', async () => {
    const { project, home } = setup();
    writeTree(home, {
      '.claude/skills/kept/SKILL.md': skillMd('name: kept\ndescription: Kept. Use when kept.\n', '# K\n'),
      '.claude/skills/kept/scripts/hi.sh': 'echo hi\n',
    });
    const env = { HOME: home, CLAUDE_CONFIG_DIR: '~/.claude-work', SKILLS_REGISTRY: join(home, 'no-registry') };
    const said = 'warning: CLAUDE_CONFIG_DIR is "~/.claude-work", which is not an absolute path, so it is not used';
    const serve = await runCli(['serve', '--no-registry'], { cwd: project, env, input: '' });
    expect(serve.exitCode, serve.stderr).toBe(0);
    expect(serve.stderr.split(said)).toHaveLength(2);
    const served = await runCli(['serve', '.claude/skills'], { cwd: project, env, input: '' });
    expect(served.stderr).not.toContain('CLAUDE_CONFIG_DIR');
    // By id the user folders are read (the skill is found there, in ~/.claude); by path they are not.
    const byId = await runCli(['run-script', 'kept', '--list'], { cwd: project, env });
    expect(byId.exitCode, byId.stderr).toBe(0);
    expect(byId.stdout).toContain('scripts/hi.sh');
    expect(byId.stderr.split(said)).toHaveLength(2);
    const missing = await runCli(['run-script', 'nowhere', 'hi.sh'], { cwd: project, env });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr.split(said)).toHaveLength(2);
    const byPath = await runCli(['run-script', join(home, '.claude/skills/kept'), '--list'], { cwd: project, env });
    expect(byPath.exitCode, byPath.stderr).toBe(0);
    expect(byPath.stderr).not.toContain('CLAUDE_CONFIG_DIR');
  });
});

describe('--agent codex after --agent claude-code (built CLI)', () => {
  it('adds the folder to those the lock records, places into both, and says so with the skills installed before', async () => {
    const project = fresh('project');
    const home = fresh('home');
    const src = fresh('src');
    const skill = (id: string) => skillMd(`name: ${id}\ndescription: Does ${id} things. Use when testing.\n`, '# S\n');
    writeTree(src, { 'one/SKILL.md': skill('one'), 'two/SKILL.md': skill('two') });
    const env = { HOME: home };
    const first = await runCli(['install', join(src, 'one'), '--agent', 'claude-code'], { cwd: project, env });
    expect(first.exitCode).toBe(0);
    expect(first.stderr).not.toContain('is added to');
    const said =
      'warning: .agents/skills is added to the folder skills-lock.json records (.claude/skills), not put in its place: every skill installed is placed into all of them; the skill installed before (one) goes into it on the next skills install; to stop placing into a folder, remove it from "into" in skills-lock.json';
    const second = await runCli(['install', join(src, 'two'), '--agent', 'codex'], { cwd: project, env });
    expect(second.exitCode).toBe(0);
    expect(second.stdout).toContain('added     two@0.0.0  → .agents/skills/two, .claude/skills/two');
    expect(second.stderr.split('\n')).toContain(said);
    expect(existsSync(join(project, '.claude/skills/two/SKILL.md'))).toBe(true);
    // Asked again, nothing is added: nothing to say.
    const again = await runCli(['install', join(src, 'two'), '--agent', 'codex'], { cwd: project, env });
    expect(again.stderr).not.toContain('is added to');
    const replay = await runCli(['install'], { cwd: project, env });
    expect(replay.exitCode).toBe(0);
    expect(existsSync(join(project, '.agents/skills/one/SKILL.md'))).toBe(true);
  });
});

// A quoted "~/.claude-work" (an .env file, a systemd unit) is a relative path: it must not be taken from the working
// folder by one command and from the global lock's folder by another.
describe('a relative CLAUDE_CONFIG_DIR (built CLI)', () => {
  const warning =
    'warning: CLAUDE_CONFIG_DIR is "~/.claude-work", which is not an absolute path, so it is not used: ~/.claude is read in its place';

  it('is not used by agents, with one warning', async () => {
    const { project, home } = setup();
    const r = await runCli(['agents', '--json'], {
      cwd: project,
      env: { HOME: home, CLAUDE_CONFIG_DIR: '~/.claude-work' },
    });
    expect(r.exitCode).toBe(0);
    const rows = JSON.parse(r.stdout) as Row[];
    expect(rows.find((x) => x.name === 'claude-code')!.userDir).toBe(join(home, '.claude/skills'));
    expect(r.stderr.split(warning)).toHaveLength(2);
  });

  it('is not used by install --global, which installs into ~/.claude/skills, with one warning', async () => {
    const { project, home } = setup();
    const src = fresh('src');
    writeTree(src, {
      'pdf/SKILL.md': skillMd('name: pdf\ndescription: Fill PDF forms. Use when the user mentions PDF forms.'),
    });
    const r = await runCli(['install', join(src, 'pdf'), '--global', '--agent', 'claude-code'], {
      cwd: project,
      env: { HOME: home, CLAUDE_CONFIG_DIR: '~/.claude-work', XDG_CONFIG_HOME: '' },
    });
    expect(r.exitCode).toBe(0);
    expect(r.stderr.split(warning)).toHaveLength(2);
    expect(existsSync(join(home, '.claude/skills/pdf/SKILL.md'))).toBe(true);
    expect(existsSync(join(home, '.config/skills/~'))).toBe(false);
    expect(existsSync(join(project, '~'))).toBe(false);
  });
});

describe('~/.claude as a link into a dotfiles folder (built CLI)', () => {
  it('install --global records ~/.claude/skills in the user lock, and uninstall --global removes the copy there', async () => {
    const project = fresh('project');
    const home = fresh('home');
    const dotfiles = fresh('dotfiles');
    mkdirSync(join(dotfiles, 'claude/skills'), { recursive: true });
    symlinkSync(join(dotfiles, 'claude'), join(home, '.claude'));
    const src = fresh('src');
    writeTree(src, {
      'pdf/SKILL.md': skillMd('name: pdf\ndescription: Fill PDF forms. Use when the user mentions PDF forms.'),
    });
    const env = { HOME: home, XDG_CONFIG_HOME: '', SKILLS_REGISTRY: '' };
    const inst = await runCli(['install', join(src, 'pdf'), '-g', '--agent', 'claude-code'], { cwd: project, env });
    expect(inst.exitCode, inst.stderr).toBe(0);
    // Before: "… leads out of ~/.config/skills through a symlink, so skills-lock.json does not record it".
    expect(inst.stderr).not.toMatch(/does not record/);
    expect(existsSync(join(dotfiles, 'claude/skills/pdf/SKILL.md'))).toBe(true);
    const lock = JSON.parse(readFileSync(join(home, '.config/skills/skills-lock.json'), 'utf8'));
    expect(lock.into).toEqual(['~/.claude/skills']);

    // Before: "uninstalled pdf" from the lock alone, and the copy Claude Code loads was left.
    const un = await runCli(['uninstall', 'pdf', '-g'], { cwd: project, env });
    expect(un.exitCode, un.stderr).toBe(0);
    expect(existsSync(join(dotfiles, 'claude/skills/pdf'))).toBe(false);
  });
});

describe('~/.claude/skills as a user folder (built CLI)', () => {
  it('is read by list and render-prompt', async () => {
    const project = fresh('project');
    const home = fresh('home');
    writeTree(home, {
      '.claude/skills/claude-user-skill/SKILL.md': skillMd(
        'name: claude-user-skill\ndescription: Tidies changelogs. Use when the user edits a CHANGELOG.',
        '# Claude user skill\n\nTidy the changelog.\n',
      ),
    });
    const env = { HOME: home, SKILLS_REGISTRY: join(home, 'registry') };
    const list = await runCli(['list', '--json'], { cwd: project, env });
    expect(list.exitCode).toBe(0);
    const skills = (JSON.parse(list.stdout) as { skills: { id: string; scope: string }[] }).skills;
    expect(skills).toEqual([expect.objectContaining({ id: 'claude-user-skill', scope: 'user' })]);

    const prompt = await runCli(['render-prompt', '--query', 'tidy the CHANGELOG'], { cwd: project, env });
    expect(prompt.exitCode).toBe(0);
    expect(prompt.stdout).toContain('claude-user-skill');
    expect(prompt.stdout).toContain('Tidy the changelog.');
  });
});
