// Skills from an MCP server that declares the skills extension (SEP-2640): its skills/list, then every file of
// each skill by resources/read, checked against the listing's sha256 digest before it is written. One mismatch, an
// entry without digests, or a path that would lead out of the skill's folder, and nothing is installed. A file the
// server refuses to send (one over its size limit) leaves out only its skill, whose folder is removed.
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { z } from 'zod';
import { SkillsError } from '../errors.js';
import { splitWords } from '../formats/shebang.js';
import { isSkillId } from '../model/spec.js';

export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';
/** The `_meta` key `skills serve` marks a manifest skill's entry with: its SKILL.md was made from manifest.json. */
export const LAYOUT_META = 'dev.skillsmith/layout';
const DIGEST = /^sha256:[0-9a-f]{64}$/;
const MAX_PAGES = 1000;
const MAX_FILES = 20_000;
const MAX_BYTES = 256 * 1024 * 1024;

export interface McpFetchOptions {
  env: Record<string, string | undefined>;
  progress?: (text: string) => void;
  /** Only the skill of this name. */
  only?: string;
}

/** A skill written to disk from a server. */
export interface FetchedSkill {
  name: string;
  dir: string;
  /** Its SKILL.md was made by `skills serve` from a manifest.json, and was left out. */
  manifest: boolean;
}

/** A skill left out: the server refused to send one of its files (`uri`), saying `message`. Nothing of it is kept. */
export interface UnreadSkill {
  name: string;
  uri: string;
  message: string;
}

interface Entry {
  uri: string;
  frontmatter: Record<string, unknown>;
  resources?: { uri: string; digest: string }[];
  _meta?: Record<string, unknown>;
}

/**
 * Connect to `server` (`stdio:<command line>` or an http(s) URL), list its skills and write each (or the one named
 * `only`) into `dest(name)`, every file checked against its digest. SKILLS_MCP_TOKEN is the HTTP bearer token.
 */
export async function fetchMcpSkills(
  server: string,
  typed: string,
  dest: (name: string) => string,
  options: McpFetchOptions,
): Promise<(FetchedSkill | UnreadSkill)[]> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const client = new Client({ name: 'skills-install', version: '1' });
  options.progress?.(`connecting to ${typed}`);
  try {
    await client.connect(await transportFor(server, options.env));
  } catch (err) {
    throw new SkillsError('E_IO', `${typed}: cannot connect to the MCP server: ${(err as Error).message}`, {
      cause: err,
    });
  }
  try {
    const caps = client.getServerCapabilities() as { extensions?: Record<string, unknown> } | undefined;
    if (!caps?.extensions?.[SKILLS_EXTENSION])
      throw new SkillsError(
        'E_INVALID',
        `${typed}: the server does not declare the ${SKILLS_EXTENSION} extension; nothing was installed`,
        {
          hint: 'skills installs from servers that serve skills as SEP-2640 says (skills serve does)',
        },
      );
    const entries = (await listEntries(client, typed)).filter(
      (e) => options.only === undefined || e.frontmatter.name === options.only,
    );
    if (entries.length === 0)
      throw new SkillsError(
        'E_NOT_FOUND',
        options.only === undefined
          ? `${typed} serves no skills; nothing was installed`
          : `${typed} no longer serves ${options.only}; nothing was installed`,
      );
    const out: (FetchedSkill | UnreadSkill)[] = [];
    for (const e of entries) out.push(await fetchEntry(client, e, typed, dest));
    return out;
  } finally {
    await client.close().catch(() => {});
  }
}

async function transportFor(server: string, env: Record<string, string | undefined>) {
  if (server.startsWith('stdio:')) {
    const { StdioClientTransport, getDefaultEnvironment } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const [command, ...args] = splitWords(server.slice('stdio:'.length));
    return new StdioClientTransport({ command: command!, args, env: getDefaultEnvironment(), stderr: 'ignore' });
  }
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const token = env.SKILLS_MCP_TOKEN;
  return new StreamableHTTPClientTransport(new URL(server), {
    ...(token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : {}),
  });
}

async function listEntries(client: Client, typed: string): Promise<Entry[]> {
  const page = z
    .object({
      skills: z.array(
        z
          .object({
            uri: z.string(),
            frontmatter: z.record(z.unknown()),
            resources: z.array(z.object({ uri: z.string(), digest: z.string() }).passthrough()).optional(),
            _meta: z.record(z.unknown()).optional(),
          })
          .passthrough(),
      ),
      nextCursor: z.string().optional(),
    })
    .passthrough();
  const all: Entry[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < MAX_PAGES; i++) {
    let r;
    try {
      r = await client.request({ method: 'skills/list', params: cursor ? { cursor } : {} }, page);
    } catch (err) {
      throw new SkillsError('E_IO', `${typed}: skills/list failed: ${(err as Error).message}`, { cause: err });
    }
    all.push(...r.skills);
    cursor = r.nextCursor;
    if (cursor === undefined) return all;
  }
  throw new SkillsError('E_INVALID', `${typed}: skills/list goes on past ${MAX_PAGES} pages; nothing was installed`);
}

