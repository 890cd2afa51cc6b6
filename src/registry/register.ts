// Registering a skill: its files copied into the store through a staging folder, its release added to the index.
import { renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import rcompare from 'semver/functions/rcompare.js';
import { SkillsError } from '../errors.js';
import { summaryOf, type IndexEntry, type Release } from '../formats/index-file.js';
import type { Skill } from '../model/skill.js';
import { SKILL_ID_RULE, isSkillId } from '../model/spec.js';
import { tempName } from '../fs/atomic.js';
import { present } from '../fs/walk.js';
import { peekReleases, readIndex } from './index-io.js';
import { digest, folderIntegrity, skillFiles } from './integrity.js';
import { STAGING_PREFIX, ensureDir, stamp, storePath } from './layout.js';
import { adoptFiles, cleanLeftovers, copyFiles, removeFolder, removeTree, sealFolder } from './store.js';
import { isUnversioned, versionOf } from './unversioned.js';
import { updateIndex } from './update.js';

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
  /**
   * With `adopt`: the folder's integrity, already computed by the caller (the folder is its own: nothing changed it).
   */
  integrity?: string;
  /**
   * Hash a registered copy with the same integrity before calling it unchanged, and copy it again when its files
   * were changed after it was stored (install does; so does `force`).
   */
  verify?: boolean;
  /** Decide what would be done (added, updated, replaced, unchanged, or refused) and write nothing. */
  dryRun?: boolean;
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

/**
 * Register a loaded (valid) skill: copy it into the store through a staging folder renamed into place, and add
 * its version to the index. The same version with the same content is a no-op; with other content it is
 * refused (E_EXISTS) unless `force`.
 */
export async function registerSkill(dir: string, skill: Skill, opts: RegisterOptions = {}): Promise<RegisterResult> {
  const version = versionOf(skill);
  const id = skill.id;
  if (!isSkillId(id)) {
    throw new SkillsError('E_INVALID', `"${id}" cannot be registered: an id is ${SKILL_ID_RULE}`, {
      hint: `run skills validate ${skill.root}`,
    });
  }
  const owner = opts.owner ?? skill.owner ?? 'built-in';
  const now = stamp(opts.now ?? new Date());
  const path = storePath(id, version, owner);
  const files = skillFiles(skill.root);
  const integrity = opts.adopt && opts.integrity ? opts.integrity : digest(files);
  // The registered copy's folder, when the version is already there (its owner may differ from this one's).
  let existingPath: string | undefined;
  const result = (status: RegisterStatus): RegisterResult => ({
    status,
    id,
    version,
    path: existingPath ?? path,
    integrity,
  });

  // Decide what can be decided without the lock, so an unchanged skill costs no copy and no write.
  // Only a version the index lists counts: a releases file may hold one a crash left before index.json was written.
  const decide = (
    entry: IndexEntry | undefined,
    releases: Record<string, Release> | undefined,
  ): 'unchanged' | 'write' => {
    const release =
      entry?.versions.includes(version) && releases && Object.hasOwn(releases, version) ? releases[version] : undefined;
    if (!release) return 'write';
    existingPath = release.path;
    if (release.integrity === integrity) {
      const stored = join(dir, release.path);
      if (!present(stored)) return 'write';
      return (opts.verify || opts.force) && folderIntegrity(stored) !== integrity ? 'write' : 'unchanged';
    }
    if (!opts.force && !isUnversioned(skill)) {
      throw new SkillsError(
        'E_EXISTS',
        `${id}@${version} is already registered with different content (${join(dir, release.path)})`,
        {
          hint: `bump the version (${id} ${version} → a higher one), or run again with --force to replace the registered copy`,
        },
      );
    }
    return 'write';
  };
  const known = readIndex(dir).skills.find((s) => s.id === id);
  if (decide(known, known ? peekReleases(dir, id) : undefined) === 'unchanged') return result('unchanged');
  if (opts.dryRun) return result(!known ? 'added' : known.versions.includes(version) ? 'replaced' : 'updated');

  const parent = join(dir, dirname(path));
  ensureDir(parent);
  const staging = join(parent, tempName(STAGING_PREFIX, `${id}@${version}`));
  let status: RegisterStatus = 'added';
  try {
    const copied = opts.adopt ? adoptFiles(skill.root, files, staging, integrity) : copyFiles(files, staging);
    if (copied !== integrity) {
      throw new SkillsError('E_IO', `${skill.root} changed while it was being copied; nothing was registered`, {
        hint: 'run sync again once the skill is written',
      });
    }
    sealFolder(staging);
    await updateIndex(dir, (index, update) => {
      cleanLeftovers(dir);
      existingPath = undefined;
      const entry = index.skills.find((s) => s.id === id);
      // Releases the index does not list are what a crash left before index.json was written: dropped here.
      const releases = update.releases(id);
      for (const v of Object.keys(releases)) if (!entry?.versions.includes(v)) delete releases[v];
      if (decide(entry, releases) === 'unchanged') {
        status = 'unchanged';
        return index;
      }
      const old = Object.hasOwn(releases, version) ? releases[version] : undefined;
      const target = join(dir, path);
      // A stored copy of another owner's folder, or one left by a killed run after its rename, goes first.
      if (old && old.path !== path) removeFolder(join(dir, old.path));
      removeFolder(target);
      renameSync(staging, target);
      const release = releaseOf(skill, integrity, path, now);
      if (!entry) {
        status = 'added';
        releases[version] = release;
        const fresh: IndexEntry = {
          id,
          versions: [version],
          latestVersion: version,
          owner,
          usedBy: [],
          registeredAt: now,
          updatedAt: now,
          latest: summaryOf(release),
        };
        index.skills.push(fresh);
      } else {
        status = old ? 'replaced' : 'updated';
        releases[version] = release;
        entry.versions = [...new Set([...entry.versions, version])].sort(rcompare);
        entry.latestVersion = entry.versions[0]!;
        if (entry.latestVersion === version) entry.owner = owner;
        entry.updatedAt = now;
      }
      existingPath = undefined;
      return index;
    });
  } finally {
    removeTree(staging);
  }
  return result(status);
}
