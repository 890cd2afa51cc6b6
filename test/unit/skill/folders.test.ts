import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findSkills, projectChain, skillFolders } from '../../../src/skill/folders.js';
import { tempFolders } from '../../helpers/cli.js';
import { skillMd, writeTree } from '../../helpers/tree.js';

const temp = tempFolders('skills-sources-');
afterAll(() => temp.cleanup());

const skill = (name: string, description = `Does ${name} things. Use when ${name} is asked for.`) =>
  skillMd(`name: ${name}\ndescription: ${description}`);

describe('skillFolders', () => {
  it('lists the project folders, then the user folders, in precedence order', () => {
    const folders = skillFolders({ cwd: '/p', home: '/h', env: {} });
    expect(folders).toEqual([
      { dir: '/p/.agents/skills', scope: 'project' },
      { dir: '/p/.claude/skills', scope: 'project' },
      { dir: '/p/.agent/skills', scope: 'project' },
      { dir: '/p/skills', scope: 'project' },
      { dir: '/h/.agents/skills', scope: 'user' },
      { dir: '/h/.claude/skills', scope: 'user' },
      { dir: '/h/.agent/skills', scope: 'user' },
    ]);
  });

  it('lets SKILLS_DIR replace ./skills (relative to cwd or absolute)', () => {
    expect(skillFolders({ cwd: '/p', home: '/h', env: { SKILLS_DIR: 'my-skills' } }).map((f) => f.dir)).toContain(
      '/p/my-skills',
    );
    const abs = skillFolders({ cwd: '/p', home: '/h', env: { SKILLS_DIR: '/opt/skills' } }).map((f) => f.dir);
    expect(abs).toContain('/opt/skills');
    expect(abs).not.toContain('/p/skills');
  });

  it('uses the folders given, else the configured ones, and scopes a folder below HOME as user', () => {
    expect(
      skillFolders({ cwd: '/p', home: '/h', env: {}, given: ['a', '/h/.agents/skills/x'], configured: ['/c'] }),
    ).toEqual([
      { dir: '/p/a', scope: 'project' },
      { dir: '/h/.agents/skills/x', scope: 'user' },
    ]);
    expect(skillFolders({ cwd: '/p', home: '/h', env: {}, given: [], configured: ['/c', '/c'] })).toEqual([
      { dir: '/c', scope: 'project' },
    ]);
  });
});

describe('projectChain', () => {
  it('runs from the working folder up to the repository root (.git), nearest first', () => {
    const repo = temp.fresh('repo');
    mkdirSync(join(repo, '.git'));
    mkdirSync(join(repo, 'packages/app/src'), { recursive: true });
    expect(projectChain(join(repo, 'packages/app/src'))).toEqual([
      join(repo, 'packages/app/src'),
      join(repo, 'packages/app'),
      join(repo, 'packages'),
      repo,
    ]);
    expect(projectChain(repo)).toEqual([repo]);
  });

  it('stops at the nearest skills lockfile (ours, or the side lock beside another tool’s) before the repository root', () => {
    const repo = temp.fresh('repo');
    mkdirSync(join(repo, '.git'));
    mkdirSync(join(repo, 'a/b'), { recursive: true });
    writeFileSync(join(repo, 'a/skills-lock.json'), '{}');
    expect(projectChain(join(repo, 'a/b'))).toEqual([join(repo, 'a/b'), join(repo, 'a')]);
    mkdirSync(join(repo, 'c/d'), { recursive: true });
    writeFileSync(join(repo, 'c/.skills-lock.json'), '{}');
    expect(projectChain(join(repo, 'c/d'))).toEqual([join(repo, 'c/d'), join(repo, 'c')]);
  });

  it('is the working folder alone outside any repository, and reaches up to a folder asked for above it', () => {
    const top = temp.fresh('plain');
    mkdirSync(join(top, 'x/y'), { recursive: true });
    expect(projectChain(join(top, 'x/y'))).toEqual([join(top, 'x/y')]);
    expect(projectChain(join(top, 'x/y'), top)).toEqual([join(top, 'x/y'), join(top, 'x'), top]);
    // A folder that is not above the working folder changes nothing.
    expect(projectChain(join(top, 'x'), join(top, 'x/y'))).toEqual([join(top, 'x')]);
  });
});

