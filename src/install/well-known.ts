// Skills from a site that publishes them as the Agent Skills Discovery RFC (v0.2.0) says: its
// `/.well-known/agent-skills/index.json` lists each skill with a type (`skill-md`: one SKILL.md; `archive`: a .tar.gz
// or .zip with the skill's files at its root), a URL and the sha256 digest of the artifact's bytes. Every artifact is
// downloaded and checked against its digest before anything is read from it: one mismatch and nothing is installed.
// A private site's bearer token comes from SKILLS_HTTP_TOKEN, sent to the index's origin only.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { SkillsError } from '../errors.js';
import type { RemoteSource } from '../formats/install-source.js';
import { formatLockSource } from '../formats/lockfile.js';
import { downloadArchive, MAX_ARCHIVE_BYTES } from '../fetch/download.js';
import { needCache } from '../fetch/cache.js';
import { isSkillId } from '../model/spec.js';
import type { ListedSkill } from './inspect.js';
import type { Gathered } from './remote.js';
import { prepareArchived, prepareLocal, relabeler, unpackArchive, type Scratch } from './sources.js';
import type { InstallOptions } from './types.js';

export const DISCOVERY_SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';
const MAX_INDEX = 16 * 1024 * 1024;
const DIGEST = /^sha256:[0-9a-f]{64}$/;

interface IndexEntry {
  name: string;
  type: 'skill-md' | 'archive';
  url: string;
  digest: string;
  /** The entry's description, as the index gives it (the skill's own is in its SKILL.md). */
  description?: string;
}

/** Download into `dir`; the site's token goes only to the index's own origin, never to a host the index names. */
const download = (url: string, dir: string, options: InstallOptions, maxBytes: number, siteOrigin: string) => {
  mkdirSync(dir, { recursive: true });
  const token = new URL(url).origin === siteOrigin ? options.env.SKILLS_HTTP_TOKEN : undefined;
  return downloadArchive(url, dir, {
    env: options.env,
    maxBytes,
    ...(token ? { token } : {}),
    ...(options.progress ? { progress: options.progress } : {}),
  });
};

