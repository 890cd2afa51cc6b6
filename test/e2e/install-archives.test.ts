import { afterAll, describe, expect, it } from 'vitest';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { gunzipSync, gzipSync } from 'node:zlib';
import { execa } from 'execa';
import { parseLockfile } from '../../src/formats/lockfile.js';
import { PROJECT_LOCK } from '../../src/install/lock.js';
import { LOCK_OWNER, LOCK_STALE_MS } from '../../src/registry/file-lock.js';
import { folderIntegrity } from '../../src/registry/integrity.js';
import { BIN, runCli, runMeasured, tempFolders, testEnv } from '../helpers/cli.js';
import { type TreeSpec, skillMd, snapshot, writeTree } from '../helpers/tree.js';

// Archives as users download them: GitHub release tarballs and "Download ZIP", git archive, Finder zips. Each is
// made here with the real tool (zip, tar, git archive) and installed through the built CLI.

const { fresh, cleanup } = tempFolders('skills-install-archives-e2e-');
afterAll(cleanup);

const cli = (reg: string, args: string[], cwd: string) => runCli(args, { cwd, env: { SKILLS_REGISTRY: reg } });

const skillText = (name: string, version?: string) =>
  skillMd(
    `name: ${name}\ndescription: Does ${name} things. Use when testing install.${version ? `\nmetadata:\n  version: "${version}"` : ''}`,
  );

const lockOf = (project: string) => {
  const parsed = parseLockfile(readFileSync(join(project, 'skills-lock.json'), 'utf8'));
  expect(parsed.problem).toBeUndefined();
  return parsed.lock!;
};
const sourcesOf = (project: string) =>
  Object.fromEntries(Object.entries(lockOf(project).skills).map(([id, e]) => [id, e.source]));

/** A git repository holding `tree`, committed, for git archive. */
async function gitRepo(tree: TreeSpec): Promise<string> {
  const dir = fresh('git');
  writeTree(dir, tree);
  const git = (...args: string[]) =>
    execa('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-c', 'commit.gpgsign=false', ...args], {
      cwd: dir,
    });
  await git('init', '-q');
  await git('add', '-A');
  await git('commit', '-qm', 'skills');
  return dir;
}

/** A repository of skills as GitHub lays it out: a README at the top, skills/<name>/SKILL.md below. */
const skillsRepo = (pdf = '# PDF\n') => ({
  'README.md': '# Our skills\n',
  'skills/pdf/SKILL.md': skillText('pdf', '1.0.0'),
  'skills/pdf/reference.md': pdf,
  'skills/docx/SKILL.md': skillText('docx', '2.0.0'),
});

describe("skills install: archives whose top folder is not the skill's (built CLI)", () => {
  it("installs a release tarball (git archive --prefix=pdf-main/) and a release zip (docx-1.2.0/) under the skills' names", async () => {
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    const repo = await gitRepo({
      'SKILL.md': skillText('pdf', '1.0.0'),
      'scripts/run.sh': { content: '#!/bin/sh\necho pdf\n', mode: 0o755 },
    });
    await execa(
      'git',
      ['archive', '--format=tar.gz', '--prefix=pdf-main/', '-o', join(project, 'pdf-main.tar.gz'), 'HEAD'],
      { cwd: repo },
    );
    const src = fresh('src');
    writeTree(join(src, 'docx-1.2.0'), { 'SKILL.md': skillText('docx', '1.2.0') });
    await execa('zip', ['-qr', join(project, 'docx-1.2.0.zip'), 'docx-1.2.0'], { cwd: src });

    const r = await cli(reg, ['install', 'pdf-main.tar.gz', 'docx-1.2.0.zip', '--into', '.claude/skills'], project);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\n')).toEqual([
      'added     pdf@1.0.0  → .claude/skills/pdf',
      'added     docx@1.2.0  → .claude/skills/docx',
      `${reg}: 2 added; skills-lock.json written`,
    ]);
    expect(readdirSync(join(project, '.claude/skills')).sort()).toEqual(['docx', 'pdf']);
    expect(statSync(join(project, '.claude/skills/pdf/scripts/run.sh')).mode & 0o111).not.toBe(0);
    expect(sourcesOf(project)).toEqual({ docx: 'archive:docx-1.2.0.zip', pdf: 'archive:pdf-main.tar.gz' });
    expect(readdirSync(reg).filter((n) => n.startsWith('.'))).toEqual([]);

    // The lock replays on a fresh machine.
    rmSync(reg, { recursive: true });
    const replay = await cli(reg, ['install', '--frozen', '--into', 'agents'], project);
    expect(replay.exitCode).toBe(0);
    expect(readdirSync(join(project, 'agents')).sort()).toEqual(['docx', 'pdf']);
  });

  it('names an archive by URL that it refuses by its URL, never the scratch file it was downloaded to', async () => {
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    const { createServer } = await import('node:http');
    const server = createServer((_req, res) => res.end('not an archive'));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/bad.tgz`;
      const r = await cli(reg, ['install', url, '--into', 'skills'], project);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^error: ${url.replace(/[./]/g, '\\$&')}: not an archive skills can read`));
      expect(r.stderr).not.toContain('.unpack-');
      expect(existsSync(join(project, 'skills'))).toBe(false);
    } finally {
      server.close();
    }
  });

  it('names a finding inside an archive as <archive>: <path inside>:line:column, never the scratch folder', async () => {
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    const repo = await gitRepo({ 'SKILL.md': skillMd('name: pdf\nmetadata:\n  version: "1.0.0"') });
    await execa(
      'git',
      ['archive', '--format=tar.gz', '--prefix=pdf-main/', '-o', join(project, 'single.tar.gz'), 'HEAD'],
      { cwd: repo },
    );

    const r = await cli(reg, ['install', 'single.tar.gz', '--into', 'skills'], project);
    expect(r.exitCode).toBe(1);
    const lines = r.stderr.split('\n');
    expect(lines[0]).toBe('error: single.tar.gz: pdf is not valid; nothing was installed');
    expect(lines[1]).toMatch(/^ {2}single\.tar\.gz: pdf-main\/SKILL\.md:\d+:\d+ {2}error {4}description is missing/);
    expect(r.stderr).not.toContain('.unpack-');
    expect(r.stderr).not.toContain('name-matches-folder');
    const json = await cli(reg, ['install', 'single.tar.gz', '--json'], project);
    expect(JSON.parse(json.stdout).invalid[0].diagnostics.map((d: { file: string }) => d.file)).toEqual([
      'single.tar.gz: pdf-main/SKILL.md',
    ]);
    expect(existsSync(reg)).toBe(false);
    expect(readdirSync(project)).toEqual(['single.tar.gz']);
  });
});

