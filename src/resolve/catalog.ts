// The registry as the resolver sees it: an index whose releases are read, and parsed, only when reached.
import type { RegistryIndex, Release } from '../formats/index-file.js';
import type { Layout } from '../model/skill.js';
import { isSkillId, parseSpec, type DependencySpec } from '../model/spec.js';
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

/** What the resolver reads of a release (a Release is one). */
export type LoadedRelease = Pick<Release, 'layout' | 'path' | 'dependencies' | 'nodeVersion' | 'systemPackages'>;

/** The releases of one skill (version → release), as releases/<id>.json holds them. */
export type ReleaseLoader = (id: string) => Readonly<Record<string, LoadedRelease>>;

/** The releases of one skill, looked up by version (a source may make each only when it is asked for). */
export interface ReleaseSet {
  has(version: string): boolean;
  get(version: string): LoadedRelease | undefined;
}

/** The ReleaseSet of releases read whole. */
export const releaseSetOf = (r: Readonly<Record<string, LoadedRelease>>): ReleaseSet => ({
  has: (v) => Object.hasOwn(r, v),
  get: (v) => (Object.hasOwn(r, v) ? r[v] : undefined),
});

/** What the catalog reads of a registry's index: its ids, and the versions it lists of each. */
export interface IndexView {
  /** Every id, in the index's order. */
  ids(): readonly string[];
  /** The versions the index lists for `id`; undefined for an id it does not list. */
  versions(id: string): readonly string[] | undefined;
}

/** The view of a registry index read whole. */
export function viewOf(index: RegistryIndex): IndexView {
  const entries = new Map(index.skills.map((e) => [e.id, e]));
  return { ids: () => [...entries.keys()], versions: (id) => entries.get(id)?.versions };
}

/** catalogOf over an index read whole. */
export function catalogFromIndex(index: RegistryIndex, load: ReleaseLoader, source?: (id: string) => string): Catalog {
  return catalogOf(viewOf(index), (id) => releaseSetOf(load(id)), source);
}

/**
 * A Catalog over an index: an id's releases are loaded (through `load`) when the resolver first touches that id,
 * versions sorted and dependencies parsed on first use, so a big registry costs what the resolution reaches.
 * `source` names where the releases come from in messages (default `releases/<id>.json`).
 */
export function catalogOf(
  index: IndexView,
  load: (id: string) => ReleaseSet,
  source: (id: string) => string = (id) => `releases/${id}.json`,
): Catalog {
  /** What was worked out of each id the resolver touched; null for an id the index does not list. */
  const entries = new Map<string, Entry | null>();
  const semverLists = new WeakMap<readonly string[], string[]>();
  /** The shared list of each semverOnly array, when every version in it has its release. */
  const sharedOf = new WeakMap<readonly string[], string[]>();
  const sharedLists = new Map<string, string[]>();
  const entryOf = (id: string): Entry | null => {
    let e = entries.get(id);
    if (e !== undefined) return e;
    const listed = index.versions(id);
    if (!listed) {
      entries.set(id, null);
      return null;
    }
    const rel = load(id);
    // Not semver: the index never resolves to it. Newest first. Worked out once for each array the index gives
    // (a resolve index gives skills that list the same versions the same array).
    let semverOnly = semverLists.get(listed);
    if (!semverOnly) {
      semverOnly = [...new Set(listed)].filter((v) => versionKey(v) !== undefined);
      if (!semverOnly.every((v, i) => i === 0 || compareVersions(semverOnly![i - 1]!, v) >= 0))
        semverOnly.sort((a, b) => compareVersions(b, a));
      semverLists.set(listed, semverOnly);
    }
    // Without its release: the index never resolves to it either.
    let all = true;
    for (let i = 0; i < semverOnly.length; i++) if (!rel.has(semverOnly[i]!)) all = false;
    // Skills of a registry mostly share their lists of versions: one array for each, so that what is worked out
    // for a list (the versions a range allows: solver.ts) is worked out once.
    let shared = all ? sharedOf.get(semverOnly) : undefined;
    if (!shared) {
      const list = all ? semverOnly : semverOnly.filter((v) => rel.has(v));
      const key = list.join('\0');
      shared = sharedLists.get(key) ?? list;
      sharedLists.set(key, shared);
      if (all) sharedOf.set(semverOnly, shared);
    }
    e = { listed, releases: rel, versions: shared, made: [] };
    entries.set(id, e);
    return e;
  };
  return {
    ids: () => index.ids(),
    versions: (id) => entryOf(id)?.versions,
    release(id, version) {
      const e = entryOf(id);
      if (!e) return undefined;
      // By its place in the skill's list of versions (the solver asks for those), else by version.
      const at = e.versions.indexOf(version);
      const cached = at === -1 ? e.others?.get(version) : e.made[at];
      if (cached) return cached;
      if (!e.listed.includes(version)) return undefined;
      const r = e.releases.get(version);
      if (!r) return undefined;
      const dependencies = r.dependencies.map((raw) => {
        const spec = parseDependency(raw);
        if ('error' in spec) {
          throw new SkillsError(
            'E_CONFIG',
            `${source(id)}: ${id}@${version} has an invalid dependency: ${spec.error}`,
            {
              hint: 'fix the skill and register it again',
            },
          );
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
      if (at !== -1) e.made[at] = release;
      else (e.others ??= new Map()).set(version, release);
      return release;
    },
  };
}

/** What the catalog keeps of one id. */
interface Entry {
  /** The versions the index lists. */
  listed: readonly string[];
  releases: ReleaseSet;
  /** Catalog.versions' answer. */
  versions: readonly string[];
  /** The releases made, by their place in `versions`. */
  made: (CatalogRelease | undefined)[];
  /** The releases made of versions not in `versions`. */
  others?: Map<string, CatalogRelease>;
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
  // A valid id is its own NFKC form, as parseSpec would give it: parseSpec only for the others.
  const idText = text.slice(0, at);
  const id = isSkillId(idText) ? { id: idText } : parseSpec(idText);
  if ('error' in range || 'error' in id) return parseSpec(raw);
  return { raw, id: id.id, range: range.range, exact: range.exact };
}
