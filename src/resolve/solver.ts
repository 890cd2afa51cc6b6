// PubGrub (Weizenbaum 2018, as in Dart's pub and pubgrub-rs): unit propagation, decisions, and conflict
// resolution that learns every conflict as an incompatibility, so no dead end is explored twice.
import type { DependencySpec } from '../model/spec.js';
import type { Catalog } from './catalog.js';
import {
  bit,
  CONTRA,
  disjoint,
  INCONCLUSIVE,
  intersect,
  isAny,
  lowestBit,
  makeIncompat,
  negate,
  or,
  popcount,
  SAT,
  subset,
  union,
  type Assignment,
  type Incompat,
  type Pkg,
  type Term,
  type VSet,
} from './terms.js';
import { matches } from './versions.js';

/** Skills waiting for a decision are queued by how many versions they still allow, up to this many. */
const QUEUES = 12;

/**
 * How many decisions and conflicts a resolve may take (SKILLS_RESOLVE_MAX_STEPS raises it). Real registries take
 * far fewer: the bench's 10,000 skills × 10 versions take about 31,000 steps
 * (each check of an incompatibility, decision or conflict is one); a hostile registry (a pigeonhole
 * puzzle of a few skills) would take without limit.
 */
export const DEFAULT_MAX_STEPS = 5_000_000;

/** Thrown when a resolve takes more steps than it may. */
export class StepBudgetExceeded extends Error {
  constructor(
    readonly steps: number,
    readonly deciding: string[],
  ) {
    super(`resolve stopped after ${steps} steps`);
  }
}

export class Solver {
  private readonly pkgs = new Map<string, Pkg | null>();
  private readonly assignments: Assignment[] = [];
  private level = 0;
  /**
   * Skills selected by a positive term and not yet decided, by the number of versions they allow: the fewest
   * first (the likeliest to fail, so they fail early), the most recently needed first within a count. Entries go
   * stale as terms change and are checked when taken.
   */
  private readonly queues: Pkg[][] = Array.from({ length: QUEUES }, () => []);
  /** The sets rangeSet works out, by list of versions and range (Pkg.sets). */
  private readonly listSets = new Map<readonly string[], Map<string, VSet>>();

  /** Decisions and conflicts so far, against maxSteps. */
  steps = 0;

  constructor(
    private readonly catalog: Catalog,
    private readonly maxSteps = DEFAULT_MAX_STEPS,
  ) {}

  /** Count a step; past the budget, stop. */
  private step(): void {
    if (++this.steps > this.maxSteps) this.overBudget();
  }

  /** Stop the search, naming the skills decided most recently. */
  private overBudget(): never {
    const deciding: string[] = [];
    for (let i = this.assignments.length - 1; i >= 0 && deciding.length < 5; i--) {
      const a = this.assignments[i]!;
      if (a.cause === null && !deciding.includes(a.pkg.id)) deciding.push(a.pkg.id);
    }
    throw new StepBudgetExceeded(this.steps - 1, deciding);
  }

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
      this.step();
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
        // A range's set depends on the list of versions alone, and skills share their lists (catalog.ts).
        let sets = this.listSets.get(versions);
        if (!sets) this.listSets.set(versions, (sets = new Map()));
        pkg = {
          id,
          versions,
          none,
          any: undefined!,
          sets,
          incompats: [],
          assignments: [],
          dependencies: [],
          queued: false,
        };
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
    if (set === undefined) {
      set = pkg.none;
      for (let i = 0; i < pkg.versions.length; i++)
        if (spec.range === undefined || matches(pkg.versions[i]!, spec.range)) set = or(set, bit(pkg, i));
      pkg.sets.set(key, set);
    }
    return set;
  }

  private add(inc: Incompat): void {
    // Indexed loops in the solver's hot paths: a for-of allocates an iterator and a result per step until the
    // function is optimized, and most of a resolve runs before that.
    for (let i = 0; i < inc.terms.length; i++) inc.terms[i]!.pkg.incompats.push(inc);
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
    // The skills to visit, first in first out, each at most once in the queue (`queued`): a Set's order, without
    // the iterator and the Set's rehashing that taking its first entry over and over costs.
    let queue: Pkg[] = [];
    let head = 0;
    const enqueue = (pkg: Pkg) => {
      if (!pkg.queued) {
        pkg.queued = true;
        queue.push(pkg);
      }
    };
    for (const pkg of start) enqueue(pkg);
    while (head < queue.length) {
      const pkg = queue[head++]!;
      pkg.queued = false;
      // Newest first: learned incompatibilities are the most likely to propagate.
      for (let i = pkg.incompats.length - 1; i >= 0; i--) {
        const inc = pkg.incompats[i]!;
        if (++this.steps > this.maxSteps) this.overBudget();
        const r = this.propagateOne(inc);
        if (r === 'conflict') {
          const resolved = this.resolveConflict(inc);
          if ('failure' in resolved) {
            for (let k = head; k < queue.length; k++) queue[k]!.queued = false;
            return resolved.failure;
          }
          const next = this.propagateOne(resolved.cause);
          if (typeof next === 'string')
            throw new Error(`resolver: a learned incompatibility did not propagate (${next})`);
          for (let k = head; k < queue.length; k++) queue[k]!.queued = false;
          queue = [];
          head = 0;
          enqueue(next);
          break;
        }
        if (typeof r !== 'string') enqueue(r);
      }
    }
    return undefined;
  }

  /** If all terms but one hold, derive the negation of that one; 'conflict' when all hold. */
  private propagateOne(inc: Incompat): Pkg | 'none' | 'conflict' {
    let unsatisfied: Term | undefined;
    for (let i = 0; i < inc.terms.length; i++) {
      const t = inc.terms[i]!;
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
    this.step();
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
    for (let q = 0; q < QUEUES && !pkg;) {
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
    const incs = this.dependencies(self, index);
    // A dependency that already cannot hold means this version fails: let propagation rule it out.
    let conflict = false;
    for (let i = 0; i < incs.length && !conflict; i++) {
      const terms = incs[i]!.terms;
      let all = true;
      for (let k = 0; k < terms.length && all; k++) {
        const t = terms[k]!;
        all = t.pkg === pkg ? subset(self, t) : this.relation(t) === SAT;
      }
      conflict = all;
    }
    if (!conflict) {
      this.level++;
      this.assign(self, null);
      pkg.decided = version;
    } else this.enqueue(pkg);
    return pkg;
  }

  /** The incompatibilities of the version at `index` of self's skill with its dependencies (made once). */
  private dependencies(self: Term, index: number): Incompat[] {
    const pkg = self.pkg;
    let incs = pkg.dependencies[index];
    if (incs) return incs;
    incs = [];
    const version = pkg.versions[index]!;
    const release = this.catalog.release(pkg.id, version)!;
    for (let i = 0; i < release.dependencies.length; i++) {
      const spec = release.dependencies[i]!;
      const dep = this.pkg(spec.id);
      let inc: Incompat;
      if (dep) {
        const set = this.rangeSet(dep, spec);
        inc = makeIncompat([self, { pkg: dep, pos: false, set }], {
          kind: 'dependency',
          from: pkg,
          version,
          spec,
          pkg: dep,
          set,
        });
      } else inc = makeIncompat([self], { kind: 'unknown', from: pkg, version, spec });
      this.add(inc);
      incs.push(inc);
    }
    pkg.dependencies[index] = incs;
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
