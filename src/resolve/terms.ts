// PubGrub's terms and incompatibilities over bitsets of a skill's versions.
import type { DependencySpec } from '../model/spec.js';

// A term says something about one skill: positive "selected, at a version in set", negative "not
// selected, or selected at a version outside set". An incompatibility is a set of terms that must not all hold.

/**
 * A set of one skill's versions: bit i is versions[i]. A number while the skill has at most 30 versions (nearly
 * always, and without allocation), a bigint beyond; the sets of one skill are all of the same kind.
 */
export type VSet = number | bigint;
export const and = (a: VSet, b: VSet): VSet => (typeof a === 'number' ? a & (b as number) : a & (b as bigint));
export const or = (a: VSet, b: VSet): VSet => (typeof a === 'number' ? a | (b as number) : a | (b as bigint));
export const andNot = (a: VSet, b: VSet): VSet => (typeof a === 'number' ? a & ~(b as number) : a & ~(b as bigint));
export const isEmpty = (a: VSet) => a === 0 || a === 0n;
export const bit = (pkg: Pkg, i: number): VSet => (typeof pkg.none === 'number' ? 1 << i : 1n << BigInt(i));
export const has = (set: VSet, i: number) =>
  typeof set === 'number' ? ((set >>> i) & 1) === 1 : ((set >> BigInt(i)) & 1n) === 1n;
export const lowestBit = (set: VSet) =>
  typeof set === 'number' ? 31 - Math.clz32(set & -set) : (set & -set).toString(2).length - 1;

export interface Pkg {
  id: string;
  versions: readonly string[];
  /** The empty set, of the kind this skill's sets are. */
  none: VSet;
  /** "Anything, not selecting it included": the term of a skill without assignments. */
  any: Term;
  /** The set of each range worked out (shared by the skills with this list of versions). */
  sets: Map<string, VSet>;
  /** By version index: that version's incompatibilities with its dependencies, once made. */
  dependencies: Incompat[][];
  /** Whether the solver's propagation has it in its queue. */
  queued: boolean;
  /** Incompatibilities that mention this skill, oldest first. */
  incompats: Incompat[];
  /** This skill's assignments in the partial solution, oldest first. */
  assignments: Assignment[];
  decided?: string;
}

export interface Term {
  pkg: Pkg;
  pos: boolean;
  set: VSet;
}

export type Cause =
  | { kind: 'root'; spec: DependencySpec; order: number; pkg: Pkg; set: VSet }
  | { kind: 'dependency'; from: Pkg; version: string; spec: DependencySpec; pkg: Pkg; set: VSet }
  | { kind: 'unknown'; from: Pkg; version: string; spec: DependencySpec }
  | { kind: 'derived'; left: Incompat; right: Incompat };

export interface Incompat {
  terms: Term[];
  cause: Cause;
}

export interface Assignment {
  pkg: Pkg;
  term: Term;
  level: number;
  /** The incompatibility it was derived from; null for a decision. */
  cause: Incompat | null;
  index: number;
  /** The intersection of this skill's assignments up to and including this one. */
  acc: Term;
}

export const SAT = 0;
export const CONTRA = 1;
export const INCONCLUSIVE = 2;

export function intersect(a: Term, b: Term): Term {
  if (a.pos && b.pos) return { pkg: a.pkg, pos: true, set: and(a.set, b.set) };
  if (a.pos) return { pkg: a.pkg, pos: true, set: andNot(a.set, b.set) };
  if (b.pos) return { pkg: a.pkg, pos: true, set: andNot(b.set, a.set) };
  return { pkg: a.pkg, pos: false, set: or(a.set, b.set) };
}

export const negate = (t: Term): Term => ({ pkg: t.pkg, pos: !t.pos, set: t.set });
export const union = (a: Term, b: Term): Term => negate(intersect(negate(a), negate(b)));
/** The negative term of the empty set allows anything, not selecting the skill included. */
export const isAny = (t: Term) => !t.pos && isEmpty(t.set);

/** a ⊆ b */
export function subset(a: Term, b: Term): boolean {
  if (a.pos && b.pos) return isEmpty(andNot(a.set, b.set));
  if (a.pos) return isEmpty(and(a.set, b.set));
  if (b.pos) return false;
  return isEmpty(andNot(b.set, a.set));
}

export function disjoint(a: Term, b: Term): boolean {
  if (a.pos && b.pos) return isEmpty(and(a.set, b.set));
  if (a.pos) return isEmpty(andNot(a.set, b.set));
  if (b.pos) return isEmpty(andNot(b.set, a.set));
  return false;
}

export function makeIncompat(terms: Term[], cause: Cause): Incompat {
  // Terms on one skill become one, their intersection, in the place of the first; "anything" terms say nothing.
  const merged: Term[] = [];
  for (let i = 0; i < terms.length; i++) {
    const t = terms[i]!;
    let k = 0;
    while (k < merged.length && merged[k]!.pkg !== t.pkg) k++;
    merged[k] = k < merged.length ? intersect(merged[k]!, t) : t;
  }
  return { terms: merged.some(isAny) ? merged.filter((t) => !isAny(t)) : merged, cause };
}

export function popcount(set: VSet): number {
  let n = 0;
  if (typeof set === 'number') for (let x = set; x !== 0; x &= x - 1) n++;
  else for (let x = set; x !== 0n; x &= x - 1n) n++;
  return n;
}
