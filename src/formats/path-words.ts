// The words of a line that may be paths ("tokens"): runs of letters, digits and the characters paths are made of,
// read by code points. Pure.

// A token is a run of these characters; `:`, `#`, `?`, `%`, quotes and brackets end it.
const TOKEN_CHAR = /^[\p{L}\p{N}_.\-/\\{}$@+~]$/u;

// TOKEN_CHAR for the ASCII characters, looked up rather than matched.
const TOKEN_ASCII = Uint8Array.from({ length: 128 }, (_, c) => (TOKEN_CHAR.test(String.fromCharCode(c)) ? 1 : 0));

/** Whether a code point is a TOKEN_CHAR. */
function tokenCodePoint(cp: number): boolean {
  return cp < 128 ? TOKEN_ASCII[cp] === 1 : TOKEN_CHAR.test(String.fromCodePoint(cp));
}

/** Where the token holding the character at `i` starts, by code points (a lone surrogate is no token character). */
export function tokenStart(s: string, i: number): number {
  let k = i;
  while (k > 0) {
    const c = s.charCodeAt(k - 1);
    // Most characters of a path are ASCII: looked up here, without a call.
    if (c < 128) {
      if (TOKEN_ASCII[c] !== 1) break;
      k--;
      continue;
    }
    if (c >= 0xdc00 && c <= 0xdfff && k >= 2) {
      const h = s.charCodeAt(k - 2);
      if (h >= 0xd800 && h <= 0xdbff) {
        if (!tokenCodePoint(((h - 0xd800) << 10) + (c - 0xdc00) + 0x10000)) break;
        k -= 2;
        continue;
      }
    }
    if (!tokenCodePoint(c)) break;
    k--;
  }
  return k;
}

/** Where the token holding the character at `i` ends. */
export function tokenEnd(s: string, i: number): number {
  let k = i;
  while (k < s.length) {
    const c = s.charCodeAt(k);
    if (c < 128) {
      if (TOKEN_ASCII[c] !== 1) break;
      k++;
      continue;
    }
    const cp = s.codePointAt(k)!;
    if (!tokenCodePoint(cp)) break;
    k += cp > 0xffff ? 2 : 1;
  }
  return k;
}
