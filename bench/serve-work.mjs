// The work of the serve rows (bench/rows/serve.mjs), one mode a run:
//   list-mcp <dir>          spawn `skills serve <dir>`, page through skills/list with the SDK's client; print the count
//   list-local <dir>        the same work in this process: each skill's frontmatter and every file's sha256
//   read-mcp <dir> <n>      after connecting, n resources/read round trips; print their time in ms
//   read-local <dir> <n>    n reads and digests of the same files in this process; print their time in ms
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { z } from 'zod';

const CLI = fileURLToPath(new URL('../bin/skills.js', import.meta.url));
const [mode, dir, n = '1000'] = process.argv.slice(2);
const digest = (b) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

/** Every file below a skill folder, relative. */
function files(root) {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath ?? d.path, d.name).slice(root.length + 1));
}

async function connect() {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve', dir, '--no-watch'], stderr: 'ignore' }),
  );
  return client;
}

/** The first `count` files a reader would read: each skill's SKILL.md, round robin. */
function targets(count) {
  const names = readdirSync(dir).sort();
  return Array.from({ length: count }, (_, i) => names[i % names.length]);
}

const Page = z.object({ skills: z.array(z.any()), nextCursor: z.string().optional() }).passthrough();

if (mode === 'list-mcp') {
  const client = await connect();
  let cursor;
  let count = 0;
  do {
    const r = await client.request({ method: 'skills/list', params: cursor ? { cursor } : {} }, Page);
    count += r.skills.length;
    cursor = r.nextCursor;
  } while (cursor);
  await client.close();
  console.log(count);
} else if (mode === 'list-local') {
  const entries = [];
  for (const name of readdirSync(dir).sort()) {
    const root = join(dir, name);
    const all = files(root);
    const front = all.includes('SKILL.md')
      ? yaml.load(readFileSync(join(root, 'SKILL.md'), 'utf8').split('---\n')[1])
      : JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8'));
    entries.push({
      uri: `skill://${name}/SKILL.md`,
      frontmatter: front,
      resources: all.map((f) => ({ uri: f, digest: digest(readFileSync(join(root, f))) })),
    });
  }
  JSON.stringify(entries);
  console.log(entries.length);
} else if (mode === 'read-mcp') {
  const client = await connect();
  await client.readResource({ uri: `skill://${targets(1)[0]}/SKILL.md` }); // the first read builds the entry
  const list = targets(Number(n));
  const start = performance.now();
  for (const name of list) await client.readResource({ uri: `skill://${name}/SKILL.md` });
  const ms = performance.now() - start;
  await client.close();
  console.log(ms);
} else if (mode === 'read-local') {
  const list = targets(Number(n));
  const start = performance.now();
  for (const name of list) {
    const file = join(dir, name, readdirSync(join(dir, name)).includes('SKILL.md') ? 'SKILL.md' : 'manifest.json');
    const text = readFileSync(file, 'utf8');
    JSON.stringify({ contents: [{ uri: file, mimeType: 'text/markdown', text, digest: digest(text) }] });
  }
  console.log(performance.now() - start);
} else {
  throw new Error(`unknown mode ${mode}`);
}
