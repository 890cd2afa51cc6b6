// Skills from an npm-compatible registry: `npm:@acme/pdf@^1.2` (or `@acme/pdf@^1.2`) is resolved, with its
// dependencies, against the registry's packuments by the one resolver; each resolved version's tarball is fetched
// with npm's pacote (its bytes checked against the packument's integrity), unpacked by our hardened reader, and
// prepared as any other source. Each is locked as `npm:<package>` with its version, tarball URL and integrity.
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SkillsError, isSkillsError } from '../errors.js';
import { redactUrl, type RemoteSource } from '../formats/install-source.js';
import { formatLockSource, parseLockSource, type LockEntry, type Lockfile } from '../formats/lockfile.js';
import { loadNpmConfig } from '../fetch/npm-config.js';
import { needCache } from '../fetch/cache.js';
import { fetchTarball, type NpmFetchOptions, type Packument } from '../fetch/npm-registry.js';
import { idOfPackage, resolveNpmRequests, type NpmHeld } from '../resolve/from-npm.js';
import { isUnversioned, registryVersion } from '../registry/unversioned.js';
import type { Resolution } from '../resolve/types.js';
import type { Gathered } from './remote.js';
import { linksLeftOutWarning } from './archive-links.js';
import { classifySource, prepareArchived, relabelError, relabeler, unpackArchive, type Scratch } from './sources.js';
import type { InstallOptions, InvalidSource, Prepared } from './types.js';

const fetchOptions = (options: Pick<InstallOptions, 'cwd' | 'env'>): NpmFetchOptions => ({
  config: loadNpmConfig({ cwd: options.cwd, env: options.env }),
});

/** The tarball of one version, fetched, checked, unpacked into the scratch, its package.json taken out, prepared. */
async function preparePackage(
  name: string,
  version: string,
  integrity: string | undefined,
  tarball: string | undefined,
  typed: string,
  o: NpmFetchOptions,
  options: InstallOptions,
  scratch: Scratch,
  warnings?: string[],
): Promise<Prepared | InvalidSource> {
  needCache(options.cacheDir);
  options.progress?.(`fetching ${name}@${version}`);
  const bytes = await fetchTarball(name, version, integrity, o);
  const dir = scratch.folder('npm');
  mkdirSync(dir);
  const file = join(dir, `${name.replace('/', '-').replace(/^@/, '')}-${version}.tgz`);
  writeFileSync(file, bytes);
  let found;
  try {
    found = await unpackArchive(file, typed, scratch, options);
  } catch (err) {
    throw aboutTarball(err, file, name, version, tarball);
  }
  if (found.length !== 1)
    throw new SkillsError(
      'E_INVALID',
      `${name}@${version} holds ${found.length === 0 ? 'no skill' : `${found.length} skills`}; a skill's package holds one; nothing was installed`,
      { hint: 'publish each skill as a package of its own (skills publish)' },
    );
  let a = found[0]!;
  warnings?.push(...linksLeftOutWarning(typed, scratch.linksLeftOut.get(file) ?? [], [a.inner]));
  // The package.json npm needs is the package's, not the skill's: it is not placed with the skill.
  const manifest = join(a.root, 'package.json');
  if (existsSync(manifest)) {
    try {
      if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === name) {
        // Unpacked read-only (as the store keeps it): Windows deletes no read-only file.
        chmodSync(manifest, 0o644);
        rmSync(manifest);
        a = {
          ...a,
          files: a.files.filter((f) => f.rel !== 'package.json'),
          ...(a.entries ? { entries: a.entries.filter((e) => e.path !== 'package.json') } : {}),
        };
      }
    } catch {
      // not the package's manifest: the skill's own file, kept
    }
  }
  return asPackageVersion(await prepareArchived(a, typed, '', false, version), name, version, warnings);
}

/**
 * An error of the archive reader about a package's tarball (an entry with `..`, a link, a bomb), told by the package
 * and its tarball's URL rather than by the scratch file it was written to (gone by the time it is read), with a hint
 * for a package: its publisher made it, not skills pack.
 */
function aboutTarball(err: unknown, file: string, name: string, version: string, tarball?: string): unknown {
  if (!isSkillsError(err) || !err.message.includes(file)) return err;
  const label = `npm:${name}@${version}${tarball === undefined ? '' : ` (${redactUrl(tarball)})`}`;
  return relabelError(
    err.code === 'E_INVALID'
      ? new SkillsError(err.code, err.message, {
          cause: err,
          hint: `the publisher of ${name} made a tarball that skills will not unpack: install another version, and tell them (npm view ${name} bugs)`,
        })
      : err,
    relabeler(file, label, ''),
  );
}

/**
 * The skill under the package's version, as npm and cargo know a package: a package published by hand with npm
 * whose SKILL.md has no version is its package.json's version, not 0.0.0 (which outdated and update would then find
 * older than the package forever). A SKILL.md that says another version, or one that is not semver at all
 * (`version: beta`), is said, and the package's is kept.
 */
