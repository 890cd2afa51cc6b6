import { createHash } from 'node:crypto';
import { cpSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES, tempDir } from '../helpers/cli.js';
import { failure, listAll, nextListChange, serveStdio, toolText, type Connected } from '../helpers/mcp.js';
import { skillMd, writeTree } from '../helpers/tree.js';

// `skills serve` keeps up with the folders it serves (a change is told to the client, and the next listing has
// the new digest), and runs scripts as tools only when allowed, through run-script: a clean environment with the
// declared secrets, masked, and a timeout.

const sha256 = (b: Buffer | string) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

describe('skills serve: live', () => {
  let t: { dir: string; cleanup: () => void };
  let s: Connected;
  beforeAll(async () => {
    t = tempDir('skills-serve-live-');
    cpSync(join(EXAMPLES, 'web-scraping'), join(t.dir, 'web-scraping'), { recursive: true });
    s = await serveStdio([t.dir]);
  });
  afterAll(async () => {
    await s.close();
    t.cleanup();
  });

  const nextChange = () => nextListChange(s.client);

  it('tells the client when a skill is edited, and the next skills/list has its new digest', async () => {
    const before = (await listAll(s.client)).skills[0]!;
    const file = join(t.dir, 'web-scraping/SKILL.md');
    const changed = nextChange();
    const text = readFileSync(file, 'utf8').replace('# Web Scraping', '# Web Scraping, edited');
    writeFileSync(file, text);
    await changed;
    const after = (await listAll(s.client)).skills[0]!;
    const digest = (e: typeof before) => e.resources.find((r) => r.uri === 'skill://web-scraping/SKILL.md')!.digest;
    expect(digest(after)).not.toBe(digest(before));
    expect(digest(after)).toBe(sha256(text));
    const read = await s.client.readResource({ uri: 'skill://web-scraping/SKILL.md' });
    expect(read.contents[0]).toMatchObject({ text: expect.stringContaining('# Web Scraping, edited') });
  });

  it('lists a skill added while it serves, with its files', async () => {
    const changed = nextChange();
    writeTree(t.dir, {
      'fresh/SKILL.md': skillMd('name: fresh\ndescription: Appeared later. Use when testing serve.'),
      'fresh/references/a.md': 'a\n',
    });
    await changed;
    // A burst of writes may come as more than one notice: the listing settles on both files.
    for (let i = 0; i < 50; i++) {
      const fresh = (await listAll(s.client)).skills.find((e) => e.frontmatter.name === 'fresh');
      if (fresh?.resources.length === 2) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const fresh = (await listAll(s.client)).skills.find((e) => e.frontmatter.name === 'fresh')!;
    expect(fresh.resources.map((r) => r.uri).sort()).toEqual([
      'skill://fresh/SKILL.md',
      'skill://fresh/references/a.md',
    ]);
  });

  it('keeps watching after a folder in it is renamed, and after the served folder is removed and made again', async () => {
    const u = tempDir('skills-serve-moves-');
    try {
      const root = join(u.dir, 'skills');
      writeTree(root, {
        'group/delta/SKILL.md': skillMd('name: delta\ndescription: Moves around. Use when testing serve.'),
      });
      const m = await serveStdio([root]);
      try {
        const change = () => nextListChange(m.client);
        const files = async () => (await listAll(m.client)).skills.flatMap((k) => k.resources.map((r) => r.uri)).sort();
        let next = change();
        renameSync(join(root, 'group'), join(root, 'group2'));
        await next;
        next = change();
        writeFileSync(join(root, 'group2/delta/after.md'), 'after\n');
        await next;
        expect(await files()).toEqual(['skill://delta/SKILL.md', 'skill://delta/after.md']);
        next = change();
        rmSync(root, { recursive: true });
        writeTree(root, { 'omega/SKILL.md': skillMd('name: omega\ndescription: Came back. Use when testing serve.') });
        await next;
        next = change();
        writeTree(root, { 'psi/SKILL.md': skillMd('name: psi\ndescription: Added after. Use when testing serve.') });
        await next;
        next = change();
        writeFileSync(join(root, 'omega/new.md'), 'new\n');
        await next;
        expect(await files()).toEqual(['skill://omega/SKILL.md', 'skill://omega/new.md', 'skill://psi/SKILL.md']);
      } finally {
        await m.close();
      }
    } finally {
      u.cleanup();
    }
  }, 60_000);
});

const TOKEN = 'tok-very-secret-123';

describe('skills serve: scripts as tools', () => {
  let t: { dir: string; cleanup: () => void };
  let s: Connected;
  beforeAll(async () => {
    t = tempDir('skills-serve-scripts-');
    writeTree(t.dir, {
      'skills/vault/manifest.json': JSON.stringify({
        id: 'vault',
        name: 'Vault',
        version: '1.0.0',
        description: 'Holds a token. Use when testing serve scripts.',
        scripts: ['scripts/echo.js', 'scripts/sleep.js', 'scripts/words.js'],
        envVars: ['API_TOKEN'],
      }),
      'skills/vault/scripts/echo.js':
        '// Echo the arguments back, with the token.\nconst a = JSON.parse(process.argv[2]);\nconsole.log(JSON.stringify({ success: true, result: { got: a, token: process.env.API_TOKEN, leaky: process.env.LEAKY ?? null } }));\n',
      'skills/vault/scripts/sleep.js': '// Sleep for a long time.\nsetTimeout(() => {}, 60000);\n',
      'skills/vault/scripts/words.js':
        '// Print its command-line words.\nconsole.log(JSON.stringify({ success: true, result: process.argv.slice(2) }));\n',
      'skills/vault/scripts/undeclared.js': '// Not declared: never a tool.\nconsole.log("no");\n',
      'secrets.env': `API_TOKEN=${TOKEN}\n`,
    });
    s = await serveStdio(
      [
        join(t.dir, 'skills'),
        '--allow-scripts',
        'vault/echo,vault/sleep.js,vault/scripts/words.js',
        '--secrets',
        join(t.dir, 'secrets.env'),
        '--timeout',
        '1',
      ],
      { LEAKY: 'from-the-caller' },
    );
  });
  afterAll(async () => {
    await s.close();
    t.cleanup();
  });

  it('offers one tool per allowed script, described by its leading comment, with the args/words input', async () => {
    const tools = (await s.client.listTools()).tools.filter((x) => x.name.startsWith('vault_'));
    expect(tools.map((x) => x.name).sort()).toEqual(['vault_echo', 'vault_sleep', 'vault_words']);
    const echo = tools.find((x) => x.name === 'vault_echo')!;
    expect(echo.description).toMatch(
      /^Echo the arguments back, with the token\. \(Script scripts\/echo\.js of the skill vault/,
    );
    expect(echo.inputSchema.properties).toHaveProperty('args');
    expect(echo.inputSchema.properties).toHaveProperty('words');
    const loaded = toolText(await s.client.callTool({ name: 'load_skill', arguments: { skill_name: 'vault' } }));
    expect(loaded).toContain('Its scripts run as the tools: vault_echo (scripts/echo.js)');
  });

  it('runs a script with its declared secret only, and masks the secret in what comes back', async () => {
    const r = await s.client.callTool({ name: 'vault_echo', arguments: { args: { city: 'Oslo' } } });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({
      success: true,
      exitCode: 0,
      result: { got: { city: 'Oslo' }, token: '***', leaky: null },
    });
    expect(JSON.stringify(r)).not.toContain(TOKEN);
  });

  it('passes command-line words', async () => {
    const r = await s.client.callTool({ name: 'vault_words', arguments: { words: ['--format', 'json'] } });
    expect(r.structuredContent).toMatchObject({ success: true, result: ['--format', 'json'] });
  });

  it('ends a script at the timeout, as an error result', async () => {
    const started = Date.now();
    const r = await s.client.callTool({ name: 'vault_sleep', arguments: {} });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({
      success: false,
      timedOut: true,
      exitCode: 124,
      error: 'timed out after 1 s',
    });
  });

  it('refuses a script that is not allowed, and arguments of the wrong shape, with -32602', async () => {
    expect(await failure(s.client.callTool({ name: 'vault_undeclared', arguments: {} }))).toMatchObject({
      code: -32602,
      message: expect.stringContaining('unknown tool "vault_undeclared"'),
    });
    expect(await failure(s.client.callTool({ name: 'vault_echo', arguments: { args: 5 } }))).toMatchObject({
      code: -32602,
      message: expect.stringContaining('"args" must be a JSON object'),
    });
    expect(await failure(s.client.callTool({ name: 'vault_echo', arguments: { city: 'Oslo' } }))).toMatchObject({
      code: -32602,
      message: expect.stringContaining('not "city"'),
    });
  });
});

describe('skills serve: a skill whose full load finds what keeps its scripts from being tools', () => {
  let t: { dir: string; cleanup: () => void };
  let s: Connected;
  const manifest = (scripts: unknown) =>
    JSON.stringify({
      id: 'broken',
      name: 'Broken',
      version: '1.0.0',
      description: 'A manifest whose scripts are not a list. Use when testing serve.',
      owner: 'tests',
      context: ['context/instructions.md'],
      scripts,
    });
  beforeAll(async () => {
    t = tempDir('skills-serve-script-load-');
    writeTree(t.dir, {
      'broken/manifest.json': manifest('scripts/run.js'),
      'broken/context/instructions.md': '# Broken\n\nRead me.\n',
      'broken/scripts/run.js': '// Run.\nconsole.log("{}");\n',
      'missing/manifest.json': manifest(['scripts/here.js', 'scripts/gone.js']).replace(/"broken"/, '"missing"'),
      'missing/context/instructions.md': '# Missing\n',
      'missing/scripts/here.js': '// Here.\nconsole.log("{}");\n',
      'fine/SKILL.md': skillMd('name: fine\ndescription: Says hello. Use when testing serve.'),
      'fine/scripts/hello.js': '// Say hello.\nconsole.log(JSON.stringify({ success: true, result: "hello" }));\n',
    });
    s = await serveStdio([t.dir, '--allow-scripts']);
  });
  afterAll(async () => {
    await s.close();
    t.cleanup();
  });

  it('says so once on stderr, with the file and what was wrong; serves the rest, and its instructions', async () => {
    const names = (await s.client.listTools()).tools.map((x) => x.name);
    await s.client.listTools();
    expect(names).toContain('fine_hello');
    expect(names).toContain('missing_here');
    expect(names.filter((n) => n.startsWith('broken_'))).toEqual([]);
    // stderr is another pipe than the answer: waited for.
    for (let i = 0; i < 100 && !s.stderr().includes('the skill missing'); i++)
      await new Promise((r) => setTimeout(r, 50));
    const said = s.stderr();
    const broken = `warning: the skill broken (${join(t.dir, 'broken')}) offers no script tool: loading it in full found ${join(t.dir, 'broken/manifest.json')}:`;
    expect(said).toContain(broken);
    expect(said).toContain('scripts must be a list, found text');
    expect(said.split(broken).length).toBe(2);
    expect(said).toContain(
      `warning: the skill missing (${join(t.dir, 'missing')}) offers 1 script tool: loading it in full found scripts/gone.js: it is declared in manifest.json but does not exist`,
    );
    expect(said).not.toContain('the skill fine');
    // Its SKILL.md (made from the manifest) reads: load_skill gives its instructions.
    const r = await s.client.callTool({ name: 'load_skill', arguments: { skill_name: 'broken' } });
    expect(r.isError).toBeFalsy();
    expect(toolText(r)).toContain('Read me.');
  });
});

describe('skills serve: script tools given what a stranger shapes', () => {
  let t: { dir: string; cleanup: () => void };
  let s: Connected;
  const NUL_SECRET = 'TOPSECRET\u0000VALUE-9f8e7d';
  beforeAll(async () => {
    t = tempDir('skills-serve-shaped-');
    writeTree(t.dir, {
      'skills/shaped/manifest.json': JSON.stringify({
        id: 'shaped',
        name: 'Shaped',
        version: '1.0.0',
        description: 'Runs odd scripts. Use when testing serve scripts.',
        scripts: ['scripts/hi.js'],
        envVars: ['API_KEY'],
      }),
      'skills/shaped/scripts/hi.js': '// Say hi.\nconsole.log(JSON.stringify({ success: true }));\n',
      'secrets.json': JSON.stringify({ API_KEY: NUL_SECRET }),
      'skills/deep/manifest.json': JSON.stringify({
        id: 'deep',
        name: 'Deep',
        version: '1.0.0',
        description: 'Nests its result. Use when testing serve scripts.',
        scripts: ['scripts/nest.js'],
      }),
      'skills/deep/scripts/nest.js':
        '// Nest the result.\nconst n = JSON.parse(process.argv[2]).depth;\nconsole.log(`{"success":true,"result":${"[".repeat(n)}${"]".repeat(n)}}`);\n',
    });
    s = await serveStdio([join(t.dir, 'skills'), '--allow-scripts', 'all', '--secrets', join(t.dir, 'secrets.json')]);
  });
  afterAll(async () => {
    await s.close();
    t.cleanup();
  });

  it('refuses a secret holding a NUL, naming the variable, never its value', async () => {
    let answer: unknown;
    try {
      answer = await s.client.callTool({ name: 'shaped_hi', arguments: {} });
    } catch (err) {
      answer = { code: (err as { code: number }).code, message: (err as Error).message };
    }
    const text = JSON.stringify(answer);
    expect(text).toContain('the environment variable API_KEY cannot be given to the script');
    expect(text).not.toContain('TOPSECRET');
    expect(text).not.toContain('VALUE-9f8e7d');
  });

  it('answers a result nested too deep as a failed run naming the depth (not -32603), and reads one as deep as allowed', async () => {
    const r = await s.client.callTool({ name: 'deep_nest', arguments: { args: { depth: 5000 } } });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({
      success: false,
      exitCode: 0,
      error: expect.stringContaining('nested more than 1000 levels deep'),
    });
    const ok = await s.client.callTool({ name: 'deep_nest', arguments: { args: { depth: 999 } } });
    expect(ok.isError).toBeFalsy();
    expect(ok.structuredContent).toMatchObject({ success: true, exitCode: 0 });
  });
});
