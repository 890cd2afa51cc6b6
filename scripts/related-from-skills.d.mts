// Types of the pure parts of related-from-skills.mjs that the unit tests import.
export interface Skill {
  name: string;
  description: string;
  body: string;
}
export interface Sparse {
  n: number;
  rowStart: Int32Array;
  col: Int32Array;
  val: Float64Array;
}
export declare const DEFAULTS: {
  threshold: number;
  k: number;
  mutual: boolean;
  minSkills: number;
  window: number;
  dims: number;
  bodyBytes: number;
  alpha: number;
  seed: number;
};
export declare function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number;
export declare function isPlainWord(w: string): boolean;
export declare function splitSkill(md: string): Skill;
export declare function isDuplicate(skill: Skill, seen: Set<string>): boolean;
export declare function units(skill: Skill, bodyBytes: number): string[];
export declare function cooccur(
  seqs: readonly (readonly number[])[],
  n: number,
  window: number,
  counts?: Map<number, number>[],
): Map<number, number>[];
export declare function ppmi(counts: readonly Map<number, number>[], alpha: number): Sparse;
export declare function symmetricEigen(S: Float64Array, m: number): { values: number[]; V: Float64Array };
export declare function svdVectors(A: Sparse, dims: number, opts?: { power?: number; seed?: number }): Float32Array[];
export declare function nearest(
  names: readonly string[],
  rows: readonly ArrayLike<number>[],
  opts: { threshold: number; k: number; mutual: boolean },
): Map<string, string[]>;
export declare function encodeTable(table: Map<string, readonly string[]>): string;
