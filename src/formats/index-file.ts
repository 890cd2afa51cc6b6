import { z } from 'zod';
import { once } from '../model/schemas.js';
import { SKILL_ID_RULE, isSkillId } from '../model/spec.js';
import { parseDocument, type Problem } from './json-document.js';

// A registry keeps two kinds of files (format version 2):
// - index.json: one small entry per skill, seed 000's fields plus a summary of the latest version, enough for
//   `skills list`;
// - releases/<id>.json: everything the registry knows of each registered version of one skill, read only when
//   that skill is needed (resolve reads the skills it reaches, not the whole registry).
// Version 1 kept every release inside index.json; it is still read (converted in memory) and rewritten as
// version 2 on the next write.

/**
 * A stored copy's folder, relative to the registry: `built-in/<id>@<version>` or `custom/<id>@<version>`, one
 * level below, never `..`. A registry may come from someone else (`install --from`): a path that led anywhere else
 * would have install copy, or render-prompt read, a folder outside it.
 */
export const STORE_PATH = /^(?:built-in|custom)\/(?!\.\.?@)[^/\\]+@[^/\\]+$/;
const isStorePath = (v: unknown): boolean => typeof v === 'string' && STORE_PATH.test(v);

/**
 * Each id once: two entries of one id would share a releases file and stored copies, so removing one would delete
 * what the other still lists.
 */
function uniqueIds(skills: { id: string }[], ctx: z.RefinementCtx): void {
  const seen = new Map<string, number>();
  skills.forEach((e, i) => {
    const first = seen.get(e.id);
    if (first === undefined) seen.set(e.id, i);
    else
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: [i, 'id'],
        message: `the id "${e.id}" is listed twice (skills[${first}] and skills[${i}]): expected one entry per skill, with every version in its "versions"`,
      });
  });
}

const hasUniqueIds = (skills: { id: string }[]): boolean => new Set(skills.map((e) => e.id)).size === skills.length;

/**
 * The schemas of a registry's files, built on first use: a run that reads no index.json or releases file through
 * zod (resolve with its resolve index, and every file the quick checks below accept) neither loads zod nor builds them.
 */
function makeSchemas() {
  const storePath = z
    .string()
    .regex(STORE_PATH, "expected the stored copy's folder: built-in/<id>@<version> or custom/<id>@<version>");

  /** What the registry keeps of one registered version, so list, resolve and render-prompt need not read the skill. */
  const releaseSchema = z.object({
    /** sha512 SRI of the skill's content (sorted paths, execute bits and bytes), as `skills` computes it. */
    integrity: z.string(),
    layout: z.enum(['skill-md', 'manifest']),
    name: z.string(),
    description: z.string(),
    /** Dependency specs as written: `id` or `id@range`. */
    dependencies: z.array(z.string()),
    triggers: z
      .object({ keywords: z.array(z.string()), verbs: z.array(z.string()), patterns: z.array(z.string()) })
      .partial()
      .optional(),
    /** Seed 004's brief_description, for render-prompt's catalog. */
    briefDescription: z.string().optional(),
    /**
     * True when the skill stays out of render-prompt's catalog (`disable-model-invocation: true` or `default_enabled:
     * false`).
     */
    hidden: z.boolean().optional(),
    nodeVersion: z.string().optional(),
    systemPackages: z.array(z.string()).optional(),
    /** Folder of the stored copy, relative to the registry: `built-in/<id>@<version>` or `custom/<id>@<version>`. */
    path: storePath,
    registeredAt: z.string(),
  });

  /**
   * What index.json keeps of the latest version: what `skills list` shows, where the stored copy is, and what
   * render-prompt needs to build its catalog and select skills without reading the releases files.
   */
  const latestSchema = z.object({
    layout: z.enum(['skill-md', 'manifest']),
    name: z.string(),
    description: z.string(),
    /** The stored copy of the latest version, relative to the registry ('' when a version 1 index named none). */
    path: z.union([storePath, z.literal('')]),
    briefDescription: z.string().optional(),
    triggers: releaseSchema.shape.triggers,
    hidden: z.boolean().optional(),
  });

  /** One skill in index.json: seed 000's registry fields, plus the latest version's summary. */
  const indexEntrySchema = z.object({
    /** The one rule for ids (isSkillId): an id names a store folder and a releases file. */
    id: z.string().refine(isSkillId, `expected a skill id: ${SKILL_ID_RULE}`),
    /** Newest first. */
    versions: z.array(z.string()),
    latestVersion: z.string(),
    owner: z.string(),
    usedBy: z.array(z.string()),
    registeredAt: z.string(),
    updatedAt: z.string(),
    latest: latestSchema,
  });

  const indexSchema = z.object({
    /** Format version of this file. */
    version: z.literal(2),
    skills: z.array(indexEntrySchema).superRefine(uniqueIds),
  });

  /** releases/<id>.json: every registered version of one skill. */
  const releasesFileSchema = z.object({
    id: z.string(),
    /** version → release. */
    releases: z.record(releaseSchema),
  });

  /** Version 1 of index.json: the releases inside each entry. Read only, to convert. */
  const indexEntryV1Schema = indexEntrySchema.omit({ latest: true }).extend({ releases: z.record(releaseSchema) });

  const indexV1Schema = z.object({
    version: z.literal(1),
    skills: z.array(indexEntryV1Schema).superRefine(uniqueIds),
  });
  return {
    releaseSchema,
    latestSchema,
    indexEntrySchema,
    indexSchema,
    releasesFileSchema,
    indexEntryV1Schema,
    indexV1Schema,
  };
}

