import { mkdirSync, readFileSync, readlinkSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempFolders } from '../helpers/cli.js';
import { skillMd, writeTree, type TreeSpec } from '../helpers/tree.js';

// What `install --link` places (a symlink to a skill folder in an agent's folder) is what the agent reads: list,
// render-prompt, doctor and run-script see it, through the built CLI.

const { fresh, cleanup } = tempFolders('skills-link-e2e-');
afterAll(cleanup);

const skill = (name: string, extra: TreeSpec = {}): TreeSpec => ({
  [`${name}/SKILL.md`]: skillMd(`name: ${name}\ndescription: Does ${name} things. Use when the user asks for ${name}.`),
  ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [`${name}/${k}`, v])),
});
const under = (prefix: string, tree: TreeSpec): TreeSpec =>
  Object.fromEntries(Object.entries(tree).map(([k, v]) => [`${prefix}/${k}`, v]));

/** A project and an empty home; the variables that would move the agents' folders are cleared. */
function project(tree: TreeSpec) {
  const cwd = fresh('project');
  const home = fresh('home');
  writeTree(cwd, tree);
  const env = {
    HOME: home,
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_CONFIG_HOME: '',
    CLAUDE_CONFIG_DIR: '',
    CODEX_HOME: '',
    COPILOT_HOME: '',
    SKILLS_REGISTRY: '',
  };
  return { cwd, run: (args: string[]) => runCli(args, { cwd, env }) };
}

describe('skill folders placed as links', () => {
  it('install --link, then list, render-prompt, doctor and run-script see the linked skill', async () => {
    const p = project(
      under(
        'src',
        skill('foo', { 'scripts/hello.sh': { content: '#!/bin/sh\necho "hello from foo"\n', mode: 0o755 } }),
      ),
    );
    const installed = await p.run(['install', './src/foo', '--link', '--agent', 'claude-code']);
    expect(installed.exitCode, installed.stderr).toBe(0);
    expect(readlinkSync(join(p.cwd, '.claude/skills/foo'))).toBe(join('..', '..', 'src', 'foo'));

    const list = await p.run(['list', '--no-registry', '--json']);
    expect(list.exitCode, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).skills).toEqual([
      expect.objectContaining({ id: 'foo', scope: 'project', valid: true, path: join(p.cwd, '.claude/skills/foo') }),
    ]);

    const prompt = await p.run(['render-prompt', '--no-registry', '--tier', 'catalog']);
    expect(prompt.exitCode, prompt.stderr).toBe(0);
    expect(prompt.stdout).toContain(
      `- foo: Does foo things. Use when the user asks for foo. (${join(realpathSync(p.cwd), 'src/foo/SKILL.md')})`,
    );
    const write = await p.run(['render-prompt', '--write', 'AGENTS.md']);
    expect(write.exitCode, write.stderr).toBe(0);
    expect(readFileSync(join(p.cwd, 'AGENTS.md'), 'utf8')).toContain('(src/foo/SKILL.md)');

    const doctor = await p.run(['doctor', '--agent', 'claude-code']);
    expect(doctor.stdout).toContain('loads 1 skill: foo');
    expect(doctor.exitCode, doctor.stdout + doctor.stderr).toBe(0);

    const ran = await p.run(['run-script', 'foo', 'hello']);
    expect(ran.exitCode, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('hello from foo');
  });

  it('reports a link that leads nowhere or round in a loop, and goes on; a link to a folder of skills is not walked', async () => {
    const p = project({
      ...under('src', skill('foo')),
      ...under('lib', skill('inner')),
      '.claude/skills/foo': { symlink: '../../src/foo' },
      '.claude/skills/gone': { symlink: '../../src/gone' },
      '.claude/skills/loop1': { symlink: 'loop2' },
      '.claude/skills/loop2': { symlink: 'loop1' },
      // A folder holding skills, not a skill: not followed (Claude Code reads .claude/skills/*/SKILL.md only).
      '.claude/skills/lib': { symlink: '../../lib' },
      // Broken links to files (a copy without their targets): no skill's, so no warning.
      '.claude/skills/CLAUDE.md': { symlink: 'AGENTS.md' },
      '.claude/skills/rules': { symlink: '../rules/mintlify.md' },
    });
    const dir = join(p.cwd, '.claude/skills');
    const list = await p.run(['list', '--no-registry']);
    expect(list.exitCode, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^foo\s/m);
    expect(list.stdout).not.toContain('inner');
    // In the order the folder lists them, which the file system decides.
    expect(list.stderr.split('\n').sort()).toEqual([
      `warning: ${dir}/gone: skipped: a link to ../../src/gone, which does not exist`,
      `warning: ${dir}/loop1: skipped: a link to loop2, which leads round in a loop`,
      `warning: ${dir}/loop2: skipped: a link to loop1, which leads round in a loop`,
    ]);

    const prompt = await p.run(['render-prompt', '--no-registry', '--tier', 'catalog']);
    expect(prompt.exitCode, prompt.stderr).toBe(0);
    expect(prompt.stdout).toContain('- foo: ');
    expect(prompt.stderr).toContain(`warning: ${dir}/gone: skipped: a link to ../../src/gone, which does not exist`);

    const doctor = await p.run(['doctor', '--agent', 'claude-code']);
    expect(doctor.stdout).toContain('loads 1 skill: foo');
    expect(doctor.stdout).toMatch(/gone\s+unreadable: a link to \.\.\/\.\.\/src\/gone, which does not exist/);
    expect(doctor.stdout).toMatch(/loop1\s+unreadable: a link to loop2, which leads round in a loop/);
    expect(doctor.exitCode).toBe(1);
  });

  it('follows a link out of the project, counts a skill reached twice once, and --write warns of the outside location', async () => {
    const outside = fresh('outside');
    writeTree(outside, skill('far'));
    const p = project({
      ...under('skills', skill('foo')),
      '.claude/skills/foo': { symlink: '../../skills/foo' },
    });
    symlinkSync(join(outside, 'far'), join(p.cwd, '.claude/skills/far'));
    const list = await p.run(['list', '--no-registry', '--json']);
    expect(list.exitCode, list.stderr).toBe(0);
    // foo through .claude/skills and again as ./skills/foo: one row, the first folder's.
    expect(JSON.parse(list.stdout).skills.map((s: { id: string; path: string }) => [s.id, s.path])).toEqual([
      ['far', join(p.cwd, '.claude/skills/far')],
      ['foo', join(p.cwd, '.claude/skills/foo')],
    ]);
    expect(list.stderr).toBe('');
    const write = await p.run(['render-prompt', '--write', 'AGENTS.md']);
    expect(write.exitCode, write.stderr).toBe(0);
    expect(write.stderr).toContain('far: ');
    expect(write.stderr).toContain('is outside the folder of AGENTS.md');
  });

  it('validate names the links a folder holds instead of following them', async () => {
    const p = project({ ...under('src', skill('foo')), '.claude/skills/foo': { symlink: '../../src/foo' } });
    const r = await p.run(['validate', '.claude/skills']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(
      '.claude/skills is not a skill and holds none (no SKILL.md or manifest.json below it): foo is a link to a skill folder, which is not followed here',
    );
    expect(r.stderr).toContain('hint: give the folder a link leads to (.claude/skills/foo -> ../../src/foo)');
    expect((await p.run(['validate', 'src/foo'])).exitCode).toBe(0);
    expect((await p.run(['validate', '.claude/skills/foo'])).exitCode).toBe(0);
  });

  it('validate and lint warn of each linked skill folder left out beside real skills, and checking the link itself works', async () => {
    const p = project({
      'bad-skill/SKILL.md': '---\nname: bad-skill\ndescription: x\nmetadata: [1]\n---\n',
      ...under('.claude/skills', skill('real')),
      '.claude/skills/bad-skill': { symlink: '../../bad-skill' },
    });
    const warning = `warning: ${join(p.cwd, '.claude/skills/bad-skill')}: a link to the skill folder ../../bad-skill, not checked: a search does not follow links; name the link itself to check it`;
    for (const command of ['validate', 'lint']) {
      const r = await p.run([command, '.claude/skills']);
      // A warning, as a search cut short is: the skill is checked where it lives.
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr.trim()).toBe(warning);
      expect(r.stdout).toContain('1 skill valid');
      const json = await p.run([command, '.claude/skills', '--json']);
      expect(json.exitCode, json.stderr).toBe(0);
      expect(JSON.parse(json.stdout).unread).toEqual([
        { path: join(p.cwd, '.claude/skills/bad-skill'), message: expect.stringContaining('name the link itself') },
      ]);
    }
    const named = await p.run(['validate', '.claude/skills/bad-skill']);
    expect(named.exitCode).toBe(1);
    expect(named.stdout).toContain('metadata must be a mapping');
  });
});

