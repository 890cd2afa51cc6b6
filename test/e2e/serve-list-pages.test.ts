import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { LIST_PAGE_CHARS } from '../../src/serve/tools.js';
import { BIN, tempFolders } from '../helpers/cli.js';
import { failure, serveStdio, toolText } from '../helpers/mcp.js';
import { skillMd, writeTree } from '../helpers/tree.js';

// list_skills without a query over many skills: pages an agent can take (a listing of 500 skills is ~45,000 tokens,
// past what Claude Code keeps of a tool's answer), each within LIST_PAGE_CHARS, walked with nextCursor.

const { fresh, cleanup } = tempFolders('skills-serve-pages-');
afterAll(cleanup);

const name = (i: number) => `skill-${String(i).padStart(3, '0')}`;

describe('skills serve: list_skills in pages', () => {
  it('lists 300 long-described skills in pages within the limit, every skill once and in order; refuses a bad cursor', async () => {
    const dir = fresh('skills');
    const tree: Record<string, string> = {};
    for (let i = 0; i < 300; i++)
      tree[`${name(i)}/SKILL.md`] = skillMd(
        `name: ${name(i)}\ndescription: ${`Handles case ${i} of the paging test for list_skills. `.repeat(6)}Use when testing serve.`,
      );
    writeTree(dir, tree);
    const s = await serveStdio([dir]);
    try {
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const r = await s.client.callTool({ name: 'list_skills', arguments: cursor ? { cursor } : {} });
        const text = toolText(r);
        expect(r.isError).toBeFalsy();
        expect(text.length).toBeLessThanOrEqual(LIST_PAGE_CHARS);
        const page = JSON.parse(text);
        expect(page.total).toBe(300);
        expect(page.note).toMatch(/^skills \d+ to \d+ of 300/);
        seen.push(...page.skills.map((x: { name: string }) => x.name));
        cursor = page.nextCursor;
        if (cursor) expect(page.note).toContain(`cursor "${cursor}"`);
        pages++;
      } while (cursor);
      expect(pages).toBeGreaterThan(2);
      expect(seen).toEqual(Array.from({ length: 300 }, (_, i) => name(i)));

      for (const bad of ['300', 'abc', '-1', '1.5']) {
        const f = await failure(s.client.callTool({ name: 'list_skills', arguments: { cursor: bad } }));
        expect(f.message).toContain(
          '"cursor" must be a nextCursor an earlier list_skills gave (300 skills are listed)',
        );
      }
    } finally {
      await s.close();
    }
  });

  it('lists a few skills whole, with no paging keys', async () => {
    const dir = fresh('few');
    writeTree(dir, {
      'one/SKILL.md': skillMd('name: one\ndescription: The first. Use when testing serve.'),
      'two/SKILL.md': skillMd('name: two\ndescription: The second. Use when testing serve.'),
    });
    const s = await serveStdio([dir]);
    try {
      const all = JSON.parse(toolText(await s.client.callTool({ name: 'list_skills', arguments: {} })));
      expect(Object.keys(all)).toEqual(['skills']);
      expect(all.skills.map((x: { name: string }) => x.name)).toEqual(['one', 'two']);
    } finally {
      await s.close();
    }
  });
});

describe('skills serve: warnings about single skills', () => {
  // 1,500 skills whose names do not match their folders: a warning each, ~190 KB, three times a pipe's buffer.
  const many = () => {
    const dir = fresh('misnamed');
    const tree: Record<string, string> = {};
    for (let i = 0; i < 1500; i++)
      tree[`folder-${i}/SKILL.md`] = skillMd(`name: ${name(i)}\ndescription: Misnamed skill ${i}. Use when testing.`);
    writeTree(dir, tree);
    return dir;
  };

  it('answers a client that pipes stderr and never reads it, saying the first warnings and how many more', async () => {
    const dir = many();
    const home = fresh('home');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'serve', dir, '--no-watch'],
      env: { PATH: process.env.PATH ?? '', HOME: home, NO_COLOR: '1' },
      // A pipe nobody reads until the end: a server that writes past its buffer before answering would hang.
      stderr: 'pipe',
    });
    const client = new Client({ name: 'serve-test', version: '1.0.0' });
    await client.connect(transport, { timeout: 30_000 });
    try {
      const r = await client.callTool({ name: 'list_skills', arguments: { query: 'misnamed skill 7' } });
      expect(r.isError).toBeFalsy();
      const said: string[] = [];
      transport.stderr!.on('data', (b: Buffer) => said.push(b.toString()));
      await new Promise((done) => setTimeout(done, 200));
      const lines = said.join('').split('\n');
      expect(lines.filter((l) => l.includes('does not match the folder'))).toHaveLength(10);
      expect(lines).toContain('warning: … and 1,490 more warnings about single skills; --verbose shows them all');
    } finally {
      await client.close();
    }
  }, 60_000);

  it('says every one with --verbose', async () => {
    const s = await serveStdio([many(), '--no-watch', '--verbose']);
    try {
      await s.client.callTool({ name: 'list_skills', arguments: { query: 'misnamed' } });
      expect(
        s
          .stderr()
          .split('\n')
          .filter((l) => l.includes('does not match the folder')),
      ).toHaveLength(1500);
    } finally {
      await s.close();
    }
  }, 60_000);
});
