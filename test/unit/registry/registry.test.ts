import { afterAll, describe, expect, it } from 'vitest';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { loadSkill } from '../../../src/skill/load.js';
import { readIndex, readReleases } from '../../../src/registry/index-io.js';
import { integrityOf } from '../../../src/registry/integrity.js';
import { registerSkill, registerSkills } from '../../../src/registry/register.js';
import { removeSkill } from '../../../src/registry/remove.js';
import { unuseSkill, useSkill } from '../../../src/registry/usage.js';
import { updateIndex } from '../../../src/registry/update.js';
import { changedSkillRoots } from '../../../src/sync/changed-roots.js';
import { watchTree } from '../../../src/sync/watch.js';
import { locateRegistry } from '../../../src/registry/locate.js';
import { EMPTY_INDEX, parseIndex } from '../../../src/formats/index-file.js';
import { tempFolders } from '../../helpers/cli.js';
import { skillMd, writeTree } from '../../helpers/tree.js';
import { caught } from '../../helpers/errors.js';

const { fresh, cleanup } = tempFolders('skills-registry-');
afterAll(cleanup);

/** A SKILL.md skill folder `<parent>/<name>` with a version and extra files. */
function makeSkill(
  parent: string,
  name: string,
  version: string | undefined,
  files: Record<string, string> = {},
  extra = '',
): string {
  const dir = join(parent, name);
  const meta = version ? `metadata:\n  version: "${version}"\n` : '';
  writeTree(dir, {
    'SKILL.md': skillMd(`name: ${name}\ndescription: Does ${name} things. Use when testing.\n${meta}${extra}`),
    ...files,
  });
  return dir;
}

const T1 = new Date('2024-01-01T00:00:00Z');
const T2 = new Date('2024-01-15T10:00:00Z');

describe('locateRegistry', () => {
  const root = fresh('locate');
  const home = join(root, 'home');
  const project = join(root, 'project');
  const deep = join(project, 'a/b');
  mkdirSync(deep, { recursive: true });
  mkdirSync(home);

  it('takes --registry first, resolved against cwd', () => {
    expect(locateRegistry({ registry: 'reg', cwd: deep, env: { SKILLS_REGISTRY: '/env/reg' }, home })).toBe(
      join(deep, 'reg'),
    );
  });
  it('then SKILLS_REGISTRY (an empty one counts as unset)', () => {
    expect(locateRegistry({ cwd: deep, env: { SKILLS_REGISTRY: '/env/reg' }, home })).toBe('/env/reg');
    expect(locateRegistry({ cwd: deep, env: { SKILLS_REGISTRY: '' }, home })).toBe(join(home, '.skills'));
  });
  it('then the nearest .skills/ folder from cwd upward, else <home>/.skills', () => {
    expect(locateRegistry({ cwd: deep, env: {}, home })).toBe(join(home, '.skills'));
    mkdirSync(join(project, '.skills'));
    expect(locateRegistry({ cwd: deep, env: {}, home })).toBe(join(project, '.skills'));
    mkdirSync(join(project, 'a/.skills'));
    expect(locateRegistry({ cwd: deep, env: {}, home })).toBe(join(project, 'a/.skills'));
    // A file named .skills is not a registry.
    writeFileSync(join(deep, '.skills'), '');
    expect(locateRegistry({ cwd: deep, env: {}, home })).toBe(join(project, 'a/.skills'));
  });
});

