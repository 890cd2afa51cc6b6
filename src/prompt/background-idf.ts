import { BACKGROUND_DF, BACKGROUND_MIN_DF, BACKGROUND_SKILLS } from './background-df.js';

// Ranking's IDF is this share of the catalog's own, the rest the background's (scaled to the catalog's range). In a
// catalog of a hundred skills a word that one skill says ("company", "node", "black") looks as rare as a tool's name
// and ranks that skill first on a chance word; across ~48,000 public skills it is common. The catalog's share keeps
// what is rare or common here (a family of eight skills that share a tool's name). Only ranking: "none fits" keeps
// the catalog's IDF from 20 skills on (under, see smallCatalogIdf; with the background there too, no-fit rose by 2 to
// 6 requests a set and top-1 fell on every set but the fourth). On the seven sets, top-1
// 246/151/169/123/132/127/117 -> 247/150/171/127/132/128/122, no-fit the same, fewer skills selected that a request
// does not expect on every set (0.609 -> 0.504 on the first); at a share of 0.2 the second set lost two, at 0.5 the
// sixth three.
export const OWN_SHARE = 0.3;

/** BM25's IDF of a word that `df` of `n` documents hold (Robertson–Spärck Jones, plus one: never negative). */
export function bm25Idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** A stem that fewer than BACKGROUND_MIN_DF public skills say is read as in this many: as rare as a word can be. */
const RARE_DF = 2;

let table: string | undefined;

/** In how many of BACKGROUND_SKILLS public skills' names and descriptions this stem stands (background-df.ts). */
export function backgroundDf(stemmed: string): number {
  if (!/^[a-z0-9]+$/.test(stemmed)) return RARE_DF;
  table ??= `;${BACKGROUND_DF};`;
  const key = `;${stemmed}:`;
  const at = table.indexOf(key);
  if (at < 0) return RARE_DF;
  const n = Number(table.slice(at + key.length, table.indexOf(';', at + key.length)));
  return n >= BACKGROUND_MIN_DF ? n : RARE_DF;
}

const BACKGROUND_CEILING = bm25Idf(BACKGROUND_SKILLS, 1);

/**
 * The IDF a word ranks with: OWN_SHARE of `own` (its IDF in this catalog, whose highest is `ceiling`), the rest its
 * IDF over the public skills, scaled so that the rarest word there scores `ceiling` too.
 */
export function rankingIdf(own: number, stemmed: string, ceiling: number): number {
  return OWN_SHARE * own + (1 - OWN_SHARE) * backgroundIdf(stemmed, ceiling);
}

/** A word's IDF over the public skills, scaled so that the rarest word there scores `ceiling`. */
function backgroundIdf(stemmed: string, ceiling: number): number {
  const d = backgroundDf(stemmed);
  return Math.min(ceiling, (bm25Idf(BACKGROUND_SKILLS, d) * ceiling) / BACKGROUND_CEILING);
}

// "None fits" in a catalog of fewer skills than `among` (select.ts SMALL_CATALOG_BAR): a word's weight as evidence is
// this share of its IDF were the catalog's skills `among` skills, the others holding none of the request, the rest its
// IDF over the public skills. In five skills the catalog's own IDF says nothing (a word one skill holds and one two
// hold differ by little), and the background alone weighs the words the request names a skill's task by ("colour",
// "deck", "review") as common as they are at large: at a share of 0 (the background alone) top-1 fell by 1.5 to 8
// points in catalogs of 2 to 19 skills, at 0.3 by 2 to 4 (2 to 5 skills), at 0.5 by 0.7 to 2.8 (figures: README,
// "None fits in a small catalog").
export const SMALL_OWN_SHARE = 0.5;

/**
 * The IDF a word weighs with as evidence of "none fits" in a small catalog (SMALL_OWN_SHARE): `df` is how many of its
 * skills hold it, `among` the size of the catalog it is read as; scaled so that the rarest word scores `ceiling`.
 */
export function smallCatalogIdf(df: number, stemmed: string, ceiling: number, among: number): number {
  const own = bm25Idf(among, df) / bm25Idf(among, 1);
  return SMALL_OWN_SHARE * own * ceiling + (1 - SMALL_OWN_SHARE) * backgroundIdf(stemmed, ceiling);
}

// "None fits": a word of the request that no skill of the catalog holds, but that public skills use (from
// BACKGROUND_MIN_DF up to LACKED_MAX_DF of them: a tool, a platform, a technique, "kubernetes", "nginx",
// "elasticsearch", "django"), is what the request is about and the catalog lacks, a neighbouring tool: it weighs
// LACKED_TOPIC rare words in how much of the request a skill holds (select.ts coverage), not one. A word fewer public
// skills use is the request's own material or chance ("bakery", "Lisbon", a typo); one that more use is a word of any
// skill ("api", "app"), whose absence here is chance or a spelling the stemmer does not fold. On the ten sets and the
// first other set, no-fit +1 on the third, sixth, eighth and ninth sets and the other set, and the ninth's top-1 +1,
// nothing lower (README, "None fits").
export const LACKED_TOPIC = 2.5;
const LACKED_MAX_DF = 2000;

/** How many rare words a request's word that no skill of the catalog holds weighs in coverage (LACKED_TOPIC). */
export function lackedWeight(stemmed: string): number {
  const d = backgroundDf(stemmed);
  return d >= BACKGROUND_MIN_DF && d <= LACKED_MAX_DF ? LACKED_TOPIC : 1;
}
