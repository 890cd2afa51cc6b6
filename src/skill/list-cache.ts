import { join } from 'node:path';
import type { Layout, Skill } from '../model/skill.js';
import {
  buildOf,
  cacheFileFor,
  currentUid,
  hasIdentity,
  identityOf,
  isNum,
  isStr,
  optStr,
  settled,
  userCacheDir,
} from '../fs/user-cache.js';
import { openKeptRows } from '../fs/kept-rows.js';
import { childPath } from './discover.js';

export { TOO_RECENT_MS } from '../fs/user-cache.js';

// What `skills list` shows of a folder skill (its id, version, layout, owner, description, and whether validate
// finds errors: the ✖), kept between runs in the user's cache folder with the identity of everything it was made
// from, as ESLint's --cache keeps its results: the skill folder and every folder below it (their listings), the
// skill file, and for a manifest every file of the skill (context files, scripts and their modes, .env.example).
// An identity is the device, inode, size, mtime and ctime of the path (fs/user-cache.ts). A later run stats those
// paths instead of reading and validating the skill: the same identities, the same row. Anything changed, added or
// removed there is a miss, and the skill is loaded and validated afresh. What is not made of plain files and
// folders (symlinks, other kinds), or is deep or large, is never kept; nor a skill whose files changed less than
// TOO_RECENT_MS before the run began (a file system clock is coarse: a change in the same tick as the run's read
// must not hide behind an unchanged identity).

/** A folder skill as list shows it. */
export interface SkillSummary {
  id: string;
  version?: string;
  layout: Layout;
  owner?: string;
  description: string;
  /** The skill folder, as the search found it. */
  root: string;
  /** False when validate finds errors. */
  valid: boolean;
}

export interface ListCache {
  /**
   * Discovery's probe (skill/discover.ts): true when `dir` is a skill kept in the cache and nothing it was made from
   * changed; its summary is then handed out by `take`.
   */
  probe(dir: string): boolean;
  take(root: string): SkillSummary | undefined;
  /** Keep what this run found of a skill it loaded and validated. */
  record(skill: Skill, valid: boolean): void;
  /** Write the file when something changed; never throws. */
  save(): void;
}

/** The files are `list-<hash of the folders read>.json`. */
export const LIST_CACHE_KIND = 'list';
/** A larger file is not read. */
export const MAX_FILE_BYTES = 64 << 20;
/** Most skills kept (this run's first). */
export const MAX_ENTRIES = 100_000;
/** Most paths one skill is kept with; a larger skill is loaded each time. */
const MAX_PATHS = 64;
/** Deepest folder (in path segments below the skill folder) of a skill that is kept. */
const MAX_DEPTH = 4;
/** Most files and folders of a skill that is kept (far below what the walk reads: none is ever cut off). */
const MAX_SKILL_ENTRIES = 1000;
const LAYOUTS: Layout[] = ['skill-md', 'manifest'];

/**
 * root, id, version, layout, owner, description, valid (1/0), then each path (relative, '' for the folder) and its
 * identity.
 */
type Row = [string, string, string | null, Layout, string | null, string, 0 | 1, ...(string | number)[]];

/** A skill's summary and its row, whose paths and identities are checked where they are (no copy of each). */
interface Kept {
  summary: SkillSummary;
  row: Row;
}

/** Where a row's first path is; each path is followed by its identity (5 numbers). */
const PATHS_AT = 7;
const PATH_STRIDE = 6;

export interface ListCacheOptions {
  /** Who must own the folder and the file; the current user by default. */
  uid?: number;
  /** When the run began (ms); now by default. */
  start?: number;
}

/**
 * The user's list cache for these skill folders and this build of skills (`~/.cache/skills/list-<hash>.json`), or
 * undefined when SKILLS_LIST_CACHE=0 turns it off.
 */
export function userListCache(
  env: Record<string, string | undefined>,
  home: string,
  version: string,
  folders: readonly string[],
): ListCache | undefined {
  return env.SKILLS_LIST_CACHE === '0'
    ? undefined
    : openListCache(cacheFileFor(userCacheDir(env, home), LIST_CACHE_KIND, folders), buildOf(version));
}

