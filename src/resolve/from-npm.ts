// Resolution against an npm-compatible registry: the packuments of a package and of every package its versions
// depend on (fetched once each, breadth first) make a Catalog, and the one resolver (its conflict messages
// included) picks the versions. A skill's id is its package's name without the scope (`@acme/pdf` is `pdf`), and a
// package's dependencies are skills when they are packages of the same scope.
import semver from 'semver';
import { SkillsError } from '../errors.js';
import { fetchPackument, type NpmFetchOptions, type Packument } from '../fetch/npm-registry.js';
import { isSkillId, type DependencySpec } from '../model/spec.js';
import type { Catalog, CatalogRelease } from './catalog.js';
import { resolveSpecs } from './resolve.js';
import type { Resolution } from './types.js';

/** The most packages one resolution fetches: a registry is not crawled. */
const MAX_PACKAGES = 500;

export const idOfPackage = (name: string): string => name.slice(name.indexOf('/') + 1);

export interface NpmCatalog {
  catalog: Catalog;
  /** Skill id → its packument. */
  packuments: Map<string, Packument>;
}

/** Fetch `root` and what its versions depend on in its scope, and lay them out as a Catalog. */
export async function npmCatalog(root: string, o: NpmFetchOptions): Promise<NpmCatalog> {
  const scope = root.startsWith('@') ? root.slice(0, root.indexOf('/')) : undefined;
  const packuments = new Map<string, Packument>();
  const queue = [root];
  const asked = new Set(queue);
  while (queue.length > 0) {
    const name = queue.shift()!;
    const doc = await fetchPackument(name, o);
    packuments.set(idOfPackage(name), doc);
    for (const v of Object.values(doc.versions))
      for (const dep of Object.keys(v.dependencies ?? {})) {
        if (asked.has(dep) || !sameScope(dep, scope)) continue;
        if (asked.size >= MAX_PACKAGES)
          throw new SkillsError(
            'E_INVALID',
            `${root} depends on more than ${MAX_PACKAGES} packages; nothing was installed`,
          );
        asked.add(dep);
        queue.push(dep);
      }
  }
  const versions = new Map<string, string[]>();
  const catalog: Catalog = {
    ids: () => [...packuments.keys()],
    versions(id) {
      const doc = packuments.get(id);
      if (!doc) return undefined;
      let list = versions.get(id);
      if (!list) {
        list = Object.keys(doc.versions)
          .filter((v) => semver.valid(v) === v)
          .sort(semver.rcompare);
        versions.set(id, list);
      }
      return list;
    },
    release(id, version): CatalogRelease | undefined {
      const v = packuments.get(id)?.versions[version];
      if (!v) return undefined;
      const dependencies: DependencySpec[] = Object.entries(v.dependencies ?? {})
        .filter(([dep]) => sameScope(dep, scope) && isSkillId(idOfPackage(dep)))
        .map(([dep, range]) => ({
          raw: `${idOfPackage(dep)}@${range}`,
          id: idOfPackage(dep),
          range,
          exact: semver.valid(range) === range,
        }));
      return { version, dependencies, layout: 'skill-md', path: '' };
    },
  };
  return { catalog, packuments };
}

const sameScope = (name: string, scope: string | undefined) =>
  scope === undefined ? !name.startsWith('@') : name.startsWith(`${scope}/`);

/**
 * Resolve `name` at `range` (a semver range, a dist-tag, or none: the `latest` tag) against its registry, with its
 * dependencies. A resolution that fails is data (`ok: false`), with the resolver's own explanation.
 */
export async function resolveFromNpm(
  name: string,
  range: string | undefined,
  o: NpmFetchOptions & { nodeVersion: string },
): Promise<{ resolution: Resolution; packuments: Map<string, Packument>; root: string }> {
  const { catalog, packuments } = await npmCatalog(name, o);
  const id = idOfPackage(name);
  const doc = packuments.get(id)!;
  // A dist-tag (`latest`, `next`) is the version it points at.
  const tagged = range === undefined ? doc['dist-tags'].latest : doc['dist-tags'][range];
  if (range !== undefined && tagged === undefined && semver.validRange(range) === null)
    throw new SkillsError('E_NOT_FOUND', `${name} has no dist-tag "${range}", and "${range}" is not a semver range`, {
      hint: `its tags: ${Object.keys(doc['dist-tags']).join(', ') || 'none'}`,
    });
  const wanted = tagged ?? range;
  const spec: DependencySpec = {
    raw: `${id}@${wanted ?? '*'}`,
    id,
    ...(wanted === undefined ? {} : { range: wanted }),
    exact: wanted !== undefined && semver.valid(wanted) === wanted,
  };
  return { resolution: resolveSpecs([spec], catalog, { nodeVersion: o.nodeVersion }), packuments, root: id };
}
