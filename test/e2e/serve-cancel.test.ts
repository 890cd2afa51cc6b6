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
let marker: string;
beforeEach(() => {
  t = tempDir('skills-serve-cancel-');
  pidFile = join(t.dir, 'script.pid');
  marker = join(t.dir, 'ended-normally');
  const fs = "require('node:fs')";
  writeTree(t.dir, {
    'skills/sleepy/SKILL.md': skillMd('name: sleepy\ndescription: Sleeps a long time. Use when testing serve.'),
    'skills/sleepy/scripts/nap.js': `// Sleep a long time.\n${fs}.writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));\nsetInterval(() => {}, 1000);\n`,
    'skills/sleepy/scripts/slow.js': `// Sleep 30 s, then say so.\n${fs}.writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));\nsetTimeout(() => ${fs}.writeFileSync(${JSON.stringify(marker)}, 'done'), 30_000);\n`,
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

/** Resolve once `check` holds, polling; false when it still does not after `bound` ms. */
async function eventually(check: () => boolean, bound = BOUND_MS): Promise<boolean> {
  for (const end = Date.now() + bound; Date.now() < end; await new Promise((r) => setTimeout(r, 50)))
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

  it('over HTTP, a client that drops the connection of a pending call ends its script; the session serves on', async () => {
    const h = await serveHttp(args());
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const post = (body: object, more: Record<string, string> = {}, signal?: AbortSignal) =>
      fetch(h.url, { method: 'POST', headers: { ...headers, ...more }, body: JSON.stringify(body), signal });
    try {
      const init = await post({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'drop-test', version: '1' } },
      });
      await init.text();
      const session = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-06-18' };
      await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
      // No notifications/cancelled: the connection of the call's POST just goes away.
      const drop = new AbortController();
      const call = post(
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'sleepy_slow', arguments: {} } },
        session,
        drop.signal,
      ).then((r) => r.text());
      const pid = await started();
      drop.abort();
      await expect(call).rejects.toThrow();
      expect(await eventually(() => !alive(pid), 10_000)).toBe(true);
      expect(existsSync(marker)).toBe(false);
      const list = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, session);
      expect(list.status).toBe(200);
      expect(await list.text()).toContain('sleepy_slow');
    } finally {
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