/**
 * One skill: its entry checked (every path and digest, before anything is read), each file read, checked against its
 * digest and written below `dest(name)`; or, when the server refuses to send a file, the skill left out.
 */
async function fetchEntry(
  client: Client,
  e: Entry,
  typed: string,
  dest: (name: string) => string,
): Promise<FetchedSkill | UnreadSkill> {
  const name = e.frontmatter.name;
  const bad = (why: string) =>
    new SkillsError('E_INVALID', `${typed}: the entry ${JSON.stringify(e.uri)}: ${why}; nothing was installed`);
  if (typeof name !== 'string' || !isSkillId(name))
    throw bad(`its frontmatter name ${JSON.stringify(name)} is not a skill name`);
  if (!e.uri.endsWith(`/${name}/SKILL.md`)) throw bad(`its URI does not end in /${name}/SKILL.md`);
  if (!e.resources) throw bad('it lists no resources with digests, so its content cannot be checked');
  if (e.resources.length > MAX_FILES) throw bad(`it lists more than ${MAX_FILES} files`);
  const base = e.uri.slice(0, -'SKILL.md'.length);
  const manifest = e._meta?.[LAYOUT_META] === 'manifest';
  const files: { uri: string; digest: string; rel: string }[] = [];
  for (const r of e.resources) {
    if (!r.uri.startsWith(base)) throw bad(`${JSON.stringify(r.uri)} is not inside the skill`);
    if (!DIGEST.test(r.digest)) throw bad(`the digest of ${JSON.stringify(r.uri)} is not sha256:<64 hex>`);
    const rel = relativePath(r.uri.slice(base.length));
    if (rel === undefined) throw bad(`${JSON.stringify(r.uri)} would lead outside the skill's folder`);
    if (!(manifest && rel === 'SKILL.md')) files.push({ uri: r.uri, digest: r.digest, rel });
  }
  const dir = dest(name);
  let bytes = 0;
  for (const r of files) {
    let read;
    try {
      read = await client.readResource({ uri: r.uri });
    } catch (err) {
      const refusal = await refusalOf(err);
      if (refusal !== undefined) {
        // Nothing of a skill left out is kept: the files written before this one go too.
        rmSync(dir, { recursive: true, force: true });
        return { name, uri: r.uri, message: refusal };
      }
      throw new SkillsError('E_IO', `${typed}: resources/read ${r.uri} failed: ${(err as Error).message}`, {
        cause: err,
      });
    }
    const c = read.contents[0];
    const content = c === undefined ? undefined : 'text' in c ? Buffer.from(c.text) : Buffer.from(c.blob, 'base64');
    if (content === undefined) throw bad(`resources/read ${r.uri} returned nothing`);
    bytes += content.length;
    if (bytes > MAX_BYTES) throw bad(`its files add up to more than ${MAX_BYTES / 1024 / 1024} MiB`);
    const digest = `sha256:${createHash('sha256').update(content).digest('hex')}`;
    if (digest !== r.digest)
      throw new SkillsError(
        'E_INVALID',
        `${typed}: ${r.uri} has the sha256 ${digest}, but skills/list says ${r.digest}; nothing was installed`,
        {
          hint: 'the server serves other bytes than it lists (or the skill changed meanwhile): try again; if it persists, tell its owner',
        },
      );
    const file = join(dir, ...r.rel.split('/'));
    mkdirSync(dirname(file), { recursive: true });
    // MCP carries no file modes (SEP-2640 says so): a script (below scripts/, or opening with #!) is made executable.
    const script = r.rel.startsWith('scripts/') || content.subarray(0, 2).toString('latin1') === '#!';
    writeFileSync(file, content, { mode: script ? 0o755 : 0o644 });
  }
  return { name, dir, manifest };
}

/**
 * What the server said when it answered a read with an error of its own (a file over its size limit, one gone since
 * the listing), without the SDK's "MCP error -32602: " prefixes; undefined when the read failed otherwise (the
 * connection closed, a timeout), which fails the whole install.
 */
async function refusalOf(err: unknown): Promise<string | undefined> {
  const { McpError, ErrorCode } = await import('@modelcontextprotocol/sdk/types.js');
  if (!(err instanceof McpError) || err.code === ErrorCode.ConnectionClosed || err.code === ErrorCode.RequestTimeout)
    return undefined;
  return err.message.replace(/^(?:MCP error -?\d+: )+/, '');
}

/** A resource's path below its skill, decoded and checked: no `..`, `.`, empty segment, separator or NUL. */
function relativePath(encoded: string): string | undefined {
  const parts: string[] = [];
  for (const seg of encoded.split('/')) {
    let d: string;
    try {
      d = decodeURIComponent(seg);
    } catch {
      return undefined;
    }
    if (d === '' || d === '.' || d === '..' || /[/\\\0]/.test(d)) return undefined;
    parts.push(d);
  }
  return parts.join('/');
}