function asPackageVersion(
  p: Prepared | InvalidSource,
  name: string,
  version: string,
  warnings?: string[],
): Prepared | InvalidSource {
  if ('diagnostics' in p) return p;
  if (!isUnversioned(p.skill) && registryVersion(p.skill) !== version)
    warnings?.push(
      `${name}@${version}: its ${p.skill.layout === 'skill-md' ? 'SKILL.md' : 'manifest.json'} says version ${p.skill.version}; the package's version, ${version}, is the one installed and locked`,
    );
  return { ...p, skill: { ...p.skill, version } };
}

/**
 * Every skill the npm sources of one command bring: each package at the version its range picks, and their
 * dependencies, resolved together and against the npm skills `lock` holds (kept at their versions, their
 * dependencies' ranges met). A skill the lock holds is fetched again only when a skill asked for needs it.
 */
export async function gatherNpm(
  remotes: Extract<RemoteSource, { kind: 'npm' }>[],
  options: InstallOptions,
  scratch: Scratch,
  lock?: Lockfile,
): Promise<Gathered> {
  needCache(options.cacheDir);
  const o = fetchOptions(options);
  options.progress?.(`resolving ${remotes.map((r) => r.typed).join(', ')}`);
  const held = Object.entries(lock?.skills ?? {}).flatMap(([id, e]) => {
    const s = parseLockSource(e.source);
    return s.kind === 'npm' && idOfPackage(s.name) === id ? [{ name: s.name, version: e.version }] : [];
  });
  const { resolution, packuments, roots } = await resolveNpmRequests(
    remotes.map((r) => ({ name: r.name, ...(r.range === undefined ? {} : { range: r.range }) })),
    held,
    { ...o, nodeVersion: options.nodeVersion },
  );
  if (!resolution.ok) throw withNpmHint(resolution, held, lock);
  const ranges = new Map(remotes.map((r) => [idOfPackage(r.name), r.range]));
  // What the requests reach: an installed skill nothing asked for needs is left as it is.
  const byId = new Map(resolution.resolved.map((r) => [r.id, r]));
  const reached = new Set<string>();
  const walk = (id: string) => {
    if (reached.has(id)) return;
    reached.add(id);
    for (const d of byId.get(id)?.dependencies ?? []) walk(d.slice(0, d.indexOf('@', 1)));
  };
  roots.forEach(walk);
  const found: Gathered['found'] = [];
  const warnings: string[] = [];
  for (const r of resolution.resolved) {
    if (!reached.has(r.id)) continue;
    const doc = packuments.get(r.id) as Packument;
    const name = doc.name;
    const v = doc.versions[r.version]!;
    const typed = `${name}@${r.version}`;
    const { integrity, tarball } = v.dist;
    const p = await preparePackage(name, r.version, integrity, tarball, typed, o, options, scratch, warnings);
    if ('diagnostics' in p) {
      found.push(p);
      continue;
    }
    const asked = ranges.get(r.id);
    // The range asked for now, else the one the lock keeps (`next`, `^1`): a dependency fetched again keeps it.
    const old = lock?.skills[r.id];
    const ref = ranges.has(r.id) ? asked : old?.version === r.version ? old.ref : undefined;
    found.push({
      ...p,
      source: formatLockSource({ kind: 'npm', name }),
      origin: {
        ...(ref !== undefined ? { ref } : {}),
        tarball: v.dist.tarball,
        ...(v.dist.integrity ? { tarballIntegrity: v.dist.integrity } : {}),
      },
    });
  }
  return { found, several: false, warnings };
}

/** Every npm package among the install's sources, gathered together (gatherNpm). */
export async function gatherNpmSources(options: InstallOptions, scratch: Scratch, lock?: Lockfile): Promise<Gathered> {
  const remotes = options.sources.flatMap((raw) => {
    const c = classifySource(raw, options.cwd);
    return c.kind === 'npm' ? [c.remote] : [];
  });
  return gatherNpm(remotes, options, scratch, lock);
}

/**
 * The resolver's refusal with a hint for npm packages: a version in every range, or the installed skill that needs
 * the other uninstalled.
 */
function withNpmHint(resolution: Extract<Resolution, { ok: false }>, held: NpmHeld[], lock?: Lockfile): SkillsError {
  const error = resolution.error;
  if (resolution.kind !== 'conflict') return error;
  const installed = held
    .map((h) => idOfPackage(h.name))
    .filter((id) => error.message.includes(`${id}@${lock!.skills[id]!.version} (installed) needs`));
  return new SkillsError(
    'E_INVALID',
    `${error.message}
nothing was installed`,
    {
      hint: `ask for a version that every range above allows${installed.length > 0 ? `, or uninstall the installed skill that needs the other first (skills uninstall ${installed.join(' ')})` : ''}`,
    },
  );
}

/** A locked npm skill again: exactly the locked version, its tarball checked against the locked integrity. */
export async function replayNpm(
  name: string,
  entry: LockEntry,
  options: InstallOptions,
  scratch: Scratch,
): Promise<Prepared | InvalidSource> {
  const o = fetchOptions(options);
  const { version, tarballIntegrity, tarball } = entry;
  return preparePackage(name, version, tarballIntegrity, tarball, `${name}@${version}`, o, options, scratch);
}
