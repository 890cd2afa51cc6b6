// A registry (from .npmrc) that answers with bytes that never end: a search answer, a packument, a tarball. Each is
// read under its cap (8 MiB, 64 MiB, 512 MiB), stopped there with an error that names the registry, what was read,
// the cap and how much came; exit 2, nothing written, and the process never holds the rest in memory.
import { execa } from 'execa';
import type { ServerResponse } from 'node:http';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, tempFolders, testEnv } from '../helpers/cli.js';
import { serveLocal } from '../helpers/http.js';
import { writeTree } from '../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-npm-endless-');
let url: string;
let close: () => Promise<void>;
/** A preload that writes the process's peak resident memory (KiB) to $RSS_FILE as it exits. */
let preload: string;

/** Write `head`, then spaces for ever, as fast as the client reads them. */
function endless(res: ServerResponse, head: string): void {
  const chunk = Buffer.alloc(1 << 20, 0x20);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write(head);
  const more = () => {
    while (!res.destroyed && res.write(chunk));
  };
  res.on('drain', more);
  more();
}

beforeAll(async () => {
  ({ url, close } = await serveLocal((req, res) => {
    req.on('close', () => res.destroy());
    const path = new URL(req.url!, 'http://x').pathname;
    if (path === '/-/v1/search' || path === '/@acme%2fhuge') return endless(res, '{"objects":[');
    if (path === '/@acme%2fpdf')
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          name: '@acme/pdf',
          'dist-tags': { latest: '1.0.0' },
          versions: { '1.0.0': { name: '@acme/pdf', version: '1.0.0', dist: { tarball: `${url}pdf-1.0.0.tgz` } } },
        }),
      );
    if (path === '/pdf-1.0.0.tgz') return endless(res, '');
    if (path === '/@acme%2fslow') {
      // A byte every 200 ms: never idle, never done.
      res.writeHead(200, { 'content-type': 'application/json' });
      const tick = setInterval(() => res.write(' '), 200);
      return void req.on('close', () => clearInterval(tick));
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
  }));
  preload = join(fresh('preload'), 'rss.cjs');
  writeFileSync(
    preload,
    "process.on('exit', () => require('fs').writeFileSync(process.env.RSS_FILE, String(process.resourceUsage().maxRSS)));\n",
  );
});
afterAll(async () => {
  await close();
  cleanup();
});

/** The built CLI in `cwd`, with its peak memory in MiB. */
async function run(args: string[], cwd: string, env: Record<string, string> = {}) {
  const rssFile = join(fresh('rss'), 'rss');
  const r = await execa(process.execPath, ['--require', preload, BIN, ...args], {
    cwd,
    env: testEnv(fresh('home'), { RSS_FILE: rssFile, ...env }),
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    timeout: 60_000,
  });
  return { ...r, rssMiB: Number(readFileSync(rssFile, 'utf8')) / 1024 };
}

const project = (files: Record<string, string> = {}) => {
  const dir = fresh('project');
  writeTree(dir, { '.npmrc': `registry=${url}\n`, ...files });
  return dir;
};

describe('a registry that answers without end', () => {
  it('search stops at 8 MiB with an error naming the registry and the search, in little memory', async () => {
    const r = await run(['search', 'pdf'], project());
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${url} sent more than 8.0 MiB for the search "pdf"`);
    expect(r.stderr).toMatch(/\(\d[\d,]* bytes came before skills stopped reading\)/);
    expect(r.stderr).not.toContain('This is a bug');
    expect(r.rssMiB).toBeLessThan(300);
  });

  it('outdated stops a packument at 64 MiB, in little memory, and leaves the lockfile as it was', async () => {
    const lock = `${JSON.stringify(
      {
        lockfileVersion: 1,
        skills: {
          huge: {
            version: '1.0.0',
            source: 'npm:@acme/huge',
            ref: '^1.0.0',
            integrity: `sha512-${'A'.repeat(86)}==`,
            dependencies: {},
          },
        },
      },
      null,
      2,
    )}\n`;
    const dir = project({ 'skills-lock.json': lock });
    const r = await run(['outdated'], dir);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${url} sent more than 64 MiB for the package document of @acme/huge`);
    expect(r.rssMiB).toBeLessThan(300);
    expect(readFileSync(join(dir, 'skills-lock.json'), 'utf8')).toBe(lock);
  });

  it('install stops a packument at 64 MiB and installs nothing', async () => {
    const dir = project();
    const r = await run(['install', 'npm:@acme/huge', '--agent', 'claude-code', '--yes'], dir);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${url} sent more than 64 MiB for the package document of @acme/huge`);
    expect(r.rssMiB).toBeLessThan(300);
    expect(existsSync(join(dir, '.claude'))).toBe(false);
    expect(existsSync(join(dir, 'skills-lock.json'))).toBe(false);
  });

  it('outdated stops a packument that trickles in after SKILLS_REGISTRY_TIMEOUT, as npm does', async () => {
    const lock = {
      lockfileVersion: 1,
      skills: {
        slow: {
          version: '1.0.0',
          source: 'npm:@acme/slow',
          ref: '^1.0.0',
          integrity: `sha512-${'A'.repeat(86)}==`,
          dependencies: {},
        },
      },
    };
    const dir = project({ 'skills-lock.json': `${JSON.stringify(lock, null, 2)}\n` });
    const started = Date.now();
    const r = await run(['outdated'], dir, { SKILLS_REGISTRY_TIMEOUT: '1' });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${url} did not answer in time for @acme/slow`);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('install stops a tarball at 512 MiB (the cap of every archive) and installs nothing', async () => {
    const dir = project();
    const r = await run(['install', 'npm:@acme/pdf', '--agent', 'claude-code', '--yes'], dir);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${url} sent more than 512 MiB for the tarball of @acme/pdf@1.0.0`);
    expect(existsSync(join(dir, '.claude'))).toBe(false);
    expect(existsSync(join(dir, 'skills-lock.json'))).toBe(false);
  });
});
