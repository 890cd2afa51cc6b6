// The version resolver: PubGrub (Weizenbaum 2018, as in Dart's pub and pubgrub-rs) over a finite catalog.
// Every skill has a known, finite list of versions, so a set of versions is a bitset over that list (bit i is
// versions[i], newest first) and the set algebra PubGrub needs is exact and cheap. Every conflict is learned as
// an incompatibility ("these versions cannot go together"), so no dead end is explored twice; a failure keeps
// its derivation, which is rendered cargo-style: who needs what, through which chain, which versions exist.
import Range from 'semver/classes/range.js';
import SemVer from 'semver/classes/semver.js';
import satisfies from 'semver/functions/satisfies.js';
import validRange from 'semver/ranges/valid.js';
import type { RegistryIndex, Release } from '../formats/index-file.js';
import type { Layout } from '../model/skill.js';
import { parseSpec, type DependencySpec } from '../model/spec.js';
import { SkillsError } from '../errors.js';
import { closest } from '../skill/names.js';

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

export interface ResolvedSkill {
  id: string;
  version: string;
  layout: Layout;
  path: string;
  /** The resolved dependencies, as `id@version`, in the order the skill lists them. */
  dependencies: string[];
}

/** unknown-id, missing-version and no-match concern a spec given to resolve; conflict and cycle the registry. */
export type ResolveFailureKind = 'unknown-id' | 'missing-version' | 'no-match' | 'conflict' | 'cycle';

/**
 * A failure to resolve is a finding about the skills, not a crash: it comes back as data (with a SkillsError
 * the command may print or throw) and the command exits 1.
 */
export type Resolution =
  | { ok: true; resolved: ResolvedSkill[]; roots: string[]; warnings: string[] }
  | { ok: false; kind: ResolveFailureKind; error: SkillsError; warnings: string[] };

export interface ResolveOptions {
  /** The running Node's version, for the skills' nodeVersion. */
  nodeVersion: string;
  /** Whether a system package is installed; undefined when there is no way to know. */
  hasPackage?: (name: string) => boolean | undefined;
}

/** The releases of one skill (version → release), as releases/<id>.json holds them. */
export type ReleaseLoader = (id: string) => Readonly<Record<string, Release>>;

/**
 * A Catalog over an index: an id's releases are loaded (through `load`) when the resolver first touches that id,
 * versions sorted and dependencies parsed on first use, so a big registry costs what the resolution reaches.
 * `source` names where the releases come from in messages (default `releases/<id>.json`).
 */
export function catalogFromIndex(index: RegistryIndex, load: ReleaseLoader, source: (id: string) => string = (id) => `releases/${id}.json`): Catalog {
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
      if (!list.every((v, i) => i === 0 || compareVersions(list[i - 1]!, v) >= 0)) list.sort((a, b) => compareVersions(b, a));
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
      const release: CatalogRelease = { version, dependencies, nodeVersion: r.nodeVersion, systemPackages: r.systemPackages, layout: r.layout, path: r.path };
      releases.set(key, release);
      return release;
    },
  };
}

// Plain x.y.z versions, by far the most common, compare as numbers; anything else goes through semver.
const PLAIN = /^(\d{1,9})\.(\d{1,9})\.(\d{1,9})$/;
const parsedVersions = new Map<string, SemVer | null>();

function versionKey(v: string): SemVer | number[] | undefined {
  const m = PLAIN.exec(v);
  if (m) return [Number(m[1]), Number(m[2]), Number(m[3])];
  let parsed = parsedVersions.get(v);
  if (parsed === undefined) {
    try {
      parsed = new SemVer(v);
    } catch {
      parsed = null;
    }
    parsedVersions.set(v, parsed);
  }
  return parsed ?? undefined;
}