describe('--config', () => {
  it('reads the file named, by an absolute path or one relative to the working folder', async () => {
    const p = project({ ...under('team/skills', skill('teamwork')), 'team/conf.json': '{"skillDirs": ["skills"]}' });
    mkdirSync(join(p.cwd, 'sub'));
    for (const config of [join(p.cwd, 'team/conf.json'), 'team/conf.json']) {
      const r = await p.run(['render-prompt', '-c', config, '--no-registry', '--tier', 'catalog']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toContain('- teamwork: Does teamwork things.');
    }
    const wrong = await p.run(['render-prompt', '--config', join(p.cwd, 'gone.json')]);
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toContain(`cannot read ${join(p.cwd, 'gone.json')}`);
  });
});

describe('a skills.config.json that is a symlink', () => {
  it("reads its relative skillDirs and ignores from the link's folder, not the target's, as ESLint does", async () => {
    // A shared configuration kept elsewhere and linked into the project: its paths name the project's own folders.
    const shared = fresh('shared');
    writeTree(shared, {
      'skills.config.json': '{"skillDirs": ["skills"], "ignores": ["skills/broken/**"]}',
      ...under('skills', skill('theirs')),
    });
    const p = project({
      ...under('skills', skill('mine')),
      // No description: an error lint reports unless the ignores glob covers it.
      'skills/broken/SKILL.md': '---\nname: broken\n---\n# Broken\n',
      'skills.config.json': { symlink: join(shared, 'skills.config.json') },
    });
    const r = await p.run(['render-prompt', '--no-registry', '--tier', 'catalog']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('- mine: Does mine things.');
    expect(r.stdout).not.toContain('theirs');
    const lint = await p.run(['lint', 'skills']);
    expect(lint.exitCode, lint.stdout + lint.stderr).toBe(0);
  });
});
