// The bar of "none fits", and what moves it: the share of one rare word a skill found by relevance alone must reach
// as evidence to be selected (select.ts).

// "None fits": a skill found by relevance alone is selected only when its evidence reaches this share of what one
// rare word scores in this catalog (the IDF of a word only one skill has): a rare word in its description, about;
// not a generic word, nor words of its body's text alone. Under MIN_CATALOG skills, see SMALL_CATALOG_BAR. The share
// of the request the skill holds moves it (COVER, COVER_AIM): it is this at COVER_AIM, up to COVER times itself more
// when the skill holds none of the request, and lower when it holds more than COVER_AIM. Calibrated on
// bench/selection/real-queries.json and real-queries-2.json (with the headings' evidence, 0.54 raised both sets' top-1
// and no-fit over 0.52 without it).
export const NONE_FITS = 0.54;
export const COVER = 0.6;
export const COVER_AIM = 0.6;
// A long request offers a skill more words to match by chance (a paragraph about a Redis cache and job queue met a
// code-review skill's cache, memory, limit and keys): past LONG_FROM of its words other than generic ones, the bar
// grows by LONG_SLOPE times the log of how many times longer the request is (1.28 times at 24 words), in a catalog
// of MIN_CATALOG skills or more. README, "None fits", has the figures.
const LONG_FROM = 12;
const LONG_SLOPE = 0.4;
// A word the skill holds only as a related word (synonyms.ts) covers this share of the word.
export const RELATED_COVERS = 0.5;
// A name of two words or more of which the request holds only one (or a word related to it) is evidence at this share
// of a name's weight (a description's, then) for a skill that holds under NAME_PART_COVER of the request: one word of
// a name is the skill's topic when the request is about it, and chance when the request is about something else
// ("index" of interpreting-culture-index for "use a gin index in postgres", "meeting" of notion-meeting-intelligence
// for "a recurring google calendar meeting", "review" ~ audit of audit-prep-assistant for "review my short story").
// A skill that holds more of the request keeps its name's whole weight: "debugging" alone is systematic-debugging's
// ("figure out why the total is wrong", which holds 30-40% of the third set's request, lost it at 0.4).
export const NAME_PART = 1 / 3;
export const NAME_PART_COVER = 0.3;
export const MIN_CATALOG = 20;
// Under MIN_CATALOG skills (their IDF cannot tell a rare word from a common one) "none fits" weighs words by
// smallCatalogIdf and the bar is this share of NONE_FITS: README, "None fits in a small catalog", has the figures.
const SMALL_CATALOG_BAR = 0.6;

/**
 * The bar for a request of `telling` words other than generic ones (before the share of it a skill holds moves it),
 * and how much its length raised it (1 when it did not).
 */
export function noneFitsBar(small: boolean, telling: number): { bar: number; long: number } {
  if (small) return { bar: SMALL_CATALOG_BAR * NONE_FITS, long: 1 };
  const long = telling > LONG_FROM ? 1 + LONG_SLOPE * Math.log(telling / LONG_FROM) : 1;
  return { bar: NONE_FITS * long, long };
}
