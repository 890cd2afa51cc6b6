import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { execa } from 'execa';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, tempDir } from '../helpers/cli.js';
import { serveHttp, serveStdio } from '../helpers/mcp.js';
import { skillMd, writeTree } from '../helpers/tree.js';

// A script tool's run ends when the client cancels the call (notifications/cancelled) or closes stdin, as its
// timeout ends it (SIGTERM to its group, SIGKILL later), not at --timeout (here 600 s). Before, the script ran on,
// and over stdio the server too. The script says its pid in a file; the test waits, up to a generous bound, for it
// to be gone.

const BOUND_MS = 30_000;

let t: { dir: string; cleanup: () => void };
let pidFile: string;
beforeEach(() => {
  t = tempDir('skills-serve-cancel-');
  pidFile = join(t.dir, 'script.pid');
  writeTree(t.dir, {
    'skills/sleepy/SKILL.md': skillMd('name: sleepy\ndescription: Sleeps a long time. Use when testing serve.'),
    'skills/sleepy/scripts/nap.js': `// Sleep a long time.\nrequire('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));\nsetInterval(() => {}, 1000);\n`,
  });
});
afterEach(() => {
  // A script a failing test left behind.
  if (existsSync(pidFile)) {
    try {
      process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  t.cleanup();
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Resolve once `check` holds, polling; false when it still does not after BOUND_MS. */
async function eventually(check: () => boolean): Promise<boolean> {
  for (const end = Date.now() + BOUND_MS; Date.now() < end; await new Promise((r) => setTimeout(r, 50)))
    if (check()) return true;
  return check();
}

/** The script's pid, once it has started. */
async function started(): Promise<number> {
  expect(await eventually(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '')).toBe(true);
  return Number(readFileSync(pidFile, 'utf8'));
}

const args = () => [join(t.dir, 'skills'), '--no-registry', '--allow-scripts', '--timeout', '600'];

describe('skills serve: a script tool the client cancels or leaves', () => {
  it('over HTTP, a cancelled call ends its script', async () => {
    const h = await serveHttp(args());
    const client = new Client({ name: 'cancel-test', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(h.url)));
      const stop = new AbortController();
      const call = client.callTool({ name: 'sleepy_nap', arguments: {} }, undefined, { signal: stop.signal });
      const pid = await started();
      stop.abort('the user pressed Esc');
      await expect(call).rejects.toThrow();
      expect(await eventually(() => !alive(pid))).toBe(true);
    } finally {
      await client.close();
      await h.stop();
    }
  });

  it('over stdio, a cancelled call ends its script, and the server serves on', async () => {
    const s = await serveStdio(args());
    try {
      const stop = new AbortController();
      const call = s.client.callTool({ name: 'sleepy_nap', arguments: {} }, undefined, { signal: stop.signal });
      const pid = await started();
      stop.abort('the user pressed Esc');
      await expect(call).rejects.toThrow();
      expect(await eventually(() => !alive(pid))).toBe(true);
      expect((await s.client.listTools()).tools.map((x) => x.name)).toContain('sleepy_nap');
    } finally {
      await s.close();
    }
  });

  it('over stdio, closing stdin ends the running script and the server (exit 0)', async () => {
    const home = join(t.dir, 'home');
    const server = execa(process.execPath, [BIN, 'serve', ...args()], {
      env: { PATH: process.env.PATH ?? '', HOME: home, NO_COLOR: '1' },
      extendEnv: false,
      reject: false,
      stdin: 'pipe',
    });
    const line = (m: object) => server.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
    line({
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cancel-test', version: '1' } },
    });
    line({ method: 'notifications/initialized' });
    line({ id: 1, method: 'tools/call', params: { name: 'sleepy_nap', arguments: {} } });
    const pid = await started();
    server.stdin!.end();
    let exited = false;
    void server.then(() => (exited = true));
    const ended = await eventually(() => exited);
    if (!ended) server.kill('SIGKILL');
    expect(ended).toBe(true);
    expect((await server).exitCode).toBe(0);
    expect(await eventually(() => !alive(pid))).toBe(true);
  });
});
