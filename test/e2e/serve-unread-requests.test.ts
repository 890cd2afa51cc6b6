import { execa } from 'execa';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, EXAMPLES } from '../helpers/cli.js';
import { serveHttp } from '../helpers/mcp.js';

// JSON-RPC lets params be an array; MCP's methods take an object, and the SDK's reader drops a request whose params
// are not one (over stdio: no answer, ever; over HTTP: a Parse error for no id). Each such request is now answered
// with its id: -32602 naming what was expected, or -32600 for a request that is not one in another way.

const bad = [
  { jsonrpc: '2.0', id: 1, method: 'tools/list', params: [] },
  { jsonrpc: '2.0', id: 2, method: 'resources/list', params: [1] },
  { jsonrpc: '2.0', id: 3, method: 'skills/list', params: [] },
  { jsonrpc: '2.0', id: 4, method: 'tools/call', params: ['load_skill'] },
  { jsonrpc: '2.0', id: 'five', method: 'tools/list', params: 'all' },
  { jsonrpc: '2.0', id: 6, method: 'tools/list', extra: true },
];
const expected = [
  { id: 1, code: -32602, message: "tools/list: params must be a JSON object of the request's parameters by name" },
  { id: 2, code: -32602, message: 'resources/list: params must be a JSON object' },
  { id: 3, code: -32602, message: 'skills/list: params must be a JSON object' },
  { id: 4, code: -32602, message: 'tools/call: params must be a JSON object' },
  { id: 'five', code: -32602, message: 'got a string' },
  { id: 6, code: -32600, message: '"extra" is not a member of a JSON-RPC request' },
];
const initialize = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'params-test', version: '1' } },
};

describe('skills serve: a request whose params are not an object', () => {
  it('over stdio, each gets an answer with its id, and the server serves on', async () => {
    const home = mkdtempSync(join(tmpdir(), 'skills-serve-home-'));
    const server = execa(process.execPath, [BIN, 'serve', EXAMPLES, '--no-registry'], {
      env: { PATH: process.env.PATH ?? '', HOME: home, NO_COLOR: '1' },
      extendEnv: false,
      reject: false,
      stdin: 'pipe',
    });
    const answers = new Map<unknown, { error?: { code: number; message: string }; result?: unknown }>();
    let out = '';
    server.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
        const m = JSON.parse(out.slice(0, nl));
        answers.set(m.id, m);
        out = out.slice(nl + 1);
      }
    });
    const send = (m: object) => server.stdin!.write(`${JSON.stringify(m)}\n`);
    try {
      send(initialize);
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      for (const m of bad) send(m);
      send({ jsonrpc: '2.0', id: 7, method: 'tools/list' });
      for (let i = 0; i < 200 && answers.size < bad.length + 2; i++) await new Promise((r) => setTimeout(r, 50));
      for (const e of expected)
        expect(answers.get(e.id)?.error, `answer to ${e.id}`).toMatchObject({
          code: e.code,
          message: expect.stringContaining(e.message),
        });
      expect(answers.get(7)?.result).toMatchObject({ tools: expect.arrayContaining([expect.anything()]) });
    } finally {
      server.stdin!.end();
      await server;
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('over HTTP, each is answered with its id (a batch holding one is refused whole, 400), and the session serves on', async () => {
    const h = await serveHttp([EXAMPLES, '--no-registry']);
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const post = (body: unknown, more: Record<string, string> = {}) =>
      fetch(h.url, { method: 'POST', headers: { ...headers, ...more }, body: JSON.stringify(body) });
    try {
      const init = await post(initialize);
      await init.text();
      const session = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-06-18' };
      await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
      for (const [i, m] of bad.entries()) {
        const r = await post(m, session);
        expect(r.status).toBe(200);
        const e = expected[i]!;
        expect(await r.json()).toMatchObject({
          jsonrpc: '2.0',
          id: e.id,
          error: { code: e.code, message: expect.stringContaining(e.message) },
        });
      }
      const batch = await post([bad[0], { jsonrpc: '2.0', id: 8, method: 'tools/list' }], session);
      expect(batch.status).toBe(400);
      expect(await batch.json()).toMatchObject([{ id: 1, error: { code: -32602 } }]);
      const ok = await post({ jsonrpc: '2.0', id: 9, method: 'tools/list' }, session);
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('load_skill');
    } finally {
      await h.stop();
    }
  });
});