describe('skills install: archives that hold several skills (built CLI)', () => {
  it('installs each skill of a GitHub "Download ZIP", locks each as archive:<path>#<path inside>, and replays the lock', async () => {
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    const src = fresh('src');
    writeTree(join(src, 'repo-main'), skillsRepo());
    await execa('zip', ['-qr', join(project, 'repo-main.zip'), 'repo-main'], { cwd: src });

    const r = await cli(reg, ['install', 'repo-main.zip', '--into', 'skills'], project);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\n')).toEqual([
      'added     docx@2.0.0  → skills/docx',
      'added     pdf@1.0.0  → skills/pdf',
      `${reg}: 2 added; skills-lock.json written`,
    ]);
    expect(sourcesOf(project)).toEqual({
      docx: 'archive:repo-main.zip#repo-main/skills/docx',
      pdf: 'archive:repo-main.zip#repo-main/skills/pdf',
    });
    const lockText = readFileSync(join(project, 'skills-lock.json'), 'utf8');
    const installed = snapshot(join(project, 'skills'));
    expect(installed['pdf/reference.md']).toBe('# PDF\n');
    expect(readdirSync(reg).filter((n) => n.startsWith('.'))).toEqual([]);

    // The same archive again with --frozen: the lock would not change.
    const frozen = await cli(reg, ['install', 'repo-main.zip', '--frozen'], project);
    expect(frozen.exitCode).toBe(0);
    expect(frozen.stdout.split('\n').at(-1)).toBe(`${reg}: 2 unchanged; skills-lock.json unchanged`);

    // A fresh machine: the lock alone.
    rmSync(reg, { recursive: true });
    rmSync(join(project, 'skills'), { recursive: true });
    const replay = await cli(reg, ['install', '--frozen', '--into', 'skills'], project);
    expect(replay.stderr).toBe('');
    expect(replay.exitCode).toBe(0);
    expect(snapshot(join(project, 'skills'))).toEqual(installed);
    expect(readFileSync(join(project, 'skills-lock.json'), 'utf8')).toBe(lockText);

    // The archive changes under the same versions: the integrity check names the skill inside it.
    rmSync(join(src, 'repo-main'), { recursive: true });
    writeTree(join(src, 'repo-main'), skillsRepo('# PDF, changed\n'));
    rmSync(join(project, 'repo-main.zip'));
    await execa('zip', ['-qr', join(project, 'repo-main.zip'), 'repo-main'], { cwd: src });
    for (const args of [['install'], ['install', 'repo-main.zip']]) {
      const changed = await cli(reg, args, project);
      expect(changed.exitCode).toBe(2);
      expect(changed.stderr.split('\n')[0]).toMatch(
        /^error: integrity mismatch for pdf@1\.0\.0: .*skills-lock\.json has sha512-\S+, but \S*repo-main\.zip: repo-main\/skills\/pdf has sha512-\S+; nothing was installed$/,
      );
      expect(readFileSync(join(project, 'skills-lock.json'), 'utf8')).toBe(lockText);
    }

    // The skill is gone from the archive: the replay says where it looked.
    rmSync(join(project, 'repo-main.zip'));
    rmSync(join(src, 'repo-main/skills/pdf'), { recursive: true });
    await execa('zip', ['-qr', join(project, 'repo-main.zip'), 'repo-main'], { cwd: src });
    const gone = await cli(reg, ['install'], project);
    expect(gone.exitCode).toBe(2);
    expect(gone.stderr.split('\n')[0]).toBe(
      `error: ${join(project, 'skills-lock.json')}: pdf@1.0.0 comes from archive:repo-main.zip#repo-main/skills/pdf, but ${join(project, 'repo-main.zip')} holds no skill at "repo-main/skills/pdf"; it holds docx in "repo-main/skills/docx". Nothing was installed`,
    );
  });

  it('installs each skill of git archive --format=tar.gz and --format=tar (with a pax_global_header entry)', async () => {
    const repo = await gitRepo(skillsRepo());
    for (const format of ['tar.gz', 'tar']) {
      const project = fresh('project');
      const reg = join(fresh(), 'registry');
      const file = join(project, `repo-main.${format}`);
      await execa('git', ['archive', `--format=${format}`, '--prefix=repo-main/', '-o', file, 'HEAD'], { cwd: repo });
      const raw = readFileSync(file);
      expect((format === 'tar' ? raw : gunzipSync(raw)).toString('latin1', 0, 17)).toBe('pax_global_header');
      const r = await cli(reg, ['install', `repo-main.${format}`, '--into', 'skills'], project);
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
      expect(readdirSync(join(project, 'skills')).sort()).toEqual(['docx', 'pdf']);
      expect(sourcesOf(project)).toEqual({
        docx: `archive:repo-main.${format}#repo-main/skills/docx`,
        pdf: `archive:repo-main.${format}#repo-main/skills/pdf`,
      });
    }
  });

  it('skips a skill of the archive that is invalid with one line naming it inside the archive (exit 1); --strict refuses the whole archive and writes nothing', async () => {
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    const src = fresh('src');
    writeTree(join(src, 'repo-main'), {
      ...skillsRepo(),
      'skills/bad/SKILL.md': skillMd('name: bad\nmetadata:\n  version: "1.0.0"'),
    });
    await execa('zip', ['-qr', join(project, 'repo-main.zip'), 'repo-main'], { cwd: src });
    const strict = await cli(reg, ['install', 'repo-main.zip', '--into', 'skills', '--strict'], project);
    expect(strict.exitCode).toBe(1);
    const lines = strict.stderr.split('\n');
    expect(lines[0]).toBe('error: repo-main.zip: repo-main/skills/bad: bad is not valid; nothing was installed');
    expect(lines[1]).toMatch(
      /^ {2}repo-main\.zip: repo-main\/skills\/bad\/SKILL\.md:\d+:\d+ {2}error {4}description is missing/,
    );
    expect(strict.stderr).not.toContain('.unpack-');
    expect(existsSync(reg)).toBe(false);
    expect(readdirSync(project)).toEqual(['repo-main.zip']);

    const r = await cli(reg, ['install', 'repo-main.zip', '--into', 'skills'], project);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(
      /^skipped {3}bad \(repo-main\.zip: repo-main\/skills\/bad\): repo-main\.zip: repo-main\/skills\/bad\/SKILL\.md:\d+: description is missing/m,
    );
    expect(r.stderr).not.toContain('.unpack-');
    expect(readdirSync(join(project, 'skills')).sort()).toEqual(['docx', 'pdf']);
  });

  it('refuses an archive that holds no skill at all, naming the archive and what it holds (exit 2)', async () => {
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    const src = fresh('src');
    writeTree(join(src, 'docs-main'), { 'README.md': '# Docs\n', 'guide/intro.md': '# Intro\n' });
    await execa('zip', ['-qr', join(project, 'docs-main.zip'), 'docs-main'], { cwd: src });
    const r = await cli(reg, ['install', 'docs-main.zip'], project);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      `error: ${join(project, 'docs-main.zip')}: holds no skill: expected SKILL.md or manifest.json at its top, in a folder ("my-skill/SKILL.md"), or in folders below one ("repo-main/skills/my-skill/SKILL.md"); found "docs-main" with no skill in it. Nothing was installed`,
    );
    expect(existsSync(reg)).toBe(false);
    // With no registry the archive is unpacked into the agent folder it would be placed in: a refusal removes that
    // folder too, made for it, and leaves the project as it was.
    const bare = await runCli(['install', 'docs-main.zip'], { cwd: project, env: { HOME: fresh('home') } });
    expect(bare.exitCode).toBe(2);
    expect(bare.stderr.split('\n')[0]).toContain('holds no skill');
    expect(readdirSync(project)).toEqual(['docs-main.zip']);
  });
});

