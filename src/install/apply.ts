// Carrying out an install plan: everything that can still refuse is checked before the first write.
import { realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SkillsError } from '../errors.js';
import { emptyLockfile, serializeLockfile, type Lockfile } from '../formats/lockfile.js';
import type { Skill } from '../model/skill.js';
import { KEEP_BYTES } from '../fs/archive-entries.js';
import { writeAtomic } from '../fs/atomic.js';
import { afterCleanup } from '../fs/errno.js';
import { isInside, present } from '../fs/walk.js';
import { loadSkill } from '../skill/load.js';
import {
  digest,
  digestKeeping,
  filesAt,
  folderIntegrity,
  integrityOf,
  legacyDigests,
  legacyIntegrities,
  skillFiles,
  type KeepBudget,
  type StoredFile,
} from '../registry/integrity.js';
import type { RegisterResult, RegisterStatus } from '../registry/register.js';
import { mismatch } from './plan.js';
import { adoptInto, entryAt, isLink, linksTo, placeInto, placeLink, type Place } from './places.js';
import { Placing } from './placing.js';
import { problemsOf, relabelError, type Scratch } from './sources.js';
import type { InstallOptions, InstallOutcome, InstalledSkill, Planned } from './types.js';

/**
 * Refuse a stored copy that is missing, or whose files are not the ones registered (`integrity`); its files, with
 * their bytes while `keep` lasts: the copies into agent folders take what was checked, not a second read.
 */
function checkStored(
  registry: string,
  id: string,
  version: string,
  rel: string,
  integrity: string,
  keep: KeepBudget,
): StoredFile[] {
  const path = join(registry, rel);
  if (!present(path)) {
    throw new SkillsError(
      'E_CONFIG',
      `${registry}: ${id}@${version} is in the index but its stored copy ${path} is missing; nothing was installed`,
      { hint: `register it again: skills registry sync <its folder> --force` },
    );
  }
  const files = skillFiles(path);
  const found = digestKeeping(files, keep);
  // A copy stored when links inside a skill were kept as links holds the same content it was registered with.
  if (found !== integrity && !legacyDigests(files).includes(integrity)) {
    throw new SkillsError(
      'E_INVALID',
      `${path}: the stored copy of ${id}@${version} was changed after it was registered (${join(registry, 'releases', `${id}.json`)} records ${integrity}, its files hash to ${found}); nothing was installed`,
      {
        hint: `register it again from its source (skills registry sync <its folder> --force), or remove it (skills registry remove ${id}@${version}) and install it again`,
      },
    );
  }
  return files;
}