/** The index's entries, checked: a v0.2.0 index, each entry a skill name, a known type, a URL and a digest. */
function readEntries(
  file: string,
  index: string,
): { entries: IndexEntry[]; skipped: { name: string; type: unknown }[] } {
  let doc: { $schema?: unknown; skills?: unknown };
  try {
    doc = JSON.parse(readFileSync(file, 'utf8')) as typeof doc;
  } catch (err) {
    throw new SkillsError('E_INVALID', `${index} is not JSON (${(err as Error).message}); nothing was installed`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    throw new SkillsError(
      'E_INVALID',
      `${index} is not a discovery index: expected a JSON object, found ${jsonKind(doc)}; nothing was installed`,
    );
  if (doc.$schema !== DISCOVERY_SCHEMA)
    throw new SkillsError(
      'E_INVALID',
      `${index} is not a v0.2.0 discovery index ("$schema": ${JSON.stringify(doc.$schema ?? null)}); nothing was installed`,
      {
        hint: `skills reads indexes with "$schema": "${DISCOVERY_SCHEMA}" (older ones have no digests to check)`,
      },
    );
  if (!Array.isArray(doc.skills)) throw new SkillsError('E_INVALID', `${index} has no "skills" list`);
  const entries: IndexEntry[] = [];
  const skipped: { name: string; type: unknown }[] = [];
  for (const [i, raw] of (doc.skills as unknown[]).entries()) {
    const where = `${index}: skills[${i}]`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
      throw new SkillsError(
        'E_INVALID',
        `${where}: expected an object with "name", "type", "url" and "digest", found ${jsonKind(raw)}; nothing was installed`,
      );
    const e = raw as Record<string, unknown>;
    if (typeof e.name !== 'string' || !isSkillId(e.name))
      throw new SkillsError('E_INVALID', `${where}: "name" must be a skill name, not ${JSON.stringify(e.name)}`);
    if (typeof e.digest !== 'string' || !DIGEST.test(e.digest))
      throw new SkillsError('E_INVALID', `${where} (${e.name}): "digest" must be sha256:<64 hex>`);
    if (typeof e.url !== 'string') throw new SkillsError('E_INVALID', `${where} (${e.name}): "url" is missing`);
    if (e.type !== 'skill-md' && e.type !== 'archive') {
      skipped.push({ name: e.name, type: e.type });
      continue;
    }
    let url: URL;
    try {
      url = new URL(e.url, index);
    } catch {
      throw new SkillsError(
        'E_INVALID',
        `${where} (${e.name}): "url" is not a URL: ${JSON.stringify(e.url)}; nothing was installed`,
      );
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new SkillsError(
        'E_INVALID',
        `${where} (${e.name}): "url" must be an http(s) URL, not ${JSON.stringify(e.url)}; nothing was installed`,
      );
    entries.push({
      name: e.name,
      type: e.type,
      url: url.href,
      digest: e.digest,
      ...(typeof e.description === 'string' ? { description: e.description } : {}),
    });
  }
  return { entries, skipped };
}

/** What a JSON value is, for a message: "null", "an array", "a number". */
function jsonKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** Download one entry's artifact and check its digest; the file's path. */
async function fetchChecked(e: IndexEntry, dir: string, options: InstallOptions, site: string): Promise<string> {
  const file = await download(e.url, dir, options, MAX_ARCHIVE_BYTES, site);
  const digest = `sha256:${createHash('sha256').update(readFileSync(file)).digest('hex')}`;
  if (digest !== e.digest)
    throw new SkillsError(
      'E_INVALID',
      `${e.url}: its sha256 is ${digest}, but the index says ${e.digest}; nothing was installed`,
      { hint: 'the site serves other bytes than its index records: tell its owner; do not install from it' },
    );
  return file;
}

type WellKnown = Extract<RemoteSource, { kind: 'well-known' }>;

/** The site's index, downloaded into the scratch and read. */
async function readIndex(remote: WellKnown, options: InstallOptions, scratch: Scratch) {
  options.progress?.(`reading ${remote.index}`);
  const site = new URL(remote.index).origin;
  const indexFile = await download(remote.index, scratch.folder('index'), options, MAX_INDEX, site);
  return { site, ...readEntries(indexFile, remote.index) };
}

/**
 * `install --list` of a site: the skills its index lists, with the index's descriptions, and nothing else
 * downloaded (a site of 100,000 skills is one request, not 100,000). Whether each skill is valid is known only
 * from its files, which install downloads and checks.
 */
export async function listWellKnown(
  remote: WellKnown,
  options: InstallOptions,
  scratch: Scratch,
): Promise<{ skills: ListedSkill[]; note: string }> {
  const { entries, skipped } = await readIndex(remote, options, scratch);
  const skills: ListedSkill[] = entries.map((e) => ({
    id: e.name,
    description: e.description ?? '',
    shown: `${remote.typed}: ${e.name}`,
  }));
  for (const s of skipped)
    skills.push({
      id: s.name,
      description: '',
      shown: `${remote.typed}: ${s.name}`,
      problem: `its type is ${JSON.stringify(s.type)}, and skills installs "skill-md" and "archive" entries`,
    });
  return {
    skills,
    note: "from the site's index alone: each skill's files are downloaded and checked against their digest when it is installed",
  };
}

/** The skills a site's index lists (or the one named `only`), each downloaded, checked and prepared. */
export async function gatherWellKnown(
  remote: WellKnown,
  options: InstallOptions,
  scratch: Scratch,
  only?: string,
): Promise<Gathered> {
  needCache(options.cacheDir);
  const { site, entries } = await readIndex(remote, options, scratch);
  const chosen = only === undefined ? entries : entries.filter((e) => e.name === only);
  if (chosen.length === 0)
    throw new SkillsError(
      'E_NOT_FOUND',
      only === undefined
        ? `${remote.index} lists no skill skills can install; nothing was installed`
        : `${remote.index} no longer lists ${only}; nothing was installed`,
    );
  const several = chosen.length > 1;
  const found: Gathered['found'] = [];
  const source = formatLockSource({ kind: 'well-known', url: remote.index });
  for (const e of chosen) {
    const typed = `${remote.typed}: ${e.name}`;
    const file = await fetchChecked(e, scratch.folder(`site-${e.name}`), options, site);
    let p;
    if (e.type === 'skill-md') {
      // A SKILL.md alone: the skill's folder is named after the skill, as the index names it.
      const root = join(scratch.folder(`skill-${e.name}`), e.name);
      mkdirSync(root, { recursive: true });
      renameSync(file, join(root, 'SKILL.md'));
      p = await prepareLocal(root, typed, source, { relabel: relabeler(root, typed, ''), folderNotNamed: false });
    } else {
      const inArchive = await unpackArchive(file, typed, scratch, options);
      if (inArchive.length !== 1)
        throw new SkillsError(
          'E_INVALID',
          `${e.url} holds ${inArchive.length} skills, and an entry is one; nothing was installed`,
        );
      p = await prepareArchived(inArchive[0]!, typed, '', false);
    }
    found.push('diagnostics' in p ? p : { ...p, source, origin: { path: e.name } });
  }
  return { found, several };
}
