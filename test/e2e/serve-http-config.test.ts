import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, EXAMPLES, ROOT, runCli, tempDir } from '../helpers/cli.js';
import { listAll, serveHttp, serveStdio, toolText, type HttpServer } from '../helpers/mcp.js';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// `skills serve --http`: Streamable HTTP on 127.0.0.1, the bearer token when set, Host and Origin checked against
// DNS rebinding; and --print-config, whose snippet starts a server that serves every example skill.

const TOKEN = 'serve-test-token-0123456789';
const EXAMPLE_NAMES = readdirSync(EXAMPLES).sort();

/** A raw POST of an initialize request, with the headers given. */
function post(
  url: string,
  headers: Record<string, string>,
  padding = 0,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const u = new URL(url);
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
      ...(padding > 0 ? { _pad: 'x'.repeat(padding) } : {}),
    },
  });
  return new Promise((done, fail) => {
    const req = httpRequest(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (b: Buffer) => (text += b.toString()));
        res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', fail);
    req.end(body);
  });
}

describe('skills serve --http', () => {
  let h: HttpServer;
  beforeAll(async () => {
    h = await serveHttp([EXAMPLES], { SKILLS_SERVE_TOKEN: TOKEN });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('listens on 127.0.0.1 and serves the extension to a client with the token', async () => {
    expect(h.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: 'http-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(h.url), {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
    const { skills } = await listAll(client);
    expect(skills.map((e) => e.frontmatter.name).sort()).toEqual(EXAMPLE_NAMES);
    const read = await client.readResource({ uri: 'skill://timeplus-sql-guide/SKILL.md' });
    expect(read.contents[0]!.mimeType).toBe('text/markdown');
    expect(
      toolText(await client.callTool({ name: 'load_skill', arguments: { skill_name: 'timeplus-sql-guide' } })),
    ).toContain('# Skill: timeplus-sql-guide');
    await client.close();
  });

  it('answers 401 without the token, or with a wrong one', async () => {
    const none = await post(h.url, { host: new URL(h.url).host });
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="skills"');
    expect(JSON.parse(none.body).error.message).toContain('a bearer token is required');
    expect((await post(h.url, { authorization: 'Bearer wrong-token-0123456789' })).status).toBe(401);
    const client = new Client({ name: 'no-token', version: '1' });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(h.url)))).rejects.toThrow(
      /a bearer token is required/,
    );
  });

  it('refuses a foreign Origin and a foreign Host with 403, even with the token', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const origin = await post(h.url, { ...auth, origin: 'http://evil.example' });
    expect(origin.status).toBe(403);
    expect(JSON.parse(origin.body).error.message).toContain('Origin "http://evil.example" is not allowed');
    const host = await post(h.url, { ...auth, host: `evil.example:${new URL(h.url).port}` });
    expect(host.status).toBe(403);
    expect(JSON.parse(host.body).error.message).toContain('DNS rebinding');
    // The server's own origin is fine.
    expect((await post(h.url, { ...auth, origin: `http://localhost:${new URL(h.url).port}` })).status).toBe(200);
  });

  it('tells every HTTP session when a served skill changes', async () => {
    const t = tempDir('skills-serve-http-live-');
    cpSync(join(EXAMPLES, 'timeplus-sql-guide'), join(t.dir, 'timeplus-sql-guide'), { recursive: true });
    const live = await serveHttp([t.dir]);
    const clients = [new Client({ name: 'a', version: '1' }), new Client({ name: 'b', version: '1' })];
    try {
      const told = clients.map(
        (c) =>
          new Promise<void>((done) => c.setNotificationHandler(ResourceListChangedNotificationSchema, () => done())),
      );
      for (const c of clients) await c.connect(new StreamableHTTPClientTransport(new URL(live.url)));
      // The notices ride the SSE stream each client opens after initializing, which may not be open at once: the
      // file is written again until both clients have been told (a change before the stream opens is not heard).
      let all = false;
      void Promise.all(told).then(() => (all = true));
      for (let i = 0; i < 40 && !all; i++) {
        writeFileSync(join(t.dir, 'timeplus-sql-guide/references/new.md'), `new ${i}\n`);
        await new Promise((r) => setTimeout(r, 500));
      }
      expect(all).toBe(true);
      const { skills } = await listAll(clients[0]!);
      expect(skills[0]!.resources.map((r) => r.uri)).toContain('skill://timeplus-sql-guide/references/new.md');
    } finally {
      for (const c of clients) await c.close();
      await live.stop();
      t.cleanup();
    }
  });

  it('answers a request body over 4 MiB with 413 and a JSON-RPC error, which the client reads every time', async () => {
    // The server once closed the connection as soon as the answer was out, while the client still sent: the reset
    // took the answer with it now and then (1 in 30 here). 32 posts, 4 at a time, all read their 413.
    const statuses: (number | string)[] = [];
    for (let round = 0; round < 8; round++) {
      const posts = Array.from({ length: 4 }, () =>
        post(h.url, { authorization: `Bearer ${TOKEN}` }, 5 * 1024 * 1024).then(
          (r) => {
            expect(JSON.parse(r.body).error.message).toContain('the request body is over 4194304 bytes');
            return r.status;
          },
          (err: NodeJS.ErrnoException) => err.code ?? err.message,
        ),
      );
      statuses.push(...(await Promise.all(posts)));
    }
    expect(statuses).toEqual(Array(32).fill(413));
  });

  it('closes the connection of a body that goes on far past 4 MiB, after its 413, and serves on', async () => {
    const u = new URL(h.url);
    const socket = connect(Number(u.port), u.hostname);
    socket.write(
      `POST ${u.pathname} HTTP/1.1\r\nhost: ${u.host}\r\nauthorization: Bearer ${TOKEN}\r\n` +
        'content-type: application/json\r\naccept: application/json, text/event-stream\r\n' +
        'transfer-encoding: chunked\r\n\r\n',
    );
    let answer = '';
    socket.on('data', (b: Buffer) => (answer += b.toString()));
    socket.on('error', () => {});
    const chunk = Buffer.alloc(256 * 1024, 'x');
    const frame = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
    // A body with no end: sent until the server closes the connection, or 256 MiB.
    let sent = 0;
    await new Promise<void>((done) => {
      socket.on('close', () => done());
      const more = () => {
        while (!socket.destroyed && sent < 256 * 1024 * 1024) {
          sent += chunk.length;
          if (!socket.write(frame)) return void socket.once('drain', more);
        }
        socket.destroy();
      };
      more();
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(sent).toBeLessThan(128 * 1024 * 1024);
    const after = await post(h.url, { authorization: `Bearer ${TOKEN}` });
    expect(after.status).toBe(200);
  });

  it('ends with exit code 0 on SIGTERM', async () => {
    const other = await serveHttp([EXAMPLES]);
    expect(await other.stop()).toBe(0);
  });

  it('refuses --allow-scripts on a non-loopback host without a token, and a short token', async () => {
    const open = await runCli(['serve', EXAMPLES, '--http', '0', '--host', '0.0.0.0', '--allow-scripts']);
    expect(open.exitCode).toBe(2);
    expect(open.stderr).toContain('--allow-scripts on --host 0.0.0.0 needs a token');
    const short = await runCli(['serve', EXAMPLES, '--http', '0', '--token', 'abc']);
    expect(short.exitCode).toBe(2);
    expect(short.stderr).toContain('at least 16 characters');
  });
});

describe('skills serve --http: sessions are bounded', () => {
  it('past --max-sessions closes the session used least recently; its SDK client gets 404 and initializes again', async () => {
    const h = await serveHttp([EXAMPLES, '--max-sessions', '2']);
    const connect = async () => {
      const client = new Client({ name: 'bounded', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(h.url)));
      return client;
    };
    try {
      const first = await connect();
      const second = await connect();
      await first.listTools();
      // `first` was used last: a third session closes `second`, whose listening stream does not keep it open.
      const third = await connect();
      await expect(second.listTools()).rejects.toMatchObject({
        code: 404,
        message: expect.stringContaining('Session not found'),
      });
      expect((await first.listTools()).tools.length).toBeGreaterThan(0);
      expect((await third.listTools()).tools.length).toBeGreaterThan(0);
      await second.close().catch(() => {});
      const again = await connect();
      expect((await listAll(again)).skills).toHaveLength(EXAMPLE_NAMES.length);
      for (const c of [first, third, again]) await c.close();
    } finally {
      await h.stop();
    }
  });

  it('refuses a --session-idle or --max-sessions that is not a positive number, flag or environment variable', async () => {
    const idle = await runCli(['serve', EXAMPLES, '--http', '0', '--session-idle', '0']);
    expect(idle.exitCode).toBe(2);
    expect(idle.stderr).toContain('--session-idle must be a number of minutes above 0, not "0"');
    const max = await runCli(['serve', EXAMPLES, '--http', '0'], { env: { SKILLS_SERVE_MAX_SESSIONS: '1.5' } });
    expect(max.exitCode).toBe(2);
    expect(max.stderr).toContain('SKILLS_SERVE_MAX_SESSIONS must be a whole number from 1 to 100000, not "1.5"');
  });
});

describe('skills serve over stdio, from the command line', () => {
  it('ends with exit code 0 when the client closes stdin', async () => {
    const r = await runCli(['serve', EXAMPLES], { input: '' });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`serving ${EXAMPLE_NAMES.length} skills over stdio`);
  });

  it('over stdio, tells a line that is not JSON-RPC and goes on; a message over 10 MiB ends it with exit 2, said', async () => {
    const garbage = await runCli(['serve', EXAMPLES], { input: 'not json at all\n' });
    expect(garbage.exitCode).toBe(0);
    expect(garbage.stderr).toContain('warning: a line from the client was not read');
    const huge = await runCli(['serve', EXAMPLES], {
      input: `{"jsonrpc":"2.0","id":1,"method":"${'x'.repeat(11 * 1024 * 1024)}"}\n`,
    });
    expect(huge.exitCode).toBe(2);
    expect(huge.stderr).toContain('error: a message from the client was longer than 10485760 bytes');
  });

  it('refuses a folder that does not exist, and a bad --allow-scripts', async () => {
    expect((await runCli(['serve', 'no-such-folder'])).stderr).toContain('no-such-folder: no such folder');
    const bad = await runCli(['serve', EXAMPLES, '--allow-scripts', 'web-scraping/']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('"web-scraping/" is not <skill>/<script>');
    // A bare --allow-scripts before the folders would take the folder as its list.
    const swallowed = await runCli(['serve', '--allow-scripts', EXAMPLES]);
    expect(swallowed.exitCode).toBe(2);
    expect(swallowed.stderr).toContain('--allow-scripts took the folder');
  });
});

describe('skills serve --print-config', () => {
  it('prints the .mcp.json snippet for Claude Code, with the folders made absolute', async () => {
    const r = await runCli([
      'serve',
      '--print-config',
      'claude',
      'examples/skills',
      '--allow-scripts',
      'web-scraping/scraper',
    ]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('.mcp.json');
    expect(JSON.parse(r.stdout)).toEqual({
      mcpServers: {
        skills: {
          command: 'npx',
          args: ['-y', 'skillsmith', 'serve', EXAMPLES, '--allow-scripts', 'web-scraping/scraper'],
        },
      },
    });
  });

  it('takes -c for --config, as render-prompt, list and lint do, and passes it on made absolute', async () => {
    const r = await runCli(['serve', '-c', 'team.json', '--no-registry', '--print-config', 'claude-code']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).mcpServers.skills.args).toEqual([
      '-y',
      'skillsmith',
      'serve',
      '--no-registry',
      '--config',
      join(ROOT, 'team.json'),
    ]);
  });

  it('prints the snippet the README shows in "Use your skills from any MCP client"', async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const at = readme.indexOf('## Use your skills from any MCP client');
    const from = readme.indexOf('$ cat .mcp.json\n', at) + '$ cat .mcp.json\n'.length;
    const shown = readme.slice(from, readme.indexOf('\n```', from));
    const r = await runCli(['serve', '--print-config', 'claude-code', 'examples/skills']);
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(shown.replace('/home/me/project/examples/skills', EXAMPLES)));
  });

  it("prints each agent's shape: Codex TOML, VS Code servers, Cursor and Gemini mcpServers", async () => {
    const codex = await runCli(['serve', '--print-config', 'codex', 'examples/skills']);
    expect(codex.stdout).toBe(
      `[mcp_servers.skills]\ncommand = "npx"\nargs = ["-y", "skillsmith", "serve", ${JSON.stringify(EXAMPLES)}]`,
    );
    const vscode = JSON.parse((await runCli(['serve', '--print-config', 'vscode'])).stdout);
    expect(vscode).toEqual({
      servers: { skills: { type: 'stdio', command: 'npx', args: ['-y', 'skillsmith', 'serve'] } },
    });
    for (const agent of ['cursor', 'gemini']) {
      const doc = JSON.parse((await runCli(['serve', '--print-config', agent])).stdout);
      expect(doc.mcpServers.skills.args).toEqual(['-y', 'skillsmith', 'serve']);
    }
    const unknown = await runCli(['serve', '--print-config', 'emacs']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('no agent "emacs"');
    expect(unknown.stderr).toContain('claude-code');
  });

  it('its snippet starts a server an MCP client can discover, read and run every example skill with', async () => {
    const r = await runCli(['serve', '--print-config', 'claude-code', EXAMPLES, '--allow-scripts']);
    const { args } = JSON.parse(r.stdout).mcpServers.skills as { args: string[] };
    // `npx -y skillsmith` is this CLI once installed; here, the built one.
    expect(args.slice(0, 3)).toEqual(['-y', 'skillsmith', 'serve']);
    const s = await serveStdio(args.slice(3));
    try {
      const { skills } = await listAll(s.client);
      expect(skills.map((e) => e.frontmatter.name).sort()).toEqual(EXAMPLE_NAMES);
      for (const e of skills) for (const res of e.resources) await s.client.readResource({ uri: res.uri });
      const tools = (await s.client.listTools()).tools.map((t) => t.name);
      expect(tools).toEqual(
        expect.arrayContaining([
          'web-scraping_scraper',
          'data-analysis_chart',
          'basic-tools_list-directory',
          'cron-tools_list-cron-jobs',
          'social-media-apis_get-analytics',
        ]),
      );
      const run = await s.client.callTool({
        name: 'web-scraping_scraper',
        arguments: { args: { html: '<h2>A</h2><h2>B</h2>', selector: 'h2' } },
      });
      expect(run.structuredContent).toMatchObject({ success: true, result: ['A', 'B'] });
      const chart = await s.client.callTool({
        name: 'data-analysis_chart',
        arguments: { args: { values: [1, 2, 3, 4] } },
      });
      expect(chart.structuredContent).toMatchObject({ success: true });
    } finally {
      await s.close();
    }
    expect(BIN).toMatch(/bin\/skills\.js$/);
  });
});