describe('integrityOf', () => {
  it('is a sha512 SRI, stable across calls and across copies of the folder', () => {
    const dir = makeSkill(fresh(), 'stable', '1.0.0', { 'references/a.md': '# A\n', 'scripts/run.sh': '#!/bin/sh\n' });
    const a = integrityOf(loadSkill(dir));
    expect(a).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/);
    expect(integrityOf(loadSkill(dir))).toBe(a);
    const copy = join(fresh(), 'stable');
    cpSync(dir, copy, { recursive: true });
    expect(integrityOf(loadSkill(copy))).toBe(a);
    // Running the skill's Python scripts writes __pycache__/ into it: that changes nothing.
    mkdirSync(join(copy, 'scripts', '__pycache__'));
    writeFileSync(join(copy, 'scripts', '__pycache__', 'run.cpython-311.pyc'), 'bytecode');
    expect(integrityOf(loadSkill(copy))).toBe(a);
  });

  it('changes with a byte of content, a file name, or the execute bit', () => {
    const dir = makeSkill(fresh(), 'sensitive', '1.0.0', { 'scripts/run.sh': '#!/bin/sh\necho 1\n' });
    const base = integrityOf(loadSkill(dir));
    writeFileSync(join(dir, 'scripts/run.sh'), '#!/bin/sh\necho 2\n');
    const edited = integrityOf(loadSkill(dir));
    expect(edited).not.toBe(base);
    chmodSync(join(dir, 'scripts/run.sh'), 0o755);
    const exec = integrityOf(loadSkill(dir));
    expect(exec).not.toBe(edited);
    chmodSync(join(dir, 'scripts/run.sh'), 0o644);
    expect(integrityOf(loadSkill(dir))).toBe(edited);
    rmSync(join(dir, 'scripts/run.sh'));
    writeFileSync(join(dir, 'scripts/go.sh'), '#!/bin/sh\necho 2\n');
    expect(integrityOf(loadSkill(dir))).not.toBe(edited);
  });

  it('keeps path and content boundaries apart (file "a" holding "b" is not file "ab" holding "")', () => {
    const one = makeSkill(fresh(), 'bound', '1.0.0', { a: 'b' });
    const two = makeSkill(fresh(), 'bound', '1.0.0', { ab: '' });
    expect(integrityOf(loadSkill(one))).not.toBe(integrityOf(loadSkill(two)));
  });

  it('ignores .env files, .git, node_modules, .DS_Store and symlinks that lead out; .env.example counts', () => {
    const outside = join(fresh(), 'secret.txt');
    writeFileSync(outside, 'secret');
    const dir = makeSkill(fresh(), 'ignoring', '1.0.0', { 'notes.md': 'x' });
    const base = integrityOf(loadSkill(dir));
    writeTree(dir, {
      '.env': 'TOKEN=1',
      '.env.local': 'TOKEN=2',
      '.DS_Store': 'x',
      '.git/HEAD': 'ref',
      'node_modules/m/index.js': '1',
    });
    symlinkSync(outside, join(dir, 'leak.txt'));
    expect(integrityOf(loadSkill(dir))).toBe(base);
    writeFileSync(join(dir, '.env.example'), 'TOKEN=\n');
    expect(integrityOf(loadSkill(dir))).not.toBe(base);
  });
});

