// Planning an install: what each skill resolves to, where it comes from, and the lock that results. Reads the disk
// (and unpacks archives into the scratch), writes nothing.
import { dirname, join, relative, resolve } from 'node:path';
import rcompare from 'semver/functions/rcompare.js';
import { SkillsError } from '../errors.js';
import {
  LOCKFILE_NAME,
  diffLockfiles,
  formatLockSource,
  parseLockSource,
  type LockEntry,
  type Lockfile,
} from '../formats/lockfile.js';
import type { DependencySpec } from '../model/spec.js';
import { isSkillFolder } from '../skill/discover.js';
import { present } from '../fs/walk.js';
import { readIndex, readReleases } from '../registry/index-io.js';
import { isUnversioned, registryVersion, unversionedWarning } from '../registry/unversioned.js';
import {
  catalogFromIndex,
  resolveSpecs,
  type Catalog,
  type CatalogRelease,
  type ResolvedSkill,
} from '../resolve/resolve.js';
import { lockPath } from './lock.js';
import { classifySource, prepareArchived, prepareLocal, skillsBelow, unpackArchive, type Scratch } from './sources.js';
import type { InstallOptions, InstallOutcome, InvalidSource, Plan, Planned, Prepared } from './types.js';

/** The registry's catalog with the local skills laid over it, so their dependencies resolve with everything else. */
function overlayCatalog(base: Catalog, locals: Map<string, Prepared>): Catalog {
  const lists = new Map<string, string[]>();
  return {
    ids: () => [...new Set([...base.ids(), ...locals.keys()])],
    versions(id) {
      const local = locals.get(id);
      if (!local) return base.versions(id);
      let list = lists.get(id);
      if (!list) {
        list = [...new Set([...(base.versions(id) ?? []), registryVersion(local.skill)])].sort(rcompare);
        lists.set(id, list);
      }
      return list;
    },
    release(id, version): CatalogRelease | undefined {
      const local = locals.get(id);
      if (local && registryVersion(local.skill) === version) {
        const s = local.skill;
        return {
          version,
          dependencies: s.dependencies,
          nodeVersion: s.nodeVersion,
          systemPackages: s.systemPackages,
          layout: s.layout,
          path: '',
        };
      }
      return base.release(id, version);
    },
  };
}

const depsOf = (r: ResolvedSkill): Record<string, string> =>
  Object.fromEntries(r.dependencies.map((d) => [d.slice(0, d.indexOf('@', 1)), d.slice(d.indexOf('@', 1) + 1)]));

/** The refusal for content that differs from what the lock (or a registry) records for a version. */
export function mismatch(
  id: string,
  version: string,
  lockfile: string,
  locked: string,
  origin: string,
  found: string,
): SkillsError {
  return new SkillsError(
    'E_INVALID',
    `integrity mismatch for ${id}@${version}: ${lockfile} has ${locked}, but ${origin} has ${found}; nothing was installed`,
    {
      hint: `if the new content is wanted, give the skill a new version; or run skills uninstall ${id} and install it again`,
    },
  );
}

