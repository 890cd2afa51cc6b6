// "Did you mean": the one measure of how near a mistyped name is to a known one, for every place that suggests
// one (skill ids, rule ids, frontmatter and config keys, agents). Commander suggests commands and options with the
// same measure (its suggestSimilar).

// Rows of the distance table, kept between calls and grown as needed: a call allocates nothing.
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/**
 * The optimal string alignment distance of `a` and `b`, or `limit + 1` when it is more than `limit`. Only the cells
 * at most `limit` from the diagonal are worked out (a path through any other is longer), and the table is given up
 * at the first two rows whose every cell is past the limit, since no later row can come back under it.
 */
function distanceWithin(a: string, b: string, limit: number): number {
  if (a === b) return 0;
  const m = b.length;
  if (Math.abs(a.length - m) > limit) return limit + 1;
  if (rows[0]!.length <= m + 1) rows = [0, 1, 2].map(() => new Int32Array(m + 2));
  const out = limit + 1;
  // The one before last (for swaps), the last and the one being filled.
  let [before, last, row] = rows as [Int32Array, Int32Array, Int32Array];
  for (let j = 0; j <= Math.min(m, limit); j++) last[j] = j;
  last[Math.min(m, limit) + 1] = out;
  let lastMin = 0;
  for (let i = 1; i <= a.length; i++) {
    const ai = a.charCodeAt(i - 1);
    const ai1 = i > 1 ? a.charCodeAt(i - 2) : -1;
    const from = Math.max(1, i - limit);
    const to = Math.min(m, i + limit);
    row[from - 1] = from === 1 ? i : out;
    let rowMin = from === 1 ? i : out;
    for (let j = from; j <= to; j++) {
      const bj = b.charCodeAt(j - 1);
      let d = Math.min(last[j]! + 1, row[j - 1]! + 1, last[j - 1]! + (ai === bj ? 0 : 1));
      if (j > 1 && ai === b.charCodeAt(j - 2) && ai1 === bj) d = Math.min(d, before[j - 2]! + 1);
      row[j] = d;
      if (d < rowMin) rowMin = d;
    }
    row[to + 1] = out;
    // A cell comes from this row or the last (+0 or +1) or the one before (+1).
    if (rowMin > limit && lastMin >= limit) return out;
    lastMin = rowMin;
    [before, last, row] = [last, row, before];
  }
  return Math.min(last[m]!, out);
}

/**
 * The optimal string alignment distance (Damerau–Levenshtein without editing a substring twice): insertions,
 * deletions, substitutions and swaps of two neighbouring characters each cost 1, so `lnit` is 1 from `lint`.
 */
export function editDistance(a: string, b: string): number {
  return distanceWithin(a, b, Math.max(a.length, b.length));
}

// Counts of characters by their code's last 8 bits (characters put in one bucket only lower the bound read from
// them), all 0 between calls.
const counts = new Int32Array(256);

/**
 * Half the characters `a` and `b` do not share, counted by kind: an edit changes the counts of at most two kinds of
 * character (a swap, of none), so the distance of the two is at least this.
 */
function lettersApart(a: string, b: string): number {
  for (let i = 0; i < a.length; i++) counts[a.charCodeAt(i) & 255]!++;
  for (let i = 0; i < b.length; i++) counts[b.charCodeAt(i) & 255]!--;
  let apart = 0;
  for (const w of [a, b])
    for (let i = 0; i < w.length; i++) {
      const k = w.charCodeAt(i) & 255;
      apart += Math.abs(counts[k]!);
      counts[k] = 0;
    }
  return Math.ceil(apart / 2);
}

/** The letters of a word, sorted: two words with the same are the same letters, some swapped. */
const letters = (w: string): string => [...w].sort().join('');

/**
 * The candidate nearest to `word` (case aside) by editDistance, when near enough to be a typo. Of two as near, one
 * of the same letters wins (`lnit` is `lint` with two swapped, where `init` is one letter changed), else the first.
 *
 * A name of 300 characters against 10,000 candidates is answered without filling 10,000 tables. A nearest
 * candidate is offered only within a third of its length, so no distance further than the largest such third
 * (nor than half the word: a candidate that long is that far) needs working out; and a candidate is passed over
 * when its length or its letters put it further than that, or than the nearest so far.
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  const others = candidates.map((c) => c.toLowerCase());
  let reach = 1;
  // Lowercase is never shorter, as far as Unicode goes; were one so, the word's half would not bound its distance.
  let longer = true;
  candidates.forEach((c, k) => {
    reach = Math.max(reach, Math.floor(c.length / 3));
    if (others[k]!.length < c.length) longer = false;
  });
  if (longer) reach = Math.min(reach, Math.max(1, Math.floor(lower.length / 2)));
  let best = -1;
  let bestD = reach + 1;
  // Whether the nearest so far has the word's letters, worked out only for a tie.
  let bestSame: boolean | undefined;
  let mine: string | undefined;
  for (let k = 0; k < others.length; k++) {
    const other = others[k]!;
    const limit = Math.min(bestD, reach);
    if (Math.abs(other.length - lower.length) > limit || lettersApart(lower, other) > limit) continue;
    const d = distanceWithin(lower, other, limit);
    if (d > limit) continue;
    if (d < bestD) {
      bestD = d;
      best = k;
      bestSame = undefined;
    } else if (d === bestD) {
      mine ??= letters(lower);
      bestSame ??= letters(others[best]!) === mine;
      if (!bestSame && letters(other) === mine) {
        best = k;
        bestSame = true;
      }
    }
  }
  if (best < 0) return undefined;
  const c = candidates[best]!;
  return bestD <= Math.max(1, Math.floor(c.length / 3)) ? c : undefined;
}
