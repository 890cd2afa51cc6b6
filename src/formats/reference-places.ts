// Where in a Markdown text a file reference may stand, found without reading every character: the reference
// scanner (markdown-refs) reads only the lines that hold such a place, and only the words around the places. Pure.

// A line holds a reference only if it holds one of these: a reference definition's `]:`, a link's `](`, a path's
// slash or backslash, or a file name's known extension after a full stop, ending a word.
const EXTENSION_AT =
  /\.(?:md|markdown|txt|py|sh|bash|js|mjs|cjs|ts|json|ya?ml|toml|csv|html|xml|sql|rb|pl|ps1)(?![\p{L}\p{N}_])/iuy;
// The ASCII letters an extension may start with (either case). With /iu a character outside ASCII may fold to one
// (ſ to s), so only an ASCII character outside these rules a full stop out without the regex.
const EXTENSION_START = new Uint8Array(128);
for (const c of 'mtpsbjcyhxrMTPSBJCYHXR') EXTENSION_START[c.charCodeAt(0)] = 1;

/**
 * Where the first known extension's full stop at or after `from` is (as the same regex with /g would find it), or
 * NONE. The full stops are found by indexOf and most are ruled out by the character after them: a search of the
 * regex (unicode, case-insensitive) stepped through the text a character at a time, 1.2 ms a MB of prose against 0.3.
 */
export function nextExtension(text: string, from: number): number {
  for (let i = text.indexOf('.', from); i >= 0; i = text.indexOf('.', i + 1)) {
    const c = text.charCodeAt(i + 1);
    if (c < 128 && EXTENSION_START[c] === 0) continue;
    EXTENSION_AT.lastIndex = i;
    if (EXTENSION_AT.test(text)) return i;
  }
  return NONE;
}

/** "No such place ahead": past any text, and a small integer, so the positions stay V8's fast numbers. */
export const NONE = 0x7fffffff;

/**
 * The places of one text, asked for in increasing order: each kind is one stream found by indexOf (a single
 * character is found many times faster than a class or an alternation of them) or by the regex, and is searched
 * again only when asked for from past its last answer, so every stream reads the text once, however often it is
 * asked.
 */
export class Places {
  #slash = -1;
  #back = -1;
  #ext = -1;
  #link = -1;

  constructor(readonly text: string) {}

  /** The first `/` or `\` at or after `from`, and (with `names`) the first known extension's full stop; else NONE. */
  path(from: number, names: boolean): number {
    const t = this.text;
    if (this.#slash < from) this.#slash = found(t.indexOf('/', from));
    if (this.#back < from) this.#back = found(t.indexOf('\\', from));
    let best = this.#slash < this.#back ? this.#slash : this.#back;
    if (names) {
      if (this.#ext < from) this.#ext = nextExtension(t, from);
      if (this.#ext < best) best = this.#ext;
    }
    return best;
  }

  /** The first `](` or `]:` at or after `from`; else NONE. */
  link(from: number): number {
    if (this.#link < from) {
      const t = this.text;
      let i = t.indexOf(']', from);
      // `]` counts only as `](` or `]:`.
      while (i >= 0 && !isLinkEnd(t.charCodeAt(i + 1))) i = t.indexOf(']', i + 1);
      this.#link = found(i);
    }
    return this.#link;
  }

  /** The first place of any kind at or after `from`; else NONE. */
  any(from: number): number {
    const p = this.path(from, true);
    const l = this.link(from);
    return l < p ? l : p;
  }
}

function found(i: number): number {
  return i < 0 ? NONE : i;
}

/** `:` or `(`, which make a `]` before them the end of a reference definition's label or of a link's text. */
function isLinkEnd(c: number): boolean {
  return c === 58 || c === 40;
}