/** True when two paths are the same folder (symlinks followed). */
function sameFolder(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

/** Carry out a plan: check what reads the disk, then register, place the copies and write the lock. */
export async function carryOut(
  options: InstallOptions,
  planned: Planned,
  before: Lockfile | undefined,
  places: Place[],
  scratch?: Scratch,
): Promise<InstallOutcome> {
  const { registry } = options;
  const previous = before ?? emptyLockfile();
  // Checks that read the disk but write nothing: stored copies from another registry, <into>/<id> folders.
  const fromSkills = new Map<string, Skill>();
  // The files of stored copies used as they are, checked, with their bytes when they are placed (64 MiB in all).
  const stored = new Map<string, StoredFile[]>();
  const keep: KeepBudget = { bytes: places.length > 0 ? KEEP_BYTES : 0 };
  // A folder placed into that is not there yet holds no <id> of any skill: nothing to look up in it.
  const absent = new Set(places.filter((p) => !present(p.abs)).map((p) => p.abs));
  for (const item of planned.items) {
    const { plan, resolved } = item;
    if (plan.kind === 'from') {
      options.progress?.(`checking ${resolved.id}@${resolved.version}`);
      const skill = loadSkill(plan.root);
      const problems = await problemsOf(skill);
      if (problems.length > 0) {
        throw new SkillsError(
          'E_INVALID',
          `${plan.root}: the stored copy of ${resolved.id}@${resolved.version} in ${plan.registry} is not valid: ${problems.map((d) => d.message).join('; ')}`,
          { hint: `run skills validate ${plan.root}` },
        );
      }
      const found = integrityOf(skill);
      if (found !== plan.release.integrity && !legacyIntegrities(plan.root).includes(plan.release.integrity))
        throw mismatch(
          resolved.id,
          resolved.version,
          join(plan.registry, 'releases', `${resolved.id}.json`),
          plan.release.integrity,
          plan.root,
          found,
        );
      fromSkills.set(resolved.id, skill);
    }
    // A stored copy is used as it is: its files must still be what was registered (a script, or anyone, may have
    // changed them since), whatever the lock or the index says.
    if (plan.kind === 'present')
      stored.set(
        resolved.id,
        checkStored(registry, resolved.id, resolved.version, plan.release.path, item.entry.integrity, keep),
      );
    const linkTo = item.entry.link && plan.kind === 'local' ? plan.prepared.skill.root : undefined;
    item.intoActions = places.map(({ abs }) => {
      if (absent.has(abs)) return 'write';
      const target = join(abs, resolved.id);
      if (linkTo !== undefined && linksTo(target, linkTo)) return 'unchanged';
      // The skill's own folder is where it would be placed: a link would replace it with a link to itself.
      if (linkTo !== undefined && !isLink(target) && present(target) && sameFolder(target, linkTo)) {
        throw new SkillsError(
          'E_USAGE',
          `${target} is the skill's own folder, where --link would put a link to it; nothing was installed`,
          { hint: 'link a skill from where you edit it (outside the agent folders), or install it without --link' },
        );
      }
      // One lstat tells a link and a missing entry apart.
      const st = entryAt(target);
      if (st?.isSymbolicLink()) {
        // A link skills made (the lock says so) is replaced; any other link is someone's.
        if (options.force || previous.skills[resolved.id]?.link) return 'write';
        throw new SkillsError(
          'E_EXISTS',
          `${target} already exists and is a symlink skills did not make; nothing was installed`,
          { hint: 'move it away, or run again with --force to replace it' },
        );
      }
      if (st === undefined) return 'write';
      if (
        linkTo !== undefined &&
        statSync(target).isDirectory() &&
        folderIntegrity(target) === previous.skills[resolved.id]?.integrity
      )
        return 'write';
      const held = statSync(target).isDirectory() ? skillFiles(target) : undefined;
      const existing = held && digest(held);
      // A copy placed when links inside a skill were copied as links (none is now): placed again, as files, when it
      // holds what the lock records (in either integrity).
      const legacy = held ? legacyDigests(held) : [];
      if (
        legacy.length > 0 &&
        [existing, ...legacy].some((i) => i === item.entry.integrity || i === previous.skills[resolved.id]?.integrity)
      )
        return 'write';
      if (existing === item.entry.integrity) return 'unchanged';
      if (options.force || (existing !== undefined && previous.skills[resolved.id]?.integrity === existing))
        return 'write';
      throw new SkillsError(
        'E_EXISTS',
        `${target} already exists and is not a copy skills installed (its content matches no version in ${options.lockfile}); nothing was installed`,
        {
          hint: `move it away, or run again with --force to replace it`,
        },
      );
    });
  }

  // Every skill that goes into the registry is registered in one batch: one lock and one index write
  // (registerSkills), whatever the number of skills.
  const registering = new Map<string, RegisterResult | SkillsError>();
  if (options.useRegistry && !options.dryRun) {
    const batch = planned.items
      .filter((i) => i.plan.kind !== 'present')
      .map((i) => {
        const skill = i.plan.kind === 'local' ? i.plan.prepared.skill : fromSkills.get(i.resolved.id)!;
        // An unpacked archive is this run's own scratch folder, inside the registry: moved into the store, not copied.
        const adopt =
          i.plan.kind === 'local' && i.plan.prepared.source.startsWith('archive:') && isInside(registry, skill.root);
        // An unpacked archive's files are known, with their bytes: not walked or read again.
        const files = i.plan.kind === 'local' ? i.plan.prepared.files : undefined;
        return {
          id: i.resolved.id,
          skill,
          opts: {
            force: options.force,
            verify: true,
            adopt,
            ...(adopt && i.plan.kind === 'local' && i.plan.prepared.only ? { only: true } : {}),
            ...(adopt || files ? { integrity: i.entry.integrity } : {}),
            ...(files ? { files } : {}),
            ...(i.plan.kind === 'from' ? { owner: i.plan.owner } : {}),
          },
        };
      });
    if (batch.length > 0) {
      options.progress?.(`installing ${batch.length === 1 ? `${batch[0]!.id}` : `${batch.length} skills`}`);
      const results = await (
        await import('../registry/register.js')
      ).registerSkills(registry, batch, batch.length, (w) => planned.warnings.push(w));
      batch.forEach((b, i) => registering.set(b.id, results[i]!));
    }
  }

  const skills: InstalledSkill[] = [];
  // The copies are staged, and renamed into place only with the lock that records them (install/placing.ts).
  const placing =
    places.length > 0 && !options.dryRun
      ? new Placing(
          options.lockfile,
          places.map((p) => p.abs),
        )
      : undefined;
  try {
    for (const item of planned.items) {
      const { plan, resolved, entry } = item;
      // What the install does to the project, from the lock: the same word whether a registry is used or not.
      const old = previous.skills[resolved.id];
      const status: InstalledSkill['status'] = !old
        ? 'added'
        : old.integrity !== entry.integrity || old.version !== entry.version
          ? 'updated'
          : 'unchanged';
      let registered: RegisterStatus | undefined;
      let path: string;
      if (plan.kind === 'present') {
        path = join(registry, plan.release.path);
      } else if (!options.useRegistry || options.dryRun) {
        // A project install copies straight from the skill's folder (a fetched tree, an unpacked archive, a folder).
        path = plan.kind === 'local' ? plan.prepared.skill.root : plan.root;
      } else {
        const skill = plan.kind === 'local' ? plan.prepared.skill : fromSkills.get(resolved.id)!;
        const relabel = plan.kind === 'local' ? plan.prepared.relabel : undefined;
        const r = registering.get(resolved.id)!;
        if (r instanceof SkillsError) throw relabelError(r, relabel);
        if (r.integrity !== entry.integrity) {
          throw new SkillsError(
            'E_IO',
            `${relabel ? relabel(skill.root) : skill.root} changed while it was being installed (integrity ${entry.integrity}, then ${r.integrity})`,
            { hint: 'run the install again once the skill is written' },
          );
        }
        registered = r.status;
        path = join(registry, r.path);
      }
      const installed: InstalledSkill = {
        id: resolved.id,
        version: resolved.version,
        source: entry.source,
        integrity: entry.integrity,
        dependencies: entry.dependencies,
        status,
        ...(status === 'updated' && old
          ? { was: { version: old.version, ...(old.source === entry.source ? {} : { source: old.source }) } }
          : {}),
        ...(registered === undefined ? {} : { registered }),
        path,
        requested: item.requested,
      };
      if (places.length > 0) {
        const link = entry.link === true;
        // The files just registered (or unpacked), or the stored copy's as checked, with their bytes: copied without a
        // walk or a read of `path`.
        const known = plan.kind === 'local' ? plan.prepared.files : stored.get(resolved.id);
        // An archive this run unpacked (no registry; into the last folder placed into, or the cache): its last
        // placement moves the unpacked copy there.
        const ownScratch =
          !options.useRegistry &&
          plan.kind === 'local' &&
          plan.prepared.source.startsWith('archive:') &&
          scratch?.holds(path) === true;
        const lastWrite = item.intoActions!.lastIndexOf('write');
        installed.placed = places.map(({ abs }, i) => {
          const action = item.intoActions![i];
          if (action === 'write' && !options.dryRun) {
            if (link) placeLink(abs, resolved.id, path, placing);
            else if (!(
              ownScratch &&
              known &&
              i === lastWrite &&
              adoptInto(abs, resolved.id, path, known, plan.kind === 'local' && plan.prepared.only === true, placing)
            ))
              placeInto(abs, resolved.id, path, entry.integrity, known && filesAt(path, known), placing);
          }
          return {
            into: join(abs, resolved.id),
            status: action === 'unchanged' ? 'unchanged' : 'written',
            ...(link ? { link } : {}),
          };
        });
        installed.into = installed.placed[0]!.into;
        installed.intoStatus = installed.placed[0]!.status;
        // A source unpacked or fetched into this run's temporary folder is gone once the run ends: its files are
        // where they were placed.
        if (scratch?.holds(path) === true) installed.path = installed.into;
      }
      skills.push(installed);
    }
    if (options.useRegistry && !options.dryRun) {
      const { useSkill, useSkills } = await import('../registry/usage.js');
      if (options.consumer) for (const s of skills) await useSkill(registry, s.id, options.consumer);
      // A project whose folders take copies uses them: recorded (its folder's path), so that another project's
      // uninstall does not take the store's copy from under it.
      if (places.length > 0)
        await useSkills(
          registry,
          skills.map((s) => s.id),
          dirname(options.lockfile),
        );
    }
  } catch (err) {
    // Stopped before its lock: nothing it staged is placed.
    throw afterCleanup(err, () => placing?.abort());
  }
  const text = serializeLockfile(planned.next);
  // --frozen never writes the lock: not even one whose text is only reordered (a hand edit).
  const lockChanged = !options.frozen && (before === undefined || serializeLockfile(before) !== text);
  const writeLock = () => {
    if (lockChanged && !options.dryRun) writeAtomic(options.lockfile, text);
  };
  if (placing) placing.commit(lockChanged ? text : undefined, writeLock);
  else writeLock();
  return {
    ok: true,
    ...(options.useRegistry ? { registry } : {}),
    lockfile: options.lockfile,
    lockChanged,
    ...(options.dryRun ? { dryRun: true } : {}),
    skills,
    skipped: planned.skipped,
    warnings: planned.warnings,
  };
}
