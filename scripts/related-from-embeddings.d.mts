// Types of the pure parts of related-from-embeddings.mjs that the unit tests import.
export declare const DEFAULTS: { threshold: number; k: number; minSkills: number; maxRank: number };
export declare function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number;
export declare function isPlainWord(w: string): boolean;
export declare function buildRelated(
  pairs: readonly (readonly [string, string, number])[],
  opts: { threshold: number; k: number; stem: (w: string) => string; inVocab: (w: string) => boolean },
): Map<string, string[]>;
export declare function encodeTable(table: Map<string, readonly string[]>): string;
export declare function skillText(md: string, withHeadings: boolean): string;
