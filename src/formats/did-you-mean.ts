// "Did you mean": the one measure of how near a mistyped name is to a known one, for every place that suggests
// one (skill ids, rule ids, frontmatter and config keys, agents). Commander suggests commands and options with the
// same measure (its suggestSimilar).

/**
 * The optimal string alignment distance (Damerau–Levenshtein without editing a substring twice): insertions,
 * deletions, substitutions and swaps of two neighbouring characters each cost 1, so `lnit` is 1 from `lint`.
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  // Three rows: the one before last (for swaps), the last and the one being filled.
  let before: number[] = [];
  let last = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(last[j]! + 1, row[j - 1]! + 1, last[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
    }
    before = last;
    last = row;
  }
  return last[b.length]!;
}

/** The letters of a word, sorted: two words with the same are the same letters, some swapped. */
const letters = (w: string): string => [...w].sort().join('');

/**
 * The candidate nearest to `word` (case aside) by editDistance, when near enough to be a typo. Of two as near, one
 * of the same letters wins (`lnit` is `lint` with two swapped, where `init` is one letter changed), else the first.
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  let bestSame = false;
  const lower = word.toLowerCase();
  const mine = letters(lower);
  for (const c of candidates) {
    const d = editDistance(lower, c.toLowerCase());
    if (d > bestD) continue;
    const same = letters(c.toLowerCase()) === mine;
    if (d < bestD || (same && !bestSame)) {
      bestD = d;
      best = c;
      bestSame = same;
    }
  }
  return best !== undefined && bestD <= Math.max(1, Math.floor(best.length / 3)) ? best : undefined;
}
