import { afterAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { execa } from 'execa';
import { Header } from 'tar';
import { parseIndex } from '../../src/formats/index-file.js';
import { parseLockfile } from '../../src/formats/lockfile.js';
import { BIN, EXAMPLES, runCli, tempFolders, testEnv } from '../helpers/cli.js';
import { skillMd, snapshot, writeTree } from '../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-install-e2e-');
afterAll(cleanup);

const cli = (reg: string, args: string[], cwd: string) => runCli(args, { cwd, env: { SKILLS_REGISTRY: reg } });

/**
 * A project, a registry and a source of three skills, one, two and deep, with `n` folders of 200 bytes below deep
 * and notes.md at their bottom, made step by step from inside (a child).
 */
async function deepSource(n: number) {
  const project = fresh('project');
  const reg = join(fresh(), 'registry');
  const repo = fresh('repo');
  makeSkill(repo, 'one', '1.0.0');
  makeSkill(repo, 'two', '2.0.0');
  const deep = makeSkill(repo, 'deep', '1.0.0');
  const make = `const fs = require('node:fs'); process.chdir(${JSON.stringify(deep)});
    for (let i = 0; i < ${n}; i++) { fs.mkdirSync('d'.repeat(200)); process.chdir('d'.repeat(200)); }
    fs.writeFileSync('notes.md', '# Deep\\n');`;
  expect((await execa(process.execPath, ['-e', make])).exitCode).toBe(0);
  return { project, reg, repo, deep };
}

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
      `name: ${name}\ndescription: Does ${name} things. Use when testing install.\nmetadata:\n  version: "${version}"\n${extra}`,
    ),
    ...files,
  });
  return dir;
}

const lockOf = (project: string) => {
  const parsed = parseLockfile(readFileSync(join(project, 'skills-lock.json'), 'utf8'));
  expect(parsed.problem).toBeUndefined();
  return parsed.lock!;
};
const indexOf = (reg: string) => parseIndex(readFileSync(join(reg, 'index.json'), 'utf8')).index!;

/** A registry with the example skills in it. */
async function exampleRegistry(): Promise<string> {
  const reg = join(fresh('from'), 'registry');
  expect((await cli(reg, ['sync', EXAMPLES], fresh())).exitCode).toBe(0);
  return reg;
}