export const schemas = once(makeSchemas);
type Schemas = ReturnType<typeof makeSchemas>;

export type Release = z.infer<Schemas['releaseSchema']>;
export type LatestSummary = z.infer<Schemas['latestSchema']>;
export type IndexEntry = z.infer<Schemas['indexEntrySchema']>;
export type RegistryIndex = z.infer<Schemas['indexSchema']>;
export type ReleasesFile = z.infer<Schemas['releasesFileSchema']>;
export type IndexEntryV1 = z.infer<Schemas['indexEntryV1Schema']>;
export type RegistryIndexV1 = z.infer<Schemas['indexV1Schema']>;

export const INDEX_FORMAT_VERSION = 2;
export const EMPTY_INDEX: RegistryIndex = { version: 2, skills: [] };

/** The summary index.json keeps of a release. */
export function summaryOf(r: Release): LatestSummary {
  const s: LatestSummary = { layout: r.layout, name: r.name, description: r.description, path: r.path };
  if (r.briefDescription !== undefined) s.briefDescription = r.briefDescription;
  if (r.triggers) s.triggers = r.triggers;
  if (r.hidden) s.hidden = true;
  return s;
}

/** A version 1 index as version 2: the entries, and each skill's releases (what releases/<id>.json would hold). */
export function upgradeIndex(v1: RegistryIndexV1): {
  index: RegistryIndex;
  releases: Map<string, Record<string, Release>>;
} {
  const releases = new Map<string, Record<string, Release>>();
  const skills: IndexEntry[] = [];
  for (const { releases: rel, ...rest } of v1.skills) {
    releases.set(rest.id, rel);
    const latest = Object.hasOwn(rel, rest.latestVersion) ? rel[rest.latestVersion]! : Object.values(rel)[0];
    skills.push({
      ...rest,
      latest: latest ? summaryOf(latest) : { layout: 'skill-md', name: rest.id, description: '', path: '' },
    });
  }
  return { index: { version: 2, skills }, releases };
}

// Quick structural checks, the schemas above written out by hand: a registry of 10,000 skills is checked in a
// few milliseconds where zod, which copies every object it checks, takes a tenth of a second and feeds the
// garbage collector. A document they accept is one the schema accepts (test/unit/formats/index-file.test.ts
// checks they agree); anything they reject goes through zod, which says what is wrong and where.
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === 'string';
const isStrs = (v: unknown): v is string[] => Array.isArray(v) && v.every(isStr);
const isLayout = (v: unknown) => v === 'skill-md' || v === 'manifest';
const optional = (v: unknown, check: (v: unknown) => boolean) => v === undefined || check(v);

const isTriggers = (t: unknown) =>
  isObj(t) && optional(t.keywords, isStrs) && optional(t.verbs, isStrs) && optional(t.patterns, isStrs);
const isBool = (v: unknown) => typeof v === 'boolean';

function isRelease(v: unknown): v is Release {
  if (!isObj(v)) return false;
  return (
    isStr(v.integrity) &&
    isLayout(v.layout) &&
    isStr(v.name) &&
    isStr(v.description) &&
    isStrs(v.dependencies) &&
    isStorePath(v.path) &&
    isStr(v.registeredAt) &&
    optional(v.nodeVersion, isStr) &&
    optional(v.systemPackages, isStrs) &&
    optional(v.triggers, isTriggers) &&
    optional(v.briefDescription, isStr) &&
    optional(v.hidden, isBool)
  );
}

