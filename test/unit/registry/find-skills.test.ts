import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import {
  findSkillById,
  findSkillsEverywhere,
  registrySkills,
  skillFoldersFor,
} from '../../../src/registry/find-skills.js';
import { listSkills } from '../../../src/registry/list.js';
import { registerSkill } from '../../../src/registry/register.js';
import { loadSkill } from '../../../src/skill/load.js';
import { tempFolders } from '../../helpers/cli.js';
import { skillMd, writeTree } from '../../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-find-');
afterAll(cleanup);

function makeSkill(
  parent: string,
  name: string,
  version?: string,
  description = `Does ${name} things. Use when testing.`,
): string {
  const meta = version ? `metadata:\n  version: "${version}"\n` : '';
  writeTree(join(parent, name), { 'SKILL.md': skillMd(`name: ${name}\ndescription: ${description}\n${meta}`) });
  return join(parent, name);
}

/** A project with .claude/skills, a home with .agents/skills, and a registry; `shared` is in all three. */
async function world() {
  const root = fresh('world');
  const cwd = join(root, 'project');
  const home = join(root, 'home');
  const registry = join(root, 'reg');
  makeSkill(join(cwd, '.claude/skills'), 'shared', '2.0.0');
  makeSkill(join(cwd, '.claude/skills'), 'local');
  makeSkill(join(home, '.agents/skills'), 'shared', '1.0.0');
  await registerSkill(registry, loadSkill(makeSkill(join(root, 'src'), 'shared', '3.0.0')));
  await registerSkill(registry, loadSkill(makeSkill(join(root, 'src'), 'stored', '1.0.0')));
  return { cwd, home, registry, env: {} };
}

describe('registrySkills', () => {
  it('gives each index entry with its latest stored copy, from index.json alone', async () => {
    const { registry } = await world();
    expect(registrySkills(registry).map((s) => [s.entry.id, s.entry.latestVersion, s.root])).toEqual([
      ['shared', '3.0.0', join(registry, 'built-in/shared@3.0.0')],
      ['stored', '1.0.0', join(registry, 'built-in/stored@1.0.0')],
    ]);
    expect(registrySkills(`${registry}/`)[0]!.root).toBe(join(registry, 'built-in/shared@3.0.0'));
    expect(registrySkills(join(fresh(), 'none'))).toEqual([]);
  });
});

describe('findSkillsEverywhere', () => {
  it('reads the registry and the folders side by side; a user skill is shadowed by the project one', async () => {
    const w = await world();
    const found = findSkillsEverywhere(skillFoldersFor(w), w.registry);
    expect(found.registry.map((s) => s.entry.id)).toEqual(['shared', 'stored']);
    expect(found.skills.map((f) => [f.skill.id, f.scope])).toEqual([
      ['local', 'project'],
      ['shared', 'project'],
    ]);
    expect(found.shadowed.map((s) => [s.id, s.scope, s.byScope])).toEqual([['shared', 'user', 'project']]);
    expect(findSkillsEverywhere([], undefined).registry).toEqual([]);
  });

  it('folders given replace the defaults', async () => {
    const w = await world();
    const folders = skillFoldersFor({ ...w, given: [join(w.home, '.agents/skills')] });
    expect(findSkillsEverywhere(folders, undefined).skills.map((f) => [f.skill.id, f.skill.version, f.scope])).toEqual([
      ['shared', '1.0.0', 'user'],
    ]);
  });
});

describe('findSkillById', () => {
  it('looks in the folders first, or the registry first when asked; id@version only in the registry', async () => {
    const w = await world();
    const opts = { folders: () => skillFoldersFor(w), registry: w.registry };
    expect(findSkillById('shared', undefined, opts)).toMatchObject({ source: 'project', skill: { version: '2.0.0' } });
    expect(findSkillById('shared', undefined, { ...opts, registryFirst: true })).toMatchObject({
      source: 'registry',
      skill: { version: '3.0.0' },
    });
    expect(findSkillById('shared', '3.0.0', opts)).toMatchObject({ source: 'registry' });
    expect(findSkillById('stored', undefined, opts)).toMatchObject({ source: 'registry' });
    expect(findSkillById('nothing', undefined, opts)).toBeUndefined();
    expect(() => findSkillById('shared', '9.9.9', { ...opts, versionHint: 'try the latest' })).toThrow(
      /shared@9\.9\.9 is not in the registry .*; its versions: 3\.0\.0/,
    );
  });

  it('does not ask for the folders when the registry answers first', async () => {
    const w = await world();
    let asked = 0;
    findSkillById('stored', undefined, {
      folders: () => (asked++, skillFoldersFor(w)),
      registry: w.registry,
      registryFirst: true,
    });
    expect(asked).toBe(0);
  });
});

describe('listSkills', () => {
  it('lists registry rows before folder rows of the same id, filters by owner and layout, and warns of what is shadowed', async () => {
    const w = await world();
    const r = await listSkills({ ...w });
    expect(r.skills.map((s) => [s.id, s.scope, s.version])).toEqual([
      ['local', 'project', undefined],
      ['shared', 'registry', '3.0.0'],
      ['shared', 'project', '2.0.0'],
      ['stored', 'registry', '1.0.0'],
    ]);
    expect(r.skills.find((s) => s.scope === 'registry')!.path).toBe(join(w.registry, 'built-in/shared@3.0.0'));
    expect(r.shadowed).toEqual([
      { id: 'shared', path: join(w.home, '.agents/skills/shared'), by: join(w.cwd, '.claude/skills/shared') },
    ]);
    expect(r.warnings).toEqual([
      `shared in ${join(w.home, '.agents/skills/shared')} (user) is shadowed by ${join(w.cwd, '.claude/skills/shared')} (project)`,
    ]);
    expect((await listSkills({ ...w, owner: 'built-in' })).skills.map((s) => [s.id, s.scope])).toEqual([
      ['shared', 'registry'],
      ['stored', 'registry'],
    ]);
    expect((await listSkills({ ...w, layout: 'manifest' })).skills).toEqual([]);
    await expect(listSkills({ ...w, layout: 'yaml' })).rejects.toMatchObject({ code: 'E_USAGE' });
  });
});
