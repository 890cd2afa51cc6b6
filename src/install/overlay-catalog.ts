// The catalog an install resolves dependencies in: the registry's, with the skills the sources hold laid over it.
import rcompare from 'semver/functions/rcompare.js';
import { registryVersion } from '../registry/unversioned.js';
import type { Catalog, CatalogRelease } from '../resolve/resolve.js';
import type { Prepared } from './types.js';

/** The registry's catalog with the local skills laid over it, so their dependencies resolve with everything else. */
export function overlayCatalog(base: Catalog, locals: Map<string, Prepared>): Catalog {
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