describe('skills install: archives made by everyday tools (built CLI)', () => {
  it('installs a Finder zip and a macOS tar without __MACOSX/, ._ files or .DS_Store, with the integrity of the clean folder', async () => {
    const src = fresh('src');
    writeTree(join(src, 'clean/pdf'), { 'SKILL.md': skillText('pdf', '1.0.0'), 'scripts/run.sh': '#!/bin/sh\n' });
    const cleanProject = fresh('project');
    expect((await cli(join(fresh(), 'registry'), ['install', join(src, 'clean/pdf')], cleanProject)).exitCode).toBe(0);
    const cleanIntegrity = lockOf(cleanProject).skills.pdf!.integrity;

    // What Finder's "Compress" writes: the folder, its .DS_Store, and resource forks under __MACOSX/.
    const mac = join(src, 'mac');
    writeTree(mac, {
      'pdf/SKILL.md': skillText('pdf', '1.0.0'),
      'pdf/scripts/run.sh': '#!/bin/sh\n',
      'pdf/.DS_Store': 'Bud1',
      '__MACOSX/._pdf': 'AppleDouble',
      '__MACOSX/pdf/._SKILL.md': 'AppleDouble',
      '__MACOSX/pdf/._.DS_Store': 'AppleDouble',
    });
    const project = fresh('project');
    await execa('zip', ['-qr', join(project, 'pdf.zip'), 'pdf', '__MACOSX'], { cwd: mac });
    // macOS tar keeps a ._ file next to each file it archives.
    writeTree(mac, { 'pdf/._SKILL.md': 'AppleDouble', 'pdf/scripts/._run.sh': 'AppleDouble' });
    await execa('tar', ['czf', join(project, 'pdf-mac.tgz'), 'pdf'], { cwd: mac });

    for (const archive of ['pdf.zip', 'pdf-mac.tgz']) {
      const reg = join(fresh(), 'registry');
      const into = `skills-${archive}`;
      rmSync(join(project, 'skills-lock.json'), { force: true });
      const r = await cli(reg, ['install', archive, '--into', into], project);
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
      expect(Object.keys(snapshot(join(project, into))).sort()).toEqual([
        'pdf',
        'pdf/SKILL.md',
        'pdf/scripts',
        'pdf/scripts/run.sh',
      ]);
      expect(lockOf(project).skills.pdf!.integrity).toBe(cleanIntegrity);
    }
  });

  it('leaves out a .git entry of any kind and case (a file pointing at a hostile git config, a .GIT folder, a link) from a .tgz, a .skill and a folder; keeps .gitignore, .gitattributes and .gitmodules', async () => {
    const src = fresh('src');
    const pwned = join(src, 'PWNED');
    const kept = {
      'SKILL.md': skillText('gitty', '1.0.0'),
      '.gitignore': 'out/\n',
      '.gitattributes': '* text=auto\n',
      '.gitmodules': '',
      'evilgit/HEAD': 'ref: refs/heads/main\n',
      'evilgit/config': `[core]\n\trepositoryformatversion = 0\n\tfsmonitor = "touch ${pwned}; false"\n`,
      'evilgit/objects/.keep': '',
      'evilgit/refs/heads/.keep': '',
    };
    writeTree(join(src, 'clean/gitty'), kept);
    const cleanProject = fresh('project');
    expect((await cli(join(fresh(), 'registry'), ['install', join(src, 'clean/gitty')], cleanProject)).exitCode).toBe(
      0,
    );
    const cleanIntegrity = lockOf(cleanProject).skills.gitty!.integrity;

    // The `.git` file makes the folder it is in a repository whose config is evilgit/config: git status there runs
    // core.fsmonitor, the stranger's command.
    const stranger = join(src, 'stranger');
    writeTree(join(stranger, 'gitty'), {
      ...kept,
      '.git': 'gitdir: evilgit\n',
      '.GIT/config': '[core]\n',
      'scripts/.Git': 'gitdir: ../evilgit\n',
    });
    const project = fresh('project');
    await execa('tar', ['czf', join(project, 'gitty.tgz'), 'gitty'], { cwd: stranger });
    await execa('zip', ['-qr', join(project, 'gitty.skill'), 'gitty'], { cwd: stranger });
    // A folder may also hold one as a link.
    writeTree(join(stranger, 'gitty'), { 'references/.git': { symlink: '../evilgit' } });
    for (const source of ['gitty.tgz', 'gitty.skill', join(stranger, 'gitty')]) {
      const into = `skills-${source.length}`;
      rmSync(join(project, 'skills-lock.json'), { force: true });
      const r = await cli(join(fresh(), 'registry'), ['install', source, '--into', into], project);
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
      const placed = join(project, into, 'gitty');
      const names = (readdirSync(placed, { recursive: true }) as string[]).map((n) => n.split('\\').join('/'));
      expect(names.filter((n) => /(^|\/)\.git$/i.test(n))).toEqual([]);
      expect(names).toEqual(expect.arrayContaining(['.gitignore', '.gitattributes', '.gitmodules', 'evilgit/config']));
      expect(lockOf(project).skills.gitty!.integrity).toBe(cleanIntegrity);
      expect(folderIntegrity(placed)).toBe(lockOf(project).skills.gitty!.integrity);
      // No repository is made there: git status in the skill finds the project's own, and runs nothing.
      await execa('git', ['status'], { cwd: placed, reject: false });
      expect(existsSync(pwned)).toBe(false);
    }
  });

  it('installs a plain .tar (tar cf) and a .skill made by zipping <name>/', async () => {
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    const src = fresh('src');
    writeTree(join(src, 'from-tar'), { 'SKILL.md': skillText('from-tar', '1.0.0') });
    writeTree(join(src, 'zipped'), { 'SKILL.md': skillText('zipped', '1.0.0'), 'references/r.md': '# R\n' });
    await execa('tar', ['cf', join(project, 'from-tar.tar'), 'from-tar'], { cwd: src });
    await execa('zip', ['-qr', join(project, 'zipped.skill'), 'zipped/'], { cwd: src });
    const r = await cli(reg, ['install', 'from-tar.tar', 'zipped.skill', '--into', 'skills'], project);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(project, 'skills/zipped/references/r.md'), 'utf8')).toBe('# R\n');
    expect(sourcesOf(project)).toEqual({ 'from-tar': 'archive:from-tar.tar', zipped: 'archive:zipped.skill' });
  });

  it('installs a GNU-format .tgz followed by 64 MiB of zeros in about the time and memory of its content (node-tar copied all it held past the end for each piece)', () => {
    const project = fresh('project');
    const src = fresh('src');
    writeTree(join(src, 'zeros'), { 'SKILL.md': skillText('zeros', '1.0.0'), 'references/r.md': '# R\n' });
    // GNU tar's own format (a header node-tar reads, not the plain reader), then zeros after its end, gzipped.
    const tarred = spawnSync('tar', ['--format=gnu', '-cf', '-', 'zeros'], { cwd: src, maxBuffer: 1 << 20 });
    expect(tarred.status).toBe(0);
    writeFileSync(join(project, 'zeros.tgz'), gzipSync(Buffer.concat([tarred.stdout, Buffer.alloc(64 << 20)])));
    const r = runMeasured(['install', 'zeros.tgz', '--into', 'skills'], project, fresh('probe'), {
      SKILLS_REGISTRY: join(fresh(), 'registry'),
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(readFileSync(join(project, 'skills/zeros/SKILL.md'), 'utf8')).toBe(skillText('zeros', '1.0.0'));
    expect(readFileSync(join(project, 'skills/zeros/references/r.md'), 'utf8')).toBe('# R\n');
    // Under 100 MB and a second here; before, 380 MB and 18 s (the time grew as the square of the zeros).
    expect(r.peak).toBeLessThan(200 * 1024 * 1024);
    expect(r.ms).toBeLessThan(10_000);
  }, 60_000);

  it("leaves an archive's links out, with one warning naming those in a skill, and installs the rest (zip and tar)", async () => {
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    const src = fresh('src');
    writeTree(join(src, 'repo-main'), {
      'AGENTS.md': '# Notes\n',
      'skills/a/SKILL.md': skillText('a', '1.0.0'),
      'skills/a/references/real.md': '# Real\n',
      'skills/b/SKILL.md': skillText('b', '1.0.0'),
    });
    // One that leads inside its skill, one out of it (to a secret), and one of the repository's, beside no skill.
    symlinkSync('real.md', join(src, 'repo-main/skills/a/references/guide.md'));
    symlinkSync('/etc/passwd', join(src, 'repo-main/skills/b/passwd'));
    symlinkSync('AGENTS.md', join(src, 'repo-main/CLAUDE.md'));
    await execa('zip', ['-qry', join(project, 'repo-main.zip'), 'repo-main'], { cwd: src });
    await execa('tar', ['czf', join(project, 'repo-main.tgz'), 'repo-main'], { cwd: src });
    for (const archive of ['repo-main.zip', 'repo-main.tgz']) {
      const into = `skills-${archive}`;
      const r = await cli(reg, ['install', archive, '--into', into], project);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toContain(
        `warning: ${archive}: 2 links left out of its skills: repo-main/skills/a/references/guide.md, repo-main/skills/b/passwd (an archive's links are not unpacked, so none can lead out of a skill; to keep one that leads inside its skill, unpack the archive and install the folder)`,
      );
      expect(r.stderr).not.toContain('CLAUDE.md');
      expect(readdirSync(join(project, into)).sort()).toEqual(['a', 'b']);
      expect(readdirSync(join(project, into, 'a/references'))).toEqual(['real.md']);
      expect(readdirSync(join(project, into, 'b'))).toEqual(['SKILL.md']);
    }
  });

  it("says that an archive's .env is left out (secrets are never installed), and keeps .env.example", async () => {
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    const src = fresh('src');
    writeTree(join(src, 'envy'), {
      'SKILL.md': skillText('envy', '1.0.0'),
      '.env': 'KEY=1\n',
      '.env.example': 'KEY=\n',
    });
    await execa('tar', ['czf', join(project, 'envy.tgz'), 'envy'], { cwd: src });
    const r = await cli(reg, ['install', 'envy.tgz', '--into', 'skills'], project);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('warning: envy: .env left out of its copies: secrets are never installed');
    expect(readdirSync(join(project, 'skills/envy')).sort()).toEqual(['.env.example', 'SKILL.md']);
  });

  it('says how to install one of two skills of one name in an archive, and that way works', async () => {
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    const src = fresh('src');
    writeTree(join(src, 'pkg/a'), { 'SKILL.md': skillText('same', '1.0.0') });
    writeTree(join(src, 'pkg/b'), { 'SKILL.md': `${skillText('same', '1.0.0')}\nAnother body.\n` });
    await execa('tar', ['czf', join(project, 'twins.tgz'), 'pkg'], { cwd: src });
    const r = await cli(reg, ['install', 'twins.tgz', '--into', 'skills'], project);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(
      'skipped   same: 2 different skills of twins.tgz are named same (pkg/a, pkg/b): a folder an agent reads holds one skill of a name, so none was installed. One alone: unpack twins.tgz and run skills install <unpacked>/pkg/a',
    );
    expect(r.stderr).toContain('error: no skill to install: every skill chosen is left out for another of its name');
    expect(existsSync(join(project, 'skills'))).toBe(false);
    // As it says: unpacked, the folder installs.
    const unpacked = fresh('unpacked');
    await execa('tar', ['xzf', join(project, 'twins.tgz'), '-C', unpacked]);
    const one = await cli(reg, ['install', join(unpacked, 'pkg/a'), '--into', 'skills'], project);
    expect(one.exitCode, one.stderr).toBe(0);
    expect(readdirSync(join(project, 'skills'))).toEqual(['same']);
  });

  it('finds with --skill and --list the skills nested in a skill of an archive, as for a folder, and replays their lock', async () => {
    // datadog-labs/agent-skills as a release tarball: a skill at the top, dd-pup/ and dd-apm/k8s/enable-ssi/ below it.
    const src = fresh('src');
    writeTree(src, {
      'SKILL.md': skillText('agent-skills', '1.0.0'),
      'dd-pup/SKILL.md': skillText('dd-pup', '1.0.0'),
      'dd-apm/k8s/enable-ssi/SKILL.md': skillText('enable-ssi', '1.0.0'),
    });
    for (const [archive, make] of [
      ['top.tgz', ['tar', 'czf']],
      ['folder.tar', ['tar', 'cf']],
    ] as const) {
      const project = fresh('project');
      const reg = join(fresh(), 'registry');
      await execa(make[0], [make[1], join(project, archive), '.'], { cwd: src });
      const listed = await cli(reg, ['install', archive, '--list'], project);
      expect(listed.exitCode, listed.stderr).toBe(0);
      expect(listed.stdout).toContain(`${archive}: 3 skills`);
      expect(listed.stdout).toContain(
        'left out of "all": nested in agent-skills, installed only when named (--skill dd-pup)',
      );
      const named = await cli(reg, ['install', archive, '--skill', 'dd-pup,enable-ssi', '--into', 'skills'], project);
      expect(named.exitCode, named.stderr).toBe(0);
      expect(readdirSync(join(project, 'skills')).sort()).toEqual(['dd-pup', 'enable-ssi']);
      expect(readdirSync(join(project, 'skills/enable-ssi'))).toEqual(['SKILL.md']);
      expect(sourcesOf(project)).toEqual({
        'dd-pup': `archive:${archive}#dd-pup`,
        'enable-ssi': `archive:${archive}#dd-apm/k8s/enable-ssi`,
      });
      // The lock again, from the archive: the nested skills are found at their paths inside it.
      rmSync(join(project, 'skills'), { recursive: true });
      const replayed = await cli(reg, ['install'], project);
      expect(replayed.exitCode, replayed.stderr).toBe(0);
      expect(readdirSync(join(project, 'skills')).sort()).toEqual(['dd-pup', 'enable-ssi']);
      // Without --skill, the archive is its top skill alone, as a folder is.
      const other = fresh('project');
      const all = await cli(reg, ['install', join(project, archive), '--into', 'top'], other);
      expect(all.exitCode, all.stderr).toBe(0);
      expect(readdirSync(join(other, 'top'))).toEqual(['agent-skills']);
    }
  });

  it('locks an archive whose own path has a "#" unambiguously, and still replays the older form of such an entry', async () => {
    const project = fresh('project');
    const reg = join(fresh(), 'registry');
    const src = fresh('src');
    writeTree(join(src, 'pdf'), { 'SKILL.md': skillText('pdf', '1.0.0') });
    mkdirSync(join(project, 'dl'));
    await execa('zip', ['-qr', join(project, 'dl/pdf#2.zip'), 'pdf'], { cwd: src });
    expect((await cli(reg, ['install', './dl/pdf#2.zip'], project)).exitCode).toBe(0);
    expect(sourcesOf(project)).toEqual({ pdf: 'archive:dl/pdf#2.zip#' });
    expect((await cli(reg, ['install', '--frozen'], project)).exitCode).toBe(0);
    // As a lock written before the `#<path inside>` form has it.
    const lockFile = join(project, 'skills-lock.json');
    writeFileSync(
      lockFile,
      readFileSync(lockFile, 'utf8').replace('"archive:dl/pdf#2.zip#"', '"archive:dl/pdf#2.zip"'),
    );
    const old = await cli(reg, ['install', '--frozen', '--into', 'skills'], project);
    expect(old.stderr).toBe('');
    expect(old.exitCode).toBe(0);
    expect(readdirSync(join(project, 'skills'))).toEqual(['pdf']);
  });
});

