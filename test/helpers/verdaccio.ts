// A real npm registry for the tests: Verdaccio (a devDependency) started as a child process on a free loopback
// port, with its storage and its htpasswd file in a temp folder, no uplinks (nothing is fetched from the network),
// and one real user whose token the tests use.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { freePort } from './git-repos.js';

const require = createRequire(import.meta.url);

export interface Verdaccio {
  url: string;
  port: number;
  /** The token of the user the tests publish as. */
  token: string;
  user: string;
  /** The folder it keeps its configuration and storage in. */
  dir: string;
  stop(): Promise<void>;
}

/** Start Verdaccio in `dir` (made if missing) and create a user; resolves once it answers. */
export async function startVerdaccio(dir: string): Promise<Verdaccio> {
  mkdirSync(join(dir, 'storage'), { recursive: true });
  const port = await freePort();
  const config = join(dir, 'config.yaml');
  writeFileSync(
    config,
    [
      `storage: ${join(dir, 'storage')}`,
      'auth:',
      '  htpasswd:',
      `    file: ${join(dir, 'htpasswd')}`,
      '    max_users: 100',
      'uplinks: {}',
      'packages:',
      // A scope nobody may publish to: the tests' 403.
      "  '@locked/*':",
      '    access: $authenticated',
      '    publish: nobody-at-all',
      "  '@*/*':",
      '    access: $authenticated',
      '    publish: $authenticated',
      "  '**':",
      '    access: $authenticated',
      '    publish: $authenticated',
      'server:',
      '  keepAliveTimeout: 0',
      'log: { type: stdout, format: json, level: warn }',
      '',
    ].join('\n'),
  );
  const bin = require.resolve('verdaccio/bin/verdaccio');
  const child: ChildProcess = spawn(process.execPath, [bin, '--config', config, '--listen', `127.0.0.1:${port}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited (${child.exitCode}):\n${output}`);
    try {
      const r = await fetch(`${url}-/ping`);
      if (r.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`verdaccio did not answer on ${url} within 30 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const user = 'skills-tester';
  const r = await fetch(`${url}-/user/org.couchdb.user:${user}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: user,
      password: 'correct-horse-battery',
      type: 'user',
      roles: [],
      date: new Date().toISOString(),
    }),
  });
  const body = (await r.json()) as { token?: string };
  if (!r.ok || !body.token) throw new Error(`verdaccio refused to add a user (${r.status}): ${JSON.stringify(body)}`);
  return {
    url,
    port,
    token: body.token,
    user,
    dir,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      }),
  };
}

/**
 * A Verdaccio for the test file that calls this at its top level: started before its tests (in `fresh('verdaccio')`),
 * stopped after them, then `cleanup` run. The object answers as the started registry does.
 */
export function verdaccioForFile(fresh: (name?: string) => string, cleanup: () => void): Verdaccio {
  let started: Verdaccio | undefined;
  beforeAll(async () => {
    started = await startVerdaccio(fresh('verdaccio'));
  }, 60_000);
  afterAll(async () => {
    await started?.stop();
    cleanup();
  });
  const it = (): Verdaccio => {
    if (!started) throw new Error('the test registry is not started yet: use it inside a test or a hook');
    return started;
  };
  return {
    get url() {
      return it().url;
    },
    get port() {
      return it().port;
    },
    get token() {
      return it().token;
    },
    get user() {
      return it().user;
    },
    get dir() {
      return it().dir;
    },
    stop: () => it().stop(),
  };
}

/** The environment variable the tests' .npmrc reads the token from (`${SKILLS_TEST_NPM_TOKEN}`). */
export const TEST_TOKEN_ENV = 'SKILLS_TEST_NPM_TOKEN';

/** The .npmrc lines that send @acme (and everything else) to `url`, with the token read from TEST_TOKEN_ENV. */
export function acmeNpmrc(url: string): string {
  const host = new URL(url).host;
  return `scope=@acme\nregistry=${url}\n@acme:registry=${url}\n//${host}/:_authToken=\${${TEST_TOKEN_ENV}}\n`;
}
