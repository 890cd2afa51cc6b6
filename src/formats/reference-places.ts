// Where in a Markdown text a file reference may stand, found without reading every character: the reference
// scanner (markdown-refs) reads only the lines that hold such a place. Pure.

// A line holds a reference only if it holds one of these: a reference definition's `]:`, a link's `](`, a path's
// slash, or a file name's extension (markdown-refs' NAME_HINT). The places are found in the text (mayHold), and the
// lines without any are skipped without being read again.
const EXTENSION_AT =
  /\.(?:md|markdown|txt|py|sh|bash|js|mjs|cjs|ts|json|ya?ml|toml|csv|html|xml|sql|rb|pl|ps1)(?![\p{L}\p{N}_])/iuy;
// The first letters of those extensions, in either case, and ſ (which /iu folds to s): a full stop followed by
// anything else starts none.
const EXTENSION_START = new Set([...'mtpsbjcyhxrſ'].flatMap((c) => [c.charCodeAt(0), c.toUpperCase().charCodeAt(0)]));

/**
 * The places where a reference may stand, in order: each of `]`, `/`, `\\` and `.` is found alone with indexOf (a
 * single character is found many times faster than a class or an alternation of them), then judged in place.
 */
export function mayHold(text: string): (from: number) => number {
  const next = [-2, -2, -2, -2];
  const chars = [']', '/', '\\', '.'];
  const holds = (k: number, i: number) => {
    if (k === 0) {
      const c = text.charCodeAt(i + 1);
      return c === 58 || c === 40;
    }
    if (k < 3) return true;
    if (!EXTENSION_START.has(text.charCodeAt(i + 1))) return false;
    EXTENSION_AT.lastIndex = i;
    return EXTENSION_AT.test(text);
  };
  return (from) => {
    let best = Infinity;
    for (let k = 0; k < 4; k++) {
      let i = next[k]!;
      if (i !== -1 && i < from) {
        for (i = text.indexOf(chars[k]!, from); i >= 0 && !holds(k, i); i = text.indexOf(chars[k]!, i + 1));
        next[k] = i;
      }
      if (i >= 0 && i < best) best = i;
    }
    return best;
  };
}