/** Plan an install of the sources given: each resolved, with its dependencies, against the registry (or --from). */
export async function planFromSources(
  options: InstallOptions,
  lock: Lockfile,
  scratch: Scratch,
  lockDir: string,
): Promise<Planned | Extract<InstallOutcome, { ok: false }>> {
  const specs: DependencySpec[] = [];
  const locals = new Map<string, Prepared>();
  const invalid: InvalidSource[] = [];
  for (const raw of options.sources) {
    const c = classifySource(raw, options.cwd);
    if (c.kind === 'spec') {
      specs.push(c.spec);
      continue;
    }
    const prepared: (Prepared | InvalidSource)[] = [];
    if (c.kind === 'folder') {
      // A folder that holds skills (a clone of a skills repository) stands for every skill in it, as sync reads it.
      const folders = isSkillFolder(c.abs) ? [] : skillsBelow(c.abs);
      for (const abs of folders.length > 0 ? folders : [c.abs]) {
        prepared.push(
          await prepareLocal(
            abs,
            abs === c.abs ? raw : join(raw, relative(c.abs, abs)),
            formatLockSource({ kind: 'folder', path: lockPath(lockDir, abs) }),
          ),
        );
      }
    } else {
      // So does an archive that holds skills (a repository's "Download ZIP", git archive).
      const found = await unpackArchive(c.abs, raw, scratch, options);
      for (const a of found) prepared.push(await prepareArchived(a, raw, lockPath(lockDir, c.abs), found.length > 1));
    }
    for (const p of prepared) {
      if ('diagnostics' in p) {
        invalid.push(p);
        continue;
      }
      const twice = locals.get(p.skill.id);
      if (twice)
        throw new SkillsError('E_USAGE', `${p.skill.id} is given twice: ${twice.typed} and ${p.typed}`, {
          hint: 'install one of them',
        });
      locals.set(p.skill.id, p);
    }
  }
  if (invalid.length > 0) {
    const error = new SkillsError('E_INVALID', invalid.map((i) => i.message).join('\n'), {
      hint: 'run skills validate on the skill folder (unpack an archive first) to see every finding',
    });
    return { ok: false, kind: 'invalid', error, invalid, warnings: [] };
  }
  const source = options.from ?? options.registry;
  options.progress?.('resolving dependencies');
  const base = catalogFromIndex(readIndex(source), (id) => readReleases(source, id));
  const catalog = overlayCatalog(base, locals);
  const roots: DependencySpec[] = [
    ...[...locals.values()].map((p) => ({
      raw: `${p.skill.id}@${registryVersion(p.skill)}`,
      id: p.skill.id,
      range: registryVersion(p.skill),
      exact: true,
    })),
    ...specs,
  ];
  const resolution = resolveSpecs(roots, catalog, { nodeVersion: options.nodeVersion });
  if (!resolution.ok) return { ok: false, kind: 'unresolved', error: resolution.error, warnings: resolution.warnings };
  const requested = new Set(resolution.roots);
  const owners = new Map(options.from ? readIndex(options.from).skills.map((e) => [e.id, e.owner]) : []);
  const items: Planned['items'] = [];
  for (const r of resolution.resolved) {
    const local = locals.get(r.id);
    let plan: Plan;
    let entrySource: string;
    let integrity: string;
    if (local && registryVersion(local.skill) === r.version) {
      plan = { kind: 'local', prepared: local };
      entrySource = local.source;
      integrity = local.integrity;
    } else {
      const release = readReleases(source, r.id)[r.version]!;
      integrity = release.integrity;
      if (options.from) {
        plan = {
          kind: 'from',
          root: join(options.from, release.path),
          release,
          owner: owners.get(r.id) ?? 'built-in',
          registry: options.from,
        };
        entrySource = `registry:${lockPath(lockDir, options.from)}`;
      } else {
        plan = { kind: 'present', release };
        entrySource = 'registry';
      }
    }
    const old = lock.skills[r.id];
    // An unversioned skill from a folder or archive changes without a version to bump: its new content is an update.
    const unversionedUpdate = plan.kind === 'local' && isUnversioned(plan.prepared.skill);
    if (old && old.version === r.version && old.integrity !== integrity && !unversionedUpdate) {
      throw mismatch(
        r.id,
        r.version,
        options.lockfile,
        old.integrity,
        plan.kind === 'local' ? plan.prepared.typed : entrySource,
        integrity,
      );
    }
    // The same content, pulled in again from elsewhere (a dependency now found in the registry): the lock keeps
    // where it first came from, so installs in a different order write the same lock.
    const keep = old !== undefined && old.version === r.version && plan.kind !== 'local';
    const entry: LockEntry = {
      version: r.version,
      source: keep ? old!.source : entrySource,
      integrity,
      dependencies: depsOf(r),
    };
    items.push({ resolved: r, plan, entry, requested: requested.has(`${r.id}@${r.version}`) });
  }
  const next: Lockfile = { ...lock, skills: { ...lock.skills } };
  for (const i of items) next.skills[i.resolved.id] = i.entry;
  const changes = diffLockfiles(lock, next);
  if (options.frozen && changes.length > 0) {
    return {
      ok: false,
      kind: 'frozen',
      changes,
      warnings: resolution.warnings,
      error: new SkillsError(
        'E_INVALID',
        `--frozen: ${options.lockfile} would change; nothing was installed:\n${changes.map((c) => `  ${c}`).join('\n')}`,
        {
          hint: 'run skills install without --frozen and commit skills-lock.json',
        },
      ),
    };
  }
  const unversioned = [...locals.values()]
    .filter((p) => isUnversioned(p.skill))
    .map((p) => unversionedWarning(p.skill));
  return { ok: true, items, next, warnings: [...unversioned, ...resolution.warnings] };
}

