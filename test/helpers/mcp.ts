// MCP clients for the serve tests: the SDK's own Client, over stdio (spawning the built CLI) or Streamable HTTP.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { execa, type ResultPromise } from 'execa';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { BIN } from './cli.js';

const entry = z.object({
  uri: z.string(),
  frontmatter: z.record(z.unknown()),
  resources: z.array(z.object({ uri: z.string(), digest: z.string() })),
});
export type SkillEntry = z.infer<typeof entry>;
export const SkillsListResult = z.object({ skills: z.array(entry), nextCursor: z.string().optional() }).passthrough();
export const SkillsGetResult = z.object({ skill: entry }).passthrough();
export const DirectoryResult = z
  .object({
    resources: z.array(
      z.object({ uri: z.string(), name: z.string(), mimeType: z.string().optional(), size: z.number().optional() }),
    ),
    nextCursor: z.string().optional(),
  })
  .passthrough();

export interface Connected {
  client: Client;
  /** What the server said on stderr so far. */
  stderr: () => string;
  close: () => Promise<void>;
}

/** `skills serve <args>` over stdio, with a temp HOME; the client connected. */
export async function serveStdio(args: string[], env: Record<string, string> = {}, cwd?: string): Promise<Connected> {
  const home = mkdtempSync(join(tmpdir(), 'skills-serve-home-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'serve', ...args],
    env: { PATH: process.env.PATH ?? '', HOME: home, NO_COLOR: '1', ...env },
    stderr: 'pipe',
    ...(cwd ? { cwd } : {}),
  });
  let said = '';
  transport.stderr?.on('data', (b: Buffer) => (said += b.toString()));
  const client = new Client({ name: 'serve-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    stderr: () => said,
    close: async () => {
      await client.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Every entry of skills/list, following nextCursor; also the number of pages. */
export async function listAll(client: Client): Promise<{ skills: SkillEntry[]; pages: number }> {
  const skills: SkillEntry[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const r = await client.request({ method: 'skills/list', params: cursor ? { cursor } : {} }, SkillsListResult);
    skills.push(...r.skills);
    cursor = r.nextCursor;
    pages++;
  } while (cursor !== undefined);
  return { skills, pages };
}

/** The error a request fails with (the test fails when it succeeds). */
export async function failure(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await p;
  } catch (err) {
    return { code: (err as { code: number }).code, message: (err as Error).message };
  }
  throw new Error('expected the request to fail');
}

export interface HttpServer {
  url: string;
  child: ResultPromise;
  stop: () => Promise<number | undefined>;
}

/** `skills serve --http 0 <args>` as a child process; resolves once it says where it listens. */
export async function serveHttp(args: string[], env: Record<string, string> = {}): Promise<HttpServer> {
  const home = mkdtempSync(join(tmpdir(), 'skills-serve-home-'));
  const child = execa(process.execPath, [BIN, 'serve', '--http', '0', ...args], {
    env: { HOME: home, NO_COLOR: '1', ...env },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
  });
  const url = await new Promise<string>((done, fail) => {
    let said = '';
    child.stderr!.on('data', (b: Buffer) => {
      said += b.toString();
      const m = /over (http:\/\/\S+\/mcp)/.exec(said);
      if (m) done(m[1]!);
    });
    void child.then((r) => fail(new Error(`serve ended (${r.exitCode}): ${said}`)));
  });
  return {
    url,
    child,
    stop: async () => {
      child.kill('SIGTERM');
      const r = await child;
      rmSync(home, { recursive: true, force: true });
      return r.exitCode;
    },
  };
}

/** The text of a tool result's first content item. */
export function toolText(r: unknown): string {
  const c = (r as { content: { type: string; text?: string }[] }).content[0]!;
  return c.text ?? '';
}

/** The client's next notifications/resources/list_changed (a live update), or a failure after 10 s. */
export function nextListChange(client: Client): Promise<void> {
  return new Promise<void>((done, fail) => {
    const timer = setTimeout(() => fail(new Error('no notifications/resources/list_changed within 10 s')), 10_000);
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      clearTimeout(timer);
      done();
    });
  });
}