describe("skills install: an archive's files as unpacked, not walked or read again (built CLI)", () => {
  /**
   * A skill with an executable, secrets, a package folder and deep files, tarred by the system tar. `big`: with 5 MB
   * that do not compress, so that its files are written, and hashed, on threads of their own.
   */
  // Its .env is left out of every copy, and said.
  const TRICKY_ENV = 'warning: tricky: .env left out of its copies: secrets are never installed';

  async function trickyTgz(dir: string, big = false): Promise<string> {
    const src = join(dir, 'src');
    if (big) writeTree(join(src, 'tricky'), { 'references/blob.bin': randomBytes(5e6).toString('latin1') });
    writeTree(join(src, 'tricky'), {
      'SKILL.md': skillText('tricky', '1.0.0'),
      'scripts/run.sh': { content: '#!/bin/sh\necho hi\n', mode: 0o755 },
      '.env': 'SECRET=1\n',
      '.env.example': 'SECRET=\n',
      'node_modules/dep/index.js': 'module.exports = 1;\n',
      'references/a/b/deep.md': '# Deep\n',
    });
    const file = join(dir, 'tricky.tgz');
    await execa('tar', ['czf', file, '-C', src, 'tricky']);
    expect(statSync(file).size > 4 * 1024 * 1024).toBe(big);
    return file;
  }

  const filesOf = (root: string) =>
    (readdirSync(root, { recursive: true }) as string[]).filter((f) => statSync(join(root, f)).isFile()).sort();

  it.each([
    ['', false],
    [' (a big archive)', true],
  ])(
    'stores and places exactly the files the integrity covers%s: stored read-only, placed writable, executables kept',
    async (_, big) => {
      const dir = fresh('tricky');
      const archive = await trickyTgz(dir, big);
      const project = fresh('project');
      const reg = join(dir, 'reg');
      const r = await cli(reg, ['install', archive, '--into', '.claude/skills'], project);
      expect(r.stderr).toBe(TRICKY_ENV);
      expect(r.exitCode).toBe(0);
      const integrity = lockOf(project).skills.tricky!.integrity;
      const releases = JSON.parse(readFileSync(join(reg, 'releases/tricky.json'), 'utf8'));
      expect(releases.releases['1.0.0'].integrity).toBe(integrity);
      const stored = join(reg, 'built-in/tricky@1.0.0');
      const placed = join(project, '.claude/skills/tricky');
      const kept = [
        '.env.example',
        'SKILL.md',
        'references/a/b/deep.md',
        ...(big ? ['references/blob.bin'] : []),
        'scripts/run.sh',
      ];
      for (const copy of [stored, placed]) {
        // A walk and a read of each copy hash to what was recorded from the extraction.
        expect(folderIntegrity(copy)).toBe(integrity);
        expect(filesOf(copy)).toEqual(kept);
        expect(statSync(join(copy, 'scripts/run.sh')).mode & 0o111).toBe(0o111);
        expect(statSync(join(copy, 'SKILL.md')).mode & 0o111).toBe(0);
      }
      for (const f of kept) {
        expect(statSync(join(stored, f)).mode & 0o222).toBe(0);
        expect(statSync(join(placed, f)).mode & 0o200).toBe(0o200);
      }
      for (const d of [stored, join(stored, 'references/a')]) expect(statSync(d).mode & 0o222).toBe(0);
      expect(readdirSync(reg).filter((n) => n.startsWith('.unpack-'))).toEqual([]);

      // Installed again: unchanged, the stored copy checked against the record.
      const again = await cli(reg, ['install', archive, '--into', '.claude/skills'], project);
      expect(again.exitCode).toBe(0);
      expect(again.stdout.split('\n').at(-1)).toBe(`${reg}: 1 unchanged; skills-lock.json unchanged`);
    },
  );

  it.each([
    ['', false],
    [' (a big archive)', true],
  ])('a project install with no registry places the unpacked files, with the same integrity%s', async (_, big) => {
    const dir = fresh('tricky');
    const archive = await trickyTgz(dir, big);
    const project = fresh('project');
    const r = await runCli(['install', archive, '--into', 'skills'], { cwd: project, env: { HOME: fresh('home') } });
    expect(r.stderr).toBe(TRICKY_ENV);
    expect(r.exitCode).toBe(0);
    const placed = join(project, 'skills/tricky');
    expect(folderIntegrity(placed)).toBe(lockOf(project).skills.tricky!.integrity);
    expect(filesOf(placed)).toEqual([
      '.env.example',
      'SKILL.md',
      'references/a/b/deep.md',
      ...(big ? ['references/blob.bin'] : []),
      'scripts/run.sh',
    ]);
    expect(statSync(join(placed, 'SKILL.md')).mode & 0o200).toBe(0o200);
  });

  // The thread that writes a big archive's files can fail after it started (here a preload that throws in every
  // thread; elsewhere a memory limit): that is no fault of the archive. It used to be told as "not a readable
  // archive", or, when the thread died while the extraction waited on it, the run ended with exit code 0, nothing
  // installed and the lock left behind. The archive is unpacked again with its files written on the main thread.
  it('installs a big archive whose writer thread fails, writing its files on the main thread', async () => {
    const dir = fresh('tricky');
    const archive = await trickyTgz(dir, true);
    const project = fresh('project');
    const preload = join(dir, 'no-threads.cjs');
    writeFileSync(preload, "if (!require('node:worker_threads').isMainThread) throw new Error('no threads here');\n");
    const env = { HOME: fresh('home'), NODE_OPTIONS: `--require ${preload}` };
    const r = await runCli(['install', archive, '--into', 'skills'], { cwd: project, env });
    expect(r.stderr).toBe(TRICKY_ENV);
    expect(r.exitCode).toBe(0);
    const placed = join(project, 'skills/tricky');
    expect(folderIntegrity(placed)).toBe(lockOf(project).skills.tricky!.integrity);
    expect(filesOf(placed)).toContain('references/blob.bin');
    expect(readdirSync(join(project, 'skills'))).toEqual(['tricky']);
    expect(readdirSync(project).sort()).toEqual(['skills', 'skills-lock.json']);
  });

  // process.stdout and process.stderr are streams built on first touch, and for a pipe that loads net (5 to 8 ms).
  // An install whose output and errors go to pipes (as a script runs it) writes to them directly: neither the writer
  // thread (whose own output would be piped to ours), nor the packages' assert (whose error class asks whether stderr
  // is a terminal), nor a stream's pipe() (which compares its target with both) may build them.
  it('installs a big archive with its output and errors to pipes without building process.stdout or stderr', async () => {
    const dir = fresh('tricky');
    const archive = await trickyTgz(dir, true);
    const project = fresh('project');
    const preload = join(dir, 'modules.cjs');
    const loaded = join(dir, 'modules.txt');
    writeFileSync(
      preload,
      `if (require('node:worker_threads').isMainThread) process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(loaded)}, process.moduleLoadList.join('\\n')));\n`,
    );
    const env = testEnv(fresh('home'), { NODE_OPTIONS: `--require ${preload}` });
    const r = await execa(
      'sh',
      ['-c', '"$0" "$@" 2>&1 | cat', process.execPath, BIN, 'install', archive, '--into', 'skills'],
      {
        cwd: project,
        env,
        extendEnv: false,
        reject: false,
      },
    );
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('tricky');
    expect(folderIntegrity(join(project, 'skills/tricky'))).toBe(lockOf(project).skills.tricky!.integrity);
    const modules = readFileSync(loaded, 'utf8').split('\n');
    expect(modules).toContain('NativeModule worker_threads');
    expect(modules).not.toContain('NativeModule net');
    expect(modules).not.toContain('NativeModule assert');
  });

  // A project install unpacks into the last folder it places into, as `tar xzf` unpacks into a new folder there, and
  // that folder gets the unpacked copy itself (one rename); the others get copies. The cache is not written.
  it('places an archive into two folders, unpacked into the last and moved into place there', async () => {
    const dir = fresh('tricky');
    const archive = await trickyTgz(dir);
    const project = fresh('project');
    const cache = fresh('cache');
    const env = { HOME: fresh('home'), XDG_CACHE_HOME: cache };
    const r = await runCli(['install', archive, '--into', 'one', '--into', 'two'], { cwd: project, env });
    expect(r.stderr).toBe(TRICKY_ENV);
    expect(r.exitCode).toBe(0);
    const integrity = lockOf(project).skills.tricky!.integrity;
    for (const into of ['one', 'two']) {
      const placed = join(project, into, 'tricky');
      expect(folderIntegrity(placed)).toBe(integrity);
      expect(filesOf(placed)).toEqual(['.env.example', 'SKILL.md', 'references/a/b/deep.md', 'scripts/run.sh']);
      for (const f of filesOf(placed)) expect(statSync(join(placed, f)).mode & 0o200).toBe(0o200);
      expect(statSync(join(placed, 'scripts/run.sh')).mode & 0o111).toBe(0o111);
      // No unpack or staging folder is left beside it.
      expect(readdirSync(join(project, into))).toEqual(['tricky']);
    }
    expect(existsSync(join(cache, 'skills/scratch'))).toBe(false);
    const again = await runCli(['install'], { cwd: project, env });
    expect(again.stdout.split('\n').at(-1)).toContain('1 unchanged; skills-lock.json unchanged');
    rmSync(join(project, 'two'), { recursive: true });
    expect(existsSync(join(project, 'two'))).toBe(false);
  });

  // When the folder that gets the unpacked copy is on another file system than the one it was unpacked in (tmpfs
  // /dev/shm, where there is one), the move cannot be made and the folder gets a copy: the same files.
  it.runIf(existsSync('/dev/shm'))(
    'copies the unpacked files where they cannot be moved (another file system)',
    async () => {
      const dir = fresh('tricky');
      const archive = await trickyTgz(dir);
      const project = fresh('project');
      const env = { HOME: fresh('home') };
      expect((await runCli(['install', archive, '--into', 'one'], { cwd: project, env })).exitCode).toBe(0);
      // `one` is unchanged, so the only folder written is the first, on tmpfs: the copy unpacked in `one` is copied.
      const shm = join('/dev/shm', `skills-into-${process.pid}`);
      try {
        const r = await runCli(['install', archive, '--into', shm, '--into', 'one'], { cwd: project, env });
        // The only warnings: its .env, and a folder outside the project is not recorded in its lock.
        expect(r.stderr).toBe(
          `${TRICKY_ENV}\nwarning: --into ${shm} is outside ${project}, so skills-lock.json does not record it: pass --into again to place skills there`,
        );
        expect(r.exitCode).toBe(0);
        const integrity = lockOf(project).skills.tricky!.integrity;
        expect(folderIntegrity(join(shm, 'tricky'))).toBe(integrity);
        expect(filesOf(join(shm, 'tricky'))).toEqual([
          '.env.example',
          'SKILL.md',
          'references/a/b/deep.md',
          'scripts/run.sh',
        ]);
        expect(readdirSync(shm)).toEqual(['tricky']);
        expect(readdirSync(join(project, 'one'))).toEqual(['tricky']);
        expect(folderIntegrity(join(project, 'one/tricky'))).toBe(integrity);
      } finally {
        rmSync(shm, { recursive: true, force: true });
      }
    },
  );

  it('moves a clean archive into place unwalked, and still leaves out a folder that holds no file', async () => {
    const dir = fresh('clean');
    const src = join(dir, 'src');
    writeTree(join(src, 'clean'), {
      'SKILL.md': skillText('clean', '1.0.0'),
      'references/a.md': '# A\n',
      'references/deep/b.md': '# B\n',
    });
    const tgz = join(dir, 'clean.tgz');
    await execa('tar', ['czf', tgz, '-C', src, 'clean']);
    mkdirSync(join(src, 'clean/assets/empty'), { recursive: true });
    const withEmpty = join(dir, 'clean-empty.tgz');
    await execa('tar', ['czf', withEmpty, '-C', src, 'clean']);
    for (const archive of [tgz, withEmpty]) {
      const project = fresh('project');
      const r = await runCli(['install', archive, '--into', 'skills'], { cwd: project, env: { HOME: fresh('home') } });
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
      const placed = join(project, 'skills/clean');
      expect(readdirSync(placed, { recursive: true }).sort()).toEqual([
        'SKILL.md',
        'references',
        'references/a.md',
        'references/deep',
        'references/deep/b.md',
      ]);
      expect(folderIntegrity(placed)).toBe(lockOf(project).skills.clean!.integrity);
      expect(readdirSync(join(project, 'skills'))).toEqual(['clean']);
    }
  });
});

