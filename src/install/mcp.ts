// Skills from an MCP server that serves them (SEP-2640): `skills install mcp+stdio:"<command>"` or
// `mcp+https://host/mcp`. Each skill is fetched file by file, every file checked against the listing's digest
// (fetch/mcp.ts), then prepared as a local folder; its lock source is `mcp:<server>`, its `path` the skill's name.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RemoteSource } from '../formats/install-source.js';
import { formatLockSource } from '../formats/lockfile.js';
import { fetchMcpSkills } from '../fetch/mcp.js';
import { needCache } from '../fetch/cache.js';
import type { Gathered } from './remote.js';
import { prepareLocal, relabeler, type Scratch } from './sources.js';
import type { InstallOptions } from './types.js';

/** The skills a server serves (or the one named `only`), each fetched, checked and prepared. */
export async function gatherMcp(
  remote: Extract<RemoteSource, { kind: 'mcp' }>,
  options: InstallOptions,
  scratch: Scratch,
  only?: string,
): Promise<Gathered> {
  needCache(options.cacheDir);
  const source = formatLockSource({ kind: 'mcp', server: remote.server });
  const fetched = await fetchMcpSkills(
    remote.server,
    remote.typed,
    (name) => {
      // The skill's folder is named after the skill, as the server names it.
      const dir = join(scratch.folder(`mcp-${name}`), name);
      mkdirSync(dir, { recursive: true });
      return dir;
    },
    { env: options.env, ...(options.progress ? { progress: options.progress } : {}), ...(only ? { only } : {}) },
  );
  const found: Gathered['found'] = [];
  for (const f of fetched) {
    if (!('dir' in f)) {
      // Left out as an invalid skill of many is: the others install, the run exits 1 (--strict refuses them all).
      found.push({
        source: remote.typed,
        id: f.name,
        message: `the server would not send ${f.uri} (${f.message}), so ${f.name} was not installed; get it from its own source (e.g. its repository)`,
        diagnostics: [],
      });
      continue;
    }
    const typed = `${remote.typed}: ${f.name}`;
    const p = await prepareLocal(f.dir, typed, source, { relabel: relabeler(f.dir, typed, ''), folderNotNamed: false });
    found.push('diagnostics' in p ? p : { ...p, source, origin: { path: f.name } });
  }
  return { found, several: fetched.length > 1 };
}
