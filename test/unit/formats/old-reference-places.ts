// mayHold as it was before the one-pass scan (commit 52bf570), for old-markdown-refs.ts. Not used by src/.
// Where in a Markdown text a file reference may stand, found without reading every character: the reference
// scanner (markdown-refs) reads only the lines that hold such a place. Pure.

// A line holds a reference only if it holds one of these: a reference definition's `]:`, a link's `](`, a path's
// slash, or a file name's extension (markdown-refs' NAME_HINT). The places are found in the text (mayHold), and the
// lines without any are skipped without being read again.
// A known extension after a full stop, ending a word (markdown-refs' NAME_HINT): searched for in the text by the regex
// engine, which steps over the many full stops of prose (ends of sentences, "e.g.") without a turn of the scanner's
// loop for each.
const EXTENSION =
  /\.(?:md|markdown|txt|py|sh|bash|js|mjs|cjs|ts|json|ya?ml|toml|csv|html|xml|sql|rb|pl|ps1)(?![\p{L}\p{N}_])/giu;

/**
 * The places where a reference may stand, in order: each of `]`, `/` and `\\` is found alone with indexOf (a single
 * character is found many times faster than a class or an alternation of them), `]` then judged in place; a known
 * extension is found by one search of the regex.
 */
export function mayHold(text: string): (from: number) => number {
  const next = [-2, -2, -2, -2];
  const chars = [']', '/', '\\'];
  const find = (k: number, from: number): number => {
    if (k === 3) {
      EXTENSION.lastIndex = from;
      const m = EXTENSION.exec(text);
      return m ? m.index : -1;
    }
    let i = text.indexOf(chars[k]!, from);
    // `]` counts only as `](` or `]:`.
    if (k === 0) for (; i >= 0 && !isLinkEnd(text.charCodeAt(i + 1)); i = text.indexOf(']', i + 1));
    return i;
  };
  return (from) => {
    let best = Infinity;
    for (let k = 0; k < 4; k++) {
      let i = next[k]!;
      if (i !== -1 && i < from) next[k] = i = find(k, from);
      if (i >= 0 && i < best) best = i;
    }
    return best;
  };
}

/** `:` or `(`, which make a `]` before them the end of a reference definition's label or of a link's text. */
function isLinkEnd(c: number): boolean {
  return c === 58 || c === 40;
}
