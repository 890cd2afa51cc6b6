// The npm registry seen from the commands that read it after an install (outdated, update, search), against a real
// registry (Verdaccio, started here on 127.0.0.1 with no uplinks) and real node:http servers that misbehave.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempFolders } from '../helpers/cli.js';
import { skillMd, writeTree } from '../helpers/tree.js';
import { startVerdaccio, type Verdaccio } from '../helpers/verdaccio.js';
import { freePort } from '../helpers/git-repos.js';

const { fresh, cleanup } = tempFolders('skills-npm-registry-e2e-');
let registry: Verdaccio;

beforeAll(async () => {
  registry = await startVerdaccio(fresh('verdaccio'));
}, 60_000);
afterAll(async () => {
  await registry?.stop();
  cleanup();
});

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

/** A node:http server on a free loopback port that accepts every request and never answers. */
async function silentServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const port = await freePort();
  const server: Server = createServer(() => {
    // accept and never answer
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${port}/`,
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
    const user = project();
    const installed = await runCli(['install', '@acme/tardy'], { cwd: user, env: withToken() });
    expect(installed.exitCode, installed.stderr).toBe(0);

    const silent = await silentServer();
    try {
      writeFileSync(join(user, '.npmrc'), npmrc(silent.url));
      const env = { ...withToken(), SKILLS_REGISTRY_TIMEOUT: '1' };
      const said = `${silent.url} did not answer in time for @acme/tardy`;

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
      expect(s.stderr).toContain(`${silent.url} did not answer in time for the search "tardy"`);
      expect(s.stderr).not.toContain('FETCH_ERROR');

      // A value that is not seconds: said before anything is asked, for the command, not for each skill.
      const bad = await runCli(['outdated'], { cwd: user, env: { ...withToken(), SKILLS_REGISTRY_TIMEOUT: '3s' } });
      expect(bad.exitCode).toBe(2);
      expect(bad.stderr).toContain('SKILLS_REGISTRY_TIMEOUT is "3s"; it is a number of seconds above 0');
      expect(bad.stderr).not.toContain('cannot check');
    } finally {
      await silent.close();
    }
  }, 90_000);
});
