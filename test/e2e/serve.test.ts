import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES, FIXTURES, runCli } from '../helpers/cli.js';
import {
  DirectoryResult,
  failure,
  listAll,
  serveStdio,
  SkillsGetResult,
  toolText,
  type Connected,
} from '../helpers/mcp.js';

// `skills serve` over stdio with the SDK's own client, on the example skills: the SEP-2640 extension (list, get,
// read, directory read and their errors) and the tools for clients without it.

const sha256 = (b: Buffer | string) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
const EXAMPLE_NAMES = readdirSync(EXAMPLES).sort();

/** Every file below a folder, relative, forward slashes. */
/** The files below `dir`, but for byte code a run of a skill's Python scripts leaves (__pycache__), never served. */
function filesBelow(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((p) => !p.split(/[\\/]/).includes('__pycache__') && statSync(join(dir, p)).isFile())
    .map((p) => p.split('\\').join('/'))
    .sort();
}

/** A resource read's bytes: its text, or its base64 blob. */
function bytesOf(c: { text?: unknown; blob?: unknown }): Buffer {
  return typeof c.text === 'string' ? Buffer.from(c.text) : Buffer.from(String(c.blob), 'base64');
}

describe('skills serve (stdio) of examples/skills', () => {
  let s: Connected;
  beforeAll(async () => {
    s = await serveStdio([EXAMPLES]);
  });
  afterAll(() => s.close());

  it('declares the io.modelcontextprotocol/skills extension with directoryRead, and says what it serves on stderr', () => {
    const caps = s.client.getServerCapabilities() as { extensions?: Record<string, unknown> };
    expect(caps.extensions).toEqual({ 'io.modelcontextprotocol/skills': { directoryRead: true } });
    expect(s.client.getInstructions()).toMatch(/list_skills/);
    expect(s.stderr()).toContain(`serving ${EXAMPLE_NAMES.length} skills over stdio`);
  });

  it('skills/list: every skill, its frontmatter as JSON, and every file (no more) with its sha256 digest', async () => {
    const { skills, pages } = await listAll(s.client);
    expect(pages).toBe(1);
    expect(skills.map((e) => e.frontmatter.name).sort()).toEqual(EXAMPLE_NAMES);
    const web = skills.find((e) => e.frontmatter.name === 'web-scraping')!;
    expect(web.uri).toBe('skill://web-scraping/SKILL.md');
    const text = readFileSync(join(EXAMPLES, 'web-scraping/SKILL.md'), 'utf8');
    expect(web.frontmatter).toEqual(yaml.load(text.split('---\n')[1]!));
    for (const e of skills) {
      const name = String(e.frontmatter.name);
      const dir = join(EXAMPLES, name);
      // A manifest skill also has the SKILL.md made for it (its own test is below).
      const made = existsSync(join(dir, 'manifest.json')) ? ['SKILL.md'] : [];
      expect(e.resources.map((r) => r.uri).sort()).toEqual(
        [...made, ...filesBelow(dir)].map((p) => `skill://${name}/${p}`).sort(),
      );
      for (const r of e.resources.filter((x) => made.length === 0 || x.uri !== e.uri))
        expect(r.digest).toBe(sha256(readFileSync(join(dir, r.uri.slice(`skill://${name}/`.length)))));
      // SKILL.md's own entry is there, matching the skill's uri.
      expect(e.resources.some((r) => r.uri === e.uri)).toBe(true);
    }
  });

  it('serves a manifest.json skill as a skill: a SKILL.md made from the manifest, and its files as they are', async () => {
    const { skills } = await listAll(s.client);
    const social = skills.find((e) => e.frontmatter.name === 'social-media-apis')!;
    expect(social.frontmatter).toEqual({
      name: 'social-media-apis',
      description: expect.stringContaining('Post to Twitter'),
      version: '2.1.0',
      metadata: { title: 'Social Media APIs', owner: 'built-in' },
      dependencies: ['basic-tools@^1.0.0'],
    });
    const dir = join(EXAMPLES, 'social-media-apis');
    expect(social.resources.map((r) => r.uri).sort()).toEqual(
      ['SKILL.md', ...filesBelow(dir)].map((p) => `skill://social-media-apis/${p}`).sort(),
    );
    const read = await s.client.readResource({ uri: social.uri });
    const md = bytesOf(read.contents[0]!).toString('utf8');
    expect(yaml.load(md.split('---\n')[1]!)).toEqual(social.frontmatter);
    expect(md).toContain(readFileSync(join(dir, 'context/instructions.md'), 'utf8').trim().split('\n')[0]!);
    expect(social.resources.find((r) => r.uri === social.uri)!.digest).toBe(sha256(md));
  });

  it('resources/read: every file of every skill, matching its digest, with its MIME type; SKILL.md with the frontmatter in _meta', async () => {
    const { skills } = await listAll(s.client);
    let n = 0;
    for (const e of skills) {
      for (const r of e.resources) {
        const read = await s.client.readResource({ uri: r.uri });
        expect(read.contents).toHaveLength(1);
        expect(read.contents[0]!.uri).toBe(r.uri);
        expect(sha256(bytesOf(read.contents[0]!))).toBe(r.digest);
        n++;
      }
    }
    expect(n).toBeGreaterThan(20);
    const md = (await s.client.readResource({ uri: 'skill://web-scraping/SKILL.md' })).contents[0]!;
    expect(md.mimeType).toBe('text/markdown');
    expect(md._meta).toMatchObject({
      'io.modelcontextprotocol.skills/name': 'web-scraping',
      'io.modelcontextprotocol.skills/license': 'MIT',
      'io.modelcontextprotocol.skills/metadata': { author: 'peterbot', version: '1.2.0', category: 'data-collection' },
    });
    const py = (await s.client.readResource({ uri: 'skill://web-scraping/scripts/scraper.py' })).contents[0]!;
    expect(py.mimeType).toBe('text/x-python');
    expect(py._meta).toBeUndefined();
    const json = (await s.client.readResource({ uri: 'skill://basic-tools/manifest.json' })).contents[0]!;
    expect(json.mimeType).toBe('application/json');
  });

  it('skills/get returns the entry skills/list has; a URI that is not a served skill is -32602', async () => {
    const { skills } = await listAll(s.client);
    const got = await s.client.request(
      { method: 'skills/get', params: { uri: 'skill://web-scraping/SKILL.md' } },
      SkillsGetResult,
    );
    expect(got.skill).toEqual(skills.find((e) => e.uri === 'skill://web-scraping/SKILL.md'));
    const get = (params: unknown) =>
      failure(s.client.request({ method: 'skills/get', params } as never, SkillsGetResult));
    expect(await get({ uri: 'skill://nope/SKILL.md' })).toMatchObject({
      code: -32602,
      message: expect.stringContaining('no skill "nope"'),
    });
    expect(await get({ uri: 'skill://web-scrapng/SKILL.md' })).toMatchObject({
      message: expect.stringContaining('did you mean "web-scraping"'),
    });
    expect(await get({ uri: 'skill://web-scraping/scripts/scraper.py' })).toMatchObject({
      code: -32602,
      message: expect.stringContaining('skills/get takes skill://<skill>/SKILL.md'),
    });
    expect(await get({})).toMatchObject({
      code: -32602,
      message: expect.stringContaining('params.uri must be a string'),
    });
    expect(await get({ uri: 'https://example.com/SKILL.md' })).toMatchObject({
      code: -32602,
      message: expect.stringContaining('not a skill:// URI'),
    });
  });

  it('skills/list refuses a cursor it did not hand out', async () => {
    const bad = await failure(s.client.request({ method: 'skills/list', params: { cursor: 'abc' } }, DirectoryResult));
    expect(bad).toMatchObject({ code: -32602, message: expect.stringContaining('invalid cursor') });
  });

  it("resources/directory/read lists a folder's direct children; a file or an unknown folder is -32602", async () => {
    const read = (uri: string) =>
      s.client.request({ method: 'resources/directory/read', params: { uri } }, DirectoryResult);
    expect((await read('skill://web-scraping')).resources).toEqual([
      {
        uri: 'skill://web-scraping/SKILL.md',
        name: 'SKILL.md',
        mimeType: 'text/markdown',
        size: statSync(join(EXAMPLES, 'web-scraping/SKILL.md')).size,
      },
      { uri: 'skill://web-scraping/references', name: 'references', mimeType: 'inode/directory' },
      { uri: 'skill://web-scraping/scripts', name: 'scripts', mimeType: 'inode/directory' },
    ]);
    expect((await read('skill://web-scraping/references')).resources.map((r) => [r.name, r.mimeType])).toEqual([
      ['selectors.md', 'text/markdown'],
    ]);
    expect(await failure(read('skill://web-scraping/SKILL.md'))).toMatchObject({
      code: -32602,
      message: expect.stringContaining('is a file, not a folder'),
    });
    expect(await failure(read('skill://web-scraping/assets'))).toMatchObject({
      code: -32602,
      message: expect.stringContaining('no folder "assets"'),
    });
  });

  it("resources/list lists each skill's SKILL.md, and a template names the rest", async () => {
    const list = await s.client.listResources();
    expect(list.resources.map((r) => r.uri).sort()).toEqual(EXAMPLE_NAMES.map((n) => `skill://${n}/SKILL.md`));
    expect(list.resources.find((r) => r.name === 'web-scraping')!.description).toMatch(/^Extract text/);
    const templates = await s.client.listResourceTemplates();
    expect(templates.resourceTemplates[0]!.uriTemplate).toBe('skill://{skill}/{+path}');
  });

  it('tools: list_skills (all, or the selection for a query), load_skill, read_skill_file; no script tools unless allowed', async () => {
    const tools = (await s.client.listTools()).tools.map((t) => t.name);
    expect(tools).toEqual(['list_skills', 'load_skill', 'read_skill_file']);

    const all = JSON.parse(toolText(await s.client.callTool({ name: 'list_skills', arguments: {} })));
    expect(all.skills.map((x: { name: string }) => x.name).sort()).toEqual(EXAMPLE_NAMES);
    const picked = JSON.parse(
      toolText(
        await s.client.callTool({ name: 'list_skills', arguments: { query: 'scrape the prices off this page' } }),
      ),
    );
    expect(picked.skills[0]).toMatchObject({
      name: 'web-scraping',
      uri: 'skill://web-scraping/SKILL.md',
      kind: 'trigger',
    });
    const none = JSON.parse(
      toolText(await s.client.callTool({ name: 'list_skills', arguments: { query: 'zzzz qqqq' } })),
    );
    expect(none).toMatchObject({ skills: [], note: expect.stringContaining('no skill fits') });

    const loaded = toolText(await s.client.callTool({ name: 'load_skill', arguments: { skill_name: 'web-scraping' } }));
    expect(loaded).toContain('Files (read them with read_skill_file');
    expect(loaded).toContain('references/selectors.md, scripts/scraper.py');
    expect(loaded).toContain(readFileSync(join(EXAMPLES, 'web-scraping/SKILL.md'), 'utf8').split('---\n')[2]!.trim());
    const manifest = toolText(await s.client.callTool({ name: 'load_skill', arguments: { skill_name: 'cron-tools' } }));
    expect(manifest).toContain(
      readFileSync(join(EXAMPLES, 'cron-tools/context/scheduling.md'), 'utf8').trim().split('\n')[0]!,
    );

    const file = toolText(
      await s.client.callTool({
        name: 'read_skill_file',
        arguments: { skill_name: 'web-scraping', file_path: 'references/selectors.md' },
      }),
    );
    expect(file).toBe(readFileSync(join(EXAMPLES, 'web-scraping/references/selectors.md'), 'utf8'));

    const unknown = await s.client.callTool({ name: 'load_skill', arguments: { skill_name: 'web-scrapin' } });
    expect(unknown.isError).toBe(true);
    expect(toolText(unknown)).toContain('did you mean "web-scraping"');
    const missing = await s.client.callTool({
      name: 'read_skill_file',
      arguments: { skill_name: 'web-scraping', file_path: 'selectors.md' },
    });
    expect(missing.isError).toBe(true);
    expect(toolText(missing)).toContain('did you mean "references/selectors.md"');
    expect(await failure(s.client.callTool({ name: 'load_skill', arguments: {} }))).toMatchObject({
      code: -32602,
      message: expect.stringContaining('"skill_name" must be a non-empty string'),
    });
    expect(await failure(s.client.callTool({ name: 'web-scraping_scraper', arguments: {} }))).toMatchObject({
      code: -32602,
      message: expect.stringContaining('unless the server is started with --allow-scripts'),
    });
  });

  it.each([
    [
      'tools/call',
      { name: 'load_skill', arguments: [] },
      'load_skill: params.arguments must be a JSON object',
      'an array',
    ],
    [
      'tools/call',
      { name: 'load_skill', arguments: 'web-scraping' },
      'params.arguments must be a JSON object',
      'a string',
    ],
    [
      'tools/call',
      { arguments: { skill_name: 'web-scraping' } },
      'tools/call: params.name must be the name of a tool',
      'nothing',
    ],
    ['tools/call', { name: 42 }, 'params.name must be the name of a tool', 'a number'],
    ['resources/read', { uri: 42 }, 'params.uri must be a string, a skill:// URI', 'a number'],
    ['resources/list', { cursor: 42 }, 'invalid cursor 42', ''],
  ])('%s with params %j of the wrong shape is -32602, naming the parameter', async (method, params, says, got) => {
    const err = await failure(s.client.request({ method, params } as never, SkillsGetResult));
    expect(err.code, err.message).toBe(-32602);
    expect(err.message).toContain(says);
    expect(err.message).toContain(got ? `got ${got}` : '');
    // A plain sentence, not the SDK's dump of zod's issues.
    expect(err.message).not.toMatch(/invalid_type|"path"|expected/);
    // The SDK's client puts the code before the message it is sent: said once, not twice.
    expect(err.message).toMatch(/^MCP error -32602: (?!MCP error)/);
  });
});

