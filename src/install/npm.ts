// Skills from an npm-compatible registry: `npm:@acme/pdf@^1.2` (or `@acme/pdf@^1.2`) is resolved, with its
// dependencies, against the registry's packuments by the one resolver; each resolved version's tarball is fetched
// with npm's pacote (its bytes checked against the packument's integrity), unpacked by our hardened reader, and
// prepared as any other source. Each is locked as `npm:<package>` with its version, tarball URL and integrity.
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SkillsError } from '../errors.js';
import type { RemoteSource } from '../formats/install-source.js';
import { formatLockSource, type LockEntry } from '../formats/lockfile.js';
import { loadNpmConfig } from '../fetch/npm-config.js';
import { fetchTarball, type NpmFetchOptions, type Packument } from '../fetch/npm-registry.js';
import { resolveFromNpm } from '../resolve/from-npm.js';
import type { Gathered } from './remote.js';
import { prepareArchived, unpackArchive, type Scratch } from './sources.js';
import type { InstallOptions, InvalidSource, Prepared } from './types.js';

const fetchOptions = (options: Pick<InstallOptions, 'cwd' | 'env'>): NpmFetchOptions => ({
  config: loadNpmConfig({ cwd: options.cwd, env: options.env }),
  timeoutMs: Number(options.env.SKILLS_REGISTRY_TIMEOUT ?? 60) * 1000,
});

/** The tarball of one version, fetched, checked, unpacked into the scratch, its package.json taken out, prepared. */
async function preparePackage(
  name: string,
  version: string,
  integrity: string | undefined,
  typed: string,
  o: NpmFetchOptions,
  options: InstallOptions,
  scratch: Scratch,
): Promise<Prepared | InvalidSource> {
  options.progress?.(`fetching ${name}@${version}`);
  const bytes = await fetchTarball(name, version, integrity, o);
  const dir = scratch.folder('npm');
  mkdirSync(dir);
  const file = join(dir, `${name.replace('/', '-').replace(/^@/, '')}-${version}.tgz`);
  writeFileSync(file, bytes);
  const found = await unpackArchive(file, typed, scratch, options);
  if (found.length !== 1)
    throw new SkillsError(
      'E_INVALID',
      `${name}@${version} holds ${found.length === 0 ? 'no skill' : `${found.length} skills`}; a skill's package holds one; nothing was installed`,
      { hint: 'publish each skill as a package of its own (skills publish)' },
    );
  let a = found[0]!;
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
  return prepareArchived(a, typed, '', false);
}

/** Every skill an npm source brings: the package at the version its range picks, and its dependencies. */
export async function gatherNpm(
  remote: Extract<RemoteSource, { kind: 'npm' }>,
  options: InstallOptions,
  scratch: Scratch,
): Promise<Gathered> {
  const o = fetchOptions(options);
  options.progress?.(`resolving ${remote.typed}`);
  const { resolution, packuments, root } = await resolveFromNpm(remote.name, remote.range, {
    ...o,
    nodeVersion: options.nodeVersion,
  });
  if (!resolution.ok) throw resolution.error;
  const scope = remote.name.startsWith('@') ? `${remote.name.slice(0, remote.name.indexOf('/'))}/` : '';
  const found: Gathered['found'] = [];
  for (const r of resolution.resolved) {
    const name = `${scope}${r.id}`;
    const v = (packuments.get(r.id) as Packument).versions[r.version]!;
    const p = await preparePackage(name, r.version, v.dist.integrity, `${name}@${r.version}`, o, options, scratch);
    if ('diagnostics' in p) {
      found.push(p);
      continue;
    }
    found.push({
      ...p,
      source: formatLockSource({ kind: 'npm', name }),
      origin: {
        ...(r.id === root && remote.range !== undefined ? { ref: remote.range } : {}),
        tarball: v.dist.tarball,
        ...(v.dist.integrity ? { tarballIntegrity: v.dist.integrity } : {}),
      },
    });
  }
  return { found, several: false };
}

/** A locked npm skill again: exactly the locked version, its tarball checked against the locked integrity. */
export async function replayNpm(
  name: string,
  entry: LockEntry,
  options: InstallOptions,
  scratch: Scratch,
): Promise<Prepared | InvalidSource> {
  const o = fetchOptions(options);
  return preparePackage(name, entry.version, entry.tarballIntegrity, `${name}@${entry.version}`, o, options, scratch);
}