describe('skills install: every source kind (built CLI)', () => {
  it('reads a bare name as a registry id, and when the registry has none, names the folder of that name here', async () => {
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    const init = await cli(reg, ['init', 'my-skill', '-y'], project);
    expect(init.exitCode, init.stderr).toBe(0);
    const r = await cli(reg, ['install', 'my-skill', '--agent', 'claude-code'], project);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(
      'error: no skill "my-skill" in the registry\nhint: my-skill is also a folder here that holds a skill, but a bare name means a registry id: to install the folder, give it as a path: skills install ./my-skill',
    );
    expect(existsSync(join(project, '.claude'))).toBe(false);
    // A name with no folder behind it keeps the registry's hint.
    const other = await cli(reg, ['install', 'not-here', '--agent', 'claude-code'], project);
    expect(other.stderr).toContain('hint: skills list shows the registered skills');
    const path = await cli(reg, ['install', './my-skill', '--agent', 'claude-code'], project);
    expect(path.exitCode, path.stderr).toBe(0);
    expect(existsSync(join(project, '.claude/skills/my-skill/SKILL.md'))).toBe(true);
  });

  it('refuses an --into that is a file (or below one) before anything is written', async () => {
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    writeFileSync(join(project, 'not-a-folder'), 'x\n');
    for (const into of ['not-a-folder', 'not-a-folder/skills']) {
      const r = await cli(reg, ['install', join(EXAMPLES, 'web-scraping'), '--into', into], project);
      expect(r.exitCode).toBe(2);
      // The file is named, also when the folder would be below it.
      expect(r.stderr.split('\n')[0]).toBe(
        `error: --into ${join(project, into)}: ${join(project, 'not-a-folder')} is a file, where a folder is needed; nothing was installed`,
      );
    }
    expect(existsSync(reg)).toBe(false);
    expect(readdirSync(project)).toEqual(['not-a-folder']);
  });

  it('installs every skill of a folder that holds skills (a clone of a skills repository), each locked by its own folder', async () => {
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    const repo = fresh('repo');
    makeSkill(join(repo, 'skills'), 'one', '1.0.0');
    makeSkill(join(repo, 'skills'), 'two', '2.0.0');
    const r = await cli(reg, ['install', join(repo, 'skills'), '--into', '.agents/skills'], project);
    expect(r.exitCode).toBe(0);
    expect(readdirSync(join(project, '.agents/skills')).sort()).toEqual(['one', 'two']);
    const lock = lockOf(project);
    expect(Object.keys(lock.skills)).toEqual(['one', 'two']);
    expect(lock.skills.two!.source).toBe(`folder:${relative(project, join(repo, 'skills/two'))}`);
    const empty = await cli(reg, ['install', fresh('empty')], project);
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toContain('is not a skill: it holds no SKILL.md or manifest.json');
  });

  it('skips a skill of a source whose files lie deeper than PATH_MAX, installs the others, exit 1; nothing of it is written', async () => {
    // 21 folders of 200 bytes below deep: over the 4,096 bytes of a path.
    const { project, reg, repo, deep } = await deepSource(21);
    try {
      const r = await cli(reg, ['install', repo, '--into', '.agents/skills'], project);
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toMatch(
        /^skipped {3}deep \(\S+\/deep\): cannot list the folder \S+: the path is longer than the 4,096 bytes the system takes \(PATH_MAX\) \(ENAMETOOLONG\); it was skipped$/m,
      );
      expect(r.stdout).toContain(`${reg}: 2 added, 1 skipped (path too long); skills-lock.json written`);
      expect(readdirSync(join(project, '.agents/skills')).sort()).toEqual(['one', 'two']);
      expect(Object.keys(lockOf(project).skills)).toEqual(['one', 'two']);
      expect(indexOf(reg).skills.map((e) => e.id)).toEqual(['one', 'two']);
      expect(readdirSync(reg).filter((n) => n.startsWith('.'))).toEqual([]);
      const json = await cli(reg, ['install', repo, '--into', '.agents/skills', '--json'], project);
      expect(JSON.parse(json.stdout).skipped.map((s: { id: string; reason: string }) => [s.id, s.reason])).toEqual([
        ['deep', 'path-too-long'],
      ]);
    } finally {
      // Too deep for rmSync: rm(1) goes down by names.
      await execa('rm', ['-rf', deep]);
    }
  });

  it('when every skill of a source is skipped for a path too long, nothing is installed: an error, exit 2, as for one alone', async () => {
    for (const [levels, into] of [
      [21, '.agents/skills'],
      [18, `${'p'.repeat(200)}/${'q'.repeat(200)}/skills`],
    ] as const) {
      const project = fresh('project');
      const reg = join(fresh(), 'registry');
      const repo = fresh('repo');
      for (const name of ['deep', 'deeper']) {
        const dir = makeSkill(repo, name, '1.0.0');
        const make = `const fs = require('node:fs'); process.chdir(${JSON.stringify(dir)});
          for (let i = 0; i < ${levels}; i++) { fs.mkdirSync('d'.repeat(200)); process.chdir('d'.repeat(200)); }
          fs.writeFileSync('notes.md', '# Deep\\n');`;
        expect((await execa(process.execPath, ['-e', make])).exitCode).toBe(0);
      }
      try {
        const r = await cli(reg, ['install', repo, '--into', into], project);
        expect(r.exitCode, `${levels}: ${r.stderr}`).toBe(2);
        expect(r.stderr).toMatch(/^skipped +deep \(/m);
        expect(r.stderr).toMatch(/^skipped +deeper \(/m);
        // No line says that other skills were installed: none was.
        expect(r.stderr).not.toContain('the other skills installed');
        expect(r.stderr).toContain(
          'error: no skill to install: every skill chosen lies deeper than the system can name (PATH_MAX); nothing was installed\n',
        );
        expect(r.stdout).toBe('');
        expect(existsSync(join(project, 'skills-lock.json'))).toBe(false);
        const json = await cli(reg, ['install', repo, '--into', into, '--json'], project);
        expect(json.exitCode).toBe(2);
        expect(JSON.parse(json.stdout).error.code).toBe('E_IO');
      } finally {
        await execa('rm', ['-rf', repo]);
      }
    }
  });

  it('skips a skill whose files fit in the source but not where they are placed, installs the others, exit 1; nothing of it is written', async () => {
    // 18 folders of 200 bytes below deep: some 3,700 bytes, which fit here, and not below 2 more folders of 200.
    const { project, reg, repo, deep } = await deepSource(18);
    const into = `${'p'.repeat(200)}/${'q'.repeat(200)}/skills`;
    try {
      const r = await cli(reg, ['install', repo, '--into', into], project);
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toMatch(
        /^skipped {3}deep \(\S+\/deep\): (?:d{200}\/){18}notes\.md would lie deeper than the system can name in \S+\/skills \(a path of 4,\d{3} bytes; the system takes 4,096, PATH_MAX\), though it fits where it is read; it was skipped$/m,
      );
      expect(r.stdout).toContain(`${reg}: 2 added, 1 skipped (path too long); skills-lock.json written`);
      // Nothing of it: no copy, no staging folder, not in the lock, not registered.
      expect(readdirSync(join(project, into)).sort()).toEqual(['one', 'two']);
      expect(Object.keys(lockOf(project).skills)).toEqual(['one', 'two']);
      expect(indexOf(reg).skills.map((e) => e.id)).toEqual(['one', 'two']);
      expect(readdirSync(join(reg, 'built-in')).sort()).toEqual(['one@1.0.0', 'two@2.0.0']);
      expect(readdirSync(join(project, into, '..'))).toEqual(['skills']);
      const json = await cli(reg, ['install', repo, '--into', into, '--json', '--dry-run'], project);
      expect(JSON.parse(json.stdout).skipped.map((s: { id: string; reason: string }) => [s.id, s.reason])).toEqual([
        ['deep', 'path-too-long'],
      ]);
      // Named on its own, it refuses the run, and writes nothing.
      const alone = await cli(reg, ['install', deep, '--into', into], fresh('project'));
      expect(alone.exitCode).toBe(2);
      expect(alone.stderr).toMatch(
        /^error: deep: .* would lie deeper than the system can name in .*; nothing was installed$/m,
      );
    } finally {
      await execa('rm', ['-rf', deep]);
    }
  });

  it('says when the search of a source stopped at its limits (SKILLS_MAX_FOLDERS), in --list and where --skill finds no skill, never silently', async () => {
    // A repository of 61,000 skills (tomevault-io/skills-registry) is past the 20,000 one search finds: `--skill x`
    // for a skill beyond the cut said "no such skill", and --list listed 20,000 as if they were all.
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    const repo = fresh('repo');
    for (let i = 1; i <= 6; i++) makeSkill(join(repo, `group${i}`), `s${i}`, '1.0.0');
    const env = { SKILLS_REGISTRY: reg, SKILLS_MAX_FOLDERS: '4' };
    const list = await runCli(['install', repo, '--list'], { cwd: project, env });
    expect(list.exitCode).toBe(0);
    expect(list.stdout.split('\n')[0]).toMatch(/: [1-3] skills?$/);
    expect(list.stderr).toMatch(
      /^warning: the search for skills stopped at .*: it read 4 folders, the most one search reads \(SKILLS_MAX_FOLDERS raises it\); skills in folders not yet read are left out: name the folder inside the source that holds the skill/m,
    );
    const named = await runCli(['install', repo, '--skill', 's6', '--into', '.agents/skills'], { cwd: project, env });
    expect(named.exitCode).toBe(2);
    expect(named.stderr).toMatch(
      /--skill s6: no such skill in .* \(it holds s1.*\), but not all of it was searched: the search for skills stopped at /,
    );
    expect(existsSync(join(project, '.agents/skills'))).toBe(false);
    // Without the limit every skill is there.
    const all = await cli(reg, ['install', repo, '--list'], project);
    expect(all.stdout.split('\n')[0]).toMatch(/: 6 skills$/);
    expect(all.stderr).toBe('');
    // The searches for skills nested in a top skill share one budget, and say where they stopped too.
    const top = makeSkill(fresh(), 'top', '1.0.0');
    for (const n of ['n1', 'n2', 'n3']) makeSkill(join(top, `${n}-group`, 'deeper'), n, '1.0.0');
    const nested = await runCli(['install', top, '--list'], { cwd: project, env: { ...env, SKILLS_MAX_FOLDERS: '3' } });
    expect(nested.stdout.split('\n')[0]).toMatch(/: [1-3] skills?$/);
    expect(nested.stderr).toMatch(/^warning: the search for skills stopped at .*n\d-group.*: it read 3 folders/m);
    // A search cut before its first skill says so, of a folder and of a git repository alike: it said the folder
    // "is not a skill: it holds no SKILL.md", and the repository "no skill at commit …".
    await execa('git', ['init', '--quiet', repo]);
    await execa('git', ['-C', repo, 'add', '--all']);
    await execa('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '--quiet', '-m', 'skills']);
    for (const source of [repo, `file://${repo}`])
      for (const args of [['--list'], ['--skill', 's1']]) {
        const none = await runCli(['install', source, ...args], {
          cwd: project,
          env: { ...env, SKILLS_MAX_FOLDERS: '1' },
        });
        expect(none.exitCode, `${source} ${args.join(' ')}`).toBe(2);
        expect(none.stderr, `${source} ${args.join(' ')}`).toMatch(
          /: no skill found at (?:its top or in the folders read|commit [0-9a-f]{12}), but not all of it was searched: the search for skills stopped at .*: it read 1 folder, the most one search reads \(SKILLS_MAX_FOLDERS raises it\)/,
        );
      }
  });

  it("--skill takes a chosen skill's dependency from its own source when the source holds it, before the registry", async () => {
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    const repo = fresh('repo');
    makeSkill(join(repo, 'skills'), 'report', '1.0.0', {}, 'dependencies:\n  - charts@^1.0.0\n');
    makeSkill(join(repo, 'skills'), 'charts', '1.2.0');
    makeSkill(join(repo, 'skills'), 'other', '1.0.0');
    const r = await cli(
      reg,
      ['install', join(repo, 'skills'), '--skill', 'report', '--into', '.agents/skills'],
      project,
    );
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('added     charts@1.2.0 (dependency)  → .agents/skills/charts');
    expect(readdirSync(join(project, '.agents/skills')).sort()).toEqual(['charts', 'report']);
    const lock = lockOf(project);
    expect(lock.skills.report!.dependencies).toEqual({ charts: '1.2.0' });
    expect(lock.skills.charts!.source).toBe(`folder:${relative(project, join(repo, 'skills/charts'))}`);
  });

  it('installs a SKILL.md skill that lists its Python packages under dependencies, without them, and says so', async () => {
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    const repo = fresh('repo');
    // As the AI-research skills in public collections write them: pip names and requirements, no skills.
    makeSkill(repo, 'distil', '1.0.0', {}, 'dependencies: [transformers, torch, "datasets>=2.0"]');
    const basic = makeSkill(repo, 'basic', '1.0.0');
    makeSkill(repo, 'uses-basic', '1.0.0', {}, 'dependencies: [basic, numpy]');
    const r = await cli(reg, ['install', join(repo, 'distil'), join(repo, 'uses-basic'), basic], project);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(
      'warning: distil@1.0.0 lists transformers, torch under dependencies, which no registry or source holds as another skill: left out (skills installs skills, not Python or npm packages)',
    );
    expect(r.stderr).toContain('warning: uses-basic@1.0.0 lists numpy under dependencies');
    const lock = lockOf(project);
    expect(lock.skills.distil!.dependencies).toEqual({});
    // A dependency that is a skill is still installed and locked.
    expect(lock.skills['uses-basic']!.dependencies).toEqual({ basic: '1.0.0' });
    const v = await runCli(['validate', join(repo, 'distil')]);
    expect(v.exitCode).toBe(0);
    expect(v.stdout).toContain(
      'warning  dependencies[2]: "datasets>=2.0" is a package requirement (pip, npm), not a skill',
    );
  });

  it('installs and syncs a SKILL.md version that plainly means one (1.0, v2) as that one; refuses 1.0.01 and a manifest 1.0', async () => {
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    const repo = fresh('repo');
    makeSkill(repo, 'short', '1.0');
    makeSkill(repo, 'vee', 'v2');
    const r = await cli(reg, ['install', join(repo, 'short'), join(repo, 'vee')], project);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('added     short@1.0.0  → .agents/skills/short');
    expect(r.stderr).toContain(
      'warning: 2 skills have a version that is not MAJOR.MINOR.PATCH; each is kept as the one it plainly means (--verbose names them)',
    );
    const one = await cli(reg, ['install', join(repo, 'short'), '--dry-run'], fresh('project'));
    expect(one.stderr).toContain(
      'warning: short\'s version "1.0" is kept as 1.0.0 (write it as MAJOR.MINOR.PATCH in its SKILL.md to keep it as written)',
    );
    expect(lockOf(project).skills.vee!.version).toBe('2.0.0');
    const sync = await runCli(['registry', 'sync', repo, '--registry', join(fresh(), 'reg2')]);
    expect(sync.exitCode).toBe(0);
    expect(sync.stdout).toContain(
      'warning: 2 skills have a version that is not MAJOR.MINOR.PATCH (short "1.0" as 1.0.0, vee "v2" as 2.0.0)',
    );
    const odd = fresh('odd');
    makeSkill(odd, 'zeros', '1.0.01');
    writeTree(join(odd, 'man'), {
      'manifest.json': JSON.stringify({
        id: 'man',
        name: 'Man',
        version: '1.0',
        description: 'Does man things. Use when testing.',
        owner: 'me',
      }),
    });
    for (const dir of ['zeros', 'man']) {
      const bad = await cli(reg, ['install', join(odd, dir)], project);
      expect(bad.exitCode, dir).toBe(1);
      expect(bad.stderr, dir).toContain('is not a semantic version');
    }
  });

  it('installs a skill whose folder is not named as it is (vercel-labs/agent-skills) under its name, and says so', async () => {
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    const repo = fresh('repo');
    writeTree(join(repo, 'skills/react-best-practices'), {
      'SKILL.md': skillMd('name: vercel-react-best-practices\ndescription: React rules. Use when writing React code.'),
    });
    writeTree(join(repo, 'skills/web-design'), {
      'SKILL.md': skillMd('name: web-design\ndescription: Design rules. Use when designing pages.'),
    });
    const r = await cli(reg, ['install', join(repo, 'skills')], project);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(
      'added     vercel-react-best-practices@0.0.0  → .agents/skills/vercel-react-best-practices',
    );
    expect(r.stderr).toContain(
      'warning: vercel-react-best-practices is in a folder named react-best-practices; it is installed as vercel-react-best-practices, by its name',
    );
    expect(readdirSync(join(project, '.agents/skills')).sort()).toEqual(['vercel-react-best-practices', 'web-design']);
    // The copy is named as the skill, so it is valid where it is.
    const v = await runCli(['validate', join(project, '.agents/skills')]);
    expect(v.exitCode).toBe(0);
    // validate of the source still reports the folder, as the standard asks.
    expect((await runCli(['validate', join(repo, 'skills')])).stdout).toContain('SK010 name-matches-folder');
  });

  it('installs a skill without a version (most public skills) as 0.0.0, and its changed content as an update', async () => {
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    const dir = join(fresh('src'), 'plain');
    writeTree(dir, {
      'SKILL.md': skillMd(
        'name: plain\ndescription: Has no version, as the standard allows. Use when testing install.',
      ),
      'notes.md': 'one\n',
    });
    const r = await cli(reg, ['install', dir, '--into', '.agents/skills'], project);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('warning: plain has no version; it is kept as 0.0.0');
    expect(r.stdout.split('\n')[0]).toBe('added     plain@0.0.0  → .agents/skills/plain');
    const first = lockOf(project).skills.plain!;
    expect(first.version).toBe('0.0.0');

    writeFileSync(join(dir, 'notes.md'), 'two\n');
    // CI's --frozen sees that the lock would change, and installs nothing.
    const frozen = await cli(reg, ['install', dir, '--into', '.agents/skills', '--frozen'], project);
    expect(frozen.exitCode).toBe(1);
    expect(readFileSync(join(project, '.agents/skills/plain/notes.md'), 'utf8')).toBe('one\n');
    const again = await cli(reg, ['install', dir, '--into', '.agents/skills'], project);
    expect(again.exitCode).toBe(0);
    expect(readFileSync(join(project, '.agents/skills/plain/notes.md'), 'utf8')).toBe('two\n');
    expect(lockOf(project).skills.plain!.integrity).not.toBe(first.integrity);
    // Replaying the lock installs exactly the new content.
    const replay = await cli(reg, ['install', '--into', '.agents/skills'], project);
    expect(replay.exitCode).toBe(0);
  });

  it('says what an update replaced: the version before, and its source when another source replaced it', async () => {
    // A release archive of 1.1.0 over the 1.2.0 a git checkout installed said only "updated swift-expert@1.1.0".
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    const newer = makeSkill(fresh('checkout'), 'swift', '1.2.0');
    const older = makeSkill(fresh('release'), 'swift', '1.1.0');
    expect((await cli(reg, ['install', newer, '--into', '.agents/skills'], project)).exitCode).toBe(0);
    const r = await cli(reg, ['install', older, '--into', '.agents/skills'], project);
    expect(r.exitCode, r.stderr).toBe(0);
    const from = `folder:${relative(project, newer)}`;
    expect(r.stdout.split('\n')[0]).toBe(`updated   swift@1.1.0 (was 1.2.0 from ${from})  → .agents/skills/swift`);
    const json = await cli(reg, ['install', newer, '--into', '.agents/skills', '--json'], project);
    const doc = JSON.parse(json.stdout) as { skills: { status: string; was?: unknown }[] };
    expect(doc.skills[0]).toMatchObject({
      status: 'updated',
      was: { version: '1.1.0', source: `folder:${relative(project, older)}` },
    });
  });

  it('installs a folder, a .tgz from pack, a .skill and a .zip into the registry, --into and the lock', async () => {
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    const src = fresh('src');
    makeSkill(src, 'from-folder', '1.0.0', { 'scripts/run.sh': '#!/bin/sh\n' });
    makeSkill(src, 'from-tgz', '2.0.0');
    makeSkill(src, 'from-skill', '3.0.0');
    makeSkill(src, 'from-zip', '4.0.0', { 'references/r.md': '# R\n' });
    expect((await cli(reg, ['pack', join(src, 'from-tgz'), '--out', join(project, 'dist')], project)).exitCode).toBe(0);
    expect(
      (await cli(reg, ['pack', join(src, 'from-skill'), '--format', 'skill', '--out', join(project, 'dist')], project))
        .exitCode,
    ).toBe(0);
    await execa('zip', ['-qr', join(project, 'dist/from-zip.zip'), 'from-zip'], { cwd: src });

    const r = await cli(
      reg,
      [
        'install',
        join(src, 'from-folder'),
        './dist/from-tgz-2.0.0.tgz',
        'dist/from-skill.skill',
        'dist/from-zip.zip',
        '--into',
        '.claude/skills',
        '--for',
        'bee-1',
      ],
      project,
    );
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\n')).toEqual([
      'added     from-folder@1.0.0  → .claude/skills/from-folder',
      'added     from-tgz@2.0.0  → .claude/skills/from-tgz',
      'added     from-skill@3.0.0  → .claude/skills/from-skill',
      'added     from-zip@4.0.0  → .claude/skills/from-zip',
      `${reg}: 4 added; skills-lock.json written`,
    ]);
    expect(readdirSync(join(project, '.claude/skills')).sort()).toEqual([
      'from-folder',
      'from-skill',
      'from-tgz',
      'from-zip',
    ]);
    expect(readFileSync(join(project, '.claude/skills/from-zip/references/r.md'), 'utf8')).toBe('# R\n');
    // --for's consumer, and the project whose folder took the copies (install records it: another project's
    // uninstall leaves the store's copy to it).
    expect(indexOf(reg).skills.map((s) => [s.id, s.usedBy])).toEqual([
      ['from-folder', [project, 'bee-1']],
      ['from-skill', [project, 'bee-1']],
      ['from-tgz', [project, 'bee-1']],
      ['from-zip', [project, 'bee-1']],
    ]);
    const lock = lockOf(project);
    expect(Object.fromEntries(Object.entries(lock.skills).map(([id, e]) => [id, e.source]))).toEqual({
      'from-folder': `folder:../src-${src.split('-').at(-1)}/from-folder`,
      'from-skill': 'archive:dist/from-skill.skill',
      'from-tgz': 'archive:dist/from-tgz-2.0.0.tgz',
      'from-zip': 'archive:dist/from-zip.zip',
    });
    const releases = JSON.parse(readFileSync(join(reg, 'releases/from-tgz.json'), 'utf8'));
    expect(lock.skills['from-tgz']!.integrity).toBe(releases.releases['2.0.0'].integrity);
    // Nothing of the unpacking is left in the registry.
    expect(readdirSync(reg).sort()).toEqual([
      'built-in',
      'index.json',
      'index.json.bak',
      'releases',
      'resolve-index',
      'selection-index',
    ]);
  });

  it('installs specs with their dependencies from the registry and from --from DIR, and a folder whose dependencies resolve', async () => {
    const from = await exampleRegistry();
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    const r = await cli(
      reg,
      ['install', 'data-analysis@^1', '--from', from, '--into', '.agents/skills', '--json'],
      project,
    );
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(
      doc.skills.map((s: { id: string; requested: boolean; status: string }) => [s.id, s.requested, s.status]),
    ).toEqual([
      ['basic-tools', false, 'added'],
      ['data-analysis', true, 'added'],
    ]);
    expect(readdirSync(join(project, '.agents/skills')).sort()).toEqual(['basic-tools', 'data-analysis']);
    const lock = lockOf(project);
    expect(lock.skills['data-analysis']).toMatchObject({ version: '1.0.0', dependencies: { 'basic-tools': '1.0.0' } });
    expect(lock.skills['basic-tools']!.source).toMatch(/^registry:\.\.\/from-\d+\/registry$/);

    // A folder with a dependency: resolved against the registry, where basic-tools now is.
    const src = fresh('src');
    makeSkill(src, 'needs-tools', '0.1.0', {}, 'dependencies:\n  - basic-tools@^1.0.0\n');
    const again = await cli(reg, ['install', join(src, 'needs-tools')], project);
    expect(again.exitCode).toBe(0);
    // The lock recorded --into .agents/skills: this install places there too, without being told.
    expect(again.stdout.split('\n')).toEqual([
      'unchanged basic-tools@1.0.0 (dependency)  → .agents/skills/basic-tools',
      'added     needs-tools@0.1.0  → .agents/skills/needs-tools',
      `${reg}: 1 added, 1 unchanged; skills-lock.json written`,
    ]);
    // basic-tools keeps where it first came from.
    expect(lockOf(project).skills['basic-tools']!.source).toBe(lock.skills['basic-tools']!.source);

    // A spec that does not resolve is a finding: exit 1, nothing written.
    const before = readFileSync(join(project, 'skills-lock.json'), 'utf8');
    const none = await cli(reg, ['install', 'basic-tools@^9'], project);
    expect(none.exitCode).toBe(1);
    expect(none.stderr).toContain('error: ');
    expect(readFileSync(join(project, 'skills-lock.json'), 'utf8')).toBe(before);
  });

  it('refuses an invalid skill with its findings (exit 1) and leaves registry, --into and lock as they were', async () => {
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    const src = fresh('src');
    writeTree(join(src, 'broken'), { 'SKILL.md': skillMd('name: Broken\nmetadata:\n  version: "1.0.0"') });
    const r = await cli(reg, ['install', join(src, 'broken'), '--into', 'skills'], project);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`error: ${join(src, 'broken')}: Broken is not valid; nothing was installed`);
    expect(r.stderr).toContain('SK011 description-required');
    expect(existsSync(reg)).toBe(false);
    expect(readdirSync(project)).toEqual([]);
  });
});

