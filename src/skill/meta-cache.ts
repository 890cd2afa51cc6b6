import type { Triggers } from '../model/skill.js';
import {
  buildOf,
  cacheFileFor,
  currentUid,
  isNum,
  isStr,
  optStr,
  sameIdentity,
  settled,
  userCacheDir,
  type FileIdentity,
} from '../fs/user-cache.js';
import { openKeptRows } from '../fs/kept-rows.js';

// The catalog's light reading of a skill file (skill/light.ts: the frontmatter's or the manifest's name, title,
// description, brief, version, triggers and whether it is hidden, and the warnings the reading gave), kept between
// runs in the user's cache folder by the file's path and identity (device, inode, size, mtime, ctime:
// fs/user-cache.ts), as ESLint's --cache keeps its results. A later run stats the file instead of opening, reading
// and parsing it: the same identity, the same reading. The identity is taken before the file is read, and a file
// changed less than TOO_RECENT_MS before the run began is not kept, so a change is always seen.

/** What the light reading found in a skill file (no body: a query's selection reads the file itself). */
export interface FileMeta {
  name?: string;
  title?: string;
  description: string;
  briefDescription?: string;
  version?: string;
  triggers?: Triggers;
  hidden: boolean;
}

/** A skill file's reading: its meta (none when an agent could not use the file) and the warnings it gave. */
export interface MetaRead {
  meta?: FileMeta;
  said: string[];
}

export interface MetaCache {
  /** The reading kept for `file` when it was made from this identity. */
  get(file: string, id: FileIdentity): MetaRead | undefined;
  /** Keep a reading of `file` made after its identity was taken. */
  set(file: string, id: FileIdentity, read: MetaRead): void;
  /** Write the file when something changed; never throws. */
  save(): void;
}

/** The files are `catalog-<hash of the folders read>.json`. */
export const META_CACHE_KIND = 'catalog';
/** A larger file is not read. */
export const MAX_FILE_BYTES = 64 << 20;
/** Most skill files kept (this run's first). */
export const MAX_ENTRIES = 100_000;

/** file, the identity (5 numbers), the warnings, then the meta or null. */
type Row = [string, number, number, number, number, number, string[], MetaRow | null];
/** name, title, description, brief, version, triggers ([keywords, verbs, patterns]), hidden (1/0). */
type MetaRow = [
  string | null,
  string | null,
  string,
  string | null,
  string | null,
  [string[], string[], string[]] | null,
  0 | 1,
];

interface Kept {
  id: FileIdentity;
  read: MetaRead;
}

export interface MetaCacheOptions {
  /** Who must own the folder and the file; the current user by default. */
  uid?: number;
  /** When the run began (ms); now by default. */
  start?: number;
}

/**
 * The user's catalog cache for these skill folders and this build of skills (`~/.cache/skills/catalog-<hash>.json`),
 * or undefined when SKILLS_CATALOG_CACHE=0 turns it off.
 */
export function userMetaCache(
  env: Record<string, string | undefined>,
  home: string,
  version: string,
  folders: readonly string[],
): MetaCache | undefined {
  return env.SKILLS_CATALOG_CACHE === '0'
    ? undefined
    : openMetaCache(cacheFileFor(userCacheDir(env, home), META_CACHE_KIND, folders), buildOf(version));
}

/** The readings kept in `file` for `build`: read now, written by save(). */
export function openMetaCache(file: string, build: string, options: MetaCacheOptions = {}): MetaCache {
  const start = options.start ?? Date.now();
  const rows = openKeptRows<Kept>(file, {
    build,
    field: 'files',
    kind: META_CACHE_KIND,
    maxBytes: MAX_FILE_BYTES,
    maxEntries: MAX_ENTRIES,
    uid: options.uid ?? currentUid(),
    codec: { decode: (row) => keptOf(row), encode: rowOf },
  });
  return {
    get(path, id) {
      const k = rows.get(path);
      if (!k || !sameIdentity(id, k.id)) return undefined;
      rows.use(path, k);
      return k.read;
    },
    set(path, id, read) {
      if (settled(id, start)) rows.put(path, { id, read });
    },
    save: () => rows.save(),
  };
}

function rowOf(path: string, { id, read }: Kept): Row {
  const m = read.meta;
  const t = m?.triggers;
  return [
    path,
    ...id,
    read.said,
    m
      ? [
          m.name ?? null,
          m.title ?? null,
          m.description,
          m.briefDescription ?? null,
          m.version ?? null,
          t ? [t.keywords, t.verbs, t.patterns] : null,
          m.hidden ? 1 : 0,
        ]
      : null,
  ];
}

const strList = (v: unknown): v is string[] => Array.isArray(v) && v.every(isStr);

function keptOf(row: unknown[]): Kept | undefined {
  if (row.length !== 8) return undefined;
  const [, a, b, c, d, e, said, m] = row;
  if (!isNum(a) || !isNum(b) || !isNum(c) || !isNum(d) || !isNum(e) || !strList(said)) return undefined;
  const id: FileIdentity = [a, b, c, d, e];
  if (m === null) return { id, read: { said } };
  if (!Array.isArray(m) || m.length !== 7) return undefined;
  const [name, title, description, brief, version, triggers, hidden] = m as unknown[];
  if (!optStr(name) || !optStr(title) || !isStr(description) || !optStr(brief) || !optStr(version)) return undefined;
  if (triggers !== null && !(Array.isArray(triggers) && triggers.length === 3 && triggers.every(strList)))
    return undefined;
  if (hidden !== 0 && hidden !== 1) return undefined;
  const t = triggers as [string[], string[], string[]] | null;
  const meta: FileMeta = {
    name: name ?? undefined,
    title: title ?? undefined,
    description,
    briefDescription: brief ?? undefined,
    version: version ?? undefined,
    triggers: t ? { keywords: t[0], verbs: t[1], patterns: t[2] } : undefined,
    hidden: hidden === 1,
  };
  return { id, read: { meta, said } };
}
