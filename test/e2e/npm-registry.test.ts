// The npm registry seen from the commands that read it after an install (outdated, update, search), against a real
// registry (Verdaccio, started here on 127.0.0.1 with no uplinks) and real node:http servers that misbehave.
import { describe, expect, it } from 'vitest';
import { createServer, request, type Server } from 'node:http';
import { execa } from 'execa';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempFolders } from '../helpers/cli.js';
import { skillMd, writeTree } from '../helpers/tree.js';
import { verdaccioForFile } from '../helpers/verdaccio.js';
import { freePort } from '../helpers/git-repos.js';

const { fresh, cleanup } = tempFolders('skills-npm-registry-e2e-');
const registry = verdaccioForFile(fresh, cleanup);

const TOKEN_ENV = 'SKILLS_TEST_NPM_TOKEN';
const withToken = () => ({ [TOKEN_ENV]: registry.token });

/** The .npmrc lines that send @acme (and everything else) to `url`, with the token read from the environment. */
const npmrc = (url: string) => {
  const host = new URL(url).host;
  return `scope=@acme\nregistry=${url}\n@acme:registry=${url}\n//${host}/:_authToken=\${${TOKEN_ENV}}\n`;
};

function project(files: Record<string, string> = {}): string {
  const dir = fresh('project');
  writeTree(dir, { '.npmrc': npmrc(registry.url), ...files });
  return dir;
}

/**
 * A node:http server on a free loopback port that passes every request on to `upstream` until `silence()`, then
 * accepts every request and never answers.
 */
