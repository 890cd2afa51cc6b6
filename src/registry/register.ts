// Registering a skill: its files copied into the store through a staging folder, its release added to the index.
import { renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import rcompare from 'semver/functions/rcompare.js';
import { SkillsError } from '../errors.js';
import { summaryOf, type IndexEntry, type RegistryIndex, type Release } from '../formats/index-file.js';
import type { Skill } from '../model/skill.js';
import { SKILL_ID_RULE, isSkillId } from '../model/spec.js';
import { tempName, widenThreadPool } from '../fs/atomic.js';
import { afterCleanup } from '../fs/errno.js';
import { TreeWriter } from '../fs/tree-writer.js';
import type { HeldFile } from '../fs/read-held.js';
import { present } from '../fs/walk.js';
import { peekReleases, readIndex } from './index-io.js';
import {
  digestKeeping,
  folderHolds,
  folderIntegrity,
  legacyIntegrities,
  skillFiles,
  type StoredFile,
} from './integrity.js';
import { STAGING_PREFIX, ensureDir, stamp, storePath } from './layout.js';
import { adoptFiles, cleanLeftovers, copyFiles, copySealedOn, deadTrashIn, removeTree, sealFolder } from './store.js';
import { isUnversioned, versionOf } from './unversioned.js';
import { updateIndex, type IndexUpdate } from './update.js';

export type RegisterStatus = 'added' | 'updated' | 'unchanged' | 'replaced';

export interface RegisterOptions {
  /** Overrides the skill's own owner (manifest `owner`, SKILL.md `metadata.author`); default built-in. */
  owner?: string;
  /** Replace a registered version whose content differs. */
  force?: boolean;
  now?: Date;
  /**
   * The skill's folder is a scratch copy of this process's own (an unpacked archive) on the registry's file
   * system: move it into the store instead of copying it. Creating files is what costs, so this halves an install.
   */
  adopt?: boolean;
  /** With `adopt`: the folder holds `files` and nothing else (the caller unpacked it), so it is moved unwalked. */
  only?: boolean;
  /**
   * The skill's files, when the caller knows them (an archive it unpacked, with the bytes it wrote): the folder is
   * not walked, and a file whose bytes are held is not read.
   */
  files?: StoredFile[];
  /**
   * With `adopt` or `files`: the folder's integrity, already computed by the caller (the folder is its own: nothing
   * changed it).
   */
  integrity?: string;
  /**
   * Hash a registered copy with the same integrity before calling it unchanged, and copy it again when its files
   * were changed after it was stored (install does; so does `force`).
   */
  verify?: boolean;
  /** Decide what would be done (added, updated, replaced, unchanged, or refused) and write nothing. */
  dryRun?: boolean;
  /**
   * The skill was loaded just now and its folder is as the load found it: its entries are taken for its files
   * (skillFiles) instead of listing its folders again.
   */
  walked?: boolean;
  /**
   * With `walked`: the bytes the skill's load read (LoadOptions.held), hashed and copied instead of read again; let go
   * once the skill is staged.
   */
  held?: Map<string, HeldFile>;
}

export interface RegisterResult {
  status: RegisterStatus;
  id: string;
  version: string;
  /** The stored copy, relative to the registry: `built-in/<id>@<version>` or `custom/<id>@<version>`. */
  path: string;
  integrity: string;
}

function releaseOf(skill: Skill, integrity: string, path: string, now: string): Release {
  const r: Release = {
    integrity,
    layout: skill.layout,
    name: skill.name,
    description: skill.description,
    dependencies: skill.dependencies.map((d) => d.raw.trim()),
    path,
    registeredAt: now,
  };
  if (skill.triggers) r.triggers = skill.triggers;
  if (skill.briefDescription !== undefined) r.briefDescription = skill.briefDescription;
  if (skill.disableModelInvocation || !skill.defaultEnabled) r.hidden = true;
  if (skill.nodeVersion) r.nodeVersion = skill.nodeVersion;
  if (skill.systemPackages.length > 0) r.systemPackages = skill.systemPackages;
  return r;
}

/** One skill of a batch: the skill and its options. */
export interface RegisterItem {
  skill: Skill;
  opts?: RegisterOptions;
}

/**
 * Register a loaded (valid) skill: copy it into the store through a staging folder renamed into place, and add
 * its version to the index. The same version with the same content is a no-op; with other content it is
 * refused (E_EXISTS) unless `force`.
 */
export async function registerSkill(dir: string, skill: Skill, opts: RegisterOptions = {}): Promise<RegisterResult> {
  const [r] = await registerSkills(dir, [{ skill, opts }]);
  if (r instanceof SkillsError) throw r;
  return r!;
}

/** What the work outside the lock found for one item: its result already, or a staged copy to put in place. */
interface Staged {
  skill: Skill;
  opts: RegisterOptions;
  id: string;
  version: string;
  owner: string;
  now: string;
  path: string;
  integrity: string;
  staging?: string;
  existingPath?: string;
  done?: RegisterResult | SkillsError;
}

/**
 * Register many skills with one lock, one read and one write of the index, and one leftover scan: each skill is
 * checked and copied into a sealed staging folder first (outside the lock), then every staged copy is renamed into
 * place and the index written once. `items` may come as they are loaded (an async iterable, `size` of them at
 * most): each is staged as it comes, so a big batch's copies are written while the next skills are still read. A
 * refusal (E_EXISTS, E_INVALID) concerns its own skill: it is returned in that skill's place, and the others go on.
 * A crash midway leaves the previous index whole (written last, atomically) and no half-copied version (staging
 * folders are sealed before their rename, and removed as leftovers).
 */
export async function registerSkills(
  dir: string,
  items: RegisterItem[] | AsyncIterable<RegisterItem>,
  size = Array.isArray(items) ? items.length : 0,
  warn?: (message: string) => void,
): Promise<(RegisterResult | SkillsError)[]> {
  const index = readIndex(dir);
  const byId = new Map(index.skills.map((e) => [e.id, e]));
  const staged: Staged[] = [];
  // A big batch's copies are written by a thread while the next skills are read and hashed; started with the first.
  let writer: TreeWriter | undefined;
  const big = size >= THREAD_AT;
  const copier = big ? () => (writer ??= new TreeWriter()) : undefined;
  // Its releases files are flushed together at the end, many at once.
  if (big) widenThreadPool();
  let failure: { err: unknown } | undefined;
  try {
    // The store's folders (built-in/, custom/), made once for the batch.
    const made = new Set<string>();
    const earlier = new Map<string, { root: string; integrity: string }>();
    for await (const item of items) {
      staged.push(stage(dir, item, byId, made, earlier, copier));
      if (writer?.backlog) await writer.drained();
    }
    // Every staged copy written and sealed before any is renamed into place.
    await writer?.finish();
    const pending = staged.filter((s) => s.done === undefined);
    if (pending.length > 0 || deadTrashIn(dir))
      await updateIndex(
        dir,
        (idx, update) => {
          cleanLeftovers(dir, update.recorded);
          // The index as read under the lock, by id: each skill of the batch found without a scan of the list.
          const entries = new Map(idx.skills.map((e) => [e.id, e]));
          for (const s of pending) {
            try {
              s.done = commit(dir, s, idx, entries, update);
            } catch (err) {
              if (!(err instanceof SkillsError) || !['E_EXISTS', 'E_INVALID'].includes(err.code)) throw err;
              s.done = err;
            }
          }
          return idx;
        },
        { warn },
      );
  } catch (err) {
    failure = { err };
  }
  // The thread is stopped before the staging folders it writes into are removed; a removal that fails after an
  // error does not hide it.
  await writer?.abort();
  const cleanup = () => {
    for (const s of staged) if (s.staging) removeTree(s.staging);
  };
  if (failure) throw afterCleanup(failure.err, cleanup);
  cleanup();
  return staged.map((s) => s.done!);
}

/** A second copy of one version in a batch, with other content than the first found (which goes on): refused. */
export class TwiceInBatch extends SkillsError {
  constructor(
    readonly id: string,
    readonly version: string,
    /** The first found, which the batch registers. */
    readonly first: string,
    readonly root: string,
    readonly integrity: string,
  ) {
    super(
      'E_EXISTS',
      `${id}@${version} is in this batch twice with different content: ${first} is registered, ${root} is not`,
      { hint: 'keep one copy of each skill in what you register (skills lint reports the others: SK127)' },
    );
  }
}

/** Batches of at least this many skills have their copies written by a thread (TreeWriter), started on first use. */
const THREAD_AT = 32;

/** The most bytes of one skill's files kept in memory between hashing and copying them (a skill is at most 256 MiB). */
const STAGE_KEEP_BYTES = 64 * 1024 * 1024;

/** Checks, the decision the index already allows, and the staged copy; a refusal is kept as the item's result. */
function stage(
  dir: string,
  item: RegisterItem,
  byId: Map<string, IndexEntry>,
  made: Set<string>,
  earlier: Map<string, { root: string; integrity: string }>,
  copier?: () => TreeWriter,
): Staged {
  const { skill } = item;
  const opts = item.opts ?? {};
  const id = skill.id;
  const owner = opts.owner ?? skill.owner ?? 'built-in';
  const s: Staged = {
    skill,
    opts,
    id,
    version: '',
    owner,
    now: stamp(opts.now ?? new Date()),
    path: '',
    integrity: '',
  };
  try {
    // A version that is not MAJOR.MINOR.PATCH is this skill's refusal (E_INVALID), not the batch's.
    const version = (s.version = versionOf(skill));
    const path = (s.path = storePath(id, version, owner));
    if (!isSkillId(id)) {
      throw new SkillsError('E_INVALID', `"${id}" cannot be registered: an id is ${SKILL_ID_RULE}`, {
        hint: `run skills validate ${skill.root}`,
      });
    }
    const walked = opts.walked && !opts.adopt;
    const files =
      opts.files ?? skillFiles(skill.root, walked ? skill.entries : undefined, walked ? opts.held : undefined);
    opts.held?.clear();
    // Files walked here keep the bytes hashed (up to STAGE_KEEP_BYTES) for the copy next: each is read and hashed
    // once, and the copy holds exactly what was hashed. They are let go with `files` once the skill is staged.
    s.integrity =
      (opts.adopt || opts.files) && opts.integrity
        ? opts.integrity
        : digestKeeping(files, { bytes: opts.files ? 0 : STAGE_KEEP_BYTES });
    // A batch that holds one version twice (a source with a skill copied into several folders): a copy of the
    // first goes on (and is found unchanged); other content is refused, and the first found is kept, whatever the
    // order of the rest.
    const first = earlier.get(`${id}@${version}`);
    if (first && first.integrity !== s.integrity)
      throw new TwiceInBatch(id, version, first.root, skill.root, s.integrity);
    if (!first) earlier.set(`${id}@${version}`, { root: skill.root, integrity: s.integrity });
    // Decide what can be decided without the lock, so an unchanged skill costs no copy and no write.
    const known = byId.get(id);
    if (decide(dir, s, known, known ? peekReleases(dir, id) : undefined) === 'unchanged') {
      s.done = resultOf(s, 'unchanged');
      return s;
    }
    if (opts.dryRun) {
      s.done = resultOf(s, !known ? 'added' : known.versions.includes(version) ? 'replaced' : 'updated');
      return s;
    }
    const parent = join(dir, dirname(path));
    if (!made.has(parent)) {
      ensureDir(parent);
      made.add(parent);
    }
    s.staging = join(parent, tempName(STAGING_PREFIX, `${id}@${version}`));
    // Bytes held are the bytes hashed: a thread may write them (and seal the copy) while the next skill is staged.
    if (!opts.adopt && copier && copySealedOn(copier(), files, s.staging)) return s;
    const copied = opts.adopt
      ? adoptFiles(skill.root, files, s.staging, s.integrity, opts.only === true && opts.files !== undefined)
      : copyFiles(files, s.staging, false, s.integrity);
    if (copied !== s.integrity) {
      throw new SkillsError('E_IO', `${skill.root} changed while it was being copied; nothing was registered`, {
        hint: 'run sync again once the skill is written',
      });
    }
    // The staging folder holds these files and the folders above them, nothing else: sealed without a walk.
    sealFolder(s.staging, files, !opts.adopt);
  } catch (err) {
    if (!(err instanceof SkillsError) || !['E_EXISTS', 'E_INVALID'].includes(err.code)) {
      // A copy that failed (a full disk) leaves no half-made staging folder behind.
      if (s.staging) removeTree(s.staging);
      throw err;
    }
    s.done = err;
  }
  return s;
}

const resultOf = (s: Staged, status: RegisterStatus): RegisterResult => ({
  status,
  id: s.id,
  version: s.version,
  path: s.existingPath ?? s.path,
  integrity: s.integrity,
});

/**
 * What the registered copy allows: 'unchanged' when this version is there with this content, else 'write'; a
 * version there with other content is refused (E_EXISTS) unless forced or unversioned. Only a version the index
 * lists counts: a releases file may hold one a crash left before index.json was written.
 */
function decide(
  dir: string,
  s: Staged,
  entry: IndexEntry | undefined,
  releases: Record<string, Release> | undefined,
): 'unchanged' | 'write' {
  const { id, version, integrity, opts } = s;
  const release =
    entry?.versions.includes(version) && releases && Object.hasOwn(releases, version) ? releases[version] : undefined;
  if (!release) return 'write';
  s.existingPath = release.path;
  if (release.integrity === integrity) {
    const stored = join(dir, release.path);
    if (!present(stored)) return 'write';
    return (opts.verify || opts.force) && folderIntegrity(stored) !== integrity ? 'write' : 'unchanged';
  }
  // Registered when links inside a skill were stored as links: the same content, kept as it was registered.
  if (!opts.force && legacyIntegrities(s.skill.root).includes(release.integrity)) {
    const stored = join(dir, release.path);
    if (present(stored) && folderHolds(stored, release.integrity)) return 'unchanged';
  }
  if (!opts.force && !isUnversioned(s.skill)) {
    throw new SkillsError(
      'E_EXISTS',
      `${id}@${version} is already registered with different content (${join(dir, release.path)})`,
      {
        hint: `bump the version (${id} ${version} → a higher one), or run again with --force to replace the registered copy`,
      },
    );
  }
  return 'write';
}

/** Under the lock: the staged copy renamed into place and the version added to the index (decided again there). */
function commit(
  dir: string,
  s: Staged,
  index: RegistryIndex,
  entries: Map<string, IndexEntry>,
  update: IndexUpdate,
): RegisterResult {
  const { id, version, path, now, owner } = s;
  s.existingPath = undefined;
  const entry = entries.get(id);
  // Releases the index does not list are what a crash left before index.json was written: dropped here.
  const releases = update.releases(id);
  for (const v of Object.keys(releases)) if (!entry?.versions.includes(v)) delete releases[v];
  if (decide(dir, s, entry, releases) === 'unchanged') return resultOf(s, 'unchanged');
  const old = Object.hasOwn(releases, version) ? releases[version] : undefined;
  const target = join(dir, path);
  // A stored copy of another owner's folder, or one left by a killed run after its rename, goes first: moved aside,
  // and put back should index.json not be written (as the new copy is then taken out again).
  if (old && old.path !== path) update.takeOut(join(dir, old.path));
  update.takeOut(target);
  renameSync(s.staging!, target);
  update.putIn(target);
  s.staging = undefined;
  const release = releaseOf(s.skill, s.integrity, path, now);
  releases[version] = release;
  s.existingPath = undefined;
  if (!entry) {
    const added: IndexEntry = {
      id,
      versions: [version],
      latestVersion: version,
      owner,
      usedBy: [],
      registeredAt: now,
      updatedAt: now,
      latest: summaryOf(release),
    };
    index.skills.push(added);
    entries.set(id, added);
    return resultOf(s, 'added');
  }
  entry.versions = [...new Set([...entry.versions, version])].sort(rcompare);
  entry.latestVersion = entry.versions[0]!;
  if (entry.latestVersion === version) entry.owner = owner;
  entry.updatedAt = now;
  return resultOf(s, old ? 'replaced' : 'updated');
}