/** Plan an install of exactly what the lock says, each entry checked against where it comes from. */
export async function planFromLock(
  options: InstallOptions,
  lock: Lockfile | undefined,
  scratch: Scratch,
): Promise<Planned> {
  if (!lock) {
    throw new SkillsError(
      'E_USAGE',
      `nothing to install: no ${LOCKFILE_NAME} in ${options.cwd} or the folders above it (up to the repository root)`,
      {
        hint: 'name what to install: skills install <folder | archive | id[@range]>',
      },
    );
  }
  const lockDir = dirname(options.lockfile);
  const items: Planned['items'] = [];
  const ids = Object.keys(lock.skills).sort();
  for (const id of ids) {
    const entry = lock.skills[id]!;
    const where = `${id}@${entry.version}`;
    let plan: Plan;
    let found: string;
    let origin: string;
    const src = parseLockSource(entry.source);
    if (src.kind === 'folder' || src.kind === 'archive') {
      let { path } = src;
      let inner = src.kind === 'archive' ? src.inner : undefined;
      // A lock written before `#<path inside>` existed may have a `#` in the archive's own path.
      const whole = entry.source.slice(entry.source.indexOf(':') + 1);
      if (inner !== undefined && (path === '' || !present(resolve(lockDir, path))) && present(resolve(lockDir, whole)))
        [path, inner] = [whole, undefined];
      const abs = resolve(lockDir, path);
      if (!present(abs))
        throw new SkillsError(
          'E_NOT_FOUND',
          `${options.lockfile}: ${where} comes from ${entry.source}, and ${abs} is not there`,
          { hint: `restore it, or install ${id} again from where it is now` },
        );
      let p: Prepared | InvalidSource;
      let shown = abs;
      if (src.kind === 'folder') p = await prepareLocal(abs, path, entry.source);
      else {
        const inArchive = await unpackArchive(abs, path, scratch, options);
        // No path inside: the archive's one skill (or, should it hold several now, the one with the locked id).
        const a =
          inner !== undefined
            ? inArchive.find((f) => f.inner === inner)
            : inArchive.length === 1
              ? inArchive[0]
              : inArchive.find((f) => f.id === id);
        if (!a) {
          throw new SkillsError(
            'E_NOT_FOUND',
            `${options.lockfile}: ${where} comes from ${entry.source}, but ${abs} holds no skill ${inner !== undefined ? `at "${inner}"` : `with the id ${id}`}; it holds ${inArchive.map((f) => (f.inner === '' ? `${f.id} at its top` : `${f.id} in "${f.inner}"`)).join(', ')}. Nothing was installed`,
            {
              hint: `install ${id} again from where it is now`,
            },
          );
        }
        p = await prepareArchived(a, path, path, inner !== undefined);
        if (inner !== undefined) shown = `${abs}: ${inner}`;
      }
      if ('diagnostics' in p) {
        throw new SkillsError(
          'E_INVALID',
          `${p.message}:\n${p.diagnostics.map((d) => `  ${d.file}${d.line ? `:${d.line}:${d.column ?? 1}` : ''}  ${d.message}`).join('\n')}`,
          {
            hint:
              src.kind === 'archive'
                ? `unpack ${abs} and run skills validate on the skill folder`
                : `run skills validate ${abs}`,
          },
        );
      }
      if (p.skill.id !== id || registryVersion(p.skill) !== entry.version) {
        throw new SkillsError(
          'E_INVALID',
          `${options.lockfile} locks ${where}, but ${shown} holds ${p.skill.id}@${registryVersion(p.skill)}; nothing was installed`,
          { hint: `install it again to update the lock: skills install ${path}` },
        );
      }
      plan = { kind: 'local', prepared: { ...p, source: entry.source } };
      found = p.integrity;
      origin = shown;
    } else {
      const arg = src.dir ?? '';
      const reg = arg !== '' ? resolve(lockDir, arg) : options.registry;
      const index = readIndex(reg);
      const e = index.skills.find((s) => s.id === id);
      const release = e?.versions.includes(entry.version) ? readReleases(reg, id)[entry.version] : undefined;
      if (!release) {
        throw new SkillsError(
          'E_NOT_FOUND',
          `${options.lockfile} locks ${where} from the registry ${reg}, which does not have it${e ? ` (it has ${e.versions.join(', ')})` : ''}; nothing was installed`,
          {
            hint: arg
              ? 'restore that registry folder'
              : `register it (skills sync <dir>), or use --registry to point at the registry that has it`,
          },
        );
      }
      found = release.integrity;
      origin = reg;
      plan = arg
        ? { kind: 'from', root: join(reg, release.path), release, owner: e!.owner, registry: reg }
        : { kind: 'present', release };
    }
    if (found !== entry.integrity) throw mismatch(id, entry.version, options.lockfile, entry.integrity, origin, found);
    const resolved: ResolvedSkill = {
      id,
      version: entry.version,
      layout: plan.kind === 'local' ? plan.prepared.skill.layout : plan.release.layout,
      path: '',
      dependencies: Object.entries(entry.dependencies).map(([d, v]) => `${d}@${v}`),
    };
    items.push({ resolved, plan, entry, requested: true });
  }
  return { ok: true, items, next: lock, warnings: [] };
}