async function tardyServer(
  upstream: string,
): Promise<{ url: string; silence: () => void; close: () => Promise<void> }> {
  const port = await freePort();
  let answering = true;
  const server: Server = createServer((req, res) => {
    if (!answering) return; // accept and never answer
    const ahead = request(new URL(req.url ?? '/', upstream), { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    ahead.on('error', () => res.destroy());
    req.pipe(ahead);
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${port}/`,
    silence: () => {
      answering = false;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

describe('a registry that stops answering after the install', () => {
  it('outdated, update and search give up after SKILLS_REGISTRY_TIMEOUT with the same words; outdated never says up to date for a skill it could not check', async () => {
    const author = project({
      'tardy/SKILL.md': skillMd(
        'name: tardy\ndescription: Late things. Use when testing a registry that stops answering.\nmetadata:\n  version: 1.0.0\n',
      ),
    });
    expect((await runCli(['publish', 'tardy'], { cwd: author, env: withToken() })).exitCode).toBe(0);
    // The install goes through a registry that answers, with npm's cache in a folder of the test's own (not the
    // runner's ~/.npm, which `npm test` names in npm_config_cache): the cache then holds the packument of the
    // registry's very URL, as a user's does, and a registry that stops answering must not be read from it.
    const tardy = await tardyServer(registry.url);
    const npmCache = fresh('npm-cache');
    try {
      const user = project({ '.npmrc': npmrc(tardy.url) });
      const env = { ...withToken(), npm_config_cache: npmCache };
      const installed = await runCli(['install', '@acme/tardy'], { cwd: user, env });
      expect(installed.exitCode, installed.stderr).toBe(0);
      expect(cachedUrls(npmCache)).toContain(`${tardy.url}@acme%2ftardy`);

      tardy.silence();
      const said = `${tardy.url} did not answer in time for @acme/tardy`;
      await stopsAnswering(user, { ...env, SKILLS_REGISTRY_TIMEOUT: '1' }, said, tardy.url);
    } finally {
      await tardy.close();
    }
  }, 90_000);
});

/** The URLs whose answers npm's cache in `dir` holds (cacache's index: one JSON line a write). */
function cachedUrls(dir: string): string[] {
  const index = join(dir, 'index-v5');
  if (!existsSync(index)) return [];
  return readdirSync(index, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .flatMap((e) => readFileSync(join(e.parentPath, e.name), 'utf8').split('\n'))
    .flatMap((line) => /"url":"([^"]+)"/.exec(line)?.[1] ?? []);
}

/** outdated, update and search in `user`, whose registry (`url`) no longer answers, each say so (`said`). */
async function stopsAnswering(user: string, env: Record<string, string>, said: string, url: string): Promise<void> {
  const o = await runCli(['outdated'], { cwd: user, env });
  expect(o.exitCode).toBe(2);
  expect(o.stderr.split('\n')[0]).toBe(
    'error: 1 of 1 skill could not be checked; nothing is known of its newer versions',
  );
  expect(o.stderr).toContain(`error: tardy: cannot check npm:@acme/tardy: ${said}`);
  expect(o.stderr).toContain('SKILLS_REGISTRY_TIMEOUT=<seconds>');
  expect(o.stdout).toBe('1 could not be checked (see above)');
  expect(o.stdout).not.toContain('up to date');

  const j = await runCli(['outdated', '--json'], { cwd: user, env });
  expect(j.exitCode).toBe(2);
  const entry = JSON.parse(j.stdout).skills[0];
  expect(entry.error).toMatchObject({ code: 'E_IO', message: expect.stringContaining(said) });

  const u = await runCli(['update'], { cwd: user, env });
  expect(u.exitCode).toBe(2);
  expect(u.stderr).toContain(`error: tardy: cannot check: ${said}`);
  expect(u.stdout).not.toContain('up to date');

  const s = await runCli(['search', 'tardy'], { cwd: user, env });
  expect(s.exitCode).toBe(2);
  expect(s.stderr).toContain(`${url} did not answer in time for the search "tardy"`);
  expect(s.stderr).not.toContain('FETCH_ERROR');

  // A value that is not seconds: said before anything is asked, for the command, not for each skill.
  const bad = await runCli(['outdated'], { cwd: user, env: { ...env, SKILLS_REGISTRY_TIMEOUT: '3s' } });
  expect(bad.exitCode).toBe(2);
  expect(bad.stderr).toContain('SKILLS_REGISTRY_TIMEOUT is "3s"; it is a number of seconds above 0');
  expect(bad.stderr).not.toContain('cannot check');
}

/** Publish a package the way its author would by hand: the real `npm publish`, with an .npmrc of its own. */
async function npmPublish(files: Record<string, string>): Promise<void> {
  const dir = fresh('by-hand');
  writeTree(dir, { '.npmrc': npmrc(registry.url), ...files });
  const home = fresh('npm-home');
  const r = await execa('npm', ['publish', '--ignore-scripts'], {
    cwd: dir,
    env: { ...withToken(), HOME: home, npm_config_cache: join(home, 'cache'), npm_config_update_notifier: 'false' },
    reject: false,
  });
  expect(r.exitCode, r.stderr).toBe(0);
}

describe('a skill package published by hand with npm', () => {
  const packageJson = (version: string) =>
    JSON.stringify({
      name: '@acme/byhand',
      version,
      description: 'Made by hand. Use when testing a package npm published.',
      keywords: ['agentskills'],
      scripts: { postinstall: "node -e \"require('fs').writeFileSync('ran', '')\"" },
    });
  const skill = (frontmatter = '') =>
    skillMd(`name: byhand\ndescription: Made by hand. Use when testing a package npm published.\n${frontmatter}`);

  it('is found by search, installed and locked at the package version, and update reaches a fixed point', async () => {
    // Its SKILL.md has no version: the package's is the skill's.
    await npmPublish({ 'package.json': packageJson('1.0.0'), 'SKILL.md': skill() });
    const user = project();
    type Lock = { skills: Record<string, { version: string }> };
    const lockOf = () => JSON.parse(readFileSync(join(user, 'skills-lock.json'), 'utf8')) as Lock;

    const found = await runCli(['search', 'byhand', '--json'], { cwd: user, env: withToken() });
    expect(found.exitCode, found.stderr).toBe(0);
    expect(JSON.parse(found.stdout).hits).toEqual([
      {
        name: '@acme/byhand',
        version: '1.0.0',
        description: 'Made by hand. Use when testing a package npm published.',
        skills: ['byhand'],
      },
    ]);

    const installed = await runCli(['install', '@acme/byhand'], { cwd: user, env: withToken() });
    expect(installed.exitCode, installed.stderr).toBe(0);
    expect(installed.stdout).toContain('byhand@1.0.0');
    expect(installed.stderr).not.toContain('0.0.0');
    expect(lockOf().skills.byhand!.version).toBe('1.0.0');
    expect(existsSync(join(user, '.agents/skills/byhand/ran'))).toBe(false);
    const o = await runCli(['outdated'], { cwd: user, env: withToken() });
    expect([o.exitCode, o.stdout]).toEqual([0, 'all skills are up to date']);

    // 1.1.0, whose SKILL.md says another version: the package's is kept, and the difference said.
    await npmPublish({ 'package.json': packageJson('1.1.0'), 'SKILL.md': skill('metadata:\n  version: 0.9.0\n') });
    const newer = await runCli(['outdated'], { cwd: user, env: withToken() });
    expect(newer.stdout).toMatch(/^byhand\s+1\.0\.0\s+1\.1\.0\s+1\.1\.0\s+npm:@acme\/byhand$/m);
    const u = await runCli(['update'], { cwd: user, env: withToken() });
    expect(u.exitCode, u.stderr).toBe(0);
    expect(u.stdout).toContain('updated byhand 1.0.0 → 1.1.0');
    expect(u.stderr).toContain(
      "warning: @acme/byhand@1.1.0: its SKILL.md says version 0.9.0; the package's version, 1.1.0, is the one installed and locked",
    );
    expect(u.stderr).not.toContain('the source moved');
    expect(lockOf().skills.byhand!.version).toBe('1.1.0');

    // A second update changes nothing and says so.
    const before = readFileSync(join(user, 'skills-lock.json'), 'utf8');
    const again = await runCli(['update'], { cwd: user, env: withToken() });
    expect([again.exitCode, again.stdout]).toEqual([0, 'all skills are up to date']);
    expect(readFileSync(join(user, 'skills-lock.json'), 'utf8')).toBe(before);
    const after = await runCli(['outdated'], { cwd: user, env: withToken() });
    expect([after.exitCode, after.stdout]).toEqual([0, 'all skills are up to date']);
    // The lock again, as a fresh checkout runs it: the same version, nothing changed.
    const replay = await runCli(['install'], { cwd: user, env: withToken() });
    expect(replay.exitCode, replay.stderr).toBe(0);
    expect(readFileSync(join(user, 'skills-lock.json'), 'utf8')).toBe(before);
  }, 120_000);

  it('installs a package whose SKILL.md version is not semver at the package version, saying both', async () => {
    await npmPublish({
      'package.json': packageJson('2.0.0').replace('@acme/byhand', '@acme/beta'),
      'SKILL.md': skillMd(
        'name: beta\ndescription: Made by hand. Use when testing a version npm ignores.\nversion: beta\n',
      ),
    });
    const user = project();
    const installed = await runCli(['install', '@acme/beta'], { cwd: user, env: withToken() });
    expect(installed.exitCode, installed.stderr).toBe(0);
    expect(installed.stderr).toContain(
      "warning: @acme/beta@2.0.0: its SKILL.md says version beta; the package's version, 2.0.0, is the one installed and locked",
    );
    const lock = JSON.parse(readFileSync(join(user, 'skills-lock.json'), 'utf8'));
    expect(lock.skills.beta).toMatchObject({ version: '2.0.0', source: 'npm:@acme/beta' });
    // The placed SKILL.md is the author's, as published.
    expect(readFileSync(join(user, '.agents/skills/beta/SKILL.md'), 'utf8')).toContain('version: beta');
    const o = await runCli(['outdated'], { cwd: user, env: withToken() });
    expect([o.exitCode, o.stdout]).toEqual([0, 'all skills are up to date']);
    // The lock again, as a fresh checkout runs it.
    rmSync(join(user, '.agents'), { recursive: true, force: true });
    const replay = await runCli(['install'], { cwd: user, env: withToken() });
    expect(replay.exitCode, replay.stderr).toBe(0);
    expect(existsSync(join(user, '.agents/skills/beta/SKILL.md'))).toBe(true);
  }, 120_000);
});

describe('a registry that answers what no plain message covers', () => {
  it('says the status, the registry and where it was taken from, with the .npmrc line that sets another', async () => {
    const port = await freePort();
    // A real HTTP server that takes no publishes, as npmjs.org answers a publish it does not route.
    const server: Server = createServer((_req, res) => {
      res.writeHead(405, { 'content-type': 'text/plain' });
      res.end('Method Not Allowed');
    });
    await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${port}/`;
      const dir = fresh('refusing');
      writeTree(dir, {
        '.npmrc': `registry=${url}\n//127.0.0.1:${port}/:_authToken=x\n`,
        'plain/SKILL.md': skillMd(
          'name: plain\ndescription: Plain words. Use when testing a registry refusal.\nmetadata:\n  version: 1.0.0\n',
        ),
      });
      const r = await runCli(['publish', 'plain', '--scope', 'acme'], { cwd: dir });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toBe(
        `error: ${url} answered 405 Method Not Allowed for @acme/plain@1.0.0\n` +
          `hint: ${url} is set by registry= in ${join(dir, '.npmrc')}; to use another, write @acme:registry=<its URL> in the project's .npmrc`,
      );
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  }, 60_000);
});