describe('registerSkill', () => {
  it('registers two versions of one new skill in one batch as one entry with both versions', async () => {
    const reg = join(fresh(), 'reg');
    const a = makeSkill(fresh(), 'twin', '1.0.0');
    const b = makeSkill(fresh(), 'twin', '1.1.0');
    const other = makeSkill(fresh(), 'solo', '2.0.0');
    const results = await registerSkills(reg, [
      { skill: loadSkill(a) },
      { skill: loadSkill(other) },
      { skill: loadSkill(b) },
    ]);
    expect(results.map((r) => (r instanceof Error ? r.message : `${r.status} ${r.id}@${r.version}`))).toEqual([
      'added twin@1.0.0',
      'added solo@2.0.0',
      'updated twin@1.1.0',
    ]);
    const index = readIndex(reg);
    expect(index.skills.map((e) => [e.id, e.versions, e.latestVersion])).toEqual([
      ['solo', ['2.0.0'], '2.0.0'],
      ['twin', ['1.1.0', '1.0.0'], '1.1.0'],
    ]);
    expect(Object.keys(readReleases(reg, 'twin')).sort()).toEqual(['1.0.0', '1.1.0']);
  });

  it('refuses a skill over the store limits before reading a byte of it (a sparse 300 MiB file)', async () => {
    const reg = join(fresh(), 'reg');
    const dir = makeSkill(fresh(), 'huge', '1.0.0');
    writeFileSync(join(dir, 'data.bin'), '');
    truncateSync(join(dir, 'data.bin'), 300 * 1024 * 1024);
    const err = await caught(registerSkill(reg, loadSkill(dir)));
    expect(err.code).toBe('E_INVALID');
    expect(err.message).toBe(
      `${dir}: its files add up to more than 256 MiB (at data.bin); the registry keeps at most 20000 files and 256 MiB a skill`,
    );
    expect(existsSync(join(reg, 'index.json'))).toBe(false);
  });

  it('adopts a scratch folder: moves it into the store, keeping only what a copy would take', async () => {
    const reg = join(fresh(), 'reg');
    const scratch = join(reg, '.unpack-x');
    const dir = makeSkill(scratch, 'adopted', '1.0.0', {
      'references/a.md': '# A\n',
      '.env': 'SECRET=1\n',
      'node_modules/m/index.js': '1\n',
    });
    const copied = await registerSkill(join(fresh(), 'reg2'), loadSkill(dir));
    const r = await registerSkill(reg, loadSkill(dir), { adopt: true });
    expect(r).toMatchObject({ status: 'added', path: 'built-in/adopted@1.0.0', integrity: copied.integrity });
    expect(existsSync(dir)).toBe(false);
    const stored = join(reg, r.path);
    expect(readdirSync(stored).sort()).toEqual(['SKILL.md', 'references']);
    expect(readFileSync(join(stored, 'references/a.md'), 'utf8')).toBe('# A\n');
  });

  it('adds a new skill: copies it into built-in/<id>@<version> and writes seed 000 fields', async () => {
    const reg = join(fresh(), 'reg');
    const dir = makeSkill(fresh(), 'alpha', '1.0.0', { 'references/a.md': '# A\n', '.env': 'SECRET=1\n' });
    const r = await registerSkill(reg, loadSkill(dir), { now: T1 });
    expect(r).toMatchObject({ status: 'added', id: 'alpha', version: '1.0.0', path: 'built-in/alpha@1.0.0' });
    const index = readIndex(reg);
    expect(index.skills).toEqual([
      {
        id: 'alpha',
        versions: ['1.0.0'],
        latestVersion: '1.0.0',
        owner: 'built-in',
        usedBy: [],
        registeredAt: '2024-01-01T00:00:00Z',
        updatedAt: '2024-01-01T00:00:00Z',
        latest: {
          layout: 'skill-md',
          name: 'alpha',
          description: 'Does alpha things. Use when testing.',
          path: 'built-in/alpha@1.0.0',
        },
      },
    ]);
    expect(readReleases(reg, 'alpha')).toEqual({
      '1.0.0': {
        integrity: r.integrity,
        layout: 'skill-md',
        name: 'alpha',
        description: 'Does alpha things. Use when testing.',
        dependencies: [],
        path: 'built-in/alpha@1.0.0',
        registeredAt: '2024-01-01T00:00:00Z',
      },
    });
    expect(JSON.parse(readFileSync(join(reg, 'releases/alpha.json'), 'utf8'))).toEqual({
      id: 'alpha',
      releases: readReleases(reg, 'alpha'),
    });
    const stored = join(reg, 'built-in/alpha@1.0.0');
    expect(readFileSync(join(stored, 'references/a.md'), 'utf8')).toBe('# A\n');
    expect(existsSync(join(stored, '.env'))).toBe(false);
    expect(integrityOf(loadSkill(stored))).toBe(r.integrity);
    // Nothing but the index, the releases and the store: no staging folder, no temp file, no lock left behind.
    expect(readdirSync(reg).sort()).toEqual(['built-in', 'index.json', 'releases', 'resolve-index']);
    expect(readdirSync(join(reg, 'releases'))).toEqual(['alpha.json']);
    expect(readdirSync(join(reg, 'built-in'))).toEqual(['alpha@1.0.0']);
  });

  it("stores another owner under custom/ (the skill's own owner, or --owner)", async () => {
    const reg = join(fresh(), 'reg');
    const own = makeSkill(fresh(), 'authored', undefined, {}, 'metadata:\n  version: "1.0.0"\n  author: bee-7\n');
    const r1 = await registerSkill(reg, loadSkill(own));
    expect(r1.path).toBe('custom/authored@1.0.0');
    expect(readIndex(reg).skills[0]!.owner).toBe('bee-7');
    const other = makeSkill(fresh(), 'given', '2.0.0');
    const r2 = await registerSkill(reg, loadSkill(other), { owner: 'analytics-bee' });
    expect(r2.path).toBe('custom/given@2.0.0');
    expect(readIndex(reg).skills.find((s) => s.id === 'given')!.owner).toBe('analytics-bee');
  });

  it('adds versions newest first, keeps registeredAt and moves updatedAt; the same content is unchanged', async () => {
    const reg = join(fresh(), 'reg');
    const parent = fresh();
    const dir = makeSkill(parent, 'beta', '1.0.0');
    await registerSkill(reg, loadSkill(dir), { now: T1 });
    for (const v of ['1.10.0', '1.2.0']) {
      rmSync(dir, { recursive: true });
      makeSkill(parent, 'beta', v, { 'CHANGELOG.md': v });
      expect((await registerSkill(reg, loadSkill(dir), { now: T2 })).status).toBe('updated');
    }
    const entry = readIndex(reg).skills[0]!;
    expect(entry.versions).toEqual(['1.10.0', '1.2.0', '1.0.0']);
    expect(entry.latestVersion).toBe('1.10.0');
    expect(entry.registeredAt).toBe('2024-01-01T00:00:00Z');
    expect(entry.updatedAt).toBe('2024-01-15T10:00:00Z');
    expect(Object.keys(readReleases(reg, 'beta'))).toEqual(['1.10.0', '1.2.0', '1.0.0']);
    expect(entry.latest.path).toBe('built-in/beta@1.10.0');
    expect(readdirSync(join(reg, 'built-in')).sort()).toEqual(['beta@1.0.0', 'beta@1.10.0', 'beta@1.2.0']);

    const before = readFileSync(join(reg, 'index.json'), 'utf8');
    const again = await registerSkill(reg, loadSkill(dir), { now: new Date('2030-01-01T00:00:00Z') });
    expect(again).toMatchObject({ status: 'unchanged', version: '1.2.0', path: 'built-in/beta@1.2.0' });
    expect(readFileSync(join(reg, 'index.json'), 'utf8')).toBe(before);
  });

  it('refuses the same version with different content (E_EXISTS), and replaces it with force', async () => {
    const reg = join(fresh(), 'reg');
    const dir = makeSkill(fresh(), 'gamma', '1.0.0', { 'notes.md': 'one' });
    const first = await registerSkill(reg, loadSkill(dir), { now: T1 });
    writeFileSync(join(dir, 'notes.md'), 'two');
    const indexBefore = readFileSync(join(reg, 'index.json'), 'utf8');
    const err = await caught(registerSkill(reg, loadSkill(dir)));
    expect(err.code).toBe('E_EXISTS');
    expect(err.message).toMatch(/^gamma@1\.0\.0 is already registered with different content/);
    expect(err.hint).toMatch(/--force/);
    expect(readFileSync(join(reg, 'index.json'), 'utf8')).toBe(indexBefore);
    expect(readFileSync(join(reg, 'built-in/gamma@1.0.0/notes.md'), 'utf8')).toBe('one');

    const forced = await registerSkill(reg, loadSkill(dir), { force: true, now: T2 });
    expect(forced.status).toBe('replaced');
    expect(forced.integrity).not.toBe(first.integrity);
    expect(readFileSync(join(reg, 'built-in/gamma@1.0.0/notes.md'), 'utf8')).toBe('two');
    const entry = readIndex(reg).skills[0]!;
    expect(entry.versions).toEqual(['1.0.0']);
    expect(readReleases(reg, 'gamma')['1.0.0']!.integrity).toBe(forced.integrity);
    expect(entry.updatedAt).toBe('2024-01-15T10:00:00Z');
    expect(readdirSync(join(reg, 'built-in'))).toEqual(['gamma@1.0.0']);
  });

  it('keeps a skill without a version as 0.0.0 and replaces it when its content changes (no version to bump)', async () => {
    const reg = join(fresh(), 'reg');
    const dir = makeSkill(fresh(), 'unversioned', undefined, { 'notes.md': 'one\n' });
    expect(await registerSkill(reg, loadSkill(dir))).toMatchObject({
      status: 'added',
      version: '0.0.0',
      path: 'built-in/unversioned@0.0.0',
    });
    writeFileSync(join(dir, 'notes.md'), 'two\n');
    expect(await registerSkill(reg, loadSkill(dir))).toMatchObject({ status: 'replaced', version: '0.0.0' });
    expect(readFileSync(join(reg, 'built-in/unversioned@0.0.0/notes.md'), 'utf8')).toBe('two\n');
    // A version that is there but not MAJOR.MINOR.PATCH is kept as the one it plainly means, or else refused.
    const loose = makeSkill(fresh(), 'loose', 'v1');
    expect(await registerSkill(reg, loadSkill(loose))).toMatchObject({ status: 'added', version: '1.0.0' });
    for (const version of ['1.0.01', 'beta', '1.2.3.4']) {
      const odd = makeSkill(fresh(), 'odd', version);
      const err = await caught(registerSkill(reg, loadSkill(odd)));
      expect(err.code).toBe('E_INVALID');
      expect(err.message).toBe(
        `odd: version "${version}" is not a semantic version: expected MAJOR.MINOR.PATCH, e.g. "1.0.0"`,
      );
    }
  });

  it('records triggers, dependencies, nodeVersion and systemPackages of a manifest skill', async () => {
    const reg = join(fresh(), 'reg');
    const dir = join(fresh(), 'mani');
    writeTree(dir, {
      'manifest.json': JSON.stringify({
        id: 'mani',
        name: 'Mani',
        version: '3.0.0',
        description: 'd',
        owner: 'built-in',
        dependencies: ['alpha@^1.0.0'],
        nodeVersion: '>=20',
        systemPackages: ['ffmpeg'],
        triggers: { keywords: ['k'] },
      }),
    });
    await registerSkill(reg, loadSkill(dir));
    expect(readReleases(reg, 'mani')['3.0.0']).toMatchObject({
      layout: 'manifest',
      dependencies: ['alpha@^1.0.0'],
      nodeVersion: '>=20',
      systemPackages: ['ffmpeg'],
      triggers: { keywords: ['k'] },
    });
  });

  it("cleans up staging folders of killed writers on the next write, and keeps a live writer's", async () => {
    const reg = join(fresh(), 'reg');
    mkdirSync(join(reg, 'built-in/.staging-x@1.0.0.999999999.abcd1234'), { recursive: true });
    mkdirSync(join(reg, `built-in/.staging-y@1.0.0.${process.ppid}.abcd1234`), { recursive: true });
    await registerSkill(reg, loadSkill(makeSkill(fresh(), 'delta', '1.0.0')));
    expect(readdirSync(join(reg, 'built-in')).sort()).toEqual([
      `.staging-y@1.0.0.${process.ppid}.abcd1234`,
      'delta@1.0.0',
    ]);
  });
});