/** The summaries kept in `file` for `build`: read now, written by save(). */
export function openListCache(file: string, build: string, options: ListCacheOptions = {}): ListCache {
  const start = options.start ?? Date.now();
  const rows = openKeptRows<Kept>(file, {
    build,
    field: 'skills',
    kind: LIST_CACHE_KIND,
    maxBytes: MAX_FILE_BYTES,
    maxEntries: MAX_ENTRIES,
    uid: options.uid ?? currentUid(),
    codec: { decode: (row, root) => checked(keptOf(row), root), encode: (_root, k) => k.row },
  });
  const hits = new Map<string, SkillSummary>();
  return {
    probe(dir) {
      const k = rows.get(dir);
      if (!k) return false;
      const row = k.row;
      for (let i = PATHS_AT; i < row.length; i += PATH_STRIDE) {
        // A path read from the file is relative, with no `..` (keptOf), as join would leave it.
        const p = row[i] as string;
        if (!hasIdentity(p === '' ? dir : childPath(dir, p), row, i + 1)) {
          rows.drop(dir);
          return false;
        }
      }
      rows.use(dir, k);
      hits.set(dir, k.summary);
      return true;
    },
    take: (root) => hits.get(root),
    record(skill, valid) {
      const k = keepable(skill, valid, start);
      // A skill loaded afresh that cannot be kept must not leave an older entry behind.
      if (k) rows.put(skill.root, k);
      else rows.drop(skill.root);
    },
    save: () => rows.save(),
  };
}

/** A row read for `root` holds the skill of `root`, or nothing. */
const checked = (k: Kept | undefined, root: string) => (k && k.summary.root === root ? k : undefined);

/** What a skill's row was made from, with the identities of now; undefined when it is not to be kept. */
function keepable(skill: Skill, valid: boolean, start: number): Kept | undefined {
  if (skill.entries.length > MAX_SKILL_ENTRIES) return undefined;
  const paths = [''];
  for (const e of skill.entries) {
    // A link's target, or something that is neither file nor folder, may change with no identity here changing.
    if (e.kind === 'symlink' || e.kind === 'other') return undefined;
    if (e.kind === 'dir') {
      if (e.path.split('/').length >= MAX_DEPTH) return undefined;
      paths.push(e.path);
    } else if (skill.layout === 'manifest' || e.path === '.env.example') paths.push(e.path);
  }
  const file = skill.file.slice(skill.root.length + 1);
  if (skill.layout === 'skill-md') paths.push(file);
  if (paths.length > MAX_PATHS) return undefined;
  const summary: SkillSummary = {
    id: skill.id,
    version: skill.version,
    layout: skill.layout,
    owner: skill.owner,
    description: skill.description,
    root: skill.root,
    valid,
  };
  const s = summary;
  const row: Row = [s.root, s.id, s.version ?? null, s.layout, s.owner ?? null, s.description, s.valid ? 1 : 0];
  for (const p of paths) {
    const id = identityOf(p === '' ? skill.root : join(skill.root, p));
    // Changed since the run began, or so shortly before that a change may share its time stamp: not kept.
    if (!id || !settled(id, start)) return undefined;
    row.push(p, ...id);
  }
  return { summary, row };
}

/** A `..` segment. */
const OUTSIDE = /(?:^|\/)\.\.(?:\/|$)/;

function keptOf(row: unknown): Kept | undefined {
  if (!Array.isArray(row) || row.length < PATHS_AT + PATH_STRIDE || (row.length - PATHS_AT) % PATH_STRIDE !== 0)
    return undefined;
  const [root, id, version, layout, owner, description, valid] = row as unknown[];
  if (!isStr(root) || !isStr(id) || !optStr(version) || !LAYOUTS.includes(layout as Layout)) return undefined;
  if (!optStr(owner) || !isStr(description) || (valid !== 0 && valid !== 1)) return undefined;
  for (let i = PATHS_AT; i < row.length; i += PATH_STRIDE) {
    const p = row[i];
    if (!isStr(p) || !isNum(row[i + 1]) || !isNum(row[i + 2]) || !isNum(row[i + 3])) return undefined;
    if (!isNum(row[i + 4]) || !isNum(row[i + 5])) return undefined;
    // Only paths inside the skill folder: a file written by another hand must not make us stat elsewhere.
    if (p.startsWith('/') || p.includes('\\') || OUTSIDE.test(p)) return undefined;
  }
  const summary: SkillSummary = {
    id,
    version: version ?? undefined,
    layout: layout as Layout,
    owner: owner ?? undefined,
    description,
    root,
    valid: valid === 1,
  };
  return { summary, row: row as Row };
}