function isLatest(l: unknown): boolean {
  return (
    isObj(l) &&
    isLayout(l.layout) &&
    isStr(l.name) &&
    isStr(l.description) &&
    (l.path === '' || isStorePath(l.path)) &&
    optional(l.briefDescription, isStr) &&
    optional(l.triggers, isTriggers) &&
    optional(l.hidden, isBool)
  );
}

function isEntryBase(v: Record<string, unknown>): boolean {
  return (
    isStr(v.id) &&
    isSkillId(v.id) &&
    isStrs(v.versions) &&
    isStr(v.latestVersion) &&
    isStr(v.owner) &&
    isStrs(v.usedBy) &&
    isStr(v.registeredAt) &&
    isStr(v.updatedAt)
  );
}

const isReleaseRecord = (v: unknown): v is Record<string, Release> => isObj(v) && Object.values(v).every(isRelease);

/** The quick check of a version 2 index. */
export function isIndexV2(v: unknown): v is RegistryIndex {
  if (!isObj(v) || v.version !== 2 || !Array.isArray(v.skills)) return false;
  return v.skills.every((e) => isObj(e) && isEntryBase(e) && isLatest(e.latest)) && hasUniqueIds(v.skills);
}

/** The quick check of a version 1 index. */
export function isIndexV1(v: unknown): v is RegistryIndexV1 {
  if (!isObj(v) || v.version !== 1 || !Array.isArray(v.skills)) return false;
  return v.skills.every((e) => isObj(e) && isEntryBase(e) && isReleaseRecord(e.releases)) && hasUniqueIds(v.skills);
}

/** The quick check of a releases file. */
export function isReleasesFile(v: unknown): v is ReleasesFile {
  return isObj(v) && isStr(v.id) && isReleaseRecord(v.releases);
}

/**
 * Parse index.json text (version 2, or version 1 converted: `releases` then holds what version 1 kept inside
 * the entries); a problem comes back located (line, column) rather than thrown.
 */
export function parseIndex(text: string): {
  index?: RegistryIndex;
  releases?: Map<string, Record<string, Release>>;
  problem?: Problem;
} {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    data = undefined;
  }
  const v1 = typeof data === 'object' && data !== null && (data as { version?: unknown }).version === 1;
  if (v1 || (data === undefined && /^\s*\{\s*"version"\s*:\s*1\s*[,}]/.test(text))) {
    const { value, problem } = parseDocument(text, schemas().indexV1Schema, 'index.json', data, isIndexV1);
    if (!value) return { problem };
    return upgradeIndex(value);
  }
  const { value, problem } = parseDocument(text, schemas().indexSchema, 'index.json', data, isIndexV2);
  return value ? { index: value } : { problem };
}

/** Parse releases/<id>.json text; a problem comes back located. */
export function parseReleases(text: string, label: string): { file?: ReleasesFile; problem?: Problem } {
  const { value, problem } = parseDocument(text, schemas().releasesFileSchema, label, undefined, isReleasesFile);
  return value ? { file: value } : { problem };
}

/** The order of index.json's skills (serializeIndex): by id, as code units compare. */
export const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Serialize the index (version 2): stable key order, skills sorted by id, two-space indent, final newline. */
export function serializeIndex(index: RegistryIndex): string {
  const skills = [...index.skills].sort(byId).map((e) => ({
    id: e.id,
    versions: e.versions,
    latestVersion: e.latestVersion,
    owner: e.owner,
    usedBy: e.usedBy,
    registeredAt: e.registeredAt,
    updatedAt: e.updatedAt,
    latest: {
      layout: e.latest.layout,
      name: e.latest.name,
      description: e.latest.description,
      path: e.latest.path,
      ...(e.latest.briefDescription !== undefined ? { briefDescription: e.latest.briefDescription } : {}),
      ...(e.latest.triggers ? { triggers: e.latest.triggers } : {}),
      ...(e.latest.hidden ? { hidden: true } : {}),
    },
  }));
  return `${JSON.stringify({ version: INDEX_FORMAT_VERSION, skills }, null, 2)}\n`;
}

/** Serialize releases/<id>.json: versions newest first as `order` gives them (others after), two-space indent. */
export function serializeReleases(
  id: string,
  releases: Record<string, Release>,
  order: readonly string[] = [],
): string {
  const keys = [...new Set([...order.filter((v) => Object.hasOwn(releases, v)), ...Object.keys(releases).sort()])];
  return `${JSON.stringify({ id, releases: Object.fromEntries(keys.map((v) => [v, releases[v]])) }, null, 2)}\n`;
}