describe('removeSkill, useSkill, unuseSkill', () => {
  async function registry(): Promise<{ reg: string; dir: string }> {
    const reg = join(fresh(), 'reg');
    const parent = fresh();
    const dir = makeSkill(parent, 'epsilon', '1.0.0');
    await registerSkill(reg, loadSkill(dir));
    rmSync(dir, { recursive: true });
    makeSkill(parent, 'epsilon', '2.0.0');
    await registerSkill(reg, loadSkill(dir));
    return { reg, dir };
  }

  it('keeps usedBy sorted and without duplicates', async () => {
    const { reg } = await registry();
    await useSkill(reg, 'epsilon', 'zeta-bee');
    await useSkill(reg, 'epsilon', 'alpha-bee');
    const again = await useSkill(reg, 'epsilon', 'zeta-bee');
    expect(again).toEqual({ id: 'epsilon', usedBy: ['alpha-bee', 'zeta-bee'], changed: false });
    expect(readIndex(reg).skills[0]!.usedBy).toEqual(['alpha-bee', 'zeta-bee']);
    expect(await unuseSkill(reg, 'epsilon', 'alpha-bee')).toEqual({
      id: 'epsilon',
      usedBy: ['zeta-bee'],
      changed: true,
    });
    expect((await unuseSkill(reg, 'epsilon', 'nobody')).changed).toBe(false);
    expect((await caught(useSkill(reg, 'epsilon', ' '))).code).toBe('E_USAGE');
  });

  it('refuses to remove while usedBy is not empty, naming the consumers; force removes', async () => {
    const { reg } = await registry();
    await useSkill(reg, 'epsilon', 'content-creator');
    await useSkill(reg, 'epsilon', 'manager-bee');
    const err = await caught(removeSkill(reg, 'epsilon'));
    expect(err.message).toBe('epsilon is used by content-creator, manager-bee; nothing was removed');
    expect(err.hint).toMatch(/skills registry unuse epsilon --for/);
    expect(readdirSync(join(reg, 'built-in')).sort()).toEqual(['epsilon@1.0.0', 'epsilon@2.0.0']);
    const r = await removeSkill(reg, 'epsilon', '2.0.0', { force: true });
    expect(r).toEqual({ id: 'epsilon', removed: ['2.0.0'], remaining: ['1.0.0'], paths: ['built-in/epsilon@2.0.0'] });
    const entry = readIndex(reg).skills[0]!;
    expect(entry).toMatchObject({ versions: ['1.0.0'], latestVersion: '1.0.0' });
    expect(Object.keys(readReleases(reg, 'epsilon'))).toEqual(['1.0.0']);
    expect(entry.latest.path).toBe('built-in/epsilon@1.0.0');
    expect(readdirSync(join(reg, 'built-in'))).toEqual(['epsilon@1.0.0']);
  });

  it('removes every version and the entry; unknown ids and versions are E_NOT_FOUND with help', async () => {
    const { reg } = await registry();
    const typo = await caught(removeSkill(reg, 'epsilom'));
    expect(typo.code).toBe('E_NOT_FOUND');
    expect(typo.message).toBe('no skill "epsilom" in the registry; did you mean "epsilon"?');
    const version = await caught(removeSkill(reg, 'epsilon', '9.9.9'));
    expect(version.message).toBe('epsilon@9.9.9 is not registered; registered versions: 2.0.0, 1.0.0');
    expect((await removeSkill(reg, 'epsilon')).removed).toEqual(['2.0.0', '1.0.0']);
    expect(readIndex(reg).skills).toEqual([]);
    expect(readdirSync(join(reg, 'built-in'))).toEqual([]);
    expect(readdirSync(join(reg, 'releases'))).toEqual([]);
    expect((await caught(useSkill(reg, 'epsilon', 'x'))).code).toBe('E_NOT_FOUND');
  });
});