describe('skills install: an install killed while it unpacks (built CLI)', () => {
  it('leaves no half-written skill in the agent folder, only an .unpack- folder that the next install removes', async () => {
    const dir = fresh('big');
    const skill = join(dir, 'src/big');
    writeTree(skill, { 'SKILL.md': skillText('big', '1.0.0') });
    for (let d = 0; d < 40; d++) {
      mkdirSync(join(skill, `references/part-${d}`), { recursive: true });
      for (let f = 0; f < 100; f++)
        writeFileSync(join(skill, `references/part-${d}/page-${f}.md`), `# Page ${d}.${f}\n${'words '.repeat(300)}\n`);
    }
    const archive = join(dir, 'big.tgz');
    await execa('tar', ['czf', archive, '-C', join(dir, 'src'), 'big']);
    const project = fresh('project');
    const agents = join(project, '.agents/skills');
    const env = testEnv(fresh('home'));
    const child = execa(process.execPath, [BIN, 'install', archive], {
      cwd: project,
      env,
      extendEnv: false,
      reject: false,
    });
    // Killed (SIGKILL: no handler runs) once files are being written into its unpack folder.
    let seen: string[] = [];
    for (let i = 0; i < 4000 && child.exitCode === null; i++) {
      seen = existsSync(agents) ? readdirSync(agents) : [];
      const unpack = seen.find((n) => n.startsWith('.unpack-'));
      if (unpack && readdirSync(join(agents, unpack), { recursive: true }).length > 50) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    child.kill('SIGKILL');
    const ended = await child;
    expect(ended.signal).toBe('SIGKILL');
    // Nothing under the skill's own name, no lock: only the unpack folder(s), named so the next run knows them.
    const left = readdirSync(agents);
    expect(left.length).toBeGreaterThan(0);
    for (const n of left) expect(n).toMatch(/^\.unpack-.+\.\d+\.[0-9a-f]{8}$/);
    expect(existsSync(join(project, 'skills-lock.json'))).toBe(false);
    // The killed install's project lock names it, and is taken over at once (not once it is 10 s old).
    expect(readFileSync(join(project, PROJECT_LOCK, LOCK_OWNER), 'utf8')).toBe(`${child.pid} ${hostname()}`);
    const started = Date.now();
    const again = await runCli(['install', archive], { cwd: project, env });
    expect(again.exitCode).toBe(0);
    expect(Date.now() - started).toBeLessThan(LOCK_STALE_MS - 1_000);
    expect(readdirSync(agents)).toEqual(['big']);
    expect(folderIntegrity(join(agents, 'big'))).toBe(lockOf(project).skills.big!.integrity);
  });
});

describe('skills install --json of an archive, with no registry (built CLI)', () => {
  it("gives each skill's path as where its files are now, never the run's temporary folder", async () => {
    const project = fresh('project');
    mkdirSync(join(project, '.git'));
    const src = fresh('src');
    writeTree(join(src, 'repo-main'), skillsRepo());
    await execa('zip', ['-qr', join(project, 'repo-main.zip'), 'repo-main'], { cwd: src });
    const r = await runCli(['install', 'repo-main.zip', '--json'], { cwd: project });
    expect(r.exitCode, r.stderr).toBe(0);
    const skills = JSON.parse(r.stdout).skills as { id: string; path: string; into: string }[];
    expect(skills.map((s) => s.id).sort()).toEqual(['docx', 'pdf']);
    for (const s of skills) {
      expect(s.path).toBe(join(project, '.agents/skills', s.id));
      expect(s.path).toBe(s.into);
      expect(existsSync(join(s.path, 'SKILL.md'))).toBe(true);
    }
  });
});