describe('skills serve of the reference corpus (test/fixtures/real-false-alarms and real-shapes)', () => {
  const corpus = [join(FIXTURES, 'real-false-alarms'), join(FIXTURES, 'real-shapes')];
  let s: Connected;
  beforeAll(async () => {
    s = await serveStdio(corpus);
  });
  afterAll(() => s.close());

  it('lists every skill skills list finds, each with its frontmatter as a YAML parser reads it and every file digested', async () => {
    const listed = await runCli(['list', ...corpus, '--json', '--no-registry']);
    const found = JSON.parse(listed.stdout).skills as { id: string; path: string }[];
    const { skills } = await listAll(s.client);
    // inline-block's frontmatter is not YAML as written (`description: | Use when …`): render-prompt reads it
    // leniently, the tools serve it, but the extension's listing leaves it out (a host could not check it).
    expect(skills.map((e) => e.frontmatter.name).sort()).toEqual(
      found
        .map((f) => f.id)
        .filter((id) => id !== 'inline-block')
        .sort(),
    );
    expect(s.stderr()).toContain('skills/list: inline-block left out: its SKILL.md frontmatter is not YAML');
    const loaded = await s.client.callTool({ name: 'load_skill', arguments: { skill_name: 'inline-block' } });
    expect(toolText(loaded)).toContain('Summarise the posts.');
    expect(
      await failure(
        s.client.request({ method: 'skills/get', params: { uri: 'skill://inline-block/SKILL.md' } }, SkillsGetResult),
      ),
    ).toMatchObject({
      code: -32602,
      message: expect.stringContaining('frontmatter is not valid YAML'),
    });
    for (const e of skills) {
      const dir = found.find((f) => f.id === e.frontmatter.name)!.path;
      const text = readFileSync(join(dir, 'SKILL.md'), 'utf8');
      expect(e.frontmatter).toEqual(
        yaml.load(text.split('\n---')[0]!.replace(/^---\n/, ''), { schema: yaml.CORE_SCHEMA }),
      );
      expect(e.resources.map((r) => r.uri).sort()).toEqual(
        filesBelow(dir)
          .map((p) => `skill://${e.frontmatter.name}/${p}`)
          .sort(),
      );
      for (const r of e.resources) {
        const read = await s.client.readResource({ uri: r.uri });
        expect(sha256(bytesOf(read.contents[0]!))).toBe(r.digest);
        expect(r.digest).toBe(sha256(readFileSync(join(dir, r.uri.slice(`skill://${e.frontmatter.name}/`.length)))));
      }
    }
  });
});
