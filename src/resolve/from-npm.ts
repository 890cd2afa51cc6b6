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

/**
 * Fetch `roots` and what their versions depend on in their scopes, and lay them out as a Catalog. A name in
 * `optional` whose packument cannot be fetched is left out (an installed skill since unpublished) rather than failing.
 */
export async function npmCatalog(
  roots: string | string[],
  o: NpmFetchOptions,
  optional: ReadonlySet<string> = new Set(),
): Promise<NpmCatalog> {
  const first = typeof roots === 'string' ? roots : roots[0]!;
  const packuments = new Map<string, Packument>();
  const queue = typeof roots === 'string' ? [roots] : [...new Set(roots)];
  const asked = new Set(queue);
  while (queue.length > 0) {
    const name = queue.shift()!;
    let doc: Packument;
    try {
      doc = await fetchPackument(name, o);
    } catch (err) {
      if (optional.has(name)) continue;
      throw err;
    }
    packuments.set(idOfPackage(name), doc);
    const scope = scopeOf(name);
    for (const v of Object.values(doc.versions))
      for (const dep of Object.keys(v.dependencies ?? {})) {
        if (asked.has(dep) || !sameScope(dep, scope)) continue;
        if (asked.size >= MAX_PACKAGES)
          throw new SkillsError(
            'E_INVALID',
            `${first} depends on more than ${MAX_PACKAGES} packages; nothing was installed`,
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
      const scope = scopeOf(packuments.get(id)!.name ?? first);
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

const scopeOf = (name: string) => (name.startsWith('@') ? name.slice(0, name.indexOf('/')) : undefined);

const sameScope = (name: string, scope: string | undefined) =>
  scope === undefined ? !name.startsWith('@') : name.startsWith(`${scope}/`);

/** A package asked for: its name, and a semver range, a dist-tag, or none (its `latest` tag). */
export interface NpmRequest {
  name: string;
  range?: string;
}

/** A package the lock holds at a version, which a new request must leave where it is. */
export interface NpmHeld {
  name: string;
  version: string;
}

/**
 * Resolve `name` at `range` (a semver range, a dist-tag, or none: the `latest` tag) against its registry, with its
 * dependencies. A resolution that fails is data (`ok: false`), with the resolver's own explanation.
 */
export async function resolveFromNpm(
  name: string,
  range: string | undefined,
  o: NpmFetchOptions & { nodeVersion: string },
): Promise<{ resolution: Resolution; packuments: Map<string, Packument>; root: string }> {
  const r = await resolveNpmRequests([{ name, range }], [], o);
  return { ...r, root: r.roots[0]! };
}

/**
 * Resolve the requests together, with their dependencies, and with the packages `held` (what the lock holds) kept
 * at their versions: their own dependencies' ranges constrain the requests, as npm and cargo resolve a later
 * install against what is installed. A held package asked for again is a request, not held.
 */
export async function resolveNpmRequests(
  requests: NpmRequest[],
  held: NpmHeld[],
  o: NpmFetchOptions & { nodeVersion: string },
): Promise<{ resolution: Resolution; packuments: Map<string, Packument>; roots: string[] }> {
  const asked = new Set(requests.map((r) => idOfPackage(r.name)));
  const kept = held.filter((h) => !asked.has(idOfPackage(h.name)));
  const { catalog, packuments } = await npmCatalog(
    [...requests.map((r) => r.name), ...kept.map((h) => h.name)],
    o,
    new Set(kept.map((h) => h.name)),
  );
  const specs: DependencySpec[] = requests.map(({ name, range }) => {
    const id = idOfPackage(name);
    const doc = packuments.get(id)!;
    // A dist-tag (`latest`, `next`) is the version it points at.
    const tagged = range === undefined ? doc['dist-tags'].latest : doc['dist-tags'][range];
    if (range !== undefined && tagged === undefined && semver.validRange(range) === null)
      throw new SkillsError('E_NOT_FOUND', `${name} has no dist-tag "${range}", and "${range}" is not a semver range`, {
        hint: `its tags: ${Object.keys(doc['dist-tags']).join(', ') || 'none'}`,
      });
    const wanted = tagged ?? range;
    return {
      raw: `${id}@${wanted ?? '*'}`,
      id,
      ...(wanted === undefined ? {} : { range: wanted }),
      exact: wanted !== undefined && semver.valid(wanted) === wanted,
    };
  });
  // One still published: a version since unpublished cannot be checked against, and is left as installed.
  for (const h of kept) {
    const id = idOfPackage(h.name);
    if (catalog.versions(id)?.includes(h.version))
      specs.push({ raw: `${id}@${h.version}`, id, range: h.version, exact: true, installed: true });
  }
  const resolution = resolveSpecs(specs, catalog, { nodeVersion: o.nodeVersion });
  return { resolution, packuments, roots: [...asked] };
}