describe('skills install: the lockfile (built CLI)', () => {
  it('with no arguments installs exactly what the lock says; --frozen fails when it would change', async () => {
    const from = await exampleRegistry();
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    expect(
      (await cli(reg, ['install', 'social-media-apis@2.1.0', '--from', from, '--into', 'skills'], project)).exitCode,
    ).toBe(0);
    const lockText = readFileSync(join(project, 'skills-lock.json'), 'utf8');
    const installed = snapshot(join(project, 'skills'));

    // A fresh machine: no registry, no folders; the lock alone.
    rmSync(reg, { recursive: true });
    rmSync(join(project, 'skills'), { recursive: true });
    const replay = await cli(reg, ['install', '--frozen', '--into', 'skills'], project);
    expect(replay.stderr).toBe('');
    expect(replay.exitCode).toBe(0);
    expect(replay.stdout.split('\n').at(-1)).toBe(`${reg}: 2 placed; skills-lock.json unchanged`);
    expect(snapshot(join(project, 'skills'))).toEqual(installed);
    expect(readFileSync(join(project, 'skills-lock.json'), 'utf8')).toBe(lockText);
    expect(indexOf(reg).skills.map((s) => `${s.id}@${s.latestVersion}`)).toEqual([
      'basic-tools@1.0.0',
      'social-media-apis@2.1.0',
    ]);

    // --frozen with a source that would add to the lock: exit 1, and nothing is written.
    const src = fresh('src');
    makeSkill(src, 'newcomer', '1.0.0');
    const indexBefore = readFileSync(join(reg, 'index.json'), 'utf8');
    const frozen = await cli(reg, ['install', join(src, 'newcomer'), '--frozen', '--json'], project);
    expect(frozen.exitCode).toBe(1);
    const doc = JSON.parse(frozen.stdout);
    expect(doc.error).toMatchObject({ code: 'E_INVALID', kind: 'frozen' });
    expect(doc.changes).toEqual(['+ newcomer@1.0.0']);
    expect(readFileSync(join(project, 'skills-lock.json'), 'utf8')).toBe(lockText);
    expect(readFileSync(join(reg, 'index.json'), 'utf8')).toBe(indexBefore);

    // No lock at all: a usage error.
    const nothing = await cli(reg, ['install'], fresh('empty'));
    expect(nothing.exitCode).toBe(2);
    expect(nothing.stderr).toMatch(/^error: nothing to install: no skills-lock.json in /);
  });

  it('fails on an integrity mismatch with both values, whatever the flags (--frozen: exit 1), and writes nothing', async () => {
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    const src = fresh('src');
    const dir = makeSkill(src, 'drifting', '1.0.0', { 'notes.md': 'one\n' });
    expect((await cli(reg, ['install', dir], project)).exitCode).toBe(0);
    const locked = lockOf(project).skills.drifting!.integrity;
    writeFileSync(join(dir, 'notes.md'), 'two\n');
    const lockText = readFileSync(join(project, 'skills-lock.json'), 'utf8');

    for (const args of [['install'], ['install', dir], ['install', dir, '--force']]) {
      const r = await cli(reg, args, project);
      expect(r.exitCode).toBe(2);
      const first = r.stderr.split('\n')[0]!;
      expect(first).toMatch(
        /^error: integrity mismatch for drifting@1\.0\.0: .*skills-lock\.json has sha512-.* but .* has sha512-.*; nothing was installed$/,
      );
      expect(first).toContain(locked);
      expect(readFileSync(join(project, 'skills-lock.json'), 'utf8')).toBe(lockText);
    }
    // With --frozen it is the lock that does not hold: exit 1, as for an unversioned skill's new content (npm ci).
    for (const args of [
      ['install', '--frozen'],
      ['install', dir, '--frozen'],
    ]) {
      const r = await cli(reg, args, project);
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr.split('\n')[0]).toMatch(
        /^error: integrity mismatch for drifting@1\.0\.0: .*; nothing was installed$/,
      );
      const j = await cli(reg, [...args, '--json'], project);
      expect(j.exitCode).toBe(1);
      expect(JSON.parse(j.stdout).error).toMatchObject({ code: 'E_INVALID', kind: 'frozen' });
      expect(readFileSync(join(project, 'skills-lock.json'), 'utf8')).toBe(lockText);
    }
  });

  it('reports a corrupt lockfile with file:line:column (exit 2)', async () => {
    const project = fresh('project');
    writeFileSync(
      join(project, 'skills-lock.json'),
      '{\n  "lockfileVersion": 1,\n  "skills": {\n    "x": { "version": 1 }\n  }\n}\n',
    );
    const r = await cli(join(fresh(), 'registry'), ['install', '--json'], project);
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stdout).error.message).toBe(
      `${join(project, 'skills-lock.json')}:4:23: skills-lock.json: skills.x.version: Expected string, received number`,
    );
  });
});

