import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheHome, cacheHomeIfAny, needCache } from '../../../src/fetch/cache.js';
import { NO_HOME } from '../../../src/context.js';
import {
  fetchCommit,
  folderTrees,
  literalPattern,
  remoteTags,
  resolveRef,
  type GitOptions,
} from '../../../src/fetch/git.js';
import { gitFailure, gitTimeouts } from '../../../src/fetch/run-git.js';
import { tempFolders } from '../../helpers/cli.js';
import {
  freePort,
  git,
  gitConfigGlobal,
  makeRepo,
  startAuthServer,
  startGitDaemon,
  type GitDaemon,
} from '../../helpers/git-repos.js';
import { skillMd } from '../../helpers/tree.js';
import { caught } from '../../helpers/errors.js';

const { fresh, cleanup } = tempFolders('skills-git-unit-');
const GIT_TS = fileURLToPath(new URL('../../../src/fetch/git.ts', import.meta.url));

let srv: string;
let url: string;
let env: Record<string, string | undefined>;
let daemon: GitDaemon;
/** Commits of the `skills` repository: v1.0.0 (light tag), v1.2.0 (annotated), untagged, v2.0.0, main's head. */
const c: Record<'v100' | 'v120' | 'plain' | 'v200' | 'main' | 'dev', string> = {} as never;

const skill = (version: string) =>
  skillMd(`name: pdf\ndescription: Fill PDF forms. Use when a PDF form is given.\nversion: ${version}`);

beforeAll(async () => {
  srv = fresh('srv');
  const repo = join(srv, 'skills');
  c.v100 = makeRepo(repo, { 'README.md': 'one\n', 'skills/pdf/SKILL.md': skill('1.0.0') }, { tag: 'v1.0.0' });
  c.v120 = makeRepo(repo, { 'skills/pdf/SKILL.md': skill('1.2.0') }, { tag: 'v1.2.0', annotated: true });
  c.plain = makeRepo(repo, { 'notes.txt': 'untagged\n' });
  c.v200 = makeRepo(repo, { 'skills/pdf/SKILL.md': skill('2.0.0') }, { tag: 'v2.0.0', annotated: true });
  c.main = makeRepo(repo, { 'beta.txt': 'beta\n' }, { tag: 'v1.9.0-beta.1' });
  c.dev = makeRepo(repo, { 'dev.txt': 'dev\n' }, { branch: 'dev' });
  git(repo, ['checkout', '--quiet', 'main']);
  url = pathToFileURL(repo).href;
  env = { PATH: process.env.PATH, ...gitConfigGlobal(fresh('home'), {}) };
  daemon = await startGitDaemon(srv);
});

afterAll(async () => {
  await daemon?.stop();
  cleanup();
});

const opts = (extra: Partial<GitOptions> = {}): GitOptions & { cacheDir: string } => ({
  env,
  cacheDir: fresh('cache'),
  ...extra,
});

const read = (dir: string, rel: string) => readFileSync(join(dir, rel), 'utf8');

describe('resolveRef and remoteTags', () => {
  it('resolves a branch, a light tag, an annotated tag (peeled), HEAD, and returns a 40-hex commit as is', async () => {
    const o = opts();
    expect(await resolveRef(url, 'dev', o)).toBe(c.dev);
    expect(await resolveRef(url, 'v1.0.0', o)).toBe(c.v100);
    expect(await resolveRef(url, 'v1.2.0', o)).toBe(c.v120);
    expect(await resolveRef(url, 'refs/tags/v1.2.0', o)).toBe(c.v120);
    expect(await resolveRef(url, undefined, o)).toBe(c.main);
    expect(await resolveRef(url, 'nope', o)).toBeUndefined();
    expect(await resolveRef(url, c.plain.slice(0, 10), o)).toBeUndefined();
    // No git call at all: it works with git gone from PATH.
    expect(await resolveRef(url, c.plain.toUpperCase(), opts({ env: { PATH: '/nonexistent' } }))).toBe(c.plain);
  });

  it('resolves semver: to the highest tag v?X.Y.Z in the range, pre-releases only when asked', async () => {
    const o = opts();
    expect(await resolveRef(url, 'semver:^1.0', o)).toBe(c.v120);
    expect(await resolveRef(url, 'semver:>=1', o)).toBe(c.v200);
    expect(await resolveRef(url, 'semver:1.9.0-beta.1', o)).toBe(c.main);
    expect(await resolveRef(url, 'semver:^3', o)).toBeUndefined();
  });

  it('lists every tag with the commit it points to', async () => {
    const tags = await remoteTags(url, opts());
    expect(tags).toEqual(
      expect.arrayContaining([
        { tag: 'v1.0.0', commit: c.v100 },
        { tag: 'v1.2.0', commit: c.v120 },
        { tag: 'v2.0.0', commit: c.v200 },
        { tag: 'v1.9.0-beta.1', commit: c.main },
      ]),
    );
    expect(tags).toHaveLength(4);
  });
});

