import { afterAll, describe, expect, it } from 'vitest';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { execa } from 'execa';
import { parseIndex } from '../../src/formats/index-file.js';
import { folderIntegrity } from '../../src/registry/integrity.js';
import { readSelectionIndex } from '../../src/prompt/selection-index.js';
import { BIN, EXAMPLE_IDS, EXAMPLES, runCli, tempFolders, testEnv } from '../helpers/cli.js';
import { rebuiltResolveIndex, resolveIndexText } from '../helpers/resolve-index.js';
import { skillMd, writeTree } from '../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-registry-e2e-');
afterAll(cleanup);

/** A SKILL.md skill `<parent>/<name>`; `extra` frontmatter lines go after the version. */
function makeSkill(
  parent: string,
  name: string,
  version: string,
  files: Record<string, string> = {},
  extra = '',
): string {
  const dir = join(parent, name);
  writeTree(dir, {
    'SKILL.md': skillMd(
      `name: ${name}\ndescription: Does ${name} things. Use when testing the registry.\nmetadata:\n  version: "${version}"\n${extra}`,
    ),
    ...files,
  });
  return dir;
}

/** A copy of the example skills, timeplus-sql-guide set to 0.3.0 (so a version other than 1.0.0 is seen). */
function versionedExamples(): string {
  const dir = fresh('examples');
  cpSync(EXAMPLES, dir, { recursive: true });
  const file = join(dir, 'timeplus-sql-guide/SKILL.md');
  writeFileSync(file, readFileSync(file, 'utf8').replace('  version: "1.0.0"', '  version: "0.3.0"'));
  return dir;
}

const indexOf = (reg: string) => {
  const parsed = parseIndex(readFileSync(join(reg, 'index.json'), 'utf8'));
  expect(parsed.problem).toBeUndefined();
  return parsed.index!;
};

/** The CLI with SKILLS_REGISTRY pointing at `reg`. */
const cli = (reg: string, args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) =>
  runCli(args, { cwd: options.cwd, env: { SKILLS_REGISTRY: reg, ...options.env } });