describe('skillFolders in a subfolder of a repository', () => {
  it('reads the project folders of every folder up to the root, nearest first; SKILLS_DIR once', () => {
    const repo = temp.fresh('repo');
    mkdirSync(join(repo, '.git'));
    mkdirSync(join(repo, 'pkg'), { recursive: true });
    const dirs = skillFolders({ cwd: join(repo, 'pkg'), home: '/h', env: {} }).map((f) => f.dir);
    expect(dirs.slice(0, 8)).toEqual([
      ...['.agents/skills', '.claude/skills', '.agent/skills', 'skills'].map((d) => join(repo, 'pkg', d)),
      ...['.agents/skills', '.claude/skills', '.agent/skills', 'skills'].map((d) => join(repo, d)),
    ]);
    const custom = skillFolders({ cwd: join(repo, 'pkg'), home: '/h', env: { SKILLS_DIR: 'mine' } }).map((f) => f.dir);
    expect(custom).toContain(join(repo, 'pkg', 'mine'));
    expect(custom).not.toContain(join(repo, 'mine'));
    expect(custom).not.toContain(join(repo, 'skills'));
    expect(custom).not.toContain(join(repo, 'pkg', 'skills'));
  });

  it('keeps the user folders user scope when the repository is HOME itself (a dotfiles repository)', () => {
    const home = temp.fresh('home');
    mkdirSync(join(home, '.git'));
    mkdirSync(join(home, 'notes'));
    const folders = skillFolders({ cwd: join(home, 'notes'), home, env: {} });
    expect(folders.find((f) => f.dir === join(home, '.claude/skills'))?.scope).toBe('user');
    expect(folders.filter((f) => f.dir === join(home, '.claude/skills'))).toHaveLength(1);
  });
});

describe('findSkills', () => {
  it('keeps the first folder’s skill of a name and reports the later one as shadowed', () => {
    const project = temp.fresh('project');
    const home = temp.fresh('home');
    writeTree(project, {
      '.claude/skills/both/SKILL.md': skill('both'),
      'skills/only-here/SKILL.md': skill('only-here'),
    });
    writeTree(home, { '.agents/skills/both/SKILL.md': skill('both'), '.agents/skills/mine/SKILL.md': skill('mine') });
    const found = findSkills(skillFolders({ cwd: project, home, env: {} }));
    expect(found.skills.map((f) => [f.skill.id, f.scope])).toEqual([
      ['both', 'project'],
      ['only-here', 'project'],
      ['mine', 'user'],
    ]);
    expect(found.shadowed).toEqual([
      {
        id: 'both',
        path: join(home, '.agents/skills/both'),
        scope: 'user',
        by: join(project, '.claude/skills/both'),
        byScope: 'project',
      },
    ]);
  });

  it('gives nothing for a folder that does not exist', () => {
    const dir = temp.fresh('broken');
    writeTree(dir, { 'ok/SKILL.md': skill('ok') });
    const found = findSkills([
      { dir: join(dir, 'missing'), scope: 'project' },
      { dir, scope: 'project' },
    ]);
    expect(found.skills.map((f) => f.skill.id)).toEqual(['ok']);
  });

  it('counts a folder reached twice once', () => {
    const dir = temp.fresh('twice');
    writeTree(dir, { 'a/SKILL.md': skill('a'), link: { symlink: join(dir, 'a') } });
    const found = findSkills([
      { dir: join(dir, 'a'), scope: 'project' },
      { dir: join(dir, 'link'), scope: 'project' },
    ]);
    expect(found.skills).toHaveLength(1);
    expect(found.shadowed).toHaveLength(0);
  });

  it('follows a link that is a skill folder, as agents do, and reports one that leads nowhere as skipped', () => {
    const src = temp.fresh('linked-src');
    writeTree(src, { 'a/SKILL.md': skill('a') });
    const dir = temp.fresh('linked');
    writeTree(dir, { a: { symlink: join(src, 'a') }, gone: { symlink: join(src, 'gone') } });
    const found = findSkills([
      { dir, scope: 'project' },
      { dir: src, scope: 'project' },
    ]);
    expect(found.skills.map((f) => [f.skill.id, f.skill.root, f.folder])).toEqual([['a', join(dir, 'a'), dir]]);
    expect(found.shadowed).toEqual([]);
    expect(found.skipped).toEqual([
      { path: join(dir, 'gone'), message: `a link to ${join(src, 'gone')}, which does not exist` },
    ]);
  });
});
