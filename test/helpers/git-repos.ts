// Real git repositories, servers and configuration for tests that fetch skills, with no network: repositories on
// disk (file://), a git daemon on 127.0.0.1 (git://), a git config whose insteadOf rules send github.com to them, an
// http server that asks for a sign-in, and one that serves files.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer, connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { writeTree, type TreeSpec } from './tree.js';

/** git's environment in tests: no user or system configuration, no prompt, fixed identity. */
export const GIT_TEST_ENV: Record<string, string> = {
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_TERMINAL_PROMPT: '0',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

/** Run git in `dir` (sync), returning its trimmed stdout; throws with git's stderr on failure. */
export function git(dir: string, args: string[]): string {
  return execFileSync(
    'git',
    ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args],
    {
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: dir, ...GIT_TEST_ENV },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 256 * 1024 * 1024,
    },
  ).trim();
}

export interface CommitOptions {
  /** The branch to commit on, made from the current commit when new; the first commit goes on `main` unless given. */
  branch?: string;
  message?: string;
  /** A tag on the new commit: lightweight, or annotated with `annotated: true`. */
  tag?: string;
  annotated?: boolean;
}

/**
 * Commit `files` (a TreeSpec: content, `{ content, mode }` or `{ symlink }`) into the repository at `dir`, made
 * when missing. Returns the new commit's 40-hex name.
 */
export function makeRepo(dir: string, files: TreeSpec, opts: CommitOptions = {}): string {
  if (!existsSync(join(dir, '.git'))) {
    mkdirSync(dir, { recursive: true });
    git(dir, ['init', '--quiet', `--initial-branch=${opts.branch ?? 'main'}`]);
  } else if (opts.branch !== undefined) {
    const exists = git(dir, ['branch', '--list', opts.branch]) !== '';
    git(dir, ['checkout', '--quiet', ...(exists ? [] : ['-b']), opts.branch]);
  }
  writeTree(dir, files);
  git(dir, ['add', '--all']);
  git(dir, ['commit', '--quiet', '--allow-empty', '-m', opts.message ?? 'commit']);
  if (opts.tag !== undefined) git(dir, ['tag', ...(opts.annotated ? ['-a', '-m', `tag ${opts.tag}`] : []), opts.tag]);
  return git(dir, ['rev-parse', 'HEAD']);
}

/** A port nobody listens on right now, on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((done) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        done(true);
      });
      s.once('error', () => done(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on 127.0.0.1:${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface GitDaemon {
  /** `git://127.0.0.1:<port>/<name>` */
  url(name: string): string;
  stop(): Promise<void>;
}

/** `git daemon` serving every repository below `baseDir` on 127.0.0.1, read-only; resolves once it accepts. */
export async function startGitDaemon(baseDir: string): Promise<GitDaemon> {
  const port = await freePort();
  const child = spawn(
    'git',
    [
      'daemon',
      '--reuseaddr',
      `--base-path=${baseDir}`,
      '--export-all',
      '--listen=127.0.0.1',
      `--port=${port}`,
      baseDir,
    ],
    { env: { PATH: process.env.PATH, HOME: baseDir, ...GIT_TEST_ENV }, stdio: 'ignore' },
  );
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  await waitForPort(port, 10_000);
  return {
    url: (name) => `git://127.0.0.1:${port}/${name}`,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

const quote = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/**
 * A git configuration in `dir` with `url.<to>.insteadOf <from>` for each `from → to`, and the environment that
 * makes git (and skills) read it and nothing else: `https://github.com/anthropics/skills` can then be a local
 * repository. HOME and XDG_CONFIG_HOME point into `dir`.
 */
export function gitConfigGlobal(dir: string, rewrites: Record<string, string>): Record<string, string> {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'gitconfig');
  const text = Object.entries(rewrites)
    .map(([from, to]) => `[url ${quote(to)}]\n\tinsteadOf = ${quote(from)}\n`)
    .join('');
  writeFileSync(file, text);
  return {
    GIT_CONFIG_GLOBAL: file,
    GIT_CONFIG_NOSYSTEM: '1',
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, '.config'),
  };
}

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The paths asked for, in order. */
  requests: string[];
  /** The Authorization header of each request, in order (undefined when none was sent). */
  authorizations: (string | undefined)[];
  stop(): Promise<void>;
}

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<TestServer> {
  const requests: string[] = [];
  const authorizations: (string | undefined)[] = [];
  const server = createHttpServer((req, res) => {
    requests.push(req.url ?? '');
    authorizations.push(req.headers.authorization);
    handler(req, res);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    authorizations,
    stop: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** An http server that answers every request 401 with `WWW-Authenticate: Basic realm="x"`: a private repository. */
export function startAuthServer(): Promise<TestServer> {
  return serve((_req, res) => {
    res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="x"', 'Content-Type': 'text/plain' });
    res.end('sign in first\n');
  });
}

/** What the file server answers for one path: a body (200 unless `status`), a redirect, or a status alone. */
export type Route =
  | { body: Buffer | string; status?: number; headers?: Record<string, string>; chunked?: boolean }
  | { redirect: string; status?: number }
  | { status: number }
  /** Headers and the first bytes, then nothing more, ever (a stalled server). */
  | { hang: true };

/**
 * An http server for download tests: each path answers as its route says (404 for any other). A `chunked` body is
 * sent without Content-Length, so only the bytes counted can stop it. A redirect may be relative.
 */
export function startFileServer(routes: Record<string, Route>): Promise<TestServer> {
  return serve((req, res) => {
    const route = routes[(req.url ?? '').split('?')[0]!];
    if (!route) {
      res.writeHead(404).end('not found\n');
      return;
    }
    if ('redirect' in route) {
      res.writeHead(route.status ?? 302, { Location: route.redirect }).end();
      return;
    }
    if ('hang' in route) {
      res.writeHead(200, { 'Content-Length': '1000000' });
      res.write('x');
      return;
    }
    if (!('body' in route)) {
      res.writeHead(route.status).end();
      return;
    }
    const body = Buffer.from(route.body);
    const headers = { 'Content-Type': 'application/octet-stream', ...route.headers };
    if (route.chunked) {
      res.writeHead(route.status ?? 200, headers);
      for (let off = 0; off < body.length; off += 64 * 1024) res.write(body.subarray(off, off + 64 * 1024));
      res.end();
    } else res.writeHead(route.status ?? 200, { ...headers, 'Content-Length': String(body.length) }).end(body);
  });
}
