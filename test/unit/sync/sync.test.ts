import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { syncSkills, type SyncItem } from '../../../src/sync/sync.js';
import { readIndex } from '../../../src/registry/index-io.js';
import { tempFolders } from '../../helpers/cli.js';
import { skillMd, writeTree } from '../../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-sync-');
afterAll(cleanup);

function makeSkill(parent: string, name: string, version?: string): void {
  const meta = version ? `metadata:\n  version: "${version}"\n` : '';
  writeTree(join(parent, name), {
    'SKILL.md': skillMd(`name: ${name}\ndescription: Does ${name} things. Use when testing.\n${meta}`),
  });
}

describe('syncSkills', () => {
  it('registers each valid skill below the folder, skips an invalid one, and counts them; again, all are unchanged', async () => {
    const cwd = fresh('work');
    makeSkill(join(cwd, 'skills'), 'alpha', '1.0.0');
    makeSkill(join(cwd, 'skills'), 'loose');
    writeTree(join(cwd, 'skills/broken'), { 'SKILL.md': skillMd('name: broken\n') });
    const registry = join(cwd, 'reg');
    const seen: SyncItem[] = [];
    const first = await syncSkills({ dir: 'skills', cwd, registry, onItem: (i) => seen.push(i) });
    expect(first.dir).toBe(join(cwd, 'skills'));
    expect(first.skills.map((i) => [i.id, i.status]).sort()).toEqual([
      ['alpha', 'added'],
      ['broken', 'invalid'],
      ['loose', 'added'],
    ]);
    expect(seen).toEqual(first.skills);
    expect(first.counts).toMatchObject({ added: 2, invalid: 1, refused: 0 });
    expect(first.skills.find((i) => i.id === 'loose')!.warnings![0]).toContain('loose has no version');
    expect(first.skills.find((i) => i.id === 'alpha')!.path).toBe(join(registry, 'built-in/alpha@1.0.0'));
    expect(readIndex(registry).skills.map((s) => s.id)).toEqual(['alpha', 'loose']);
    const again = await syncSkills({ dir: 'skills', cwd, registry });
    expect(again.counts).toMatchObject({ unchanged: 2, invalid: 1 });
  });

  it('reports a refused skill (same version, other content) without stopping the others', async () => {
    const cwd = fresh('work');
    makeSkill(join(cwd, 'skills'), 'alpha', '1.0.0');
    const registry = join(cwd, 'reg');
    await syncSkills({ dir: 'skills', cwd, registry });
    writeTree(join(cwd, 'skills/alpha'), { 'extra.md': 'changed\n' });
    makeSkill(join(cwd, 'skills'), 'beta', '1.0.0');
    const r = await syncSkills({ dir: 'skills', cwd, registry });
    expect(r.skills.map((i) => [i.id, i.status]).sort()).toEqual([
      ['alpha', 'refused'],
      ['beta', 'added'],
    ]);
    expect(r.skills.find((i) => i.id === 'alpha')!.error!.code).toBe('E_EXISTS');
  });

  it('refuses a skill whose version is not MAJOR.MINOR.PATCH (1.0.01) without stopping the others', async () => {
    const cwd = fresh('work');
    makeSkill(join(cwd, 'skills'), 'alpha', '1.0.0');
    makeSkill(join(cwd, 'skills'), 'leading-zero', '1.0.01');
    makeSkill(join(cwd, 'skills'), 'omega', '2.0.0');
    const registry = join(cwd, 'reg');
    const r = await syncSkills({ dir: 'skills', cwd, registry });
    expect(r.skills.map((i) => [i.id, i.status]).sort()).toEqual([
      ['alpha', 'added'],
      ['leading-zero', 'refused'],
      ['omega', 'added'],
    ]);
    const refused = r.skills.find((i) => i.id === 'leading-zero')!;
    expect(refused.error).toMatchObject({ code: 'E_INVALID' });
    expect(refused.error!.message).toContain('version "1.0.01" is not a semantic version');
    expect(refused.error!.hint).toContain(join(cwd, 'skills', 'leading-zero', 'SKILL.md'));
    expect(readIndex(registry).skills.map((s) => s.id)).toEqual(['alpha', 'omega']);
  });

  it('refuses an empty --owner, a missing folder and a file, naming the folder as typed', async () => {
    const cwd = fresh('work');
    writeTree(cwd, { 'file.txt': 'x' });
    const registry = join(cwd, 'reg');
    await expect(syncSkills({ dir: '.', cwd, registry, owner: ' ' })).rejects.toMatchObject({ code: 'E_USAGE' });
    await expect(syncSkills({ dir: 'nope', cwd, registry })).rejects.toMatchObject({
      code: 'E_NOT_FOUND',
      message: 'nope: no such folder',
    });
    await expect(syncSkills({ dir: 'file.txt', cwd, registry })).rejects.toMatchObject({ code: 'E_USAGE' });
  });

  it('an empty folder syncs nothing', async () => {
    const cwd = fresh('work');
    const r = await syncSkills({ dir: '.', cwd, registry: join(cwd, 'reg') });
    expect(r.skills).toEqual([]);
  });
});