describe('skills install: the lock records the agent folders (--into) (built CLI)', () => {
  it('a registry spec with a registry asked for is placed where agents read it, as any source; --for places nothing', async () => {
    const reg = await exampleRegistry();
    // No agent folder: .agents/skills, said on stderr; the registry keeps its one copy.
    const bare = fresh('project');
    mkdirSync(join(bare, '.git'));
    const dry = await runCli(['install', 'web-scraping@1.2.0', '--registry', reg, '--dry-run'], { cwd: bare });
    expect(dry.exitCode).toBe(0);
    expect(dry.stderr).toContain(
      ': would be placed into .agents/skills, which most agents read but Claude Code does not (it reads .claude/skills: --agent claude-code)',
    );
    expect(readdirSync(bare)).toEqual(['.git']);
    const one = await runCli(['install', 'web-scraping@1.2.0', '--registry', reg], { cwd: bare });
    expect(one.exitCode).toBe(0);
    expect(one.stdout.split('\n')[0]).toBe('added     web-scraping@1.2.0  → .agents/skills/web-scraping');
    expect(one.stderr).toContain('no agent folder in');
    expect(existsSync(join(bare, '.agents/skills/web-scraping/SKILL.md'))).toBe(true);
    expect(lockOf(bare).into).toEqual(['.agents/skills']);
    expect(indexOf(reg).skills.filter((s) => s.id === 'web-scraping')).toHaveLength(1);
    // The project's own agent folder (here through a .skills/ registry in the project, which asks for it too).
    const claude = fresh('project');
    mkdirSync(join(claude, '.claude/skills'), { recursive: true });
    cpSync(reg, join(claude, '.skills'), { recursive: true });
    const two = await runCli(['install', 'data-analysis@1.0.0'], { cwd: claude, env: { SKILLS_REGISTRY: '' } });
    expect(two.exitCode).toBe(0);
    expect(two.stderr).not.toContain('no agent folder');
    expect(readdirSync(join(claude, '.claude/skills')).sort()).toEqual(['basic-tools', 'data-analysis']);
    expect(lockOf(claude).into).toEqual(['.claude/skills']);
    // For a consumer (an agent server reading the registry): the registry records it; no agent folder is written.
    const server = fresh('project');
    mkdirSync(join(server, '.git'));
    const three = await runCli(['install', 'web-scraping@1.2.0', '--registry', reg, '--for', 'bot'], { cwd: server });
    expect(three.exitCode).toBe(0);
    expect(existsSync(join(server, '.agents'))).toBe(false);
    // The project that took a copy earlier is recorded too; the consumer's install took none.
    expect(indexOf(reg).skills.find((s) => s.id === 'web-scraping')?.usedBy).toEqual([bare, 'bot']);
  });

  it('--for an agent id no skill is used by (--for claude-code) says --agent was likely meant; a known consumer is not warned of', async () => {
    const src = fresh('src');
    writeTree(src, {
      'pdf/SKILL.md': skillMd('name: pdf\ndescription: Fill PDF forms. Use when filling PDF forms.\nversion: 1.0.0'),
    });
    const project = fresh('project');
    mkdirSync(join(project, '.git'));
    const reg = join(fresh(), 'registry');
    const hint =
      'did you mean --agent claude-code? (it places them into .claude/skills, where Claude Code reads skills)';
    const first = await cli(reg, ['install', join(src, 'pdf'), '--for', 'claude-code'], project);
    expect(first.exitCode).toBe(0);
    expect(first.stderr).toContain(
      'warning: --for "claude-code" records who uses the skills in the registry and places them into no agent folder, so Claude Code does not see them',
    );
    expect(first.stderr.split(hint)).toHaveLength(2);
    expect(existsSync(join(project, '.claude'))).toBe(false);
    // An alias is an agent's id too; in --json the warning is in the document's warnings.
    const alias = await cli(reg, ['install', join(src, 'pdf'), '--for', 'claude', '--json'], project);
    expect(alias.exitCode).toBe(0);
    expect(JSON.stringify(JSON.parse(alias.stdout))).toContain('did you mean --agent claude-code?');
    // Now the registry knows the consumer "claude-code" (an agent server may be named so): no warning.
    const again = await cli(reg, ['install', join(src, 'pdf'), '--for', 'claude-code'], project);
    expect(again.exitCode).toBe(0);
    expect(again.stderr).not.toContain('--agent');
    // Not an agent's id, or placed into an agent's folder as well: no warning.
    const bot = await cli(reg, ['install', join(src, 'pdf'), '--for', 'cursor', '--agent', 'cursor'], project);
    expect(bot.exitCode).toBe(0);
    expect(bot.stderr).not.toContain('--agent');
    const named = await cli(reg, ['install', join(src, 'pdf'), '--for', 'content-creator'], project);
    expect(named.stderr).not.toContain('--agent');
  });

  it('a fresh clone gets .claude/skills/<id>/ from `skills install` alone (the lock only, a fresh registry)', async () => {
    const from = await exampleRegistry();
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    expect(
      (await cli(reg, ['install', 'data-analysis@^1', '--from', from, '--into', '.claude/skills'], project)).exitCode,
    ).toBe(0);
    const lockText = readFileSync(join(project, 'skills-lock.json'), 'utf8');
    expect(lockText.startsWith('{\n  "into": [\n    ".claude/skills"\n  ],\n  "lockfileVersion": 1,\n')).toBe(true);
    const installed = snapshot(join(project, '.claude/skills'));
    expect(Object.keys(installed)).toContain('data-analysis/SKILL.md');

    // The teammate's clone: the lock (next to the project, so its registry:../from-N source still resolves), a
    // .git, and the command run from a subfolder; the folders are placed relative to the lock, not the cwd.
    const clone = fresh('clone');
    mkdirSync(join(clone, '.git'));
    mkdirSync(join(clone, 'docs'));
    cpSync(join(project, 'skills-lock.json'), join(clone, 'skills-lock.json'));
    const reg2 = join(fresh(), 'registry');
    const r = await cli(reg2, ['install'], join(clone, 'docs'));
    // Claude Code reads SKILL.md skills only: the manifest.json dependency is placed, and said to be unseen there.
    expect(r.stderr).toBe(
      'warning: basic-tools is a manifest.json skill, and Claude Code reads only SKILL.md skills from ../.claude/skills: it is placed there but will not be seen (skills render-prompt and run-script read it)',
    );
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\n')).toEqual([
      'placed    basic-tools@1.0.0  → ../.claude/skills/basic-tools',
      'placed    data-analysis@1.0.0  → ../.claude/skills/data-analysis',
      `${reg2}: 2 placed; ../skills-lock.json unchanged`,
    ]);
    expect(snapshot(join(clone, '.claude/skills'))).toEqual(installed);
    expect(existsSync(join(clone, 'docs/.claude'))).toBe(false);
    expect(readFileSync(join(clone, 'skills-lock.json'), 'utf8')).toBe(lockText);
    // Run again: everything is there already.
    const again = await cli(reg2, ['install', '--json'], clone);
    expect(again.exitCode).toBe(0);
    const doc = JSON.parse(again.stdout);
    expect(doc.lockChanged).toBe(false);
    expect(doc.skills[1]).toMatchObject({
      id: 'data-analysis',
      into: join(clone, '.claude/skills/data-analysis'),
      intoStatus: 'unchanged',
      placed: [{ into: join(clone, '.claude/skills/data-analysis'), status: 'unchanged' }],
    });
  });

  it('a later install places its skills into every recorded folder; a new --into is recorded, --into first in the JSON', async () => {
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    const src = fresh('src');
    for (const id of ['one', 'two', 'three']) makeSkill(src, id, '1.0.0');
    expect((await cli(reg, ['install', join(src, 'one'), '--into', '.claude/skills'], project)).exitCode).toBe(0);

    const two = await cli(reg, ['install', join(src, 'two')], project);
    expect(two.exitCode).toBe(0);
    expect(two.stdout.split('\n')[0]).toBe('added     two@1.0.0  → .claude/skills/two');
    expect(readdirSync(join(project, '.claude/skills')).sort()).toEqual(['one', 'two']);

    const three = await cli(reg, ['install', join(src, 'three'), '--into', '.agents/skills', '--json'], project);
    expect(three.exitCode).toBe(0);
    expect(JSON.parse(three.stdout).skills[0]).toMatchObject({
      id: 'three',
      into: join(project, '.agents/skills/three'),
      intoStatus: 'written',
      placed: [
        { into: join(project, '.agents/skills/three'), status: 'written' },
        { into: join(project, '.claude/skills/three'), status: 'written' },
      ],
    });
    expect(lockOf(project).into).toEqual(['.agents/skills', '.claude/skills']);
    expect(readdirSync(join(project, '.agents/skills'))).toEqual(['three']);

    // Replaying the lock fills every recorded folder with every locked skill.
    const replay = await cli(reg, ['install'], project);
    expect(replay.exitCode).toBe(0);
    expect(replay.stdout.split('\n')[0]).toBe(
      'placed    one@1.0.0  → .agents/skills/one, .claude/skills/one (unchanged)',
    );
    expect(readdirSync(join(project, '.agents/skills')).sort()).toEqual(['one', 'three', 'two']);
    expect(readdirSync(join(project, '.claude/skills')).sort()).toEqual(['one', 'three', 'two']);

    // The per-folder check: someone's own folder in a recorded folder stops the install before anything is written.
    makeSkill(src, 'four', '1.0.0');
    mkdirSync(join(project, '.agents/skills/four'));
    writeFileSync(join(project, '.agents/skills/four/SKILL.md'), 'mine\n');
    const lockText = readFileSync(join(project, 'skills-lock.json'), 'utf8');
    const refused = await cli(reg, ['install', join(src, 'four')], project);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr.split('\n')[0]).toBe(
      `error: ${join(project, '.agents/skills/four')} already exists and is not a copy skills installed (its content matches no version in ${join(project, 'skills-lock.json')}); nothing was installed`,
    );
    expect(existsSync(join(project, '.claude/skills/four'))).toBe(false);
    expect(readFileSync(join(project, 'skills-lock.json'), 'utf8')).toBe(lockText);
  });

  it('--frozen --into on a lock without "into" installs there and leaves the lock byte-identical; without --frozen it is recorded', async () => {
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    const src = fresh('src');
    makeSkill(src, 'ci-skill', '1.0.0');
    expect((await cli(reg, ['install', join(src, 'ci-skill')], project)).exitCode).toBe(0);
    // A lock from before "into" was recorded: the same lock with the key taken out, and no agent folder yet.
    const written = JSON.parse(readFileSync(join(project, 'skills-lock.json'), 'utf8')) as Record<string, unknown>;
    expect(written.into).toEqual(['.agents/skills']);
    delete written.into;
    writeFileSync(join(project, 'skills-lock.json'), `${JSON.stringify(written, null, 2)}\n`);
    rmSync(join(project, '.agents'), { recursive: true });
    const oldLock = readFileSync(join(project, 'skills-lock.json'), 'utf8');
    expect(oldLock).not.toContain('"into"');

    const ci = await cli(reg, ['install', '--frozen', '--into', '.claude/skills'], project);
    expect(ci.stderr).toBe('');
    expect(ci.exitCode).toBe(0);
    expect(ci.stdout.split('\n')).toEqual([
      'placed    ci-skill@1.0.0  → .claude/skills/ci-skill',
      `${reg}: 1 placed; skills-lock.json unchanged`,
    ]);
    expect(readFileSync(join(project, 'skills-lock.json'), 'utf8')).toBe(oldLock);
    // With a source too: --frozen fails on the skills only, never on the folder.
    makeSkill(src, 'newcomer', '1.0.0');
    const frozen = await cli(reg, ['install', join(src, 'newcomer'), '--frozen', '--into', 'other', '--json'], project);
    expect(frozen.exitCode).toBe(1);
    expect(JSON.parse(frozen.stdout).changes).toEqual(['+ newcomer@1.0.0']);
    expect(readFileSync(join(project, 'skills-lock.json'), 'utf8')).toBe(oldLock);

    // Outside the project: used, not recorded (it could not be, by the lock's own rule), with a warning.
    const outside = fresh('outside');
    const away = await cli(reg, ['install', '--into', outside], project);
    expect(away.exitCode).toBe(0);
    expect(away.stderr).toBe(
      `warning: --into ${outside} is outside ${project}, so skills-lock.json does not record it: pass --into again to place skills there`,
    );
    expect(readdirSync(outside)).toEqual(['ci-skill']);
    expect(readFileSync(join(project, 'skills-lock.json'), 'utf8')).toBe(oldLock);

    const record = await cli(reg, ['install', '--into', '.claude/skills'], project);
    expect(record.exitCode).toBe(0);
    expect(record.stdout.split('\n').at(-1)).toBe(`${reg}: 1 unchanged; skills-lock.json written`);
    expect(readFileSync(join(project, 'skills-lock.json'), 'utf8')).toBe(
      oldLock.replace('{\n', '{\n  "into": [\n    ".claude/skills"\n  ],\n'),
    );

    // --frozen never writes the lock, not even to put a hand-edited one in order.
    const handEdited =
      '{"skills": ' +
      JSON.stringify(lockOf(project).skills) +
      ', "lockfileVersion": 1, "into": ["skills", ".claude/skills"]}\n';
    writeFileSync(join(project, 'skills-lock.json'), handEdited);
    const again = await cli(reg, ['install', '--frozen'], project);
    expect(again.exitCode).toBe(0);
    expect(readdirSync(join(project, 'skills'))).toEqual(['ci-skill']);
    expect(readFileSync(join(project, 'skills-lock.json'), 'utf8')).toBe(handEdited);
  });

  it('refuses a lock whose "into" leads out of the project (.., absolute, a symlink), located, writing nothing', async () => {
    const src = fresh('src');
    const dir = makeSkill(src, 'victim', '1.0.0');
    const target = fresh('target');
    for (const [bad, line, column] of [
      ['../../etc', 3, 5],
      [target, 3, 5],
    ] as const) {
      const project = fresh('project');
      const reg = join(fresh(), 'registry');
      const text = `{\n  "into": [\n    ${JSON.stringify(bad)}\n  ],\n  "lockfileVersion": 1,\n  "skills": {}\n}\n`;
      writeFileSync(join(project, 'skills-lock.json'), text);
      for (const args of [
        ['install'],
        ['install', dir],
        ['install', dir, '--into', 'skills', '--force'],
        ['uninstall', 'victim'],
      ]) {
        const r = await cli(reg, args, project);
        expect(r.exitCode, args.join(' ')).toBe(2);
        expect(r.stderr.split('\n')[0]).toBe(
          `error: ${join(project, 'skills-lock.json')}:${line}:${column}: skills-lock.json: into.0: expected a folder inside the lockfile's folder, relative, with "/" and no ".." (e.g. ".claude/skills")`,
        );
      }
      expect(existsSync(reg)).toBe(false);
      expect(readdirSync(project)).toEqual(['skills-lock.json']);
      expect(readFileSync(join(project, 'skills-lock.json'), 'utf8')).toBe(text);
    }
    expect(readdirSync(target)).toEqual([]);

    // A recorded folder that passes the schema but leads out through a symlink in the repository.
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    symlinkSync(target, join(project, '.claude'));
    writeFileSync(
      join(project, 'skills-lock.json'),
      '{\n  "into": [\n    ".claude/skills"\n  ],\n  "lockfileVersion": 1,\n  "skills": {}\n}\n',
    );
    const r = await cli(reg, ['install', dir], project);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      `error: ${join(project, 'skills-lock.json')}: into ".claude/skills": ${join(project, '.claude')} leads out of ${project} (through a symlink, to ${target}); nothing was installed`,
    );
    expect(readdirSync(target)).toEqual([]);
    expect(existsSync(reg)).toBe(false);
  });
});

