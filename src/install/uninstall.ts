// Uninstalling a skill: out of the agent folders, the lock, and the store unless something still uses it.
import { readdirSync, renameSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { SkillsError } from '../errors.js';
import { serializeLockfile, type LockEntry, type Lockfile } from '../formats/lockfile.js';
import { tempName, writeAtomic } from '../fs/atomic.js';
import { isMacFile, present } from '../fs/walk.js';
import { peekReleases, readIndex } from '../registry/index-io.js';
import { digest, skillFiles } from '../registry/integrity.js';
import { removeSkill } from '../registry/remove.js';
import { goneProject, releaseSkill } from '../registry/usage.js';
import { afterPlacing } from './placing.js';
import { readLockfile, withProjectLock } from './lock.js';
import { REMOVING_PREFIX, isLink, placesOf, removeEntry } from './places.js';

export interface UninstallOptions {
  registry: string;
  /** The registry was asked for (as install's useRegistry): only then is its store touched. */
  useRegistry: boolean;
  lockfile: string;
  home: string;
  /** The user's lock (--global). */
  global?: boolean;
  id: string;
  /**
   * Also remove `<into>/<id>` (absolute: --into, --agent), when it is a copy skills installed (or with `force`,
   * whatever it holds).
   */
  into?: string[];
  consumer?: string;
  /** Remove `<folder>/<id>` copies even when their content is not what was installed. */
  force?: boolean;
  /** Decide everything, remove nothing: the result says what would go. */
  dryRun?: boolean;
}

export interface UninstallResult {
  id: string;
  /** The version the lock had (or undefined when it had none). */
  version?: string;
  /** The first of `removed`: --into's `<into>/<id>` when it was removed. */
  into?: string;
  /** Every `<folder>/<id>` removed: --into's, then the lock's recorded folders'. */
  removed: string[];
  /** True when the lock had the skill and no longer has it. */
  lock: boolean;
  /** Stored copies removed (absolute). */
  store: string[];
  /** The consumers that keep the skill in the store. */
  keptFor: string[];
  warnings: string[];
}

/**
 * `skills uninstall <id>`: out of --into and the lock's recorded folders, the lock, and the store unless something
 * still uses it. Under the project's lock, as install is, so neither loses the other's lock entries.
 */
export function uninstallSkill(options: UninstallOptions): Promise<UninstallResult> {
  // A dry run writes nothing, so it takes no lock either: it works in a project it cannot write to.
  if (options.dryRun) return uninstallLocked(options);
  return withProjectLock(options.lockfile, () => afterPlacing(options, () => uninstallLocked(options)));
}

/** What skills installed as `id`: the lock's integrity and every registered version's (content hashes). */
function installedContents(
  registry: string,
  id: string,
  entry: LockEntry | undefined,
  versions: string[],
): Set<string> {
  const known = new Set<string>(entry ? [entry.integrity] : []);
  const releases = versions.length > 0 ? peekReleases(registry, id) : undefined;
  for (const v of versions) if (releases && Object.hasOwn(releases, v)) known.add(releases[v]!.integrity);
  return known;
}

/**
 * True when `target` is a copy skills wrote, unchanged: a folder whose files hash to one of `known` and that holds
 * nothing the hash leaves out (a .env of secrets, a .git), bar what running it leaves (__pycache__) and macOS's
 * files (.DS_Store, ._*).
 */
function isInstalledCopy(target: string, known: Set<string>): boolean {
  if (!statSync(target).isDirectory()) return false;
  const files = skillFiles(target);
  if (!known.has(digest(files))) return false;
  const hashed = new Set(files.map((f) => f.rel));
  const all = readdirSync(target, { recursive: true, withFileTypes: true });
  return all.every((d) => {
    if (d.isDirectory()) return true;
    const rel = relative(target, join(d.parentPath ?? d.path, d.name))
      .split(sep)
      .join('/');
    return hashed.has(rel) || isMacFile(d.name) || rel.split('/').includes('__pycache__');
  });
}

/** True when the registry's index has the id (a registry that cannot be read has nothing). */
function inRegistry(registry: string, id: string): boolean {
  try {
    return readIndex(registry).skills.some((s) => s.id === id);
  } catch {
    return false;
  }
}

async function uninstallLocked(options: UninstallOptions): Promise<UninstallResult> {
  const { id, registry, lockfile } = options;
  const into = options.into ?? [];
  const lock = readLockfile(lockfile);
  const entry = lock?.skills[id];
  const places = placesOf(lockfile, lock, into, {
    home: options.home,
    global: options.global,
    nothing: 'nothing was removed',
  });
  const indexEntry = options.useRegistry ? readIndex(registry).skills.find((s) => s.id === id) : undefined;
  const inStore = indexEntry !== undefined && (entry === undefined || indexEntry.versions.includes(entry.version));
  // Only what the lock or the registry says was installed is removed: an id neither knows names no copy of a skill
  // (`uninstall src --into .` must not touch the project's src/), whatever a folder of that name holds.
  if (!entry && !indexEntry) {
    const found = places.map((p) => join(p.abs, id)).filter((t) => present(t));
    throw new SkillsError(
      'E_NOT_FOUND',
      `${id} is not installed: not in ${lockfile}${options.useRegistry ? `, not in the registry ${registry}` : ''}; nothing was removed`,
      {
        hint: found.length
          ? `${found.join(', ')} ${found.length === 1 ? 'is' : 'are'} no copy skills installed; remove ${found.length === 1 ? 'it' : 'them'} by hand if that is meant`
          : inRegistry(registry, id)
            ? `${id} is in the registry ${registry}: to take it out of the registry, run skills registry remove ${id}`
            : `see what is installed in ${basename(lockfile)}, or with skills list`,
      },
    );
  }
  // A `<folder>/<id>` goes only when its content is what was installed (a copy skills wrote, unchanged), so a
  // folder of someone's own work is never deleted unasked; --force removes it whatever it holds.
  const known = installedContents(registry, id, entry, indexEntry?.versions ?? []);
  const targets: string[] = [];
  const warnings: string[] = [];
  for (const place of places) {
    const target = join(place.abs, id);
    if (!present(target) && !isLink(target)) continue;
    // A link is removed itself (never what it leads to) when the lock says skills made it.
    if (options.force || (isLink(target) ? entry?.link === true : isInstalledCopy(target, known))) {
      targets.push(target);
      continue;
    }
    if (into.includes(place.abs)) {
      throw new SkillsError(
        'E_EXISTS',
        `${target} is not a copy skills installed: its content matches no version of ${id} in ${lockfile} or the registry ${registry}; nothing was removed`,
        { hint: `look at what it holds; remove it by hand, or run again with --force to remove it anyway` },
      );
    }
    warnings.push(
      `${target} was left in place: it is not the copy skills installed (its content does not match ${lockfile}); remove it by hand, or with --into ${place.abs} --force`,
    );
  }
  const result: UninstallResult = {
    id,
    ...(entry ? { version: entry.version } : {}),
    removed: [],
    lock: false,
    store: [],
    keptFor: [],
    warnings,
  };
  if (lock) {
    const needers = Object.entries(lock.skills)
      .filter(([other, e]) => other !== id && Object.hasOwn(e.dependencies, id))
      .map(([other, e]) => `${other}@${e.version}`);
    if (needers.length) result.warnings.push(`${id} is a dependency of ${needers.join(', ')}, which stay installed`);
  }
  // Who leaves the skill's usedBy: this project (install records it there), and --for's consumer; a project whose
  // folder is gone keeps no copy in the store either.
  const leaving = [dirname(lockfile), ...(options.consumer ? [options.consumer] : [])];
  if (options.dryRun) {
    result.removed = targets;
    if (targets.length) result.into = targets[0];
    result.lock = entry !== undefined;
    // What the store would lose, or who would keep it there, as the run below decides.
    if (indexEntry) {
      const usedBy = indexEntry.usedBy.filter((c) => !leaving.includes(c) && !goneProject(c));
      if (usedBy.length > 0) result.keptFor = usedBy;
      else if (inStore) {
        const releases = peekReleases(registry, id) ?? {};
        const versions = entry ? [entry.version] : indexEntry.versions;
        result.store = versions.flatMap((v) => (Object.hasOwn(releases, v) ? [join(registry, releases[v]!.path)] : []));
      }
    }
    return result;
  }
  for (const target of targets) {
    const trash = join(dirname(target), tempName(REMOVING_PREFIX, id));
    renameSync(target, trash);
    removeEntry(trash);
    result.removed.push(target);
  }
  if (result.removed.length) result.into = result.removed[0];
  if (indexEntry) {
    const usedBy = await releaseSkill(registry, id, leaving);
    if (usedBy.length > 0) result.keptFor = usedBy;
    else if (inStore) {
      const removed = await removeSkill(registry, id, entry?.version);
      result.store = removed.paths.map((p) => join(registry, p));
    }
  }
  if (lock && entry) {
    const next: Lockfile = { ...lock, skills: { ...lock.skills } };
    delete next.skills[id];
    writeAtomic(lockfile, serializeLockfile(next));
    result.lock = true;
  }
  return result;
}
