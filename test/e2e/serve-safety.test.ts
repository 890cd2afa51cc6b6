import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { failure, listAll, serveStdio, toolText, type Connected } from '../helpers/mcp.js';
import { skillMd, writeTree } from '../helpers/tree.js';

// Nothing outside the served skills is readable over `skills serve`: not through `..` (plain or encoded), encoded
// separators, backslashes, absolute paths, symlinks leading out, nor the .env secrets a skill folder may hold;
// and a file over the read limit is refused, its digest still listed.

const SECRET = 'outside-secret-7f3a';

describe('skills serve: what it will not read', () => {
  let t: { dir: string; cleanup: () => void };
  let s: Connected;
  beforeAll(async () => {
    t = tempDir('skills-serve-safety-');
    writeFileSync(join(t.dir, 'outside.txt'), `${SECRET}\n`);
    mkdirSync(join(t.dir, 'skills'));
    writeTree(join(t.dir, 'skills'), {
      'esc/SKILL.md': skillMd('name: esc\ndescription: Holds tricky files. Use when testing serve.'),
      'esc/references/ok.md': 'fine\n',
      'esc/leak.md': { symlink: join(t.dir, 'outside.txt') },
      'esc/up': { symlink: t.dir },
      'esc/inside.md': { symlink: 'references/ok.md' },
      'esc/.env': `TOKEN=${SECRET}\n`,
      'esc/.env.local': `TOKEN=${SECRET}\n`,
      'esc/.env.example': 'TOKEN=\n',
      'esc/.git/config': `${SECRET}\n`,
    });
    writeFileSync(join(t.dir, 'skills/esc/big.bin'), Buffer.alloc(5 * 1024 * 1024, 1));
    s = await serveStdio([join(t.dir, 'skills')]);
  });
  afterAll(async () => {
    await s.close();
    t.cleanup();
  });

  it('lists no link leading out, no .env and no .git; a link inside and a large file are listed', async () => {
    const { skills } = await listAll(s.client);
    expect(skills[0]!.resources.map((r) => r.uri).sort()).toEqual(
      ['.env.example', 'SKILL.md', 'big.bin', 'inside.md', 'references/ok.md'].map((p) => `skill://esc/${p}`),
    );
  });

  it.each([
    'skill://esc/../outside.txt',
    'skill://esc/%2E%2E/outside.txt',
    'skill://esc/references/%2e%2e/%2e%2e/outside.txt',
    'skill://esc/references%2F..%2F..%2Foutside.txt',
    'skill://esc/references%5C..%5Cleak.md',
    'skill://esc/references\\..\\leak.md',
    'skill://esc//etc/passwd',
    'skill:///etc/passwd',
    'skill://esc/leak.md',
    'skill://esc/up/outside.txt',
    'skill://esc/.env',
    'skill://esc/.env.local',
    'skill://esc/.git/config',
    'skill://esc/references/ok.md?x=1',
    'skill://esc/%00',
    'file:///etc/passwd',
    `skill://${join('/', 'etc', 'passwd')}`,
  ])('refuses %s with -32602, showing nothing of it', async (uri) => {
    const err = await failure(s.client.readResource({ uri }));
    expect(err.code).toBe(-32602);
    expect(err.message).not.toContain(SECRET);
    expect(err.message).not.toContain('root:');
  });

  it('refuses a file over 4 MiB with a clear error', async () => {
    const err = await failure(s.client.readResource({ uri: 'skill://esc/big.bin' }));
    expect(err).toMatchObject({
      code: -32602,
      message: expect.stringContaining(
        'skill://esc/big.bin is 5242880 bytes, too big to serve: this server returns files of at most 4194304 bytes (4 MiB)',
      ),
    });
    // An MCP client is not told to run a command of this tool's.
    expect(err.message).not.toContain('skills install');
  });

  it('reads a link that stays inside, as the file it leads to', async () => {
    const r = await s.client.readResource({ uri: 'skill://esc/inside.md' });
    expect(r.contents[0]).toMatchObject({ text: 'fine\n', mimeType: 'text/markdown' });
  });

  it.each([
    '../outside.txt',
    '/etc/passwd',
    'leak.md',
    'up/outside.txt',
    '.env',
    'references/../../outside.txt',
    'references\\..\\leak.md',
  ])('read_skill_file refuses %s as an error result', async (file_path) => {
    const r = await s.client.callTool({ name: 'read_skill_file', arguments: { skill_name: 'esc', file_path } });
    expect(r.isError).toBe(true);
    expect(toolText(r)).not.toContain(SECRET);
  });
});