describe('skills uninstall (built CLI)', () => {
  it('removes the copy skills installed from each folder the lock records; leaves one that was changed, with a warning', async () => {
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    const src = fresh('src');
    makeSkill(src, 'gone', '1.0.0');
    makeSkill(src, 'edited', '1.0.0');
    expect(
      (await cli(reg, ['install', join(src, 'gone'), join(src, 'edited'), '--into', '.claude/skills'], project))
        .exitCode,
    ).toBe(0);
    expect((await cli(reg, ['install', '--into', '.agents/skills'], project)).exitCode).toBe(0);

    const r = await cli(reg, ['uninstall', 'gone'], project);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      'uninstalled gone@1.0.0 from .agents/skills/gone, .claude/skills/gone, skills-lock.json, the store (built-in/gone@1.0.0)',
    );
    expect(readdirSync(join(project, '.claude/skills'))).toEqual(['edited']);
    expect(readdirSync(join(project, '.agents/skills'))).toEqual(['edited']);
    expect(lockOf(project).into).toEqual(['.agents/skills', '.claude/skills']);

    writeFileSync(join(project, '.claude/skills/edited/notes.md'), 'my notes\n');
    const kept = await cli(reg, ['uninstall', 'edited', '--json'], project);
    expect(kept.exitCode).toBe(0);
    const doc = JSON.parse(kept.stdout);
    expect(doc).toMatchObject({
      id: 'edited',
      into: join(project, '.agents/skills/edited'),
      removed: [join(project, '.agents/skills/edited')],
      lock: true,
    });
    expect(doc.warnings).toEqual([
      `${join(project, '.claude/skills/edited')} was left in place: it is not the copy skills installed (its content does not match ${join(project, 'skills-lock.json')}); remove it by hand, or with --into ${join(project, '.claude/skills')} --force`,
    ]);
    expect(readFileSync(join(project, '.claude/skills/edited/notes.md'), 'utf8')).toBe('my notes\n');
    expect(existsSync(join(project, '.agents/skills/edited'))).toBe(false);
  });

  it('removes from --into, the lock, and the store unless something else uses it', async () => {
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    const src = fresh('src');
    makeSkill(src, 'shared', '1.0.0');
    makeSkill(src, 'solo', '1.0.0');
    expect(
      (await cli(reg, ['install', join(src, 'shared'), join(src, 'solo'), '--into', 'skills'], project)).exitCode,
    ).toBe(0);
    expect((await cli(reg, ['use', 'shared', '--by', 'other-agent'], project)).exitCode).toBe(0);

    const solo = await cli(reg, ['uninstall', 'solo', '--into', 'skills'], project);
    expect(solo.exitCode).toBe(0);
    expect(solo.stdout).toBe(
      'uninstalled solo@1.0.0 from skills/solo, skills-lock.json, the store (built-in/solo@1.0.0)',
    );
    const shared = await cli(reg, ['uninstall', 'shared', '--into', 'skills', '--json'], project);
    expect(shared.exitCode).toBe(0);
    expect(JSON.parse(shared.stdout)).toMatchObject({
      id: 'shared',
      version: '1.0.0',
      lock: true,
      store: [],
      keptFor: ['other-agent'],
    });
    expect(readdirSync(join(project, 'skills'))).toEqual([]);
    expect(lockOf(project).skills).toEqual({});
    expect(indexOf(reg).skills.map((s) => s.id)).toEqual(['shared']);
    expect(existsSync(join(reg, 'built-in/solo@1.0.0'))).toBe(false);

    const gone = await cli(reg, ['uninstall', 'solo'], project);
    expect(gone.exitCode).toBe(2);
    expect(gone.stderr.split('\n')[0]).toMatch(
      /^error: solo is not installed: not in .*skills-lock\.json, not in the registry /,
    );
  });
});

