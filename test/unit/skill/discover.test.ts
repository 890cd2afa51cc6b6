import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, realpathSync } from 'node:fs';
import { join, relative } from 'node:path';
import { discoverSkills, isSkillFolder, relativeBelow, skillRootOf } from '../../../src/skill/discover.js';
import { SkillsError } from '../../../src/errors.js';
import { tempFolders } from '../../helpers/cli.js';
import { skillMd, writeTree } from '../../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-discover-');
afterAll(cleanup);

const md = (name: string) => skillMd(`name: ${name}\ndescription: Does ${name}. Use when testing discovery.`);
const manifest = (id: string) =>
  JSON.stringify({ id, name: id, version: '1.0.0', description: `Does ${id}.`, owner: 'built-in' });
const rel = (dir: string, roots: string[]) => roots.map((r) => r.slice(dir.length + 1) || '.');

describe('discoverSkills', () => {
  it('finds every skill below a folder, of both layouts, each once, and keeps the listings it read', () => {
    const dir = fresh('tree');
    writeTree(dir, {
      'a/SKILL.md': md('a'),
      'group/b/skill.md': md('b'),
      'group/c/manifest.json': manifest('c'),
      // A skill inside a skill is not looked for: the outer folder is the skill.
      'a/nested/SKILL.md': md('nested'),
      'notes/readme.md': '# not a skill\n',
    });
    const d = discoverSkills(['.'], { cwd: dir });
    expect(rel(dir, d.roots).sort()).toEqual(['a', 'group/b', 'group/c']);
    expect(d.outside).toEqual([]);
    expect(
      d.listings
        .get(join(dir, 'a'))
        ?.map((e) => e.name)
        .sort(),
    ).toEqual(['SKILL.md', 'nested']);
    // Given twice, through two paths, a skill is found once.
    expect(
      discoverSkills(['a', join(dir, 'a'), '.'], { cwd: dir }).roots.filter((r) => r === join(dir, 'a')),
    ).toHaveLength(1);
    // A folder that holds skills, given twice (as written or another way), is searched once, not an error.
    expect(rel(dir, discoverSkills(['group', './group/', 'a', 'group'], { cwd: dir }).roots)).toEqual([
      'group/b',
      'group/c',
      'a',
    ]);
  });

  it("passes over another program's manifest.json below a folder, but checks any manifest a skill may have written", () => {
    const dir = fresh('foreign');
    const clusters = JSON.stringify({ version: 1, clusters: [{ cluster_id: 'sinks', prompt: 'sinks.md' }] });
    writeTree(dir, {
      // A build's data file named manifest.json, with a skill below it: walked as a plain folder.
      'plugin/prompts/clusters/manifest.json': clusters,
      'plugin/prompts/clusters/sinks.md': '# Sinks\n',
      'plugin/prompts/clusters/inner/SKILL.md': md('inner'),
      // Manifests a skill's author may have written, each checked as a skill.
      'ok/manifest.json': manifest('ok'),
      'only-id/manifest.json': JSON.stringify({ id: 'only-id', clusters: [] }),
      'empty/manifest.json': '{}',
      'broken/manifest.json': '{ id: "broken" ',
      'named/manifest.json': JSON.stringify({ name: 'Named', description: 'Does one thing.' }),
      'env-only/manifest.json': JSON.stringify({ envVars: ['TOKEN'] }),
      'owned-extension/manifest.json': JSON.stringify({ id: 'owned', owner: 'built-in', manifest_version: 3 }),
      'with-context/manifest.json': clusters,
      'with-context/context/instructions.md': '# Do it\n',
      // Other programs' manifests, met in the real world: passed over like the build's data above.
      'fixtures/manifest.json': '[{"file": "a.sh", "expected": "DETECT"}]',
      'scalar/manifest.json': '"text"',
      'test-data/manifest.json': JSON.stringify({ version: '1.0', description: 'Fixtures', fixtures: [] }),
      'extension/manifest.json': JSON.stringify({ manifest_version: 3, name: 'Filter', description: 'Warns.' }),
      'mcp-bundle/manifest.json': JSON.stringify({ dxt_version: '0.1', name: '@x/mcp', description: 'Tools.' }),
      'obsidian/manifest.json': JSON.stringify({ id: 'plugin', name: 'P', minAppVersion: '1.0.0', description: 'd' }),
      'web-app/manifest.json': JSON.stringify({ name: 'App', short_name: 'App', start_url: '/', description: 'd' }),
    });
    expect(rel(dir, discoverSkills(['.'], { cwd: dir }).roots).sort()).toEqual([
      'broken',
      'empty',
      'env-only',
      'named',
      'ok',
      'only-id',
      'owned-extension',
      'plugin/prompts/clusters/inner',
      'with-context',
    ]);
    // Named themselves, they are checked as the skills they were said to be.
    for (const named of ['fixtures', 'scalar', 'test-data', 'extension', 'mcp-bundle', 'obsidian', 'web-app'])
      expect(discoverSkills([named], { cwd: dir }).roots).toEqual([join(dir, named)]);
    // Named itself, it is checked as the skill it was said to be.
    expect(discoverSkills(['plugin/prompts/clusters'], { cwd: dir }).roots).toEqual([
      join(dir, 'plugin/prompts/clusters'),
    ]);
    expect(discoverSkills(['plugin/prompts'], { cwd: dir }).roots).toEqual([
      join(dir, 'plugin/prompts/clusters/inner'),
    ]);
    // A file beside it belongs to no skill.
    expect(skillRootOf(join(dir, 'plugin/prompts/clusters'))).toBeUndefined();
    const file = discoverSkills(['plugin/prompts/clusters/sinks.md'], { cwd: dir });
    expect(file.roots).toEqual([]);
    expect(file.outside).toEqual([join(dir, 'plugin/prompts/clusters/sinks.md')]);
  });

  it('skips .git, node_modules and what .gitignore names, and stops at the depth asked', () => {
    const dir = fresh('skips');
    writeTree(dir, {
      'kept/SKILL.md': md('kept'),
      '.git/hooks/SKILL.md': md('hooks'),
      'node_modules/pkg/SKILL.md': md('pkg'),
      '.gitignore': 'build/\n',
      'build/out/SKILL.md': md('out'),
      'deep/1/2/SKILL.md': md('two'),
    });
    expect(rel(dir, discoverSkills(['.'], { cwd: dir }).roots).sort()).toEqual(['deep/1/2', 'kept']);
    expect(rel(dir, discoverSkills(['.'], { cwd: dir, maxDepth: 2 }).roots)).toEqual(['kept']);
  });

  it('finds the skills of a collection of collections, 7 folders down, and none below 10', () => {
    const dir = fresh('collections');
    const deep = 'skills/owner--repo/plugins/community/tool/skills/tool-use';
    writeTree(dir, { [`${deep}/SKILL.md`]: md('tool-use'), 'a/b/c/d/e/f/g/h/i/j/k/SKILL.md': md('k') });
    expect(rel(dir, discoverSkills(['.'], { cwd: dir }).roots)).toEqual([deep]);
    expect(rel(dir, discoverSkills(['a/b'], { cwd: dir }).roots)).toEqual(['a/b/c/d/e/f/g/h/i/j/k']);
  });

  it('reads each .gitignore relative to its own folder, above the folder given and below it', () => {
    const dir = fresh('ignores');
    writeTree(dir, {
      '.git/HEAD': 'ref: x\n',
      // Anchored (a slash at the start or in the middle): relative to the repository's root.
      '.gitignore': '/skills/top/\nskills/group/nested/\n',
      'skills/top/SKILL.md': md('top'),
      'skills/kept/SKILL.md': md('kept'),
      'skills/group/.gitignore': '/local/\n',
      'skills/group/local/SKILL.md': md('local'),
      'skills/group/other/local/SKILL.md': md('other-local'),
      'skills/group/nested/s/SKILL.md': md('nested'),
      'skills/group/more/nested/s/SKILL.md': md('more-nested'),
    });
    expect(rel(dir, discoverSkills(['skills'], { cwd: dir }).roots).sort()).toEqual([
      'skills/group/more/nested/s',
      'skills/group/other/local',
      'skills/kept',
    ]);
    expect(rel(dir, discoverSkills(['skills/group'], { cwd: join(dir, 'skills', '..') }).roots).sort()).toEqual([
      'skills/group/more/nested/s',
      'skills/group/other/local',
    ]);
  });

  it('does not follow a symlinked folder below the folder given, but takes a symlink given itself', () => {
    const dir = fresh('links');
    const elsewhere = fresh('elsewhere');
    writeTree(elsewhere, { 'real/SKILL.md': md('real') });
    writeTree(dir, { 'own/SKILL.md': md('own'), linked: { symlink: join(elsewhere, 'real') } });
    const found = discoverSkills(['.'], { cwd: dir });
    expect(rel(dir, found.roots)).toEqual(['own']);
    // Left out, but said, with how to check it; not a problem of the search (links).
    expect(found.notFollowed).toEqual([
      {
        path: join(dir, 'linked'),
        message: `a link to the skill folder ${join(elsewhere, 'real')}, not checked: a search does not follow links; name the link itself to check it`,
      },
    ]);
    expect(found.links).toEqual([]);
    expect(discoverSkills(['.'], { cwd: dir, followLinks: true }).notFollowed).toEqual([]);
    expect(discoverSkills(['linked'], { cwd: dir }).roots).toEqual([join(dir, 'linked')]);
    expect(realpathSync(discoverSkills(['linked'], { cwd: dir }).roots[0]!)).toBe(
      realpathSync(join(elsewhere, 'real')),
    );
  });

  it('takes a file for the skill that holds it, and lists a file of no skill as outside', () => {
    const dir = fresh('files');
    writeTree(dir, { '.git/HEAD': 'ref: x\n', 's/SKILL.md': md('s'), 's/scripts/run.sh': 'echo\n', 'loose.txt': 'x' });
    const d = discoverSkills(['s/scripts/run.sh', 'loose.txt'], { cwd: dir });
    expect(d.roots).toEqual([join(dir, 's')]);
    expect(d.outside).toEqual([join(dir, 'loose.txt')]);
    // A folder inside a skill means that skill too.
    expect(discoverSkills(['s/scripts'], { cwd: dir }).roots).toEqual([join(dir, 's')]);
    expect(skillRootOf(join(dir, 's/scripts'))).toBe(join(dir, 's'));
    expect(skillRootOf(dir)).toBeUndefined();
  });

  it('names a SKILL.md that is a folder, and fails on a path that does not exist', () => {
    const dir = fresh('odd');
    mkdirSync(join(dir, 'broken/SKILL.md'), { recursive: true });
    expect(isSkillFolder(join(dir, 'broken'))).toBe(false);
    let err: unknown;
    try {
      discoverSkills(['broken'], { cwd: dir });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SkillsError);
    expect((err as SkillsError).code).toBe('E_NOT_FOUND');
    expect((err as SkillsError).message).toBe(
      'broken is not a skill and holds none (no SKILL.md or manifest.json below it): broken/SKILL.md is a folder, not a regular file',
    );
    expect((err as SkillsError).hint).toContain('SKILL.md must be a file');
    expect(() => discoverSkills(['missing'], { cwd: dir })).toThrow('missing: no such file or folder');
  });

  it('with followLinks, takes a link that is a skill folder, walks no other link, and records one it cannot follow', () => {
    const dir = fresh('follow');
    const src = fresh('follow-src');
    writeTree(src, { 'a/SKILL.md': md('a'), 'more/b/SKILL.md': md('b') });
    writeTree(dir, {
      'own/SKILL.md': md('own'),
      'deep/x/SKILL.md': md('x'),
      'deep/linked': { symlink: join(src, 'a') },
      a: { symlink: join(src, 'a') },
      more: { symlink: join(src, 'more') },
      gone: { symlink: 'nowhere' },
      loop: { symlink: 'loop' },
      'file.md': { symlink: join(src, 'a/SKILL.md') },
      // Broken links to files, as a copy without their targets holds them: no skill's, so not recorded.
      'CLAUDE.md': { symlink: 'AGENTS.md' },
      '.cursorrules': { symlink: 'nowhere' },
      'deep/rules': { symlink: '../../.agents/rules/mintlify.md' },
    });
    const d = discoverSkills(['.'], { cwd: dir, followLinks: true });
    // The same folder through two links is one skill; a link to a folder of skills is not walked.
    const linked = d.roots.filter((r) => r === join(dir, 'a') || r === join(dir, 'deep/linked'));
    expect(linked).toHaveLength(1);
    expect(
      rel(
        dir,
        d.roots.filter((r) => !linked.includes(r)),
      ).sort(),
    ).toEqual(['deep/x', 'own']);
    expect(d.reals.get(linked[0]!)).toBe(realpathSync(join(src, 'a')));
    expect(d.reals.get(join(dir, 'own'))).toBe(realpathSync(join(dir, 'own')));
    expect(d.listings.get(linked[0]!)?.map((e) => e.name)).toEqual(['SKILL.md']);
    expect([...d.links].sort((x, y) => (x.path < y.path ? -1 : 1))).toEqual([
      { path: join(dir, 'gone'), message: 'a link to nowhere, which does not exist' },
      { path: join(dir, 'loop'), message: 'a link to loop, which leads round in a loop' },
    ]);
    // Without it (validate, lint), links below a folder are passed over, and not reported.
    const plain = discoverSkills(['.'], { cwd: dir });
    expect(rel(dir, plain.roots).sort()).toEqual(['deep/x', 'own']);
    expect(plain.links).toEqual([]);
  });

  it('asks probe before reading a folder, and reads no listing of a folder it takes', () => {
    const dir = fresh('probe');
    writeTree(dir, { 'a/SKILL.md': md('a'), 'b/manifest.json': manifest('b'), 'g/c/SKILL.md': md('c') });
    const asked: [string, string | undefined][] = [];
    const d = discoverSkills(['.'], {
      cwd: dir,
      probe: (p, real) => {
        asked.push([p, real]);
        return p.endsWith('/a');
      },
    });
    expect(rel(dir, d.roots).sort()).toEqual(['a', 'b', 'g/c']);
    expect(asked.map(([p, real]) => [rel(dir, [p])[0], real]).sort()).toEqual(
      ['a', 'b', 'g', 'g/c'].map((p) => [p, join(realpathSync(dir), p)]),
    );
    expect(d.listings.has(join(dir, 'a'))).toBe(false);
    expect(d.listings.has(join(dir, 'b'))).toBe(true);
  });

  it('names the links to skill folders of a folder that holds no skill of its own', () => {
    const dir = fresh('only-links');
    const src = fresh('only-links-src');
    writeTree(src, { 'a/SKILL.md': md('a') });
    writeTree(dir, { a: { symlink: join(src, 'a') } });
    expect(() => discoverSkills(['.'], { cwd: dir })).toThrow(
      '. is not a skill and holds none (no SKILL.md or manifest.json below it): a is a link to a skill folder, which is not followed here',
    );
    expect(discoverSkills(['.'], { cwd: dir, followLinks: true }).roots).toEqual([join(dir, 'a')]);
  });
});

describe('relativeBelow (how .gitignore patterns see a path)', () => {
  it('gives what path.relative gives, for paths below the folder and for any other', () => {
    const cases: [string, string][] = [
      ['/repo', '/repo/skills/a'],
      ['/repo/', '/repo/skills/a'],
      ['/', '/repo'],
      ['/repo', '/repo'],
      ['/repo', '/repository/a'],
      ['/repo/skills', '/repo/other'],
      ['.', './skills/a'],
      ['.', 'skills'],
      ['skills', 'skills/a/b'],
      ['/repo/./x', '/repo/x/a'],
      ['/repo', '/repo/x/../y'],
      ['/repo', '/repo/./x'],
    ];
    for (const [base, path] of cases) expect(relativeBelow(base, path), `${base} ${path}`).toBe(relative(base, path));
  });
});