describe('the index file', () => {
  it('reads as the empty index when there is none, without creating the registry', () => {
    const reg = join(fresh(), 'none');
    expect(readIndex(reg)).toEqual(EMPTY_INDEX);
    expect(existsSync(reg)).toBe(false);
  });

  it('reports a corrupt index with file:line:column and never writes over it', async () => {
    const reg = join(fresh(), 'reg');
    await registerSkill(reg, loadSkill(makeSkill(fresh(), 'eta', '1.0.0')));
    const file = join(reg, 'index.json');
    const corrupt = '{\n  "version": 1,\n  "skills": [\n    { "id": "eta", }\n  ]\n}\n';
    writeFileSync(file, corrupt);
    const err = await caught(() => readIndex(reg));
    expect(err.code).toBe('E_CONFIG');
    expect(err.message).toMatch(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4:20: index.json is not valid JSON`),
    );
    expect(err.hint).toMatch(/nothing was overwritten/);
    for (const attempt of [
      () => registerSkill(reg, loadSkill(makeSkill(fresh(), 'theta', '1.0.0'))),
      () => useSkill(reg, 'eta', 'x'),
      () => removeSkill(reg, 'eta', undefined, { force: true }),
      () => updateIndex(reg, (i) => i),
    ]) {
      expect((await caught(attempt)).code).toBe('E_CONFIG');
      expect(readFileSync(file, 'utf8')).toBe(corrupt);
    }
    expect(readdirSync(join(reg, 'built-in'))).toEqual(['eta@1.0.0']);
  });

  it('names index.json.bak in the hint only when there is one that reads as an index', async () => {
    const reg = join(fresh(), 'reg');
    const file = join(reg, 'index.json');
    const backup = join(reg, 'index.json.bak');
    const hintOf = async () => (await caught(() => readIndex(reg))).hint ?? '';
    // One write keeps no backup: the hint says how to start over, not to restore a file that is not there.
    await registerSkill(reg, loadSkill(makeSkill(fresh(), 'eta', '1.0.0')));
    expect(existsSync(backup)).toBe(false);
    writeFileSync(file, '{ broken');
    let hint = await hintOf();
    expect(hint).not.toContain('restore the last good index');
    expect(hint).toContain(`move it aside (mv ${file} ${file}.broken) and register the skills again`);
    expect(hint).toContain('there is no index.json.bak to restore');
    // A second write keeps the first index as the backup: restoring it is the hint.
    rmSync(file);
    await registerSkill(reg, loadSkill(makeSkill(fresh(), 'eta', '1.0.0')));
    await registerSkill(reg, loadSkill(makeSkill(fresh(), 'theta', '1.0.0')));
    expect(existsSync(backup)).toBe(true);
    writeFileSync(file, '{ broken');
    hint = await hintOf();
    expect(hint).toContain(`restore the last good index kept in ${backup} (cp index.json.bak index.json)`);
    expect(hint).not.toContain('move it aside');
    // A backup that is broken too is no way back.
    writeFileSync(backup, '{ also broken');
    hint = await hintOf();
    expect(hint).not.toContain('restore the last good index');
    expect(hint).toContain(`${backup} is no index either`);
  });

  it('locates a well-formed index of the wrong shape too', () => {
    const reg = fresh('shape');
    writeFileSync(join(reg, 'index.json'), '{\n  "version": 1,\n  "skills": [\n    { "id": 7 }\n  ]\n}\n');
    expect(
      (() => {
        try {
          readIndex(reg);
        } catch (err) {
          return (err as Error).message;
        }
      })(),
    ).toMatch(/index\.json:4:13: index\.json: skills\.0\.id: Expected string/);
  });

  it('keeps one backup: the last good index before each write', async () => {
    const reg = join(fresh(), 'reg');
    await registerSkill(reg, loadSkill(makeSkill(fresh(), 'iota', '1.0.0')));
    expect(existsSync(join(reg, 'index.json.bak'))).toBe(false);
    const first = readFileSync(join(reg, 'index.json'), 'utf8');
    await useSkill(reg, 'iota', 'a-bee');
    expect(readFileSync(join(reg, 'index.json.bak'), 'utf8')).toBe(first);
    const second = readFileSync(join(reg, 'index.json'), 'utf8');
    await useSkill(reg, 'iota', 'b-bee');
    expect(readFileSync(join(reg, 'index.json.bak'), 'utf8')).toBe(second);
    expect(parseIndex(readFileSync(join(reg, 'index.json'), 'utf8')).index!.skills[0]!.usedBy).toEqual([
      'a-bee',
      'b-bee',
    ]);
    expect(readdirSync(reg).sort()).toEqual(['built-in', 'index.json', 'index.json.bak', 'releases', 'resolve-index']);
  });

  it('reads a version 1 index (releases inside the entries) and writes version 2 on the next write', async () => {
    const reg = fresh('v1');
    const release = (v: string) => ({
      integrity: `sha512-${v}`,
      layout: 'manifest',
      name: 'Old',
      description: `old ${v}`,
      dependencies: ['other@^1'],
      nodeVersion: '>=18',
      path: `built-in/old@${v}`,
      registeredAt: '2024-01-01T00:00:00Z',
    });
    const entry = {
      id: 'old',
      versions: ['2.0.0', '1.0.0'],
      latestVersion: '2.0.0',
      owner: 'built-in',
      usedBy: [],
      registeredAt: '2024-01-01T00:00:00Z',
      updatedAt: '2024-01-02T00:00:00Z',
    };
    const v1 = `${JSON.stringify({ version: 1, skills: [{ ...entry, releases: { '2.0.0': release('2.0.0'), '1.0.0': release('1.0.0') } }] }, null, 2)}\n`;
    writeFileSync(join(reg, 'index.json'), v1);
    expect(readIndex(reg)).toEqual({
      version: 2,
      skills: [
        { ...entry, latest: { layout: 'manifest', name: 'Old', description: 'old 2.0.0', path: 'built-in/old@2.0.0' } },
      ],
    });
    expect(readReleases(reg, 'old')).toEqual({ '2.0.0': release('2.0.0'), '1.0.0': release('1.0.0') });
    expect(existsSync(join(reg, 'releases'))).toBe(false);

    await useSkill(reg, 'old', 'bee');
    const written = JSON.parse(readFileSync(join(reg, 'index.json'), 'utf8'));
    expect(written.version).toBe(2);
    expect(written.skills[0]).toEqual({
      ...entry,
      usedBy: ['bee'],
      latest: { layout: 'manifest', name: 'Old', description: 'old 2.0.0', path: 'built-in/old@2.0.0' },
    });
    expect(readFileSync(join(reg, 'index.json.bak'), 'utf8')).toBe(v1);
    expect(JSON.parse(readFileSync(join(reg, 'releases/old.json'), 'utf8'))).toEqual({
      id: 'old',
      releases: { '2.0.0': release('2.0.0'), '1.0.0': release('1.0.0') },
    });
    expect(readReleases(reg, 'old')['1.0.0']).toEqual(release('1.0.0'));
  });

  it('reports a corrupt releases file with file:line:column, and a missing one', async () => {
    const reg = join(fresh(), 'reg');
    await registerSkill(reg, loadSkill(makeSkill(fresh(), 'theta', '1.0.0')));
    const file = join(reg, 'releases/theta.json');
    const esc = (p: string) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    writeFileSync(file, '{\n  "id": "theta",\n  "releases": {\n    "1.0.0": { "integrity": 7, }\n  }\n}\n');
    const bad = await caught(() => readReleases(reg, 'theta'));
    expect(bad.code).toBe('E_CONFIG');
    expect(bad.message).toMatch(new RegExp(`^${esc(file)}:4:32: releases/theta\\.json is not valid JSON`));
    writeFileSync(file, '{\n  "id": "theta",\n  "releases": {\n    "1.0.0": { "integrity": 7 }\n  }\n}\n');
    expect((await caught(() => readReleases(reg, 'theta'))).message).toMatch(
      new RegExp(`^${esc(file)}:4:29: releases/theta\\.json: releases\\.1\\.0\\.0\\.integrity: Expected string`),
    );
    rmSync(file);
    const missing = await caught(() => readReleases(reg, 'theta'));
    expect(missing.code).toBe('E_CONFIG');
    expect(missing.message).toBe(`${file}: missing: the index lists theta but its releases file is gone`);
  });

  it('ignores releases the index does not list (a crash before index.json was written) and prunes them on the next write', async () => {
    const reg = join(fresh(), 'reg');
    const parent = fresh();
    const dir = makeSkill(parent, 'omicron', '1.0.0');
    await registerSkill(reg, loadSkill(dir));
    const file = join(reg, 'releases/omicron.json');
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    doc.releases['9.0.0'] = { ...doc.releases['1.0.0'], path: 'built-in/omicron@9.0.0' };
    writeFileSync(file, JSON.stringify(doc));
    rmSync(dir, { recursive: true });
    makeSkill(parent, 'omicron', '2.0.0');
    expect((await registerSkill(reg, loadSkill(dir))).status).toBe('updated');
    expect(Object.keys(readReleases(reg, 'omicron'))).toEqual(['2.0.0', '1.0.0']);
    expect(readIndex(reg).skills[0]).toMatchObject({
      versions: ['2.0.0', '1.0.0'],
      latest: { path: 'built-in/omicron@2.0.0' },
    });
  });

  it('serializes writers in one process too (no lost update)', async () => {
    const reg = join(fresh(), 'reg');
    await registerSkill(reg, loadSkill(makeSkill(fresh(), 'kappa', '1.0.0')));
    await Promise.all(Array.from({ length: 10 }, (_, i) => useSkill(reg, 'kappa', `bee-${i}`)));
    expect(readIndex(reg).skills[0]!.usedBy).toHaveLength(10);
  });
});

describe('watching', () => {
  it('changedSkillRoots maps changed paths to the skills that hold them, and new folders to the skills below', async () => {
    const root = fresh('watch');
    const a = makeSkill(root, 'lambda', '1.0.0', { 'references/r.md': 'x' });
    const b = makeSkill(join(root, 'group'), 'mu', '1.0.0');
    const reg = join(root, '.skills');
    makeSkill(join(reg, 'built-in'), 'stored', '1.0.0');
    expect(await changedSkillRoots(root, [join(a, 'references/r.md'), join(a, 'gone.md')])).toEqual([a]);
    expect(await changedSkillRoots(root, [join(root, 'group')])).toEqual([b]);
    expect(await changedSkillRoots(root, [join(reg, 'built-in/stored/SKILL.md')], reg)).toEqual([]);
    expect(await changedSkillRoots(root, [join(root, 'nothing-here')])).toEqual([]);
  });

  for (const recursive of [true, false]) {
    it(`reports a skill created in a new folder, debounced (${recursive ? 'recursive fs.watch' : 'one watcher per folder'})`, async () => {
      const root = fresh('watch');
      const stop = new AbortController();
      const batches: string[][] = [];
      const done = watchTree(
        root,
        async (paths) => {
          batches.push(paths);
          const roots = await changedSkillRoots(root, paths);
          if (roots.length > 0) stop.abort();
        },
        { signal: stop.signal, debounceMs: 100, recursive },
      );
      await new Promise((r) => setTimeout(r, 100));
      makeSkill(join(root, 'deep/er'), 'nu', '1.0.0', { 'a.md': 'a', 'b.md': 'b' });
      const timeout = setTimeout(() => stop.abort(), 5000);
      await done;
      clearTimeout(timeout);
      expect(await changedSkillRoots(root, batches.flat())).toEqual([join(root, 'deep/er/nu')]);
      // Debounced: the burst of writes arrived in few calls, not one per file.
      expect(batches.length).toBeLessThanOrEqual(2);
    });
  }

  // /proc shows each inotify watch of the process; the count is what a large tree costs against the user's limit.
  const inotifyWatches = () => {
    let n = 0;
    for (const fd of readdirSync('/proc/self/fdinfo')) {
      try {
        n += (readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8').match(/^inotify /gm) ?? []).length;
      } catch {
        /* closed meanwhile */
      }
    }
    return n;
  };
  it.runIf(process.platform === 'linux')(
    'by default watches one inotify watch per folder, none in node_modules or .git (Node 20 emulated recursive: one per file)',
    async () => {
      const root = fresh('watch-count');
      for (let i = 0; i < 20; i++) {
        makeSkill(root, `s${i}`, '1.0.0', {
          'references/r.md': 'r',
          ...Object.fromEntries(Array.from({ length: 10 }, (_, j) => [`node_modules/x/f${j}.js`, 'x'])),
        });
      }
      mkdirSync(join(root, '.git/objects'), { recursive: true });
      const before = inotifyWatches();
      const stop = new AbortController();
      const done = watchTree(root, async () => {}, { signal: stop.signal });
      // The root, 20 skill folders and their references/ folders: 41. Not their files, node_modules or .git.
      expect(inotifyWatches() - before).toBe(41);
      stop.abort();
      await done;
      expect(inotifyWatches()).toBe(before);
    },
  );

  it('by default is watching when watchTree returns: a skill written at once after it is seen', async () => {
    const root = fresh('watch-at-once');
    makeSkill(root, 'already', '1.0.0');
    const stop = new AbortController();
    const found: string[] = [];
    const done = watchTree(
      root,
      async (paths) => {
        found.push(...(await changedSkillRoots(root, paths)));
        if (found.length > 0) stop.abort();
      },
      { signal: stop.signal, debounceMs: 50 },
    );
    // No pause: sync --watch says "watching" as watchTree returns, and a user may write the next moment.
    makeSkill(join(root, 'agents'), 'quick', '1.0.0');
    const timeout = setTimeout(() => stop.abort(), 3000);
    await done;
    clearTimeout(timeout);
    expect(found).toEqual([join(root, 'agents/quick')]);
  });

  it('by default (per-folder watchers on Linux) sees a skill written slowly into new folders, each step after the debounce', async () => {
    const root = fresh('watch-slow');
    const stop = new AbortController();
    const found: string[] = [];
    let calls = 0;
    const done = watchTree(
      root,
      async (paths) => {
        calls++;
        found.push(...(await changedSkillRoots(root, paths)));
        if (found.length > 0) stop.abort();
      },
      { signal: stop.signal, debounceMs: 50 },
    );
    const pause = () => new Promise((r) => setTimeout(r, 250));
    await pause();
    mkdirSync(join(root, 'agents'));
    await pause();
    mkdirSync(join(root, 'agents/slow/scripts'), { recursive: true });
    await pause();
    // Each step above ran its own rescan and found no skill; only this write makes one.
    expect(found).toEqual([]);
    writeFileSync(join(root, 'agents/slow/scripts/run.sh'), '#!/bin/sh\n');
    await pause();
    writeFileSync(
      join(root, 'agents/slow/SKILL.md'),
      skillMd('name: slow\ndescription: Written slowly. Use when testing.'),
    );
    const timeout = setTimeout(() => stop.abort(), 5000);
    await done;
    clearTimeout(timeout);
    expect(found).toEqual([join(root, 'agents/slow')]);
    expect(calls).toBeGreaterThanOrEqual(3);
  });
});
