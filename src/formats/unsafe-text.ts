// Characters from strangers that a terminal obeys or a reviewer cannot see: C0 and C1 controls (escape sequences
// that write the clipboard, retitle the window or move the cursor), bidirectional overrides that reorder what is
// shown, and invisible characters (zero-width, tag characters) that can carry text an agent reads and a reviewer
// does not. One classifier, so that validate's findings, the terminal's escaping and the prompt's stripping agree.

/** What an unsafe character does: obeys the terminal, reorders the line, or hides. */
export type UnsafeKind = 'control' | 'bidi' | 'invisible';

export interface UnsafeChar {
  /** Offset in UTF-16 units. */
  index: number;
  /** The code point. */
  cp: number;
  /** 1 or 2 UTF-16 units. */
  length: number;
  kind: UnsafeKind;
}

// Every character that may be unsafe, for a quick test; the context rules below then decide (a joiner between
// two letters, one variation selector after a character, a flag's tag sequence are fine).
// The class holds joiners and combining characters on purpose: they are what it looks for.
const CANDIDATE =
  // eslint-disable-next-line no-control-regex, no-misleading-character-class
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\u2800\u3164\ufe00-\ufe0f\ufeff\ufff9-\ufffb\uffa0]|\udb40[\udc00-\udfff]|\ud834[\udd73-\udd7a]/;
// The same, tried at one place (sticky).
// eslint-disable-next-line no-misleading-character-class
const CANDIDATE_AT = new RegExp(CANDIDATE.source, 'y');
// Every candidate lies outside tab, newline and printable ASCII: V8 runs over a run of those (one class, matched
// greedily from a place) far faster than it tries CANDIDATE's ranges and pairs at each character (a 4 MB prompt with a
// few hundred non-ASCII characters: about 10 ms against 130), and a third faster than it searches for the first
// character outside the class; so the text is skipped by runs of it, and CANDIDATE is tried only where one stops.
const PLAIN_RUN = /[\t\n\u0020-\u007e]*/y;

/** Where the next candidate of `text` at or after `from` starts, and its match; undefined when none is left. */
function nextCandidate(text: string, from: number): RegExpExecArray | undefined {
  for (let at = from; at < text.length; at++) {
    PLAIN_RUN.lastIndex = at;
    PLAIN_RUN.test(text);
    at = PLAIN_RUN.lastIndex;
    if (at >= text.length) return undefined;
    CANDIDATE_AT.lastIndex = at;
    const hit = CANDIDATE_AT.exec(text);
    if (hit) return hit;
  }
  return undefined;
}

// In a text of ASCII alone the only candidates are the controls (all but tab and newline) and DEL, each always
// reported: a long one that its caller knows to be ASCII (from its bytes: see fs/read.ts) is searched for those 31
// characters, each with indexOf (memchr over a one-byte string). Twenty 1 MB bodies of prose: 27 ms, against 64 to
// 72 for the run of the plain class (measured together on a busy machine). A short text is not worth the 31 calls.
// (Finding out here whether a text is ASCII costs a pass of its own: Buffer.byteLength takes as long as the scan on
// a text with a character past U+00FF.)
const ASCII_CHECK_FROM = 4096;
const ASCII_CONTROLS = Array.from({ length: 32 }, (_, c) => String.fromCharCode(c))
  .filter((c) => c !== '\t' && c !== '\n')
  .concat('\u007f');

/** Whether an ASCII text holds a control character (tab and newline aside) or DEL. */
function asciiControlIn(text: string): boolean {
  for (const c of ASCII_CONTROLS) if (text.includes(c)) return true;
  return false;
}

// eslint-disable-next-line no-misleading-character-class
const JOINS = /[\p{L}\p{M}\p{N}\p{Extended_Pictographic}\u{1f3fb}-\u{1f3ff}\ufe0f]/u;
const FLAG = 0x1f3f4;

/** True when the text holds no character that unsafeChars could report (the common case, tested quickly). */
export function isSafeText(text: string): boolean {
  return nextCandidate(text, 0) === undefined || unsafeChars(text, 1).length === 0;
}

/**
 * The unsafe characters of `text`, in order (at most `limit`). `ascii`: the caller knows the text to be ASCII alone
 * (an InstructionPart's `ascii`), which a long text is then checked for more quickly.
 */
export function unsafeChars(text: string, limit = Infinity, ascii = false): UnsafeChar[] {
  const out: UnsafeChar[] = [];
  if (ascii && text.length >= ASCII_CHECK_FROM && !asciiControlIn(text)) return out;
  for (
    let m = nextCandidate(text, 0);
    m !== undefined && out.length < limit;
    m = nextCandidate(text, m.index + m[0].length)
  ) {
    const index = m.index;
    const cp = text.codePointAt(index)!;
    const kind = classify(text, index, cp);
    if (kind) out.push({ index, cp, length: cp > 0xffff ? 2 : 1, kind });
  }
  return out;
}