describe('fetchCommit', () => {
  it('fetches a branch, a tag, the default branch, a 40-hex and a short commit', async () => {
    const o = opts();
    const dev = await fetchCommit(url, 'dev', o);
    expect(dev.commit).toBe(c.dev);
    expect(read(dev.dir, 'dev.txt')).toBe('dev\n');
    const tag = await fetchCommit(url, 'v1.2.0', o);
    expect(tag.commit).toBe(c.v120);
    expect(read(tag.dir, 'skills/pdf/SKILL.md')).toContain('version: 1.2.0');
    expect(existsSync(join(tag.dir, 'notes.txt'))).toBe(false);
    const head = await fetchCommit(url, undefined, o);
    expect(head.commit).toBe(c.main);
    expect(read(head.dir, 'beta.txt')).toBe('beta\n');
    const full = await fetchCommit(url, c.plain, o);
    expect(full).toEqual({ commit: c.plain, dir: join(o.cacheDir, 'git', keyOf(url, c.plain)) });
    expect(read(full.dir, 'notes.txt')).toBe('untagged\n');
    const short = await fetchCommit(url, c.v100.slice(0, 7), opts());
    expect(short.commit).toBe(c.v100);
    expect(read(short.dir, 'skills/pdf/SKILL.md')).toContain('version: 1.0.0');
  });

  it('fetches a semver: ref, and says when no tag is in the range', async () => {
    const got = await fetchCommit(url, 'semver:~1.2.0', opts());
    expect(got.commit).toBe(c.v120);
    const err = await caught(fetchCommit(url, 'semver:^7', opts()));
    expect(err.message).toBe(`${url} has no tag vX.Y.Z in the range "^7"`);
  });

  it('fetches the default branch whatever its name', async () => {
    const repo = fresh('trunk');
    const head = makeRepo(repo, { 'SKILL.md': skill('0.1.0') }, { branch: 'trunk' });
    const got = await fetchCommit(pathToFileURL(repo).href, undefined, opts());
    expect(got.commit).toBe(head);
  });

  it('fetches over git:// from a git daemon', async () => {
    const got = await fetchCommit(daemon.url('skills'), 'v2.0.0', opts());
    expect(got.commit).toBe(c.v200);
    expect(read(got.dir, 'skills/pdf/SKILL.md')).toContain('version: 2.0.0');
    expect((await fetchCommit(daemon.url('skills'), c.plain.slice(0, 9), opts())).commit).toBe(c.plain);
  });

  it('says which ref does not exist, long or short', async () => {
    for (const ref of ['no-such-branch', 'deadbeef']) {
      const err = await caught(fetchCommit(url, ref, opts()));
      expect(err.code).toBe('E_NOT_FOUND');
      expect(err.message).toBe(`${url} has no branch, tag or commit "${ref}"`);
    }
  });

  it('says a repository that is not there cannot be read', async () => {
    const missing = pathToFileURL(join(srv, 'nope')).href;
    for (const u of [missing, daemon.url('nope.git')]) {
      const err = await caught(fetchCommit(u, 'main', opts()));
      expect(err.code).toBe('E_NOT_FOUND');
      expect(err.message).toBe(`${u}: cannot read the repository: it does not exist or needs credentials`);
      expect(err.hint).toMatch(/gh auth login/);
    }
  });

  it('says git is not installed when it is not on PATH', async () => {
    const err = await caught(fetchCommit(url, 'main', opts({ env: { ...env, PATH: '/nonexistent' } })));
    expect(err.code).toBe('E_IO');
    expect(err.message).toBe(`git is not installed (or not on PATH): skills runs the system git to fetch ${url}`);
    expect(err.hint).toMatch(/install git/);
  });

  it('refuses a private repository at once: no prompt, no hang, a clear message', async () => {
    const server = await startAuthServer();
    try {
      const home = fresh('home');
      const e = {
        PATH: process.env.PATH,
        ...gitConfigGlobal(home, { 'https://github.com/private/': `${server.url}/private/` }),
      };
      const started = performance.now();
      const err = await caught(fetchCommit('https://github.com/private/repo.git', 'main', opts({ env: e })));
      expect(performance.now() - started).toBeLessThan(8000);
      expect(server.requests.length).toBeGreaterThan(0);
      expect(err.code).toBe('E_NOT_FOUND');
      expect(err.message).toBe(
        'https://github.com/private/repo.git: cannot read the repository: it does not exist or needs credentials',
      );
      expect(err.hint).toMatch(/gh auth login.*credential helper.*ssh-agent/);
    } finally {
      await server.stop();
    }
  });

  it('says that a repository whose objects cannot all be read is damaged, not that the network failed', async () => {
    const repo = join(srv, 'damaged');
    makeRepo(repo, { 'skills/pdf/SKILL.md': skill('1.0.0'), 'skills/pdf/big.md': 'x'.repeat(5000) });
    // A blob lost from the object store (a snapshot without its large files, a disk error).
    const blob = git(repo, ['rev-parse', 'HEAD:skills/pdf/big.md']);
    rmSync(join(repo, '.git', 'objects', blob.slice(0, 2), blob.slice(2)));
    for (const u of [pathToFileURL(repo).href, daemon.url('damaged')]) {
      const err = await caught(fetchCommit(u, 'main', opts()));
      expect(err.code).toBe('E_IO');
      expect(err.message.startsWith(`${u}: the repository is damaged: `), err.message).toBe(true);
      expect(err.message).toMatch(/corruption|unable to read/);
      expect(err.hint).toMatch(/git fsck/);
    }
  });

  it('says why a host cannot be reached, in the words of git, and never shows a token', async () => {
    const port = await freePort();
    const err = await caught(fetchCommit(`https://user:s3cret@127.0.0.1:${port}/r.git`, 'main', opts()));
    expect(err.code).toBe('E_IO');
    expect(err.message).toMatch(
      new RegExp(`^https://127\\.0\\.0\\.1:${port}/r\\.git: cannot reach the repository: .*connect`, 'i'),
    );
    const refused = await caught(fetchCommit(`git://127.0.0.1:${port}/r.git`, undefined, opts()));
    expect(refused.message).toMatch(
      /cannot reach the repository: unable to connect to 127\.0\.0\.1: .*Connection refused/,
    );
    const server = await startAuthServer();
    try {
      const denied = await caught(fetchCommit(`http://user:s3cret@${server.url.slice(7)}/r.git`, 'main', opts()));
      expect(denied.message).toBe(
        `${server.url}/r.git: cannot read the repository: it does not exist or needs credentials`,
      );
      expect(`${denied.message} ${denied.hint}`).not.toContain('s3cret');
    } finally {
      await server.stop();
    }
  });

  it('keeps the user git config: insteadOf sends github.com to a local repository', async () => {
    const e = {
      PATH: process.env.PATH,
      ...gitConfigGlobal(fresh('home'), { 'https://github.com/anthropics/': `${pathToFileURL(srv).href}/` }),
    };
    const o = opts({ env: e });
    const got = await fetchCommit('https://github.com/anthropics/skills', 'v1.0.0', o);
    expect(got).toEqual({
      commit: c.v100,
      dir: join(o.cacheDir, 'git', keyOf('https://github.com/anthropics/skills', c.v100)),
    });
  });

  it('ignores GIT_DIR and GIT_WORK_TREE of a hook that runs it', async () => {
    const other = fresh('other');
    makeRepo(other, { 'x.txt': 'x\n' });
    const e = { ...env, GIT_DIR: join(other, '.git'), GIT_WORK_TREE: other, GIT_INDEX_FILE: join(other, '.git/index') };
    expect((await fetchCommit(url, 'dev', opts({ env: e }))).commit).toBe(c.dev);
    expect(git(other, ['log', '--format=%s'])).toBe('commit');
  });

  it('reuses a cached tree without the network: the remote may be gone', async () => {
    const copy = join(fresh('copy'), 'skills');
    cpSync(join(srv, 'skills'), copy, { recursive: true });
    const u = pathToFileURL(copy).href;
    const o = opts();
    const first = await fetchCommit(u, 'v1.2.0', o);
    rmSync(copy, { recursive: true, force: true });
    expect(await fetchCommit(u, first.commit, o)).toEqual(first);
    expect(read(first.dir, 'skills/pdf/SKILL.md')).toContain('version: 1.2.0');
    // A name still needs the remote.
    expect((await caught(fetchCommit(u, 'v1.2.0', o))).message).toMatch(/cannot read the repository/);
  });

  it('writes the commit tree as it is: read-only files, execute bits, every link as a link, no .git, attributes ignored', async () => {
    const repo = fresh('tree');
    const odd = 'odd name *[x]"q';
    makeRepo(repo, {
      'SKILL.md': skill('1.0.0'),
      'scripts/run.sh': { content: '#!/bin/sh\necho hi\n', mode: 0o755 },
      'CLAUDE.md': { symlink: 'SKILL.md' },
      [`docs/${odd}`]: { symlink: '../SKILL.md' },
      [`docs/${odd}.txt`]: 'kept\n',
      // Links out of the tree are made too (never followed), so the install plan names them.
      'docs/passwd': { symlink: '/etc/passwd' },
      'docs/up': { symlink: '../../outside' },
      '.gitattributes': 'tests/ export-ignore\nversion.txt export-subst\n',
      'tests/a.txt': 'a\n',
      'version.txt': '$Format:%H$\n',
    });
    const { dir } = await fetchCommit(pathToFileURL(repo).href, undefined, opts());
    expect(readdirSync(dir).sort()).toEqual([
      '.gitattributes',
      'CLAUDE.md',
      'SKILL.md',
      'docs',
      'scripts',
      'tests',
      'version.txt',
    ]);
    // Made again as a clone has them (the archive reader refuses links), so a copy takes what they lead to.
    expect(readlinkSync(join(dir, 'CLAUDE.md'))).toBe('SKILL.md');
    expect(readdirSync(join(dir, 'docs')).sort()).toEqual([odd, `${odd}.txt`, 'passwd', 'up']);
    expect(readlinkSync(join(dir, 'docs', odd))).toBe('../SKILL.md');
    expect(readlinkSync(join(dir, 'docs/passwd'))).toBe('/etc/passwd');
    expect(readlinkSync(join(dir, 'docs/up'))).toBe('../../outside');
    // The file a link leads to keeps its own mode (chmod is not made through the link).
    expect(read(dir, 'version.txt')).toBe('$Format:%H$\n');
    expect(read(dir, 'tests/a.txt')).toBe('a\n');
    expect(statSync(join(dir, 'scripts/run.sh')).mode & 0o777).toBe(0o555);
    expect(statSync(join(dir, 'SKILL.md')).mode & 0o777).toBe(0o444);
  });

  it('leaves nothing under the final name when killed mid-fetch, and fetches whole afterwards', async () => {
    const repo = fresh('big');
    const files: Record<string, string> = { 'SKILL.md': skill('1.0.0') };
    for (let i = 0; i < 300; i++) files[`data/f${i}.txt`] = randomBytes(15 * 1024).toString('base64');
    const commit = makeRepo(repo, files);
    const u = pathToFileURL(repo).href;
    const cacheDir = fresh('cache');
    const cache = join(cacheDir, 'git');
    const code = `const { fetchCommit } = await import(${JSON.stringify(pathToFileURL(GIT_TS).href)});
      await fetchCommit(process.env.T_URL, 'main', { env: process.env, cacheDir: process.env.T_CACHE });`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
      env: { ...process.env, ...env, T_URL: u, T_CACHE: cacheDir },
      stdio: 'ignore',
    });
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    // Kill it once git is receiving the pack (or, on a machine too fast to see that, whatever it is doing).
    const deadline = Date.now() + 15_000;
    let temp: string | undefined;
    while (Date.now() < deadline) {
      temp = existsSync(cache) ? readdirSync(cache).find((n) => n.startsWith('.tmp-')) : undefined;
      const pack = temp && join(cache, temp, 'repo.git/objects/pack');
      if (pack && existsSync(pack) && readdirSync(pack).length > 0) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(temp).toBeDefined();
    child.kill('SIGKILL');
    await exited;
    expect(readdirSync(cache).filter((n) => !n.startsWith('.tmp-'))).toEqual([]);
    // Its git would run on to the end, in a process group of its own: end it, as a reboot would.
    await killProcessesIn(join(cache, temp!));
    expect(existsSync(join(cache, keyOf(u, commit)))).toBe(false);
    const got = await fetchCommit(u, 'main', { env, cacheDir });
    expect(got).toEqual({ commit, dir: join(cache, keyOf(u, commit)) });
    expect(readdirSync(join(got.dir, 'data'))).toHaveLength(300);
    // The dead run's temp folder was swept.
    // The tree and its seal (what it held when fetched: fetched again if it changes in the cache).
    expect(readdirSync(cache).sort()).toEqual([keyOf(u, commit), `${keyOf(u, commit)}.seal`]);
  }, 30_000);
});