describe('skills sync (built CLI)', () => {
  it('warns in validate of a metadata.version sync refuses (1.0.01), and sync refuses that skill alone', async () => {
    const src = fresh();
    for (let i = 0; i < 40; i++) {
      const version = i === 7 ? '1.0.01' : `1.0.${i}`;
      writeTree(join(src, `s-${i}`), {
        'SKILL.md': skillMd(
          `name: s-${i}\ndescription: S ${i}. Use when testing.\nmetadata:\n  version: "${version}"\n`,
        ),
      });
    }
    const bad = join(src, 's-7', 'SKILL.md');
    const v = await runCli(['validate', join(src, 's-7')]);
    expect(v.exitCode).toBe(0);
    expect(v.stdout).toContain('warning  metadata.version "1.0.01" is not a semantic version');
    expect(v.stdout).toContain('hint: write metadata.version: 1.0.1');
    const reg = join(fresh(), 'registry');
    const r = await cli(reg, ['sync', src]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('refused   s-7@1.0.01: s-7: version "1.0.01" is not a semantic version');
    expect(r.stdout).toContain(`hint: fix metadata.version (or version) in ${bad}`);
    expect(r.stdout.split('\n').at(-1)).toBe(`40 skills synced into ${reg}: 39 added, 1 refused`);
    expect(indexOf(reg).skills).toHaveLength(39);
  });

  it('registers all 7 example skills with seed 000 fields; a second sync changes nothing', async () => {
    const src = versionedExamples();
    const reg = join(fresh(), 'registry');
    const r = await cli(reg, ['sync', src]);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines).toContain('added     basic-tools@1.0.0  built-in/basic-tools@1.0.0');
    expect(lines).toContain('added     data-analysis@1.0.0  custom/data-analysis@1.0.0');
    expect(lines.at(-1)).toBe(`7 skills synced into ${reg}: 7 added`);

    const index = indexOf(reg);
    expect(index.skills.map((s) => s.id)).toEqual(EXAMPLE_IDS);
    for (const s of index.skills) {
      expect(Object.keys(s)).toEqual([
        'id',
        'versions',
        'latestVersion',
        'owner',
        'usedBy',
        'registeredAt',
        'updatedAt',
        'latest',
      ]);
      expect(s.versions).toEqual([s.latestVersion]);
      expect(s.usedBy).toEqual([]);
      expect(s.registeredAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(existsSync(join(reg, s.latest.path, s.latest.layout === 'manifest' ? 'manifest.json' : 'SKILL.md'))).toBe(
        true,
      );
      const releases = JSON.parse(readFileSync(join(reg, 'releases', `${s.id}.json`), 'utf8'));
      expect(releases.id).toBe(s.id);
      expect(Object.keys(releases.releases)).toEqual(s.versions);
      expect(releases.releases[s.latestVersion]).toMatchObject({
        path: s.latest.path,
        layout: s.latest.layout,
        description: s.latest.description,
      });
    }
    expect(index.skills.find((s) => s.id === 'social-media-apis')).toMatchObject({
      latestVersion: '2.1.0',
      owner: 'built-in',
    });
    expect(index.skills.find((s) => s.id === 'web-scraping')).toMatchObject({
      owner: 'peterbot',
      latest: { path: 'custom/web-scraping@1.2.0', layout: 'skill-md' },
    });
    expect(readdirSync(join(reg, 'built-in')).sort()).toEqual([
      'basic-tools@1.0.0',
      'cron-tools@1.0.0',
      'hello-extended@1.0.0',
      'social-media-apis@2.1.0',
      'timeplus-sql-guide@0.3.0',
    ]);
    expect(readdirSync(join(reg, 'custom')).sort()).toEqual(['data-analysis@1.0.0', 'web-scraping@1.2.0']);

    const before = readFileSync(join(reg, 'index.json'), 'utf8');
    const again = await cli(reg, ['sync', src, '--json']);
    expect(again.exitCode).toBe(0);
    const doc = JSON.parse(again.stdout);
    expect(doc.registry).toBe(reg);
    expect(doc.skills.map((s: { status: string }) => s.status)).toEqual(Array(7).fill('unchanged'));
    expect(doc.counts).toEqual({ added: 0, updated: 0, replaced: 0, unchanged: 7, invalid: 0, refused: 0 });
    expect(readFileSync(join(reg, 'index.json'), 'utf8')).toBe(before);
  });

  it('keeps a skill without a version as 0.0.0, with a warning, and replaces it when it changes', async () => {
    const parent = fresh();
    const reg = join(parent, 'registry');
    const dir = join(parent, 'unversioned');
    writeTree(dir, {
      'SKILL.md': skillMd('name: unversioned\ndescription: Has no version. Use when testing the registry.\n'),
    });
    const r = await cli(reg, ['sync', dir]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('added     unversioned@0.0.0  built-in/unversioned@0.0.0\n');
    expect(r.stdout).toContain(
      'warning: unversioned has no version; it is kept as 0.0.0, and a changed copy replaces it',
    );
    expect(r.stdout).toContain('(to version it, add metadata.version to its SKILL.md)');
    writeFileSync(join(dir, 'notes.md'), 'new\n');
    const again = await cli(reg, ['sync', dir, '--json']);
    expect(again.exitCode).toBe(0);
    expect(JSON.parse(again.stdout).skills[0]).toMatchObject({ status: 'replaced', version: '0.0.0' });
    expect(readFileSync(join(reg, 'built-in/unversioned@0.0.0/notes.md'), 'utf8')).toBe('new\n');
  });

  it('says once, not once a skill, that many skills have no version', async () => {
    const dir = fresh();
    for (const n of ['u1', 'u2', 'u3', 'u4', 'u5', 'u6', 'u7'])
      writeTree(join(dir, n), {
        'SKILL.md': skillMd(`name: ${n}\ndescription: Has no version. Use when testing the registry.\n`),
      });
    const r = await cli(join(fresh(), 'registry'), ['sync', dir]);
    expect(r.exitCode).toBe(0);
    const warnings = r.stdout.split('\n').filter((l) => l.includes('warning:'));
    expect(warnings).toEqual([
      'warning: 7 skills have no version (u1, u2, u3, u4, u5 and 2 more); each is kept as 0.0.0, and a changed copy replaces it (to version one, add metadata.version to its SKILL.md, or "version" to its manifest.json)',
    ]);
  });

  it('refuses the same version with different content, then replaces it with --force', async () => {
    const parent = fresh();
    const dir = makeSkill(parent, 'changing', '1.0.0', { 'notes.md': 'one\n' });
    const reg = join(fresh(), 'registry');
    expect((await cli(reg, ['sync', parent])).exitCode).toBe(0);
    writeFileSync(join(dir, 'notes.md'), 'two\n');
    const refused = await cli(reg, ['sync', parent]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stdout).toContain(
      `refused   changing@1.0.0: changing@1.0.0 is already registered with different content (${join(reg, 'built-in/changing@1.0.0')})`,
    );
    expect(refused.stdout).toContain('--force');
    expect(readFileSync(join(reg, 'built-in/changing@1.0.0/notes.md'), 'utf8')).toBe('one\n');
    const json = await cli(reg, ['sync', parent, '--json']);
    expect(JSON.parse(json.stdout).skills[0]).toMatchObject({
      status: 'refused',
      id: 'changing',
      error: { code: 'E_EXISTS' },
    });

    const forced = await cli(reg, ['sync', parent, '--force']);
    expect(forced.exitCode).toBe(0);
    expect(forced.stdout).toContain('replaced  changing@1.0.0  built-in/changing@1.0.0');
    expect(readFileSync(join(reg, 'built-in/changing@1.0.0/notes.md'), 'utf8')).toBe('two\n');

    // A new version is added next to the old one.
    rmSync(dir, { recursive: true });
    makeSkill(parent, 'changing', '1.1.0', { 'notes.md': 'three\n' });
    const updated = await cli(reg, ['sync', parent, '--owner', 'bee-9']);
    expect(updated.stdout).toContain('updated   changing@1.1.0  custom/changing@1.1.0');
    expect(indexOf(reg).skills[0]).toMatchObject({
      versions: ['1.1.0', '1.0.0'],
      latestVersion: '1.1.0',
      owner: 'bee-9',
    });
  });

  it('keeps the first of one skill found twice with different content in a source, and says so; a copy is unchanged', async () => {
    const parent = fresh();
    // As a collection that copies a skill into several plugins' folders: a, b (changed) and c (a's copy).
    for (const [folder, notes] of [
      ['a', 'one\n'],
      ['b', 'two\n'],
      ['c', 'one\n'],
    ] as const)
      makeSkill(join(parent, folder), 'twice', '1.0.0', { 'notes.md': notes });
    const reg = join(fresh(), 'registry');
    const r = await cli(reg, ['sync', parent]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout.split('\n').slice(0, 4)).toEqual([
      'added     twice@1.0.0  built-in/twice@1.0.0',
      `refused   twice@1.0.0: twice@1.0.0 is in this batch twice with different content: ${join(parent, 'a/twice')} is registered, ${join(parent, 'b/twice')} is not`,
      '      hint: keep one copy of each skill in what you register (skills lint reports the others: SK127)',
      'unchanged twice@1.0.0  built-in/twice@1.0.0',
    ]);
    expect(readFileSync(join(reg, 'built-in/twice@1.0.0/notes.md'), 'utf8')).toBe('one\n');
    // Without a version, too: the first is kept (it used to be the last, each copy replacing the one before).
    const loose = fresh();
    for (const [folder, notes] of [
      ['a', 'one\n'],
      ['b', 'two\n'],
    ] as const)
      writeTree(join(loose, folder, 'plain'), {
        'SKILL.md': skillMd('name: plain\ndescription: Does plain things. Use when testing the registry.\n'),
        'notes.md': notes,
      });
    const u = await cli(reg, ['sync', loose]);
    expect(u.exitCode).toBe(1);
    expect(u.stdout).toContain('refused   plain: plain@0.0.0 is in this batch twice with different content');
    expect(readFileSync(join(reg, 'built-in/plain@0.0.0/notes.md'), 'utf8')).toBe('one\n');
  });

  it('registers a skill whose folder is not named as it is, by its name, with a warning (as install does)', async () => {
    const parent = fresh();
    writeTree(join(parent, 'react-best-practices'), {
      'SKILL.md': skillMd(
        'name: vercel-react-best-practices\ndescription: React practices. Use when testing the registry.\nmetadata:\n  version: "1.0.0"\n',
      ),
    });
    const reg = join(fresh(), 'registry');
    const r = await cli(reg, ['sync', parent]);
    expect(r.exitCode, r.stdout).toBe(0);
    expect(r.stdout).toContain(
      'added     vercel-react-best-practices@1.0.0  built-in/vercel-react-best-practices@1.0.0',
    );
    expect(r.stdout).toContain(
      'warning: vercel-react-best-practices is in a folder named react-best-practices; it is registered as vercel-react-best-practices, by its name',
    );
    // The source still gets SK010 from validate.
    const v = await runCli(['validate', join(parent, 'react-best-practices')]);
    expect(v.exitCode).toBe(1);
    expect(v.stdout).toContain('SK010');
  });

  it('reports an invalid skill with its diagnostics, skips it and exits 1', async () => {
    const parent = fresh();
    makeSkill(parent, 'good', '1.0.0');
    writeTree(join(parent, 'bad-one'), { 'SKILL.md': skillMd('name: Bad-One\nmetadata:\n  version: "1.0.0"') });
    const reg = join(fresh(), 'registry');
    const r = await cli(reg, ['sync', parent], { cwd: parent });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('skipped   Bad-One@1.0.0 (bad-one: invalid, 3 errors)\n');
    expect(r.stdout).toMatch(/^ {2}bad-one\/SKILL\.md:2:1 {2}error {4}name "Bad-One" must be lowercase/m);
    expect(r.stdout).toContain('added     good@1.0.0');
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe(`2 skills synced into ${reg}: 1 added, 1 skipped (invalid)`);
    expect(indexOf(reg).skills.map((s) => s.id)).toEqual(['good']);
    // The invalid one alone: nothing was synced, and the line says so (it said "1 skill synced into …").
    const alone = await cli(reg, ['sync', join(parent, 'bad-one')], { cwd: parent });
    expect(alone.exitCode).toBe(1);
    expect(alone.stdout.trimEnd().split('\n').at(-1)).toBe(`no skill synced into ${reg}: 1 skipped (invalid)`);

    const json = await cli(reg, ['sync', parent, '--json']);
    const item = JSON.parse(json.stdout).skills.find((s: { status: string }) => s.status === 'invalid');
    expect(item.diagnostics.map((d: { rule: string }) => d.rule)).toEqual([
      'name-lowercase',
      'name-matches-folder',
      'description-required',
    ]);
    expect(item.diagnostics[0]).toMatchObject({ file: join(parent, 'bad-one/SKILL.md'), line: 2, column: 1 });
  });

  it('reports a corrupt index with line and column (exit 2) and leaves it byte for byte', async () => {
    const parent = fresh();
    makeSkill(parent, 'one', '1.0.0');
    const reg = fresh('corrupt');
    const corrupt = '{\n  "version": 1,\n  "skills": [,]\n}\n';
    writeFileSync(join(reg, 'index.json'), corrupt);
    const r = await cli(reg, ['sync', parent]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(
      `error: ${join(reg, 'index.json')}:3:14: index.json is not valid JSON: expected a value`,
    );
    expect(r.stderr).toMatch(/hint: nothing was overwritten: .*index\.json\.bak/);
    expect(readFileSync(join(reg, 'index.json'), 'utf8')).toBe(corrupt);
    const list = await cli(reg, ['list', '--json']);
    expect(list.exitCode).toBe(2);
    expect(JSON.parse(list.stdout).error).toMatchObject({ code: 'E_CONFIG' });
  });

  it('finds the registry from --registry, SKILLS_REGISTRY, the nearest .skills/, else ~/.skills', async () => {
    const project = fresh('project');
    makeSkill(join(project, 'src'), 'located', '1.0.0');
    mkdirSync(join(project, '.skills'));
    const viaFolder = await runCli(['sync', 'located'], { cwd: join(project, 'src'), env: { SKILLS_REGISTRY: '' } });
    expect(viaFolder.exitCode).toBe(0);
    expect(indexOf(join(project, '.skills')).skills.map((s) => s.id)).toEqual(['located']);
    const other = join(fresh(), 'flag');
    const viaFlag = await runCli(['sync', 'located', '--registry', other], {
      cwd: join(project, 'src'),
      env: { SKILLS_REGISTRY: join(project, 'env') },
    });
    expect(viaFlag.stdout).toContain(`synced into ${other}`);
    const home = fresh('home');
    const bare = fresh('bare');
    makeSkill(bare, 'homed', '1.0.0');
    const viaHome = await runCli(['sync', '.'], { cwd: bare, env: { SKILLS_REGISTRY: '', HOME: home } });
    expect(viaHome.stdout).toContain(`synced into ${join(home, '.skills')}`);
  });
});

describe('skills remove, use, unuse (built CLI)', () => {
  it('keeps usedBy, refuses to remove a used skill, and removes versions', async () => {
    const parent = fresh();
    const dir = makeSkill(parent, 'shared', '1.0.0');
    const reg = join(fresh(), 'registry');
    await cli(reg, ['sync', parent]);
    rmSync(dir, { recursive: true });
    makeSkill(parent, 'shared', '2.0.0');
    await cli(reg, ['sync', parent]);

    expect((await cli(reg, ['registry', 'use', 'shared', '--for', 'manager-bee'])).stdout).toBe(
      'shared is used by manager-bee',
    );
    expect((await cli(reg, ['registry', 'use', 'shared', '--for', 'content-creator'])).stdout).toBe(
      'shared is used by content-creator, manager-bee',
    );
    expect(
      JSON.parse((await cli(reg, ['registry', 'use', 'shared', '--for', 'manager-bee', '--json'])).stdout),
    ).toEqual({
      id: 'shared',
      usedBy: ['content-creator', 'manager-bee'],
      changed: false,
    });
    const missingBy = await cli(reg, ['use', 'shared']);
    expect(missingBy.exitCode).toBe(2);
    expect(missingBy.stderr).toContain('use needs --for <consumer>: who uses the skill');
    // A consumer with a terminal's escape (it would retitle the terminal of whoever lists it) or no name is refused.
    const before = readFileSync(join(reg, 'index.json'), 'utf8');
    const escape = await cli(reg, ['registry', 'use', 'shared', '--for', 'x\u001b]0;pwned\u0007']);
    expect(escape.exitCode).toBe(2);
    expect(escape.stderr).toContain('error: --for "x\\u001b]0;pwned\\u0007" holds a control or formatting character');
    expect(escape.stderr).not.toContain('\u001b');
    const empty = await cli(reg, ['registry', 'use', 'shared', '--for', ' ']);
    expect(empty.stderr).toContain('error: --for is empty');
    // Nor one that would widen every row of a list (5,000 characters), or a relative path.
    const long = await cli(reg, ['registry', 'use', 'shared', '--for', 'z'.repeat(5000)]);
    expect(long.exitCode).toBe(2);
    expect(long.stderr).toBe(
      `error: --for "${'z'.repeat(40)}…" is 5000 characters long (the limit is 100): expected the id of the agent or project that uses the skill\nhint: a consumer is a name of at most 100 characters without "/", "\\" or control characters (content-creator, claude-code), or the absolute path of a project's folder; e.g. --for content-creator`,
    );
    const up = await cli(reg, ['registry', 'use', 'shared', '--for', '../x']);
    expect(up.exitCode).toBe(2);
    expect(up.stderr).toContain(
      'error: --for "../x" holds "/", a path separator (a project is recorded by its absolute path)',
    );
    expect(readFileSync(join(reg, 'index.json'), 'utf8')).toBe(before);

    const refused = await cli(reg, ['registry', 'remove', 'shared']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toBe(
      'error: shared is used by content-creator, manager-bee; nothing was removed\nhint: run skills registry unuse shared --for <consumer> for each, or remove it anyway with --force',
    );
    expect(readdirSync(join(reg, 'built-in')).sort()).toEqual(['shared@1.0.0', 'shared@2.0.0']);

    // Two consumers in one command (--by is --for's old name): a usage error, and usedBy is left as it was.
    const both = await cli(reg, ['registry', 'unuse', 'shared', '--for', 'content-creator', '--by', 'manager-bee']);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toBe(
      'error: --for content-creator and --by manager-bee name two consumers\nhint: --by is the old name of --for: give one of them',
    );
    expect((await cli(reg, ['registry', 'unuse', 'shared', '--for', 'content-creator'])).stdout).toBe(
      'shared is used by manager-bee',
    );
    expect((await cli(reg, ['registry', 'unuse', 'shared', '--for', 'manager-bee'])).stdout).toBe(
      'shared is used by nobody',
    );
    const old = await cli(reg, ['registry', 'remove', 'shared@1.0.0']);
    expect(old.exitCode).toBe(0);
    expect(old.stdout).toBe(`removed shared@1.0.0 from ${reg}; still registered: 2.0.0`);
    expect(readdirSync(join(reg, 'built-in'))).toEqual(['shared@2.0.0']);

    const typo = await cli(reg, ['registry', 'remove', 'sharde', '--json']);
    expect(typo.exitCode).toBe(2);
    expect(JSON.parse(typo.stdout)).toEqual({
      error: {
        code: 'E_NOT_FOUND',
        message: 'no skill "sharde" in the registry; did you mean "shared"?',
        hint: 'see what is registered with skills registry list',
      },
    });
    const range = await cli(reg, ['registry', 'remove', 'shared@^2']);
    expect(range.stderr).toContain('error: "shared@^2" is a range; remove takes one exact version or none');

    await cli(reg, ['registry', 'use', 'shared', '--for', 'last-bee']);
    const forced = await cli(reg, ['registry', 'remove', 'shared', '--force', '--json']);
    expect(JSON.parse(forced.stdout)).toMatchObject({ id: 'shared', removed: ['2.0.0'], remaining: [] });
    expect(indexOf(reg).skills).toEqual([]);
  });
});

describe('skills list (built CLI)', () => {
  async function listFixture() {
    const reg = join(fresh(), 'registry');
    const src = fresh('src');
    makeSkill(src, 'reg-a', '1.0.0');
    await cli(reg, ['sync', src]);
    rmSync(join(src, 'reg-a'), { recursive: true });
    makeSkill(src, 'reg-a', '1.1.0', {}, '  author: bee-1\n');
    await cli(reg, ['sync', src]);
    await cli(reg, ['registry', 'use', 'reg-a', '--for', 'manager-bee']);
    const project = fresh('project');
    mkdirSync(join(project, 'skills/proj-b'), { recursive: true });
    writeFileSync(
      join(project, 'skills/proj-b/SKILL.md'),
      skillMd(
        `name: proj-b\ndescription: ${'A very long description that goes on and on. '.repeat(6)}Use when listing.\nmetadata:\n  version: "0.1.0"`,
      ),
    );
    writeTree(join(project, '.claude/skills/broken'), { 'SKILL.md': skillMd('name: broken') });
    writeTree(join(project, '.claude/skills/both'), {
      'manifest.json': JSON.stringify({
        id: 'both',
        name: 'Both',
        version: '1.0.0',
        description: 'Project copy.',
        owner: 'built-in',
      }),
    });
    const home = fresh('home');
    makeSkill(join(home, '.agents/skills'), 'both', '9.0.0');
    makeSkill(join(home, '.agents/skills'), 'mine', '1.0.0');
    return { reg, project, home };
  }

  it('lists registry, project and user skills in a table cut to the width, with the shadowing warning', async () => {
    const { reg, project, home } = await listFixture();
    const r = await cli(reg, ['list'], { cwd: project, env: { HOME: home } });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe(
      `warning: both in ${join(home, '.agents/skills/both')} (user) is shadowed by ${join(project, '.claude/skills/both')} (project)`,
    );
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^ID +VERSION +LAYOUT +OWNER +SCOPE +USED BY +DESCRIPTION$/);
    const row = (id: string) => lines.find((l) => l.startsWith(`${id} `))!.split(/ {2,}/);
    expect(row('reg-a')).toEqual([
      'reg-a',
      '1.1.0',
      'skill-md',
      'bee-1',
      'registry',
      'manager-bee',
      expect.stringMatching(/^Does reg-a things\. Use when/),
    ]);
    expect(row('both')).toEqual(['both', '1.0.0', 'manifest', 'built-in', 'project', '-', 'Project copy.']);
    expect(row('mine')).toEqual([
      'mine',
      '1.0.0',
      'skill-md',
      '-',
      'user',
      '-',
      expect.stringMatching(/^Does mine things\. Use when/),
    ]);
    expect(row('broken ✖').slice(0, 5)).toEqual(['broken ✖', '-', 'skill-md', '-', 'project']);
    expect(lines.at(-1)).toBe('✖ invalid: run skills validate <path> to see why');
    // Every row's columns start where the header's do, the row with the mark too (✖ takes one terminal column).
    const starts = [...lines[0]!.matchAll(/\S+(?: \S+)*/g)].map((m) => m.index);
    for (const l of lines.slice(1, -2)) {
      const at = [...l.matchAll(/\S+(?: \S+)*/g)].map((m) => m.index);
      // A skill without a description ends at USED BY.
      expect(at, l).toEqual(starts.slice(0, Math.max(6, at.length)));
    }
    const long = lines.find((l) => l.startsWith('proj-b '))!;
    expect(long.length).toBe(100);
    expect(long.endsWith('…')).toBe(true);
    expect(lines.every((l) => [...l].length <= 100)).toBe(true);
    expect(lines.filter((l) => l.startsWith('both '))).toHaveLength(1);
  });

  it('--json gives every field and the whole description; --long all versions; --owner and --layout filter', async () => {
    const { reg, project, home } = await listFixture();
    const r = await cli(reg, ['list', '--json'], { cwd: project, env: { HOME: home } });
    const doc = JSON.parse(r.stdout);
    expect(doc.registry).toBe(reg);
    expect(doc.shadowed).toEqual([
      { id: 'both', path: join(home, '.agents/skills/both'), by: join(project, '.claude/skills/both') },
    ]);
    expect(doc.skills.map((s: { id: string; scope: string }) => `${s.id}:${s.scope}`)).toEqual([
      'both:project',
      'broken:project',
      'mine:user',
      'proj-b:project',
      'reg-a:registry',
    ]);
    expect(doc.skills.find((s: { id: string }) => s.id === 'reg-a')).toEqual({
      id: 'reg-a',
      version: '1.1.0',
      versions: ['1.1.0', '1.0.0'],
      layout: 'skill-md',
      owner: 'bee-1',
      scope: 'registry',
      usedBy: ['manager-bee'],
      description: 'Does reg-a things. Use when testing the registry.',
      path: join(reg, 'custom/reg-a@1.1.0'),
    });
    expect(doc.skills.find((s: { id: string }) => s.id === 'proj-b').description).toMatch(
      /on and on\. Use when listing\.$/,
    );
    expect(doc.skills.find((s: { id: string }) => s.id === 'broken')).toMatchObject({ valid: false });

    const long = await cli(reg, ['list', '--long'], { cwd: project, env: { HOME: home } });
    expect(long.stdout).toMatch(/^reg-a +1\.1\.0, 1\.0\.0 +skill-md/m);
    const owner = JSON.parse(
      (await cli(reg, ['list', '--json', '--owner', 'bee-1'], { cwd: project, env: { HOME: home } })).stdout,
    );
    expect(owner.skills.map((s: { id: string }) => s.id)).toEqual(['reg-a']);
    const layout = JSON.parse(
      (await cli(reg, ['list', '--json', '--layout', 'manifest'], { cwd: project, env: { HOME: home } })).stdout,
    );
    expect(layout.skills.map((s: { id: string }) => s.id)).toEqual(['both']);
    const bad = await cli(reg, ['list', '--layout', 'zip'], { cwd: project });
    expect(bad.exitCode).toBe(2);
  });

  it('lists the given folders only (missing ones skipped), and answers for the registry from the index alone', async () => {
    const { reg, project, home } = await listFixture();
    rmSync(join(reg, 'custom'), { recursive: true });
    // No releases file is read either: index.json carries what list shows of the latest version.
    rmSync(join(reg, 'releases'), { recursive: true });
    const r = await cli(reg, ['list', '--json', 'skills', 'no-such-folder'], { cwd: project, env: { HOME: home } });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    const skills = JSON.parse(r.stdout).skills;
    expect(skills.map((s: { id: string; scope: string }) => `${s.id}:${s.scope}`)).toEqual([
      'proj-b:project',
      'reg-a:registry',
    ]);
    expect(skills[1]).toMatchObject({
      version: '1.1.0',
      layout: 'skill-md',
      description: 'Does reg-a things. Use when testing the registry.',
      path: join(reg, 'custom/reg-a@1.1.0'),
    });
    const empty = await cli(join(fresh(), 'none'), ['list'], { cwd: fresh() });
    expect(empty.exitCode).toBe(0);
    // It says where it looked: the project's folders (relative), then the user's.
    expect(empty.stdout).toMatch(
      /^no skills found: looked in \.agents\/skills, \.claude\/skills, .*~\/\.agents\/skills.* \(registry .*none\)$/,
    );
  });
});

describe('skills list with skillDirs in skills.config.json (built CLI)', () => {
  it('reads the configured folders instead of the default ones', async () => {
    const project = fresh('configured');
    makeSkill(join(project, 'team-skills'), 'team-one', '1.0.0');
    makeSkill(join(project, 'skills'), 'default-one', '1.0.0');
    writeFileSync(join(project, 'skills.config.json'), JSON.stringify({ skillDirs: ['team-skills'] }));
    const r = await cli(join(fresh(), 'registry'), ['list', '--json'], { cwd: project });
    expect(r.exitCode).toBe(0);
    const ids = JSON.parse(r.stdout).skills.map((s: { id: string; scope: string }) => `${s.id}:${s.scope}`);
    expect(ids).toEqual(['team-one:project']);
  });

  it('-c names the configuration file (absolute, or relative to the working folder); a wrong one is said', async () => {
    const project = fresh('configured-c');
    makeSkill(join(project, 'team-skills'), 'team-one', '1.0.0');
    makeSkill(join(project, 'skills'), 'default-one', '1.0.0');
    const elsewhere = fresh('config-elsewhere');
    writeFileSync(join(elsewhere, 'team.json'), JSON.stringify({ skillDirs: [join(project, 'team-skills')] }));
    const reg = join(fresh(), 'registry');
    const ids = (stdout: string) => JSON.parse(stdout).skills.map((s: { id: string }) => s.id);
    const abs = await cli(reg, ['list', '--json', '-c', join(elsewhere, 'team.json')], { cwd: project });
    expect(abs.exitCode).toBe(0);
    expect(ids(abs.stdout)).toEqual(['team-one']);
    const rel = await cli(reg, ['list', '--json', '--config', join(relative(project, elsewhere), 'team.json')], {
      cwd: project,
    });
    expect(ids(rel.stdout)).toEqual(['team-one']);
    const wrong = await cli(reg, ['list', '-c', 'nope.json', 'skills'], { cwd: project });
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toContain(`cannot read ${join(project, 'nope.json')}`);
  });
});

describe('skills sync --watch (built CLI)', () => {
  it('registers a skill created in the watched folder, one JSON line per event, and ends on SIGTERM with exit 0', async () => {
    const watched = fresh('watched');
    makeSkill(watched, 'already', '1.0.0');
    const reg = join(fresh(), 'registry');
    const child = execa(process.execPath, [BIN, 'sync', watched, '--watch', '--json'], {
      env: testEnv(fresh('home'), { SKILLS_REGISTRY: reg }),
      extendEnv: false,
      reject: false,
    });
    let out = '';
    let err = '';
    child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
    const until = async (test: () => boolean, what: string) => {
      for (let i = 0; i < 200 && !test(); i++) await new Promise((r) => setTimeout(r, 50));
      if (!test()) throw new Error(`timed out waiting for ${what}; stdout: ${out}; stderr: ${err}`);
    };
    try {
      await until(() => err.includes('watching'), 'the watcher');
      makeSkill(join(watched, 'agents'), 'weekly-reports', '1.0.0', { 'scripts/generate.sh': '#!/bin/sh\n' });
      await until(() => out.includes('weekly-reports'), 'the event');
      writeTree(join(watched, 'Broken'), { 'SKILL.md': skillMd('name: Broken') });
      await until(() => out.includes('"invalid"'), 'the invalid event');
    } finally {
      child.kill('SIGTERM');
    }
    const r = await child;
    expect(r.exitCode).toBe(0);
    const events = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events[0]).toEqual({
      event: 'added',
      id: 'already',
      version: '1.0.0',
      source: join(watched, 'already'),
      path: join(reg, 'built-in/already@1.0.0'),
    });
    expect(events).toContainEqual({
      event: 'added',
      id: 'weekly-reports',
      version: '1.0.0',
      source: join(watched, 'agents/weekly-reports'),
      path: join(reg, 'built-in/weekly-reports@1.0.0'),
    });
    expect(events.find((e) => e.event === 'invalid')).toMatchObject({
      id: 'Broken',
      source: join(watched, 'Broken'),
      diagnostics: expect.arrayContaining([expect.objectContaining({ rule: 'name-lowercase' })]),
    });
    expect(indexOf(reg).skills.map((s) => s.id)).toEqual(['already', 'weekly-reports']);
  });
});

describe('the registry under concurrency and crashes (built CLI)', () => {
  it('20 processes syncing at once into one registry lose no entry', async () => {
    const reg = join(fresh(), 'registry');
    const dirs = Array.from({ length: 20 }, (_, i) =>
      makeSkill(fresh('conc'), `concurrent-${String(i).padStart(2, '0')}`, '1.0.0', { 'notes.md': `skill ${i}\n` }),
    );
    const home = fresh('home');
    const results = await Promise.all(
      dirs.map((d) =>
        execa(process.execPath, [BIN, 'sync', d], {
          env: testEnv(home, { SKILLS_REGISTRY: reg }),
          extendEnv: false,
          reject: false,
        }),
      ),
    );
    for (const r of results) expect({ exitCode: r.exitCode, stderr: r.stderr }).toEqual({ exitCode: 0, stderr: '' });
    const index = indexOf(reg);
    expect(index.skills.map((s) => s.id)).toEqual(dirs.map((d) => d.split('/').at(-1)));
    expect(readdirSync(join(reg, 'built-in'))).toHaveLength(20);
    expect(readdirSync(reg).sort()).toEqual([
      'built-in',
      'index.json',
      'index.json.bak',
      'releases',
      'resolve-index',
      'selection-index',
    ]);
    // Each writer rewrote the selection index under the lock: the last one's fits the index left.
    expect(readSelectionIndex(reg)?.rows.map((r) => r[0])).toEqual(index.skills.map((s) => s.id));
    // And the resolve index: each kept the rows of the others' skills, and it is whole.
    expect(resolveIndexText(reg)).toBe(rebuiltResolveIndex(reg));

    // 20 consumers of one skill: every read-modify-write of the same entry survives.
    const uses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        execa(process.execPath, [BIN, 'use', 'concurrent-00', '--by', `bee-${String(i).padStart(2, '0')}`], {
          env: testEnv(home, { SKILLS_REGISTRY: reg }),
          extendEnv: false,
          reject: false,
        }),
      ),
    );
    expect(uses.map((u) => u.exitCode)).toEqual(Array(20).fill(0));
    expect(indexOf(reg).skills[0]!.usedBy).toHaveLength(20);
  });

  it('a sync of many skills (one batch, one index write) killed with SIGKILL leaves the previous index and no half-copied version', async () => {
    const reg = join(fresh(), 'registry');
    const small = fresh('small');
    makeSkill(small, 'small', '1.0.0');
    expect((await cli(reg, ['sync', small])).exitCode).toBe(0);
    const indexBefore = readFileSync(join(reg, 'index.json'), 'utf8');
    const many = fresh('many');
    const blob = 'y'.repeat(4096);
    for (let i = 0; i < 300; i++) {
      const files: Record<string, string> = {};
      for (let j = 0; j < 10; j++) files[`references/r-${j}.md`] = `${i}/${j}\n${blob}`;
      makeSkill(many, `s${i}`, '1.0.0', files);
    }
    const child = execa(process.execPath, [BIN, 'sync', many], {
      env: testEnv(fresh('home'), { SKILLS_REGISTRY: reg }),
      extendEnv: false,
      reject: false,
    });
    const stagings = () => readdirSync(join(reg, 'built-in')).filter((n) => n.startsWith('.staging-'));
    for (let i = 0; i < 4000 && stagings().length < 5 && child.exitCode === null; i++)
      await new Promise((r) => setTimeout(r, 2));
    child.kill('SIGKILL');
    expect((await child).signal).toBe('SIGKILL');
    // The index is the one before: the batch writes it once, last.
    expect(readFileSync(join(reg, 'index.json'), 'utf8')).toBe(indexBefore);
    // Any <id>@<version> folder there is whole (a staging folder is renamed only once sealed).
    for (const name of readdirSync(join(reg, 'built-in')).filter((n) => /^s\d+@1\.0\.0$/.test(n)))
      expect(readdirSync(join(reg, 'built-in', name, 'references'))).toHaveLength(10);
    const again = await cli(reg, ['sync', many, '--json']);
    expect(again.exitCode).toBe(0);
    expect(JSON.parse(again.stdout).counts.added).toBe(300);
    expect(stagings()).toEqual([]);
    expect(indexOf(reg).skills).toHaveLength(301);
    // The resolve index the killed writer left is whole again after the next write.
    expect(resolveIndexText(reg)).toBe(rebuiltResolveIndex(reg));
    const resolved = await cli(reg, ['resolve', 's7@1.0.0', 'small@1.0.0', '--json']);
    expect(JSON.parse(resolved.stdout).resolved.map((r: { id: string }) => r.id)).toEqual(['s7', 'small']);
  }, 60_000);

  it('a sync killed with SIGKILL mid-copy leaves the index valid and no half-written <id>@<version>; the next sync cleans up', async () => {
    const reg = join(fresh(), 'registry');
    const small = fresh('small');
    makeSkill(small, 'small', '1.0.0');
    expect((await cli(reg, ['sync', small])).exitCode).toBe(0);
    const indexBefore = readFileSync(join(reg, 'index.json'), 'utf8');

    const big = fresh('big');
    const files: Record<string, string> = {};
    const blob = 'x'.repeat(8192);
    for (let i = 0; i < 4000; i++) files[`references/part-${Math.floor(i / 100)}/file-${i}.md`] = `${i}\n${blob}`;
    makeSkill(big, 'big', '1.0.0', files);

    const child = execa(process.execPath, [BIN, 'sync', big], {
      env: testEnv(fresh('home'), { SKILLS_REGISTRY: reg }),
      extendEnv: false,
      reject: false,
    });
    const staging = () => readdirSync(join(reg, 'built-in')).filter((name) => name.startsWith('.staging-big@1.0.0.'));
    for (let i = 0; i < 4000 && staging().length === 0 && child.exitCode === null; i++)
      await new Promise((r) => setTimeout(r, 2));
    child.kill('SIGKILL');
    const killed = await child;
    expect(killed.signal).toBe('SIGKILL');

    expect(readFileSync(join(reg, 'index.json'), 'utf8')).toBe(indexBefore);
    expect(indexOf(reg).skills.map((s) => s.id)).toEqual(['small']);
    expect(existsSync(join(reg, 'built-in/big@1.0.0'))).toBe(false);
    expect(staging()).toHaveLength(1);

    const again = await cli(reg, ['sync', big]);
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toContain('added     big@1.0.0');
    expect(staging()).toEqual([]);
    expect(readdirSync(join(reg, 'built-in')).sort()).toEqual(['big@1.0.0', 'small@1.0.0']);
    expect(readdirSync(join(reg, 'built-in/big@1.0.0/references'))).toHaveLength(40);
  });

  describe('a stored copy a killed writer moved aside (before index.json was written) is put back by the next write', () => {
    /** A registry holding one@1.0.0 (a reference that says `first`), and the pid of a process that has ended. */
    async function registryWithOne() {
      const reg = join(fresh(), 'registry');
      const src = fresh('src');
      makeSkill(src, 'one', '1.0.0', { 'references/what.md': 'first\n' });
      expect((await cli(reg, ['sync', src])).exitCode).toBe(0);
      const gone = (await execa(process.execPath, ['-e', 'console.log(process.pid)'])).stdout.trim();
      const other = fresh('other');
      makeSkill(other, 'two', '1.0.0');
      return { reg, src, other, trash: join(reg, `built-in/.trash-one@1.0.0.${gone}.0badf00d`) };
    }
    const stored = (reg: string) => join(reg, 'built-in/one@1.0.0');
    /** What a writer killed after renaming a replacement in leaves: the recorded copy aside, another in its place. */
    const renamedInUnrecorded = (reg: string, trash: string) => {
      renameSync(stored(reg), trash);
      const unrecorded = fresh('unrecorded');
      makeSkill(unrecorded, 'one', '1.0.0', { 'references/what.md': 'second\n' });
      cpSync(join(unrecorded, 'one'), stored(reg), { recursive: true });
    };
    const recorded = (reg: string) =>
      (
        JSON.parse(readFileSync(join(reg, 'releases/one.json'), 'utf8')) as {
          releases: Record<string, { integrity: string }>;
        }
      ).releases['1.0.0']!.integrity;

    it('killed between moving the copy aside and writing index.json (remove, or a replace before its rename): its path is empty, and the copy goes back', async () => {
      const { reg, other, trash } = await registryWithOne();
      renameSync(stored(reg), trash);
      expect((await cli(reg, ['sync', other])).exitCode).toBe(0);
      expect(existsSync(trash)).toBe(false);
      expect(readFileSync(join(stored(reg), 'references/what.md'), 'utf8')).toBe('first\n');
      expect(folderIntegrity(stored(reg))).toBe(recorded(reg));
      expect(
        indexOf(reg)
          .skills.map((s) => s.id)
          .sort(),
      ).toEqual(['one', 'two']);
    });

    it('killed after a replacement was renamed in, before index.json recorded it: the recorded copy goes back, the unrecorded one goes', async () => {
      const { reg, other, trash } = await registryWithOne();
      renamedInUnrecorded(reg, trash);
      expect((await cli(reg, ['sync', other])).exitCode).toBe(0);
      expect(readFileSync(join(stored(reg), 'references/what.md'), 'utf8')).toBe('first\n');
      expect(folderIntegrity(stored(reg))).toBe(recorded(reg));
      expect(readdirSync(join(reg, 'built-in')).filter((n) => n.startsWith('.'))).toEqual([]);
    });

    it('a sync with nothing to change (its source unchanged) still puts the copy back', async () => {
      const { reg, src, trash } = await registryWithOne();
      renamedInUnrecorded(reg, trash);
      const again = await cli(reg, ['sync', src, '--json']);
      expect(again.exitCode).toBe(0);
      expect(JSON.parse(again.stdout).counts.unchanged).toBe(1);
      expect(existsSync(trash)).toBe(false);
      expect(folderIntegrity(stored(reg))).toBe(recorded(reg));
    });

    it('killed after index.json was written: the copy in place is the recorded one, and the trash is removed', async () => {
      const { reg, src, other, trash } = await registryWithOne();
      cpSync(stored(reg), trash, { recursive: true });
      expect((await cli(reg, ['sync', other])).exitCode).toBe(0);
      expect(existsSync(trash)).toBe(false);
      expect(folderIntegrity(stored(reg))).toBe(recorded(reg));
      // A removed skill's trash: nothing records its path any more.
      expect((await cli(reg, ['registry', 'remove', 'one@1.0.0'])).exitCode).toBe(0);
      cpSync(join(src, 'one'), trash, { recursive: true });
      makeSkill(other, 'three', '1.0.0');
      expect((await cli(reg, ['sync', other])).exitCode).toBe(0);
      expect(existsSync(trash)).toBe(false);
      expect(existsSync(stored(reg))).toBe(false);
    });
  });

  it('the temp files of releases and index writes a killed sync left are removed by the next write; a live writer’s stay', async () => {
    const reg = join(fresh(), 'registry');
    const src = fresh('src');
    makeSkill(src, 'one', '1.0.0');
    expect((await cli(reg, ['sync', src])).exitCode).toBe(0);
    // A pid no process has any more: a child that has ended.
    const gone = (await execa(process.execPath, ['-e', 'console.log(process.pid)'])).stdout.trim();
    const dead = [`releases/.one.json.tmp-w.${gone}.0badf00d`, `.index.json.tmp-w.${gone}.0badf00d`];
    // This test's own process is alive: its temp file is a write under way.
    const live = `releases/.two.json.tmp-w.${process.pid}.0badf00d`;
    for (const f of [...dead, live]) writeFileSync(join(reg, f), '{"half":');
    makeSkill(src, 'one', '1.0.1');
    expect((await cli(reg, ['sync', src])).exitCode).toBe(0);
    for (const f of dead) expect(existsSync(join(reg, f)), f).toBe(false);
    expect(existsSync(join(reg, live))).toBe(true);
  });
});