function classify(text: string, i: number, cp: number): UnsafeKind | undefined {
  if (cp <= 0x9f || cp === 0x2028 || cp === 0x2029) return 'control';
  if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp === 0x061c) return 'bidi';
  if (cp === 0x200e || cp === 0x200f) return 'bidi';
  // Zero-width joiners belong between letters (Persian, Indic scripts) and inside emoji sequences.
  if (cp === 0x200c || cp === 0x200d) return joins(before(text, i), text.codePointAt(i + 1)) ? undefined : 'invisible';
  // One variation selector after a character picks its glyph; a run of them encodes hidden data.
  if ((cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef)) {
    const prev = before(text, i);
    return prev === undefined || isVariationSelector(prev) ? 'invisible' : undefined;
  }
  // Tag characters: only inside an emoji flag sequence (🏴 + tags + cancel tag) do they belong.
  if (cp >= 0xe0000 && cp <= 0xe007f) return inFlagSequence(text, i) ? undefined : 'invisible';
  return 'invisible';
}

function before(text: string, i: number): number | undefined {
  if (i === 0) return undefined;
  const lo = text.charCodeAt(i - 1);
  if (lo >= 0xdc00 && lo <= 0xdfff && i >= 2) return text.codePointAt(i - 2);
  return lo;
}

function joins(prev: number | undefined, next: number | undefined): boolean {
  return (
    prev !== undefined &&
    next !== undefined &&
    JOINS.test(String.fromCodePoint(prev)) &&
    JOINS.test(String.fromCodePoint(next))
  );
}

const isVariationSelector = (cp: number) => (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef);

function inFlagSequence(text: string, i: number): boolean {
  // Walk back over tag characters to the black flag, then forward to the cancel tag.
  let s = i;
  while (s >= 2 && text.charCodeAt(s - 2) === 0xdb40) s -= 2;
  if (s < 2 || text.codePointAt(s - 2) !== FLAG) return false;
  let e = i;
  while (e < text.length && text.charCodeAt(e) === 0xdb40) {
    const cp = text.codePointAt(e)!;
    if (cp === 0xe007f) return e - s <= 2 * 8;
    if (cp < 0xe0020 || cp > 0xe007e) return false;
    e += 2;
  }
  return false;
}

const NAMES: Record<number, string> = {
  0x00: 'NUL',
  0x07: 'BEL',
  0x08: 'backspace',
  0x0b: 'vertical tab',
  0x0c: 'form feed',
  0x0d: 'carriage return',
  0x1b: 'ESC',
  0x7f: 'DEL',
  0x9b: 'CSI',
  0x9d: 'OSC',
  0xad: 'soft hyphen',
  0x200b: 'zero-width space',
  0x200c: 'zero-width non-joiner',
  0x200d: 'zero-width joiner',
  0x200e: 'left-to-right mark',
  0x200f: 'right-to-left mark',
  0x2028: 'line separator',
  0x2029: 'paragraph separator',
  0x202a: 'left-to-right embedding',
  0x202b: 'right-to-left embedding',
  0x202c: 'pop directional formatting',
  0x202d: 'left-to-right override',
  0x202e: 'right-to-left override',
  0x2060: 'word joiner',
  0x2066: 'left-to-right isolate',
  0x2067: 'right-to-left isolate',
  0x2068: 'first strong isolate',
  0x2069: 'pop directional isolate',
  0xfeff: 'zero-width no-break space',
};

/** U+XXXX and, when it has a well-known one, its name: "U+001B (ESC)". */
export function describeChar(cp: number): string {
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  const name = NAMES[cp] ?? (cp >= 0xe0000 && cp <= 0xe007f ? 'tag character' : undefined);
  return name ? `${hex} (${name})` : hex;
}

/** The character written as an escape a reader can see: \x1b, \u202e, \u{e0041}. */
export function escapeChar(cp: number): string {
  if (cp <= 0xff) return `\\x${cp.toString(16).padStart(2, '0')}`;
  if (cp <= 0xffff) return `\\u${cp.toString(16).padStart(4, '0')}`;
  return `\\u{${cp.toString(16)}}`;
}

/** The text with every unsafe character replaced by `replace(char)`. */
export function replaceUnsafe(text: string, replace: (c: UnsafeChar) => string): string {
  const found = unsafeChars(text);
  if (found.length === 0) return text;
  let out = '';
  let at = 0;
  for (const c of found) {
    out += text.slice(at, c.index) + replace(c);
    at = c.index + c.length;
  }
  return out + text.slice(at);
}

/** The text with every unsafe character removed (what goes into an agent's prompt). */
export function stripUnsafe(text: string): string {
  return replaceUnsafe(text, () => '');
}