describe('a folder inside the repository', () => {
  it('archives only the folder, cached by url, commit and path; a cached whole tree serves any folder', async () => {
    const o = opts();
    const got = await fetchCommit(url, 'v1.2.0', o, 'skills/pdf');
    expect(got).toEqual({ commit: c.v120, dir: join(o.cacheDir, 'git', keyOf(url, c.v120, 'skills/pdf')) });
    expect(readdirSync(got.dir)).toEqual(['skills']);
    expect(readdirSync(join(got.dir, 'skills'))).toEqual(['pdf']);
    expect(read(got.dir, 'skills/pdf/SKILL.md')).toContain('version: 1.2.0');
    // The same folder spelled otherwise is the same entry, served from the cache.
    expect(await fetchCommit(url, c.v120, o, './skills//pdf/')).toEqual(got);
    // The whole tree, once fetched, serves every folder of it.
    const whole = await fetchCommit(url, c.v120, o);
    expect(whole.dir).toBe(join(o.cacheDir, 'git', keyOf(url, c.v120)));
    expect(await fetchCommit(url, c.v120, o, 'skills/pdf')).toEqual(whole);
    // An empty path is the top.
    expect(await fetchCommit(url, c.v120, o, '/')).toEqual(whole);
  });

  it('reads the path literally, after "--", and refuses a folder the commit does not have', async () => {
    const repo = fresh('odd-paths');
    const head = makeRepo(repo, { 'a*/SKILL.md': skill('1.0.0'), 'ab/x.txt': 'x\n', '-x/y.txt': 'y\n' });
    const u = pathToFileURL(repo).href;
    const star = await fetchCommit(u, undefined, opts(), 'a*');
    expect(readdirSync(star.dir)).toEqual(['a*']);
    expect(readdirSync((await fetchCommit(u, undefined, opts(), '-x')).dir)).toEqual(['-x']);
    for (const path of ['nope', 'a', ':(glob)a*', 'a*/SKILL.md/deeper']) {
      const o = opts();
      const err = await caught(fetchCommit(u, undefined, o, path));
      expect(err.code, path).toBe('E_NOT_FOUND');
      expect(err.message).toBe(`${u}: the repository has no folder "${path}" at commit ${head.slice(0, 12)}`);
      expect(err.hint).toMatch(/name a folder that holds a skill/);
      // Nothing kept for it but the folder of the cache.
      expect(readdirSync(join(o.cacheDir, 'git'))).toEqual([]);
    }
    const up = await caught(fetchCommit(u, undefined, opts(), 'a/../../x'));
    expect(up.code).toBe('E_USAGE');
  });
});

