// The registry as the resolver sees it: an index whose releases are read, and parsed, only when reached.
import type { RegistryIndex, Release } from '../formats/index-file.js';
import type { Layout } from '../model/skill.js';
import { parseSpec, type DependencySpec } from '../model/spec.js';
import { SkillsError } from '../errors.js';
import { compareVersions, versionKey } from './versions.js';

/** What the resolver needs of one registered version. */
export interface CatalogRelease {
  version: string;
  dependencies: DependencySpec[];
  nodeVersion?: string;
  systemPackages?: string[];
  layout: Layout;
  /** As the index has it: relative to the registry folder. */
  path: string;
}

/** The registry as the resolver sees it. */
export interface Catalog {
  /** Every id, for "did you mean". */
  ids(): readonly string[];
  /** The versions of `id`, newest first (the same array on every call); undefined for an unknown id. */
  versions(id: string): readonly string[] | undefined;
  release(id: string, version: string): CatalogRelease | undefined;
}

/** The releases of one skill (version → release), as releases/<id>.json holds them. */
export type ReleaseLoader = (id: string) => Readonly<Record<string, Release>>;

/**
 * A Catalog over an index: an id's releases are loaded (through `load`) when the resolver first touches that id,
 * versions sorted and dependencies parsed on first use, so a big registry costs what the resolution reaches.
 * `source` names where the releases come from in messages (default `releases/<id>.json`).
 */
export function catalogFromIndex(
  index: RegistryIndex,
  load: ReleaseLoader,
  source: (id: string) => string = (id) => `releases/${id}.json`,
): Catalog {
  const entries = new Map(index.skills.map((e) => [e.id, e]));
  const loaded = new Map<string, Readonly<Record<string, Release>>>();
  const versionLists = new Map<string, string[]>();
  const releases = new Map<string, CatalogRelease>();
  const releasesOf = (id: string) => {
    let r = loaded.get(id);
    if (!r) {
      r = load(id);
      loaded.set(id, r);
    }
    return r;
  };
  return {
    ids: () => [...entries.keys()],
    versions(id) {
      const cached = versionLists.get(id);
      if (cached) return cached;
      const entry = entries.get(id);
      if (!entry) return undefined;
      const rel = releasesOf(id);
      // Not semver, or without its release: the index never resolves to it.
      const list = [...new Set(entry.versions)].filter((v) => Object.hasOwn(rel, v) && versionKey(v) !== undefined);
      if (!list.every((v, i) => i === 0 || compareVersions(list[i - 1]!, v) >= 0))
        list.sort((a, b) => compareVersions(b, a));
      versionLists.set(id, list);
      return list;
    },
    release(id, version) {
      const key = `${id}@${version}`;
      const cached = releases.get(key);
      if (cached) return cached;
      const entry = entries.get(id);
      if (!entry || !entry.versions.includes(version)) return undefined;
      const rel = releasesOf(id);
      const r = Object.hasOwn(rel, version) ? rel[version] : undefined;
      if (!r) return undefined;
      const dependencies = r.dependencies.map((raw) => {
        const spec = parseDependency(raw);
        if ('error' in spec) {
          throw new SkillsError('E_CONFIG', `${source(id)}: ${key} lists the dependency ${spec.error}`, {
            hint: 'fix the skill and register it again',
          });
        }
        return spec;
      });
      const release: CatalogRelease = {
        version,
        dependencies,
        nodeVersion: r.nodeVersion,
        systemPackages: r.systemPackages,
        layout: r.layout,
        path: r.path,
      };
      releases.set(key, release);
      return release;
    },
  };
}

// parseSpec checks a range by letting semver throw, which costs microseconds; a registry repeats a handful of
// ranges over thousands of dependencies, so each range is checked once and the id on its own.
const parsedRanges = new Map<string, DependencySpec | { error: string }>();

function parseDependency(raw: string): DependencySpec | { error: string } {
  const text = raw.trim();
  const at = text.indexOf('@', 1);
  if (at === -1) return parseSpec(raw);
  const rangeText = text.slice(at + 1);
  let range = parsedRanges.get(rangeText);
  if (range === undefined) {
    range = parseSpec(`x@${rangeText}`);
    parsedRanges.set(rangeText, range);
  }
  const id = parseSpec(text.slice(0, at));
  if ('error' in range || 'error' in id) return parseSpec(raw);
  return { raw, id: id.id, range: range.range, exact: range.exact };
}