describe('skills install: hostile archives and crashes (built CLI)', () => {
  it('refuses a tar-slip archive and a bomb (exit 2), leaving the registry, --into and the lock unchanged', async () => {
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    const src = fresh('src');
    expect((await cli(reg, ['install', makeSkill(src, 'first', '1.0.0'), '--into', 'skills'], project)).exitCode).toBe(
      0,
    );
    const before = {
      reg: snapshot(reg),
      into: snapshot(join(project, 'skills')),
      lock: readFileSync(join(project, 'skills-lock.json'), 'utf8'),
    };
    const header = (path: string, size: number) => {
      const b = Buffer.alloc(512);
      new Header({ path, type: 'File', size, mode: 0o644, mtime: new Date(0) }).encode(b);
      return b;
    };
    const body = Buffer.from('pwned\n');
    writeFileSync(
      join(project, 'slip.tgz'),
      gzipSync(
        Buffer.concat([
          header('evil/SKILL.md', 0),
          header('evil/../../../escaped.txt', body.length),
          body,
          Buffer.alloc(512 - body.length),
          Buffer.alloc(1024),
        ]),
      ),
    );
    writeFileSync(
      join(project, 'bomb.tgz'),
      gzipSync(Buffer.concat([header('bomb/SKILL.md', 0), header('bomb/zeros.bin', 512 * 1024 * 1024)])),
    );

    const slip = await cli(reg, ['install', 'slip.tgz', '--into', 'skills'], project);
    expect(slip.exitCode).toBe(2);
    expect(slip.stderr.split('\n')[0]).toBe(
      `error: ${join(project, 'slip.tgz')}: refused: entry "evil/../../../escaped.txt" contains ".."; expected regular files and folders inside one skill folder, e.g. "my-skill/SKILL.md". Nothing was installed`,
    );
    const bomb = await cli(reg, ['install', 'bomb.tgz', '--json'], project);
    expect(bomb.exitCode).toBe(2);
    expect(JSON.parse(bomb.stdout).error.message).toContain(
      'refused: its files add up to more than 256 MiB (stopped at entry "bomb/zeros.bin")',
    );

    expect(snapshot(reg)).toEqual(before.reg);
    expect(snapshot(join(project, 'skills'))).toEqual(before.into);
    expect(readFileSync(join(project, 'skills-lock.json'), 'utf8')).toBe(before.lock);
    expect(existsSync(join(fresh(), '..', 'escaped.txt'))).toBe(false);
  });

  it('an install killed with SIGKILL mid-extraction leaves the previous state whole; the next install cleans up', async () => {
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    const src = fresh('src');
    expect(
      (await cli(reg, ['install', makeSkill(src, 'big', '1.0.0', { 'notes.md': 'v1\n' }), '--into', 'skills'], project))
        .exitCode,
    ).toBe(0);
    const before = {
      index: readFileSync(join(reg, 'index.json'), 'utf8'),
      into: snapshot(join(project, 'skills')),
      lock: readFileSync(join(project, 'skills-lock.json'), 'utf8'),
    };

    // Version 2, big enough that extraction takes a while: 4,000 files of 8 KiB of random-ish text.
    const files: Record<string, string> = {};
    for (let i = 0; i < 4000; i++)
      files[`references/part-${Math.floor(i / 100)}/file-${i}.md`] = `${i}\n${(i * 7919).toString(36).repeat(1200)}`;
    makeSkill(join(src, 'v2'), 'big', '2.0.0', files);
    expect((await cli(reg, ['pack', join(src, 'v2/big'), '--out', project], project)).exitCode).toBe(0);

    const child = execa(process.execPath, [BIN, 'install', 'big-2.0.0.tgz', '--into', 'skills'], {
      cwd: project,
      env: testEnv(fresh('home'), { SKILLS_REGISTRY: reg }),
      extendEnv: false,
      reject: false,
    });
    const unpacking = () => readdirSync(reg).filter((n) => n.startsWith('.unpack-'));
    for (let i = 0; i < 4000 && unpacking().length === 0 && child.exitCode === null; i++)
      await new Promise((r) => setTimeout(r, 2));
    child.kill('SIGKILL');
    const killed = await child;
    expect(killed.signal).toBe('SIGKILL');

    expect(readFileSync(join(reg, 'index.json'), 'utf8')).toBe(before.index);
    expect(snapshot(join(project, 'skills'))).toEqual(before.into);
    expect(readFileSync(join(project, 'skills-lock.json'), 'utf8')).toBe(before.lock);
    expect(existsSync(join(reg, 'built-in/big@2.0.0'))).toBe(false);
    expect(unpacking()).toHaveLength(1);

    const again = await cli(reg, ['install', 'big-2.0.0.tgz', '--into', 'skills'], project);
    expect(again.exitCode).toBe(0);
    expect(again.stdout.split('\n')[0]).toBe(
      `updated   big@2.0.0 (was 1.0.0 from folder:${relative(project, join(src, 'big'))})  → skills/big`,
    );
    expect(unpacking()).toEqual([]);
    expect(readdirSync(join(project, 'skills'))).toEqual(['big']);
    expect(readdirSync(join(project, 'skills/big/references'))).toHaveLength(40);
    expect(lockOf(project).skills.big!.version).toBe('2.0.0');
  });

  it('an install of many skills killed with SIGKILL while placing them adds none an agent sees; the next one cleans up', async () => {
    const project = fresh('project');
    const home = fresh('home');
    const env = { NO_COLOR: '1', HOME: home, SKILLS_REGISTRY: '' };
    const first = makeSkill(fresh('src'), 'first', '1.0.0');
    expect((await runCli(['install', first, '--into', 'skills'], { cwd: project, env })).exitCode).toBe(0);
    const before = {
      into: snapshot(join(project, 'skills')),
      lock: readFileSync(join(project, 'skills-lock.json'), 'utf8'),
    };
    // 400 skills of 40 files each: placing them takes long enough to be caught at it.
    const many = fresh('many');
    for (let i = 0; i < 400; i++) {
      const files: Record<string, string> = {};
      for (let f = 0; f < 40; f++)
        files[`references/part-${f}.md`] = `# Part ${f} of skill ${i}\n${'text '.repeat(200)}\n`;
      makeSkill(many, `many-${String(i).padStart(3, '0')}`, '1.0.0', files);
    }
    const child = execa(process.execPath, [BIN, 'install', many, '--into', 'skills', '--yes'], {
      cwd: project,
      env: testEnv(home, env),
      extendEnv: false,
      reject: false,
    });
    const staging = () => readdirSync(join(project, 'skills')).filter((n) => n.startsWith('.staging-'));
    // Caught once 20 copies are written, staged or (as before staging waited for the lock) in place.
    const written = () => readdirSync(join(project, 'skills')).filter((n) => n !== 'first').length;
    for (let i = 0; i < 20_000 && written() < 20 && child.exitCode === null; i++)
      await new Promise((r) => setTimeout(r, 2));
    child.kill('SIGKILL');
    expect((await child).signal).toBe('SIGKILL');
    // What an agent reads is as it was: the staged copies are dot folders, and no new skill is in place.
    expect(staging().length).toBeGreaterThan(0);
    expect(readdirSync(join(project, 'skills')).filter((n) => !n.startsWith('.'))).toEqual(['first']);
    expect(readFileSync(join(project, 'skills-lock.json'), 'utf8')).toBe(before.lock);
    // The next install (the lock replayed) removes the leftovers and leaves the rest as it was.
    const again = await runCli(['install'], { cwd: project, env });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(snapshot(join(project, 'skills'))).toEqual(before.into);
    expect(readFileSync(join(project, 'skills-lock.json'), 'utf8')).toBe(before.lock);
    expect(existsSync(join(project, 'skills-lock.json.placing'))).toBe(false);
    // And the whole install, run again, places them all, recorded.
    const whole = await runCli(['install', many, '--into', 'skills', '--yes', '-q'], { cwd: project, env });
    expect(whole.exitCode, whole.stderr).toBe(0);
    expect(readdirSync(join(project, 'skills'))).toHaveLength(401);
    expect(Object.keys(lockOf(project).skills)).toHaveLength(401);
  });

  it("--frozen, after an install killed once its lock was written, finishes that install's renames first", async () => {
    const env = { NO_COLOR: '1', HOME: fresh('home'), SKILLS_REGISTRY: '' };
    const src = fresh('src');
    const install = (project: string, args: string[]) => runCli(['install', ...args], { cwd: project, env });
    // v2 installed elsewhere: the lock and the copy the killed install was placing.
    const done = fresh('done');
    expect((await install(done, [makeSkill(src, 'kept', '1.0.0'), '--into', 'skills'])).exitCode).toBe(0);
    const project = fresh('project');
    cpSync(done, project, { recursive: true });
    expect((await install(done, [makeSkill(src, 'kept', '2.0.0'), '--into', 'skills'])).exitCode).toBe(0);
    const lock = readFileSync(join(done, 'skills-lock.json'), 'utf8');
    // What the install leaves in the project when killed between its lock write and its renames: the new lock, the
    // copy under its staging name, and the journal naming it (the pid a dead process's).
    const dead = 4194304 + 1;
    const staging = join(project, 'skills', `.staging-kept.${dead}.00000000`);
    cpSync(join(done, 'skills/kept'), staging, { recursive: true });
    writeFileSync(join(project, 'skills-lock.json'), lock);
    const digest = createHash('sha256').update(lock).digest('hex');
    const journal = { pid: dead, lock: digest, staged: [{ staging, target: join(project, 'skills/kept') }] };
    writeFileSync(join(project, 'skills-lock.json.placing'), `${JSON.stringify(journal)}\n`);

    const r = await install(project, ['--frozen']);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(readdirSync(join(project, 'skills'))).toEqual(['kept']);
    expect(snapshot(join(project, 'skills'))).toEqual(snapshot(join(done, 'skills')));
    expect(existsSync(join(project, 'skills-lock.json.placing'))).toBe(false);
    expect(readFileSync(join(project, 'skills-lock.json'), 'utf8')).toBe(lock);
  });

  it('says which links that lead out of a skill it leaves out of the copy', async () => {
    const src = fresh('src');
    const dir = makeSkill(src, 'linky', '1.0.0');
    writeFileSync(join(src, 'shared.md'), '# Shared\n');
    symlinkSync('../shared.md', join(dir, 'shared.md'));
    const project = fresh('project');
    const r = await runCli(['install', dir, '--into', 'skills'], {
      cwd: project,
      env: { HOME: fresh('home'), SKILLS_REGISTRY: '' },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'warning: linky: shared.md is a symbolic link that leads out of the skill, left out of its copies (lint: SK131)',
    );
    expect(readdirSync(join(project, 'skills/linky'))).toEqual(['SKILL.md']);
  });

  it('will not overwrite an <into> folder that skills did not write, unless --force', async () => {
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    mkdirSync(join(project, 'skills/mine'), { recursive: true });
    writeFileSync(join(project, 'skills/mine/SKILL.md'), 'my own work\n');
    const dir = makeSkill(fresh('src'), 'mine', '1.0.0');
    const r = await cli(reg, ['install', dir, '--into', 'skills'], project);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      `error: ${join(project, 'skills/mine')} already exists and is not a copy skills installed (its content matches no version in ${join(project, 'skills-lock.json')}); nothing was installed`,
    );
    expect(readFileSync(join(project, 'skills/mine/SKILL.md'), 'utf8')).toBe('my own work\n');
    expect(existsSync(reg)).toBe(false);
    const forced = await cli(reg, ['install', dir, '--into', 'skills', '--force'], project);
    expect(forced.exitCode).toBe(0);
    expect(readFileSync(join(project, 'skills/mine/SKILL.md'), 'utf8')).toContain('name: mine');
  });
});
