import { skillMdBody, type CatalogEntry } from '../skill/light.js';

// The bodies of a registry's skills, read for one query (selection-prefilter.ts). A folder's skill is ranked on its
// body too, read where its name, triggers or descriptions hold a word of the query or a related one
// (select-scan.ts): a registry's skill is ranked alike, its body read from its stored SKILL.md. Without them, the
// same skills from a registry ranked worse than from folders: top-1 on bench/selection's sets fell by 13 to 34
// requests a set (the seventh 130 → 108; 127 with them, the rest of the gap being skills that sync refuses).

/**
 * Most registry bodies one query reads. A folder's skill has its body at hand (the catalog read its SKILL.md); a
 * registry's costs a read of its stored copy and of its words, ~0.2 ms, and a query of common words reaches
 * thousands of skills of a large registry ("convert this pdf invoice": 2,680 of the bench's 10,000). Only the skills
 * whose name, triggers and descriptions hold the query best are read then. Measured on bench/selection's eight sets
 * (top-1): from a registry of their 120 skills, 64 bodies give what all of them give but for 7 requests of 1,416 (32:
 * 32 fewer); from one of 7,586 public skills (theirs among them), 64 and 256 give the same, ±3 a set.
 */
export const MAX_REGISTRY_BODIES = 64;

/** What a query term's line weighs in `reached`: its own words, the curated table's related ones, the learned. */
export const REACH_WEIGHTS = [1, 0.3, 0.15] as const;

/**
 * Per entry, the body read for the query (undefined: none), for the registry's entries (`rowOf[i]` ≥ 0) that the query
 * may match, of the SKILL.md layout, whose name, triggers or descriptions hold a word of it (`reached[i]` > 0, how
 * much: the IDF of each word held, weighed by REACH_WEIGHTS) or that the index counts only in part (`counted[i]` 0):
 * at most MAX_REGISTRY_BODIES, those reached most.
 */
export function registryBodies(
  entries: readonly CatalogEntry[],
  rowOf: Int32Array,
  may: Uint8Array,
  counted: Uint8Array,
  reached: Float64Array,
): (string | undefined)[] {
  const bodies = new Array<string | undefined>(entries.length);
  const wanted: number[] = [];
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (rowOf[i]! < 0 || !may[i] || e.layout !== 'skill-md' || e.body !== undefined) continue;
    if (reached[i]! > 0 || !counted[i]) wanted.push(i);
  }
  // Best reached first; in the catalog's order among equals, so that the same registry always reads the same.
  if (wanted.length > MAX_REGISTRY_BODIES) {
    wanted.sort((a, b) => reached[b]! - reached[a]! || a - b);
    wanted.length = MAX_REGISTRY_BODIES;
  }
  for (const i of wanted) {
    const e = entries[i]!;
    const body = skillMdBody(e.location, e.root);
    if (body === undefined) continue;
    bodies[i] = body;
  }
  return bodies;
}
