// `install --list` of a well-known site lists the skills from its index alone: one request, whatever the number of
// skills, none of their files downloaded.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempFolders } from '../helpers/cli.js';
import { serveLocal } from '../helpers/http.js';

const { fresh, cleanup } = tempFolders('skills-wk-list-');
const SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';
const names = Array.from({ length: 50 }, (_, i) => `skill-${String(i).padStart(2, '0')}`);
const requests: string[] = [];
let url: string;
let close: () => Promise<void>;

/** Each skill's SKILL.md, whose digest the index gives: an install of any of them would succeed. */
const skillMd = (name: string) => `---\nname: ${name}\ndescription: ${about(name)}\n---\n\n# ${name}\n`;
const about = (name: string) => `Does ${name} things. Use when ${name} is asked for.`;
const sha256 = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

beforeAll(async () => {
  const index = {
    $schema: SCHEMA,
    skills: [
      ...names.map((name) => ({
        name,
        type: 'skill-md',
        description: about(name),
        url: `/.well-known/agent-skills/${name}/SKILL.md`,
        digest: sha256(skillMd(name)),
      })),
      {
        name: 'remote-tool',
        type: 'mcp',
        description: 'An MCP server.',
        url: '/mcp',
        digest: `sha256:${'1'.repeat(64)}`,
      },
    ],
  };
  ({ url, close } = await serveLocal((req, res) => {
    requests.push(req.url!);
    if (req.url === '/.well-known/agent-skills/index.json')
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(index));
    const name = /^\/\.well-known\/agent-skills\/([a-z0-9-]+)\/SKILL\.md$/.exec(req.url!)?.[1];
    if (name === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/markdown' }).end(skillMd(name));
  }));
});
afterAll(async () => {
  await close();
  cleanup();
});

describe('install --list of a well-known site', () => {
  it('lists the 50 skills of the index with their descriptions from one request, downloading no skill', async () => {
    requests.length = 0;
    const r = await runCli(['install', url, '--list'], { cwd: fresh('user') });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(requests).toEqual(['/.well-known/agent-skills/index.json']);
    expect(r.stdout).toContain(': 51 skills');
    expect(r.stdout).toContain("from the site's index alone");
    for (const name of names) expect(r.stdout).toMatch(new RegExp(`${name} +Does ${name} things\\. Use when`));
    expect(r.stdout).toMatch(/remote-tool +invalid: its type is "mcp"/);
  });

  it('gives the same in --json, narrowed by --skill, still from one request', async () => {
    requests.length = 0;
    const r = await runCli(['install', url, '--list', '--json', '--skill', 'skill-07'], { cwd: fresh('user') });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(requests).toEqual(['/.well-known/agent-skills/index.json']);
    const doc = JSON.parse(r.stdout) as { sources: { skills: { id: string; description: string }[]; note: string }[] };
    expect(doc.sources[0]!.skills).toEqual([
      expect.objectContaining({ id: 'skill-07', description: 'Does skill-07 things. Use when skill-07 is asked for.' }),
    ]);
    expect(doc.sources[0]!.note).toContain("from the site's index alone");
  });
});