describe('skills serve: a frontmatter whose YAML aliases expand to billions of values', () => {
  let t: { dir: string; cleanup: () => void };
  let s: Connected;
  beforeAll(async () => {
    t = tempDir('skills-serve-bomb-');
    // Nine levels of nine aliases: 1 KB of YAML, 9^10 values once expanded (a plain copy ran out of memory, and the
    // server answered nothing, not even SIGTERM).
    const levels = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i <= 9; i++)
      levels.push(
        `a${i}: &a${i} [${Array(9)
          .fill(`*a${i - 1}`)
          .join(',')}]`,
      );
    writeTree(t.dir, {
      'bomb/SKILL.md': skillMd(`name: bomb\ndescription: Bomb. Use when.\n${levels.join('\n')}\nmetadata:\n  x: *a9\n`),
      // Aliases that stay small are served as a YAML parser reads them.
      'fine/SKILL.md': skillMd('name: fine\ndescription: Fine. Use when.\nmetadata:\n  a: &x [1, 2]\n  b: *x\n'),
    });
    s = await serveStdio([t.dir]);
  });
  afterAll(async () => {
    await s.close();
    t.cleanup();
  });

  it('leaves that skill out with the reason, and serves the others', async () => {
    const { skills } = await listAll(s.client);
    expect(skills.map((e) => e.frontmatter)).toEqual([
      { name: 'fine', description: 'Fine. Use when.', metadata: { a: [1, 2], b: [1, 2] } },
    ]);
    expect(s.stderr()).toContain(
      `warning: ${join(t.dir, 'bomb')}: skipped: ${join(t.dir, 'bomb', 'SKILL.md')}: the frontmatter holds more than 10,000 values or 1,048,576 characters once its YAML aliases (*name) are expanded; not served`,
    );
    // The count said at the start is of the skills served: the one left out is not in it.
    expect(s.stderr()).toMatch(/^serving 1 skill over stdio$/m);
    // And the server still answers.
    expect(toolText(await s.client.callTool({ name: 'load_skill', arguments: { skill_name: 'fine' } }))).toContain(
      'Instructions.',
    );
  });
});

describe('skills serve: characters a reader cannot see, in the instructions load_skill gives', () => {
  let t: { dir: string; cleanup: () => void };
  let s: Connected;
  const body = '# Esc\n\nRead \u001b[2Jthis\u202e gnp.exe and \u200bthat.\n';
  beforeAll(async () => {
    t = tempDir('skills-serve-unsafe-');
    writeTree(t.dir, { 'esc/SKILL.md': skillMd('name: esc\ndescription: Esc. Use when.\n', body) });
    s = await serveStdio([t.dir]);
  });
  afterAll(async () => {
    await s.close();
    t.cleanup();
  });

  it('load_skill leaves them out, as render-prompt does; the file read as a resource is as it is', async () => {
    const loaded = toolText(await s.client.callTool({ name: 'load_skill', arguments: { skill_name: 'esc' } }));
    // The escape character goes, so its sequence is plain text; the override and the zero-width space go.
    expect(loaded).toContain('Read [2Jthis gnp.exe and that.');
    expect(['\u001b', '\u202e', '\u200b'].filter((c) => loaded.includes(c))).toEqual([]);
    const read = await s.client.readResource({ uri: 'skill://esc/SKILL.md' });
    expect((read.contents[0] as { text: string }).text).toContain(body);
  });
});
