// Changing the registry: under its lock, index.json and the releases files replaced atomically, in an order a
// crash cannot make inconsistent.
import { readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { SkillsError } from '../errors.js';
import {
  EMPTY_INDEX,
  serializeIndex,
  serializeReleases,
  summaryOf,
  type RegistryIndex,
  type Release,
} from '../formats/index-file.js';
import { writeAtomic, writeAtomicMany } from '../fs/atomic.js';
import { afterCleanup } from '../fs/errno.js';
import { acquireLock } from './file-lock.js';
import { runFollowers } from './followers.js';
import {
  indexIdentity,
  legacyReleases,
  parseIndexText,
  readIndexText,
  readReleasesFile,
  releasesCache,
} from './index-io.js';
import { BACKUP_FILE, INDEX_FILE, LOCK_FILE, RELEASES_DIR, ensureDir, releasesFile } from './layout.js';
import { updateResolveIndex } from './resolve-index.js';
import { moveAside, removeTree, type RecordedIntegrity } from './store.js';

/** How long a change waits for another process's change of the registry before giving up. */
const LOCK_WAIT_MS = 60_000;

/** How many releases files an update finds missing before it lists their folder instead of looking for each. */
const MISSES_BEFORE_LISTING = 16;

/** The names in the releases folder (none when there is no folder). */
function releasesListed(dir: string): Set<string> {
  try {
    return new Set(readdirSync(join(dir, RELEASES_DIR)));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new Set();
    throw new SkillsError('E_IO', `cannot read ${join(dir, RELEASES_DIR)}: ${(err as Error).message}`, { cause: err });
  }
}

/** What an update may change besides the index: the releases of the skills it touches. */
export interface IndexUpdate {
  /**
   * The releases of `id` (version → release), read afresh under the lock; change the object in place. Only the
   * versions the index lists for `id` once the update is done are kept; the entry's `latest` is set from them.
   */
  releases(id: string): Record<string, Release>;
  /**
   * Take a stored folder out of the store for this change: moved aside now, deleted once index.json is written, and
   * put back should the change stop before (a failed index write loses no stored copy).
   */
  takeOut(abs: string): void;
  /** A stored folder this change put in place: removed again should the change stop before index.json is written. */
  putIn(abs: string): void;
  /** What the registry records for a stored copy's path, as read under the lock (cleanLeftovers puts trash back). */
  recorded: RecordedIntegrity;
}

export interface UpdateIndexOptions {
  /**
   * Told what failed once index.json was written (the releases files pruned after it): the change is made, and the
   * releases files are rewritten from the index by the next change of those skills.
   */
  warn?: (message: string) => void;
}

/**
 * Change the registry under its lock: the index is re-read inside the lock, a corrupt one is never touched,
 * the previous index is kept as index.json.bak, and every file is replaced by a rename (atomic). Creates the
 * registry folder on first use. `fn` may change files of the store too; it runs inside the lock.
 *
 * Order of writes: releases/<id>.json first, holding the new releases and still the removed ones; then
 * index.json; then the releases files are pruned to the versions the index lists (deleted for a skill that
 * went). A crash in between leaves a releases file with versions the index does not list: readers ignore
 * them, and the next write of that skill prunes them. A version 1 index is rewritten as version 2, every
 * skill's releases file first. Last, the rows of the resolve index (resolve-index.ts) of the skills it touched.
 */
export async function updateIndex(
  dir: string,
  fn: (index: RegistryIndex, update: IndexUpdate) => RegistryIndex | Promise<RegistryIndex>,
  options: UpdateIndexOptions = {},
): Promise<RegistryIndex> {
  ensureDir(dir);
  const held = await acquireLock(dir, {
    lockPath: join(dir, LOCK_FILE),
    what: `the registry ${dir}`,
    // 20 processes writing at once each hold the lock for milliseconds; a crashed holder's lock goes stale.
    waitMs: LOCK_WAIT_MS,
  });
  try {
    const file = join(dir, INDEX_FILE);
    const before = readIndexText(file);
    const { index: current, legacy } =
      before === undefined
        ? { index: { ...EMPTY_INDEX, skills: [] } as RegistryIndex, legacy: undefined }
        : parseIndexText(before, file);
    // id → releases as on disk (undefined: no file) and as the update leaves them.
    const onDisk = new Map<string, Record<string, Release> | undefined>();
    const working = new Map<string, Record<string, Release>>();
    // After a few releases files found missing (a batch of new skills), the folder is listed once, and a file it
    // does not hold is not looked for: under the lock nothing else adds one. A failed open costs an exception.
    let misses = 0;
    let listed: Set<string> | undefined;
    const releasesOf = (id: string): Record<string, Release> => {
      let r = working.get(id);
      if (!r) {
        const file = releasesFile(dir, id);
        const unlisted = listed !== undefined && !listed.has(basename(file));
        if (unlisted) releasesCache.delete(file);
        const disk = unlisted ? undefined : readReleasesFile(dir, id, false);
        if (disk === undefined && ++misses === MISSES_BEFORE_LISTING) listed = releasesListed(dir);
        onDisk.set(id, disk);
        r = { ...(disk ?? {}), ...(legacy?.get(id) ?? {}) };
        working.set(id, r);
      }
      return r;
    };
    // Migrating from version 1: every skill's releases get their file.
    if (legacy) for (const e of current.skills) releasesOf(e.id);
    // The store's changes, undone (last first) unless index.json is written; folders taken out go once it is.
    const undo: (() => void)[] = [];
    const takenOut: string[] = [];
    const update: IndexUpdate = {
      releases: releasesOf,
      takeOut: (abs) => {
        const trash = moveAside(abs);
        if (trash === undefined) return;
        takenOut.push(trash);
        undo.push(() => renameSync(trash, abs));
      },
      putIn: (abs) => undo.push(() => removeTree(abs)),
      recorded: (rel) => {
        // `<part>/<id>@<version>`, a release the index lists at that very path.
        const slash = rel.indexOf('/');
        const at = rel.lastIndexOf('@');
        if (slash < 0 || at <= slash + 1) return undefined;
        const id = rel.slice(slash + 1, at);
        const version = rel.slice(at + 1);
        if (!current.skills.some((e) => e.id === id && e.versions.includes(version))) return undefined;
        const release = Object.hasOwn(releasesOf(id), version) ? releasesOf(id)[version] : undefined;
        return release?.path === rel ? release.integrity : undefined;
      },
    };
    const { next, wanted, written, final, textOf, replaced } = await (async () => {
      try {
        return await changeIndex();
      } catch (err) {
        throw afterCleanup(err, () => {
          for (const u of undo.reverse()) u();
        });
      }
    })();
    for (const trash of takenOut) removeTree(trash);
    legacyReleases.delete(resolve(dir));
    // 2b. The files derived from the index (render-prompt's selection index), each keyed by the index's identity.
    await runFollowers(dir, next, replaced);
    // 3. Prune what the index no longer lists. The change is made: a failure here is told, not thrown (readers
    // ignore the versions the index does not list, and the next change of the skill prunes them).
    const writeReleases = (id: string, r: Record<string, Release>) => {
      const path = releasesFile(dir, id);
      ensureDir(dirname(path));
      writeAtomic(path, textOf(id, r)!);
    };
    for (const [id, kept] of wanted) {
      try {
        if (kept === undefined) {
          if (written.get(id) !== undefined) rmSync(releasesFile(dir, id), { force: true });
          releasesCache.delete(releasesFile(dir, id));
        } else if (!final.has(id) && textOf(id, kept) !== written.get(id)) writeReleases(id, kept);
      } catch (err) {
        releasesCache.delete(releasesFile(dir, id));
        options.warn?.(
          `the change is made, but ${releasesFile(dir, id)} still lists versions ${INDEX_FILE} does not (${(err as Error).message}): they are ignored, and pruned at the next change of ${id}`,
        );
      }
    }
    // 4. The resolve index: the rows of the releases files now on disk. A crash before this leaves rows of the
    // files replaced, which no longer match them: resolve reads those files instead.
    try {
      updateResolveIndex(dir, next, wanted);
    } catch {
      // A cache of the releases files: without it, resolve reads them.
    }
    return next;

    /** `fn`, then steps 1 and 2: the releases files and index.json written. */
    async function changeIndex() {
      const next = await fn(current, update);
      // What each touched releases file should hold: the versions the index lists; `latest` follows from it.
      const entries = new Map(next.skills.map((e) => [e.id, e]));
      const wanted = new Map<string, Record<string, Release> | undefined>();
      for (const [id, r] of working) {
        const entry = entries.get(id);
        if (!entry) {
          wanted.set(id, undefined);
          continue;
        }
        const kept: Record<string, Release> = {};
        for (const v of entry.versions) if (Object.hasOwn(r, v)) kept[v] = r[v]!;
        wanted.set(id, kept);
        const latest = kept[entry.latestVersion];
        if (latest) entry.latest = summaryOf(latest);
      }
      const text = serializeIndex(next);
      const compromised = held.compromised();
      if (compromised)
        throw new SkillsError(
          'E_IO',
          `lost the lock on the registry ${dir} (${compromised.message}); the index was not written`,
          { cause: compromised },
        );
      const textOf = (id: string, r: Record<string, Release> | undefined) =>
        r === undefined ? undefined : serializeReleases(id, r, entries.get(id)?.versions);
      // 1. New and changed releases, the removed ones still there: flushed together, all on disk before the index.
      const written = new Map<string, string | undefined>();
      // Ids whose file, once written, holds just the versions kept (none of its versions on disk went): not pruned.
      const final = new Set<string>();
      const batch: { file: string; data: string }[] = [];
      // The releases folder, made once for the batch (not a failed mkdir for each of a thousand files).
      const made = new Set<string>();
      for (const [id, kept] of wanted) {
        const disk = onDisk.get(id);
        const union = kept === undefined ? disk : { ...(disk ?? {}), ...kept };
        if (kept !== undefined && (disk === undefined || Object.keys(disk).every((v) => Object.hasOwn(kept, v))))
          final.add(id);
        const unionText = textOf(id, union);
        if (union !== undefined && unionText !== textOf(id, disk)) {
          const path = releasesFile(dir, id);
          if (!made.has(dirname(path))) {
            ensureDir(dirname(path));
            made.add(dirname(path));
          }
          batch.push({ file: path, data: unionText! });
        }
        written.set(id, unionText);
      }
      await writeAtomicMany(batch);
      // 2. The index. (The identity of the one it replaces: its followers may update their files written from it.)
      const replaced = before === undefined ? undefined : indexIdentity(dir);
      if (text !== before) {
        if (before !== undefined) writeAtomic(join(dir, BACKUP_FILE), before);
        writeAtomic(file, text);
      }
      return { next, wanted, written, final, textOf, replaced };
    }
  } finally {
    await held.release().catch(() => {});
  }
}