describe('folderTrees', () => {
  it("gives each folder's tree id at each commit, as git has it, over file:// and git://; a folder not there has none", async () => {
    const expected = (commit: string, path: string) =>
      git(join(srv, 'skills'), ['rev-parse', `${commit}:${path}`]).trim();
    for (const u of [url, daemon.url('skills')]) {
      const o = opts();
      const trees = await folderTrees(u, [c.v100, c.plain, c.v200], ['skills/pdf', './skills//pdf/', 'gone'], o);
      expect(trees).toEqual(
        new Map([
          [`${c.v100}:skills/pdf`, expected(c.v100, 'skills/pdf')],
          [`${c.plain}:skills/pdf`, expected(c.plain, 'skills/pdf')],
          [`${c.v200}:skills/pdf`, expected(c.v200, 'skills/pdf')],
        ]),
      );
      // notes.txt changed between v1.2.0 and plain, not the folder; v2.0.0 changed it.
      expect(trees!.get(`${c.plain}:skills/pdf`)).toBe(expected(c.v120, 'skills/pdf'));
      expect(trees!.get(`${c.v200}:skills/pdf`)).not.toBe(trees!.get(`${c.plain}:skills/pdf`));
      // A file is not a folder.
      expect((await folderTrees(u, [c.v100], ['README.md'], o))!.size).toBe(0);
      // Nothing is left in the cache: the repository was a throwaway.
      expect(readdirSync(join(o.cacheDir, 'git'))).toEqual([]);
    }
  });

  it('is undefined when a commit is not on the remote, and refuses a ".." path or a URL that starts with "-"', async () => {
    const missing = 'f'.repeat(40);
    expect(await folderTrees(url, [c.v100, missing], ['skills/pdf'], opts())).toBeUndefined();
    expect((await caught(folderTrees(url, [c.v100], ['skills/../..'], opts()))).code).toBe('E_USAGE');
    expect((await caught(folderTrees('-uhelp', [c.v100], ['skills'], opts()))).code).toBe('E_USAGE');
    expect(await folderTrees(url, [], ['skills/pdf'], opts())).toEqual(new Map());
  });
});