function compareVersions(a: string, b: string): number {
  const x = versionKey(a)!;
  const y = versionKey(b)!;
  if (Array.isArray(x) && Array.isArray(y)) return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
  return new SemVer(a).compare(b);
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

/** For each skill the highest version that satisfies every constraint on it, dependencies first. */
export function resolveSpecs(specs: DependencySpec[], catalog: Catalog, opts: ResolveOptions): Resolution {
  const rootError = checkRootSpecs(specs, catalog);
  if (rootError) return { ok: false, ...rootError, warnings: [] };
  const solver = new Solver(catalog);
  const failure = solver.solve(specs);
  if (failure) {
    return {
      ok: false,
      kind: 'conflict',
      error: new SkillsError('E_INVALID', explainFailure(failure, catalog), {
        hint: 'no set of versions meets every requirement above: change the specs you gave, or register versions that agree',
      }),
      warnings: [],
    };
  }
  const chosen = solver.solution();
  const ordered = orderByDependencies(specs, chosen, catalog);
  if ('cycle' in ordered) {
    return {
      ok: false,
      kind: 'cycle',
      error: new SkillsError('E_INVALID', `dependency cycle: ${ordered.cycle.join(' → ')}`, {
        hint: 'skills load in dependency order, and a cycle has none: remove one of these dependencies',
      }),
      warnings: [],
    };
  }
  const warnings = [...bareSpecWarnings(specs, chosen, catalog), ...platformWarnings(ordered.resolved, catalog, opts)];
  const roots = [...new Set(specs.map((s) => `${s.id}@${chosen.get(s.id)}`))];
  return { ok: true, resolved: ordered.resolved, roots, warnings };
}

/** Warnings for resolved skills whose systemPackages `hasPackage` says are missing (unknown answers are silent). */
export function systemPackageWarnings(resolved: readonly ResolvedSkill[], catalog: Catalog, hasPackage: (name: string) => boolean | undefined): string[] {
  const out: string[] = [];
  for (const r of resolved) {
    for (const name of new Set(catalog.release(r.id, r.version)?.systemPackages ?? [])) {
      if (hasPackage(name) === false) out.push(`${r.id}@${r.version} needs the system package "${name}", which is not installed`);
    }
  }
  return out;
}

/** True when a resolved skill lists any systemPackages, so a caller knows whether a checker is worth loading. */
export function needsSystemPackages(resolved: readonly ResolvedSkill[], catalog: Catalog): boolean {
  return resolved.some((r) => (catalog.release(r.id, r.version)?.systemPackages?.length ?? 0) > 0);
}

// ---------------------------------------------------------------------------------------------------------
// Root specs: what the user typed is checked before solving, so its mistakes get their own messages.

const available = (id: string, versions: readonly string[]) => `available ${id}: ${versions.length ? [...versions].reverse().join(', ') : 'none'}`;

function checkRootSpecs(specs: DependencySpec[], catalog: Catalog): { kind: ResolveFailureKind; error: SkillsError } | undefined {
  const problems: { kind: ResolveFailureKind; message: string; hint: string }[] = [];
  for (const spec of specs) {
    const versions = catalog.versions(spec.id);
    if (!versions) {
      const near = closest(spec.id, catalog.ids());
      problems.push({
        kind: 'unknown-id',
        message: `no skill "${spec.id}" in the registry${near ? `; did you mean "${near}"?` : ''}`,
        hint: near ? `resolve ${near}${spec.range ? `@${spec.range}` : ''}` : 'skills list shows the registered skills',
      });
      continue;
    }
    if (versions.length === 0) {
      problems.push({ kind: 'no-match', message: `${spec.id} has no usable version in the registry`, hint: `register a version of ${spec.id}` });
      continue;
    }
    if (spec.range === undefined || versions.some((v) => matches(v, spec.range!))) continue;
    const example = versions[0] ? `, e.g. ${spec.id}@${versions[0]}` : '';
    problems.push(
      spec.exact
        ? { kind: 'missing-version', message: `${spec.id}@${spec.range} is not in the registry; ${available(spec.id, versions)}`, hint: `pin one of the available versions${example}` }
        : { kind: 'no-match', message: `no version of ${spec.id} matches ${spec.range}; ${available(spec.id, versions)}`, hint: `widen the range, or pin one of the available versions${example}` },
    );
  }
  if (problems.length === 0) return undefined;
  const first = problems[0]!;
  return { kind: first.kind, error: new SkillsError('E_NOT_FOUND', problems.map((p) => p.message).join('\n'), { hint: first.hint }) };
}

const ranges = new Map<string, Range | null>();
const matching = new Map<string, boolean>();

/** Whether version satisfies range; registries repeat both, so each pair is worked out once. */
function matches(version: string, range: string): boolean {
  const key = `${range}\0${version}`;
  let m = matching.get(key);
  if (m !== undefined) return m;
  let r = ranges.get(range);
  if (r === undefined) {
    try {
      r = new Range(range);
    } catch {
      r = null;
    }
    ranges.set(range, r);
  }
  m = r !== null && r.test(version);
  matching.set(key, m);
  return m;
}

// ---------------------------------------------------------------------------------------------------------
// PubGrub. A term says something about one skill: positive "selected, at a version in set", negative "not
// selected, or selected at a version outside set". An incompatibility is a set of terms that must not all hold.

/**
 * A set of one skill's versions: bit i is versions[i]. A number while the skill has at most 30 versions (nearly
 * always, and without allocation), a bigint beyond; the sets of one skill are all of the same kind.
 */
type VSet = number | bigint;
const and = (a: VSet, b: VSet): VSet => (typeof a === 'number' ? a & (b as number) : a & (b as bigint));
const or = (a: VSet, b: VSet): VSet => (typeof a === 'number' ? a | (b as number) : a | (b as bigint));
const andNot = (a: VSet, b: VSet): VSet => (typeof a === 'number' ? a & ~(b as number) : a & ~(b as bigint));
const isEmpty = (a: VSet) => a === 0 || a === 0n;
const bit = (pkg: Pkg, i: number): VSet => (typeof pkg.none === 'number' ? 1 << i : 1n << BigInt(i));
const has = (set: VSet, i: number) => (typeof set === 'number' ? ((set >>> i) & 1) === 1 : ((set >> BigInt(i)) & 1n) === 1n);
const lowestBit = (set: VSet) => (typeof set === 'number' ? 31 - Math.clz32(set & -set) : (set & -set).toString(2).length - 1);

interface Pkg {
  id: string;
  versions: readonly string[];
  /** The empty set, of the kind this skill's sets are. */
  none: VSet;
  /** "Anything, not selecting it included": the term of a skill without assignments. */
  any: Term;
  sets: Map<string, VSet>;
  /** Incompatibilities that mention this skill, oldest first. */
  incompats: Incompat[];
  /** This skill's assignments in the partial solution, oldest first. */
  assignments: Assignment[];
  decided?: string;
}

interface Term {
  pkg: Pkg;
  pos: boolean;
  set: VSet;
}

type Cause =
  | { kind: 'root'; spec: DependencySpec; order: number; pkg: Pkg; set: VSet }
  | { kind: 'dependency'; from: Pkg; version: string; spec: DependencySpec; pkg: Pkg; set: VSet }
  | { kind: 'unknown'; from: Pkg; version: string; spec: DependencySpec }
  | { kind: 'derived'; left: Incompat; right: Incompat };

interface Incompat {
  terms: Term[];
  cause: Cause;
}

interface Assignment {
  pkg: Pkg;
  term: Term;
  level: number;
  /** The incompatibility it was derived from; null for a decision. */
  cause: Incompat | null;
  index: number;
  /** The intersection of this skill's assignments up to and including this one. */
  acc: Term;
}

const SAT = 0;
const CONTRA = 1;
const INCONCLUSIVE = 2;

function intersect(a: Term, b: Term): Term {
  if (a.pos && b.pos) return { pkg: a.pkg, pos: true, set: and(a.set, b.set) };
  if (a.pos) return { pkg: a.pkg, pos: true, set: andNot(a.set, b.set) };
  if (b.pos) return { pkg: a.pkg, pos: true, set: andNot(b.set, a.set) };
  return { pkg: a.pkg, pos: false, set: or(a.set, b.set) };
}

const negate = (t: Term): Term => ({ pkg: t.pkg, pos: !t.pos, set: t.set });
const union = (a: Term, b: Term): Term => negate(intersect(negate(a), negate(b)));
/** The negative term of the empty set allows anything, not selecting the skill included. */
const isAny = (t: Term) => !t.pos && isEmpty(t.set);

/** a ⊆ b */
function subset(a: Term, b: Term): boolean {
  if (a.pos && b.pos) return isEmpty(andNot(a.set, b.set));
  if (a.pos) return isEmpty(and(a.set, b.set));
  if (b.pos) return false;
  return isEmpty(andNot(b.set, a.set));
}

function disjoint(a: Term, b: Term): boolean {
  if (a.pos && b.pos) return isEmpty(and(a.set, b.set));
  if (a.pos) return isEmpty(andNot(a.set, b.set));
  if (b.pos) return isEmpty(andNot(b.set, a.set));
  return false;
}

function makeIncompat(terms: Term[], cause: Cause): Incompat {
  const byPkg = new Map<Pkg, Term>();
  for (const t of terms) {
    const seen = byPkg.get(t.pkg);
    byPkg.set(t.pkg, seen ? intersect(seen, t) : t);
  }
  return { terms: [...byPkg.values()].filter((t) => !isAny(t)), cause };
}

/** Skills waiting for a decision are queued by how many versions they still allow, up to this many. */
const QUEUES = 12;

function popcount(set: VSet): number {
  let n = 0;
  if (typeof set === 'number') for (let x = set; x !== 0; x &= x - 1) n++;
  else for (let x = set; x !== 0n; x &= x - 1n) n++;
  return n;
}

class Solver {
  private readonly pkgs = new Map<string, Pkg | null>();
  private readonly assignments: Assignment[] = [];
  private level = 0;
  /**
   * Skills selected by a positive term and not yet decided, by the number of versions they allow: the fewest
   * first (the likeliest to fail, so they fail early), the most recently needed first within a count. Entries go
   * stale as terms change and are checked when taken.
   */
  private readonly queues: Pkg[][] = Array.from({ length: QUEUES }, () => []);
  private readonly dependencyIncompats = new Map<string, Incompat[]>();

  constructor(private readonly catalog: Catalog) {}

  /** Solve; undefined when solved, else the incompatibility that proves no solution exists. */
  solve(specs: DependencySpec[]): Incompat | undefined {
    const start: Pkg[] = [];
    for (const [order, spec] of specs.entries()) {
      const pkg = this.pkg(spec.id)!;
      const set = this.rangeSet(pkg, spec);
      this.add(makeIncompat([{ pkg, pos: false, set }], { kind: 'root', spec, order, pkg, set }));
      start.push(pkg);
    }
    let failure = this.propagate(start);
    while (!failure) {
      const next = this.choose();
      if (!next) return undefined;
      failure = this.propagate([next]);
    }
    return failure;
  }

  solution(): Map<string, string> {
    const out = new Map<string, string>();
    for (const pkg of this.pkgs.values()) if (pkg?.decided !== undefined) out.set(pkg.id, pkg.decided);
    return out;
  }

  private pkg(id: string): Pkg | undefined {
    let pkg = this.pkgs.get(id);
    if (pkg === undefined) {
      const versions = this.catalog.versions(id);
      if (versions) {
        const none: VSet = versions.length <= 30 ? 0 : 0n;
        pkg = { id, versions, none, any: undefined!, sets: new Map(), incompats: [], assignments: [] };
        pkg.any = { pkg, pos: false, set: none };
      } else pkg = null;
      this.pkgs.set(id, pkg);
    }
    return pkg ?? undefined;
  }

  /** The versions of pkg a spec allows; a bare id allows every version. */
  private rangeSet(pkg: Pkg, spec: DependencySpec): VSet {
    const key = spec.range ?? '';
    let set = pkg.sets.get(key);
    if (set !== undefined) return set;
    set = pkg.none;
    for (let i = 0; i < pkg.versions.length; i++) if (spec.range === undefined || matches(pkg.versions[i]!, spec.range)) set = or(set, bit(pkg, i));
    pkg.sets.set(key, set);
    return set;
  }

  private add(inc: Incompat): void {
    for (const t of inc.terms) t.pkg.incompats.push(inc);
  }

  private enqueue(pkg: Pkg): void {
    this.queues[Math.min(QUEUES - 1, popcount(this.acc(pkg).set))]!.push(pkg);
  }

  private acc(pkg: Pkg): Term {
    return pkg.assignments.at(-1)?.acc ?? pkg.any;
  }

  private relation(t: Term): number {
    const acc = this.acc(t.pkg);
    if (subset(acc, t)) return SAT;
    if (disjoint(acc, t)) return CONTRA;
    return INCONCLUSIVE;
  }

  private assign(term: Term, cause: Incompat | null): void {
    const pkg = term.pkg;
    const acc = intersect(this.acc(pkg), term);
    const a: Assignment = { pkg, term, level: this.level, cause, index: this.assignments.length, acc };
    this.assignments.push(a);
    pkg.assignments.push(a);
    if (acc.pos && pkg.decided === undefined) this.enqueue(pkg);
  }

  /** Unit propagation from the skills that changed; returns the proof of failure when there is no solution. */
  private propagate(start: Pkg[]): Incompat | undefined {
    const changed = new Set(start);
    while (changed.size > 0) {
      const pkg: Pkg = changed.values().next().value!;
      changed.delete(pkg);
      // Newest first: learned incompatibilities are the most likely to propagate.
      for (let i = pkg.incompats.length - 1; i >= 0; i--) {
        const inc = pkg.incompats[i]!;
        const r = this.propagateOne(inc);
        if (r === 'conflict') {
          const resolved = this.resolveConflict(inc);
          if ('failure' in resolved) return resolved.failure;
          const next = this.propagateOne(resolved.cause);
          if (typeof next === 'string') throw new Error(`resolver: a learned incompatibility did not propagate (${next})`);
          changed.clear();
          changed.add(next);
          break;
        }
        if (typeof r !== 'string') changed.add(r);
      }
    }
    return undefined;
  }

  /** If all terms but one hold, derive the negation of that one; 'conflict' when all hold. */
  private propagateOne(inc: Incompat): Pkg | 'none' | 'conflict' {
    let unsatisfied: Term | undefined;
    for (const t of inc.terms) {
      const rel = this.relation(t);
      if (rel === CONTRA) return 'none';
      if (rel === INCONCLUSIVE) {
        if (unsatisfied) return 'none';
        unsatisfied = t;
      }
    }
    if (!unsatisfied) return 'conflict';
    this.assign(negate(unsatisfied), inc);
    return unsatisfied.pkg;
  }

  private resolveConflict(conflict: Incompat): { cause: Incompat } | { failure: Incompat } {
    let inc = conflict;
    let learned = false;
    for (;;) {
      if (inc.terms.length === 0) return { failure: inc };
      let satisfier: Assignment | undefined;
      let satisfierTerm: Term | undefined;
      let previous = -1;
      for (const t of inc.terms) {
        const a = t.pkg.assignments.find((x) => subset(x.acc, t));
        if (!a) throw new Error('resolver: conflict resolution on an incompatibility that does not hold');
        if (!satisfier || a.index > satisfier.index) {
          if (satisfier) previous = Math.max(previous, satisfier.index);
          satisfier = a;
          satisfierTerm = t;
        } else previous = Math.max(previous, a.index);
      }
      const sat = satisfier!;
      for (const a of sat.pkg.assignments) {
        if (a === sat) break;
        if (subset(intersect(a.acc, sat.term), satisfierTerm!)) {
          previous = Math.max(previous, a.index);
          break;
        }
      }
      const previousLevel = previous >= 0 ? this.assignments[previous]!.level : 0;
      if (sat.cause === null || previousLevel !== sat.level) {
        if (learned) this.add(inc);
        // Backjumping to previousLevel would throw away every decision since, most of them unrelated, only to
        // make them again. Undo only the satisfier's level instead (chronological backtracking, Nadel and
        // Ryvchin 2018): the learned incompatibility still propagates there, as its other terms are older.
        this.backtrack(Math.max(previousLevel, sat.level - 1));
        return { cause: inc };
      }
      inc = priorCause(inc, sat.cause, sat.pkg);
      learned = true;
    }
  }

  private backtrack(level: number): void {
    const touched = new Set<Pkg>();
    while (this.assignments.length > 0 && this.assignments.at(-1)!.level > level) {
      const a = this.assignments.pop()!;
      a.pkg.assignments.pop();
      if (a.cause === null) a.pkg.decided = undefined;
      touched.add(a.pkg);
    }
    this.level = level;
    for (const pkg of touched) if (this.acc(pkg).pos && pkg.decided === undefined) this.enqueue(pkg);
  }

  /** Decide the next skill: the highest version its terms allow. Undefined when every needed skill is decided. */
  private choose(): Pkg | undefined {
    let pkg: Pkg | undefined;
    for (let q = 0; q < QUEUES && !pkg; ) {
      const p = this.queues[q]!.pop();
      if (!p) q++;
      else if (p.decided === undefined && this.acc(p).pos) {
        const count = Math.min(QUEUES - 1, popcount(this.acc(p).set));
        if (count === q) pkg = p;
        else {
          this.queues[count]!.push(p);
          q = Math.min(q, count);
        }
      }
    }
    if (!pkg) return undefined;
    // Never empty: a derivation only narrows a term it leaves satisfiable.
    const index = lowestBit(this.acc(pkg).set);
    const version = pkg.versions[index]!;
    const self: Term = { pkg, pos: true, set: bit(pkg, index) };
    const incs = this.dependencies(self, version);
    // A dependency that already cannot hold means this version fails: let propagation rule it out.
    const conflict = incs.some((inc) => inc.terms.every((t) => (t.pkg === pkg ? subset(self, t) : this.relation(t) === SAT)));
    if (!conflict) {
      this.level++;
      this.assign(self, null);
      pkg.decided = version;
    } else this.enqueue(pkg);
    return pkg;
  }

  private dependencies(self: Term, version: string): Incompat[] {
    const pkg = self.pkg;
    const key = `${pkg.id}@${version}`;
    let incs = this.dependencyIncompats.get(key);
    if (incs) return incs;
    incs = [];
    const release = this.catalog.release(pkg.id, version)!;
    for (const spec of release.dependencies) {
      const dep = this.pkg(spec.id);
      let inc: Incompat;
      if (dep) {
        const set = this.rangeSet(dep, spec);
        inc = makeIncompat([self, { pkg: dep, pos: false, set }], { kind: 'dependency', from: pkg, version, spec, pkg: dep, set });
      } else inc = makeIncompat([self], { kind: 'unknown', from: pkg, version, spec });
      this.add(inc);
      incs.push(inc);
    }
    this.dependencyIncompats.set(key, incs);
    return incs;
  }
}

/** Resolution of two incompatibilities on `pkg`: the union of their terms for it, the intersection elsewhere. */
function priorCause(inc: Incompat, cause: Incompat, pkg: Pkg): Incompat {
  const terms = new Map<Pkg, Term>();
  for (const t of [...inc.terms, ...cause.terms]) {
    if (t.pkg === pkg) continue;
    const seen = terms.get(t.pkg);
    terms.set(t.pkg, seen ? intersect(seen, t) : t);
  }
  const a = inc.terms.find((t) => t.pkg === pkg);
  const b = cause.terms.find((t) => t.pkg === pkg);
  const u = a && b ? union(a, b) : (a ?? b);
  if (u) terms.set(pkg, u);
  return { terms: [...terms.values()].filter((t) => !isAny(t)), cause: { kind: 'derived', left: inc, right: cause } };
}

// ---------------------------------------------------------------------------------------------------------
// The explanation of a failure: the external facts the proof rests on (root specs, dependencies), grouped by
// the skill whose requirements cannot all be met, each requirement with the chain that led to it.

interface Requirement {
  from?: { pkg: Pkg; version: string };
  spec: DependencySpec;
  /** Undefined for an id the registry does not have. */
  target?: Pkg;
  set: VSet;
  /** Which requirer this is: one per root spec, one per skill (its versions are alternatives). */
  who: string;
  /** For a root spec: its place among the specs. */
  order?: number;
}

/** Requirements shown for one skill; a registry-wide failure can rest on hundreds. */
const MAX_CLAUSES = 12;

function explainFailure(failure: Incompat, catalog: Catalog): string {
  const reqs: Requirement[] = [];
  const seen = new Set<Incompat>();
  const stack = [failure];
  while (stack.length > 0) {
    const inc = stack.pop()!;
    if (seen.has(inc)) continue;
    seen.add(inc);
    const c = inc.cause;
    if (c.kind === 'derived') stack.push(c.right, c.left);
    else if (c.kind === 'root') reqs.push({ spec: c.spec, target: c.pkg, set: c.set, who: `root ${c.spec.raw}`, order: c.order });
    else if (c.kind === 'dependency') reqs.push({ from: { pkg: c.from, version: c.version }, spec: c.spec, target: c.pkg, set: c.set, who: c.from.id });
    else if (c.kind === 'unknown') reqs.push({ from: { pkg: c.from, version: c.version }, spec: c.spec, set: 0, who: c.from.id });
  }
  const chains = chainsTo(reqs);
  const link = (r: Requirement) => `${r.from ? `${r.from.pkg.id}@${r.from.version}` : 'root'} needs ${specText(r.spec)}`;
  const pathTo = (r: Requirement) => (r.from ? [...(chains.get(`${r.from.pkg.id}@${r.from.version}`) ?? []), r] : [r]);
  const withChain = (r: Requirement) => {
    const path = pathTo(r);
    // `root needs a@1.0.0 → a@1.0.0 needs …` says a@1.0.0 twice.
    if (path.length > 1 && !path[0]!.from && path[0]!.spec.exact) path.shift();
    return path.map(link).join(' → ');
  };
  // Requirements in the order of the specs they come from, as the user typed them.
  const bySpecOrder = (list: Requirement[]) =>
    list
      .map((r, i) => ({ r, i, order: pathTo(r)[0]!.order ?? Infinity }))
      .sort((x, y) => x.order - y.order || x.i - y.i)
      .map((x) => x.r);

  const lines: string[] = [];
  const shown = new Set<Requirement>();
  for (const r of reqs) {
    if (r.target || !r.from) continue;
    const near = closest(r.spec.id, catalog.ids());
    lines.push(`${withChain(r)}, which is not in the registry${near ? ` (did you mean "${near}"?)` : ''}`);
    shown.add(r);
  }
  const targets = [...new Set(reqs.map((r) => r.target).filter((t): t is Pkg => !!t))];
  for (const target of targets) {
    const on = reqs.filter((r) => r.target === target);
    let conflicting = on.filter((r) => isEmpty(r.set) || on.some((o) => o.who !== r.who && isEmpty(and(o.set, r.set))));
    if (conflicting.length === 0) {
      // No two requirements exclude each other, yet together they leave nothing: show them all.
      const byWho = new Map<string, VSet>();
      for (const r of on) byWho.set(r.who, or(byWho.get(r.who) ?? target.none, r.set));
      const all = [...byWho.values()].reduce(and);
      if (byWho.size > 1 && isEmpty(all)) conflicting = on;
    }
    if (conflicting.length === 0) continue;
    for (const r of conflicting) shown.add(r);
    const clauses = bySpecOrder(conflicting).map(withChain);
    if (clauses.length > MAX_CLAUSES) clauses.splice(MAX_CLAUSES - 1, Infinity, `and ${clauses.length - MAX_CLAUSES + 1} more requirements`);
    lines.push(`${clauses.join('; ')}; ${available(target.id, target.versions)}`);
  }
  if (lines.length === 0) {
    // A proof whose requirements each look satisfiable on their own: list what it rests on.
    lines.push(reqs.filter((r) => !shown.has(r)).map(withChain).join('; ') || 'no versions satisfy the specs');
  }
  return lines.join('\n');
}

const specText = (spec: DependencySpec) => (spec.range === undefined ? spec.id : `${spec.id}@${spec.range}`);

/** For each requirer `id@version`, the shortest chain of requirements from a root spec to it. */
function chainsTo(reqs: Requirement[]): Map<string, Requirement[]> {
  const chains = new Map<string, Requirement[]>();
  // Requirers (id@version) by id, and requirements by requirer.
  const nodes = new Map<string, { key: string; version: string }[]>();
  const from = new Map<string, Requirement[]>();
  for (const r of reqs) {
    if (!r.from) continue;
    const key = `${r.from.pkg.id}@${r.from.version}`;
    if (!from.has(key)) {
      from.set(key, []);
      nodes.set(r.from.pkg.id, [...(nodes.get(r.from.pkg.id) ?? []), { key, version: r.from.version }]);
    }
    from.get(key)!.push(r);
  }
  // Breadth-first from the root specs, so each chain is a shortest one.
  let frontier: string[] = [];
  const reach = (r: Requirement, before: Requirement[]) => {
    for (const node of (r.target && nodes.get(r.target.id)) ?? []) {
      const i = r.target!.versions.indexOf(node.version);
      if (chains.has(node.key) || i < 0 || !has(r.set, i)) continue;
      chains.set(node.key, [...before, r]);
      frontier.push(node.key);
    }
  };
  for (const r of reqs) if (!r.from) reach(r, []);
  while (frontier.length > 0) {
    const current = frontier;
    frontier = [];
    for (const key of current) for (const r of from.get(key)!) reach(r, chains.get(key)!);
  }
  return chains;
}

// ---------------------------------------------------------------------------------------------------------
// The result: dependency order (dependencies first, else the order the specs and dependency lists give),
// cycles, and warnings.

function orderByDependencies(specs: DependencySpec[], chosen: Map<string, string>, catalog: Catalog): { resolved: ResolvedSkill[] } | { cycle: string[] } {
  const resolved: ResolvedSkill[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const make = (id: string): { skill: ResolvedSkill; deps: string[] } => {
    const version = chosen.get(id)!;
    const release = catalog.release(id, version)!;
    const deps = [...new Set(release.dependencies.map((d) => d.id))];
    return { skill: { id, version, layout: release.layout, path: release.path, dependencies: deps.map((d) => `${d}@${chosen.get(d)}`) }, deps };
  };
  for (const spec of specs) {
    if (state.has(spec.id)) continue;
    // Iterative depth-first search: a long chain must not overflow the stack.
    const stack: { id: string; skill: ResolvedSkill; deps: string[]; next: number }[] = [];
    const open = (id: string) => {
      state.set(id, 'open');
      stack.push({ id, ...make(id), next: 0 });
    };
    open(spec.id);
    while (stack.length > 0) {
      const top = stack.at(-1)!;
      if (top.next < top.deps.length) {
        const dep = top.deps[top.next++]!;
        const s = state.get(dep);
        if (s === 'open') {
          const from = stack.findIndex((f) => f.id === dep);
          return { cycle: [...stack.slice(from).map((f) => `${f.id}@${f.skill.version}`), `${dep}@${chosen.get(dep)}`] };
        }
        if (s === undefined) open(dep);
        continue;
      }
      stack.pop();
      state.set(top.id, 'done');
      resolved.push(top.skill);
    }
  }
  return { resolved };
}

function bareSpecWarnings(specs: DependencySpec[], chosen: Map<string, string>, catalog: Catalog): string[] {
  const out: string[] = [];
  for (const id of new Set(specs.map((s) => s.id))) {
    if (specs.some((s) => s.id === id && s.range !== undefined)) continue;
    const version = chosen.get(id)!;
    const latest = catalog.versions(id)![0];
    out.push(
      version === latest
        ? `${id}: no version given, latest ${version} used; pin a version (${id}@${version})`
        : `${id}: no version given; ${version} used, as the latest (${latest}) does not fit the other requirements; pin a version (${id}@${version})`,
    );
  }
  return out;
}

function platformWarnings(resolved: ResolvedSkill[], catalog: Catalog, opts: ResolveOptions): string[] {
  const out: string[] = [];
  const node = opts.nodeVersion.replace(/^v/, '');
  for (const r of resolved) {
    const wanted = catalog.release(r.id, r.version)?.nodeVersion?.trim();
    if (!wanted) continue;
    // seed 000: nodeVersion is a minimum, so a bare version means ">=" it.
    const range = /^v?\d+(\.\d+){0,2}$/.test(wanted) ? `>=${wanted.replace(/^v/, '')}` : validRange(wanted) ? wanted : undefined;
    if (range === undefined) out.push(`${r.id}@${r.version} has a nodeVersion that is neither a version nor a range: "${wanted}"`);
    else if (!satisfies(node, range)) out.push(`${r.id}@${r.version} needs Node ${wanted}; this is Node ${node}`);
  }
  if (opts.hasPackage) out.push(...systemPackageWarnings(resolved, catalog, opts.hasPackage));
  return out;
}