describe('a server that accepts and never answers', () => {
  let silent: ReturnType<typeof createServer>;
  const sockets = new Set<Socket>();
  let port: number;
  beforeAll(async () => {
    silent = createServer((s) => {
      sockets.add(s);
      s.on('error', () => {});
    });
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    port = (silent.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((done) => silent.close(() => done()));
  });

  it('ends the question to the remote after SKILLS_GIT_TIMEOUT seconds, naming the URL and what to do', async () => {
    for (const u of [`git://127.0.0.1:${port}/x.git`, `http://127.0.0.1:${port}/x.git`]) {
      const started = performance.now();
      const err = await caught(fetchCommit(u, 'main', opts({ env: { ...env, SKILLS_GIT_TIMEOUT: '1' } })));
      expect(performance.now() - started, u).toBeLessThan(6000);
      expect(err.code).toBe('E_IO');
      expect(err.message).toBe(`${u}: the git server did not answer within 1 s (git ls-remote was stopped)`);
      expect(err.hint).toMatch(/check that the server is up and reachable.*SKILLS_GIT_TIMEOUT=<seconds> \(now 1 s\)/);
    }
  });

  it('ends a fetch that receives nothing (a locked commit: no ls-remote first) after as long', async () => {
    for (const u of [`git://127.0.0.1:${port}/x.git`, `http://127.0.0.1:${port}/x.git`]) {
      const o = opts({ env: { ...env, SKILLS_GIT_TIMEOUT: '1' } });
      const started = performance.now();
      const err = await caught(fetchCommit(u, c.v100, o));
      expect(performance.now() - started, u).toBeLessThan(6000);
      expect(err.code).toBe('E_IO');
      // git:// by the watch on progress; http by that or by git's own http.lowSpeedTime, whichever comes first.
      expect(err.message, u).toMatch(new RegExp(`^${u.replace(/[.]/g, '\\.')}: the transfer stalled: `));
      expect(err.hint).toMatch(/SKILLS_GIT_TIMEOUT/);
      expect(readdirSync(join(o.cacheDir, 'git'))).toEqual([]);
    }
  });

  it('reads SKILLS_GIT_TIMEOUT: 60 s unless set, 10 minutes for a transfer that moves, refused unless above 0', () => {
    const o = (e: Record<string, string>, timeoutMs?: number): GitOptions => ({ env: e, cacheDir: '/x', timeoutMs });
    expect(gitTimeouts(o({}))).toEqual({ askMs: 60_000, stallMs: 60_000, maxMs: 600_000 });
    expect(gitTimeouts(o({ SKILLS_GIT_TIMEOUT: ' ' }))).toEqual({ askMs: 60_000, stallMs: 60_000, maxMs: 600_000 });
    expect(gitTimeouts(o({}, 5000))).toEqual({ askMs: 5000, stallMs: 5000, maxMs: 5000 });
    expect(gitTimeouts(o({ SKILLS_GIT_TIMEOUT: '2.5' }))).toEqual({
      askMs: 2500,
      stallMs: 2500,
      maxMs: 600_000,
      fromEnv: 2.5,
    });
    // The user's word wins over a caller's default, and a longer wait lets a fetch run longer too.
    expect(gitTimeouts(o({ SKILLS_GIT_TIMEOUT: '900' }, 60_000))).toEqual({
      askMs: 900_000,
      stallMs: 900_000,
      maxMs: 900_000,
      fromEnv: 900,
    });
    for (const bad of ['0', '-1', 'abc', '1m'])
      expect(() => gitTimeouts(o({ SKILLS_GIT_TIMEOUT: bad })), bad).toThrow(
        `SKILLS_GIT_TIMEOUT must be a number of seconds above 0, not "${bad}"`,
      );
  });
});

describe('gitFailure: what git said, told as what it means', () => {
  const u = 'https://github.com/o/r.git';
  it.each([
    ["remote: Repository not found.\nfatal: repository 'https://github.com/o/r.git/' not found\n"],
    ["fatal: could not read Username for 'https://github.com': terminal prompts disabled\n"],
    ['git@github.com: Permission denied (publickey).\nfatal: Could not read from remote repository.\n'],
    ["remote: HTTP Basic: Access denied\nfatal: Authentication failed for 'https://gitlab.com/g/r.git/'\n"],
    ["fatal: unable to access 'https://github.com/o/r.git/': The requested URL returned error: 403\n"],
  ])('%s: cannot read the repository', (stderr) => {
    const err = gitFailure(u, stderr, 'main');
    expect(err.message).toBe(`${u}: cannot read the repository: it does not exist or needs credentials`);
  });

  it('a full or read-only disk here is not a damaged repository (git then says index-pack failed)', () => {
    for (const why of ['No space left on device', 'Read-only file system', 'Disk quota exceeded']) {
      const err = gitFailure(u, `fatal: write error: ${why}\nfatal: fetch-pack: invalid index-pack output\n`);
      expect(err.message).toBe(`${u}: git cannot write its copy on this machine: write error: ${why}`);
      expect(err.hint).toMatch(/free space on the disk of the skills cache/);
      expect(err.message).not.toMatch(/damaged/);
    }
    // Without such a line, index-pack's failure is the repository's.
    expect(gitFailure(u, 'fatal: fetch-pack: invalid index-pack output\n').message).toMatch(/is damaged/);
  });

  it('tells an unknown host key, a missing ref, a network failure and anything else apart', () => {
    expect(
      gitFailure(u, 'Host key verification failed.\nfatal: Could not read from remote repository.\n').hint,
    ).toMatch(/ssh -T/);
    expect(gitFailure(u, "fatal: couldn't find remote ref v9\n", 'v9').message).toBe(
      `${u} has no branch, tag or commit "v9"`,
    );
    expect(
      gitFailure(u, "fatal: unable to access 'https://tok@github.com/o/r.git/': Could not resolve host: github.com\n")
        .message,
    ).toBe(
      `${u}: cannot reach the repository: unable to access 'https://github.com/o/r.git/': Could not resolve host: github.com`,
    );
    const slow = gitFailure(
      u,
      'error: RPC failed; curl 28 Operation too slow. Less than 1000 bytes/sec transferred the last 60 seconds\nfatal: expected flush after ref listing\n',
    );
    expect(slow.message).toBe(
      `${u}: the transfer stalled: RPC failed; curl 28 Operation too slow. Less than 1000 bytes/sec transferred the last 60 seconds`,
    );
    expect(slow.hint).toMatch(/SKILLS_GIT_TIMEOUT/);
    expect(gitFailure(u, 'Receiving objects: 50%\rerror: something odd\n').message).toBe(
      `${u}: git failed: something odd`,
    );
  });
});

describe('cacheHome and literalPattern', () => {
  it('puts the cache where the code cache is, unless SKILLS_CACHE_DIR says', () => {
    expect(cacheHome({}, '/home/u')).toBe('/home/u/.cache/skills');
    expect(cacheHome({ XDG_CACHE_HOME: '/x/cache' }, '/home/u')).toBe('/x/cache/skills');
    expect(cacheHome({ XDG_CACHE_HOME: '' }, '/home/u')).toBe('/home/u/.cache/skills');
    expect(cacheHome({ SKILLS_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x' }, '/home/u')).toBe('/c');
    expect(() => cacheHome({ SKILLS_CACHE_DIR: 'rel' }, '/home/u')).toThrow(/must be an absolute path/);
  });

  it('has no cache without a home, which a download asks for and a local source does without', () => {
    expect(cacheHomeIfAny({}, NO_HOME)).toBeUndefined();
    expect(cacheHomeIfAny({ SKILLS_CACHE_DIR: '/c' }, NO_HOME)).toBe('/c');
    expect(cacheHomeIfAny({ XDG_CACHE_HOME: '/x' }, NO_HOME)).toBe('/x/skills');
    expect(() => cacheHomeIfAny({ SKILLS_CACHE_DIR: 'rel' }, NO_HOME)).toThrow(/must be an absolute path/);
    expect(() => needCache(undefined)).toThrow(/no folder to cache downloads in: HOME is empty/);
    expect(needCache('/c')).toBe('/c');
  });

  it('writes a gitattributes pattern that matches one path literally', () => {
    expect(literalPattern('CLAUDE.md')).toBe('/CLAUDE.md');
    expect(literalPattern('a*b/[x]?')).toBe('/a\\*b/\\[x\\]\\?');
    expect(literalPattern('a b"\n')).toBe('"/a b\\"\\012"');
  });
});

function keyOf(u: string, commit: string, path?: string): string {
  return createHash('sha256')
    .update(`${path === undefined ? u + commit : `${u}${commit}\0${path}`}\0links-all`)
    .digest('hex')
    .slice(0, 32);
}

/** SIGKILL every process whose working folder is in `dir`, until none is left (Linux /proc; elsewhere a pause). */
async function killProcessesIn(dir: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    let pids: string[];
    try {
      pids = readdirSync('/proc').filter((n) => /^\d+$/.test(n));
    } catch {
      await new Promise((r) => setTimeout(r, 3000));
      return;
    }
    let busy = false;
    for (const pid of pids) {
      try {
        if (!readlinkSync(`/proc/${pid}/cwd`).startsWith(dir)) continue;
        busy = true;
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        /* gone, or not ours */
      }
    }
    if (!busy) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}
