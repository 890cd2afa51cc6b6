// What tells a key-shaped string in documentation from a real one: the words before it ("Example:", "e.g.",
// "your"), a value nobody's random generator makes (`A1B2C3…`, `abcd1234`, `XXXX`, `{{KEY}}`), or a Markdown
// illustration around it (a line saying "example", anything under an Example heading, a code block such a line
// leads in). Real keys are random, so a run of ascending characters in one is all but impossible.
import { FENCE_CLOSE, FENCE_OPEN, FENCED, MarkdownText } from '../../formats/markdown-blocks.js';

// Words that present what follows as a stand-in, on the line before the value.
const INTRO =
  /(?<![\p{L}\p{N}_])(?:examples?|e\.g\.|eg:|for instance|such as|samples?|your|placeholder|dummy|fake)(?![\p{L}\p{N}])/iu;
// Masks and template syntax inside the value.
const MASKED = /x{4}|X{4}|\*{3}|\.{3}|…|<[^>]{0,40}>|\{\{|\$\{|0{6}|(.)\1{5}/;
// Words that lead in a Markdown illustration (the line before a fenced block).
const LEAD_IN = /(?<![\p{L}\p{N}_./\\-])(?:examples?|e\.g\.|for instance|samples?|placeholder)(?![\p{L}\p{N}_/\\-])/iu;

/** The next character in counting order, '9' → '0' included (`…7890…` counts on). */
function follows(a: string, b: string): boolean {
  const x = a.charCodeAt(0);
  const y = b.charCodeAt(0);
  return y === x + 1 || (a === '9' && b === '0');
}

/**
 * A run of counting order: four characters in a row (`abcd`, `1234`), three runs of three (`abc123def456`), or six
 * interleaved (`A1B2C3`).
 */
export function counts(v: string): boolean {
  let run = 1;
  let threes = 0;
  for (let i = 1; i < v.length; i++) {
    run = follows(v[i - 1]!, v[i]!) && /[A-Za-z0-9]/.test(v[i]!) ? run + 1 : 1;
    if (run >= 4) return true;
    if (run === 3 && ++threes >= 3) return true;
  }
  run = 2;
  for (let i = 2; i < v.length; i++) {
    run = follows(v[i - 2]!, v[i]!) && /[A-Za-z0-9]/.test(v[i]!) ? run + 1 : 2;
    if (run >= 6) return true;
  }
  return false;
}

// One part of a value between `_`, `-` and `.`: a word (letters of one case, or capitalised; digits may end it, as
// in `oauth2`) or a number.
const WORD_PART = /^(?:(?:[a-z]+|[A-Z]+|[A-Z][a-z]+)[0-9]*|[0-9]+)$/;
const LETTERS = /^[A-Za-z]{2,}$/;

/**
 * Whether a value is words and numbers joined by `_`, `-`, `.` or `=` (`super_secret_token_123`,
 * `AWIN_TOKEN_SHOULD_NOT_LEAK_123`, `sp.token.1619838979341`), a name in code (`oauth2_token_present`) or a variable
 * set to a number (`WORKORAI_DISABLE_OS_KEYSTORE=1`, in a message that starts `credential-store:`), with two
 * or more words of two letters or more: what a person types as a stand-in in a test or a guide. A random token's
 * parts mix letters, digits and cases.
 */
export function wordsValue(v: string): boolean {
  const parts = v.split(/[_.=-]+/).filter((p) => p !== '');
  if (parts.length < 3 || !parts.every((p) => WORD_PART.test(p))) return false;
  return parts.filter((p) => LETTERS.test(p)).length >= 2;
}

// What a stand-in secret calls itself: `my_secret_password_123`, `SuperSecretPassword2024`.
const SELF_NAME = /^(?:pass|password|passwd|pwd|secret)$/i;

/**
 * Whether a value is words (split at `_`, `-`, `.`, `=` and where a capital follows a small letter or digit) and one
 * of them says it is a password or a secret: `my_secret_password_123`, `SuperSecretPassword2024` (a scanner's
 * tests, a guide's "don't"). A password of other words (`Summer-Holiday-2024`) is how people make real ones, and a
 * random tail (`secret_Xk9fQ2…`, Notion's tokens) is no word.
 */
export function selfNamedValue(v: string): boolean {
  const parts = v
    .split(/[_.=-]+/)
    .flatMap((p) => p.split(/(?<=[a-z0-9])(?=[A-Z])/))
    .filter((p) => p !== '');
  return (
    parts.length >= 2 &&
    parts.every((p) => WORD_PART.test(p)) &&
    parts.some((p) => SELF_NAME.test(p.replace(/[0-9]+$/, '')))
  );
}

// A mask right after or before a value (`DQEBALZh0tlSKKi*****XR+k2EX8`, `a27aad63294be3fb****87798851`): the value
// was cut at the mask, whose characters a value cannot hold. Markdown converted from a web page escapes the stars
// (`OSSAccessKeyId=LTAI5tPLWJfJHNkZbfnQ\*\*\*\*`, modelstudioai/skills' API pages), and HTML as character references
// (`&#42;&#42;&#42;`, `&#x2A;`, `&ast;`).
const STAR = String.raw`(?:\*|\\\*|&#42;|&#x2a;|&ast;)`;
const MASK_AFTER = new RegExp(String.raw`^(?:${STAR}{3}|…|\.{3})`, 'i');
const MASK_BEFORE = new RegExp(String.raw`(?:${STAR}{3}|…|\.{3})$`, 'i');
// The most characters a mask at either end is read over: three stars written as HTML references.
const MASK_REACH = 3 * '&#x2a;'.length;

/**
 * Whether a value is plainly made up: masked, templated, counting (`AIzaSyA1B2C3D4…`), of words that call it a
 * password or a secret, or, with `words`, made of words (never so for a password: `Summer-Holiday-2024` is how
 * people make real ones).
 */
export function madeUpValue(v: string, words = true): boolean {
  return MASKED.test(v) || counts(v) || (words && wordsValue(v)) || selfNamedValue(v);
}

/** Whether the value at `start`..`end` of `text` is cut by a mask at either end (`abc123****`, `…xyz789`). */
export function maskedAround(text: string, start: number, end: number): boolean {
  return (
    MASK_AFTER.test(text.slice(end, end + MASK_REACH)) ||
    MASK_BEFORE.test(text.slice(Math.max(0, start - MASK_REACH), start))
  );
}

/** Whether the text right before `offset` on its line presents what follows as an example or "your" value. */
export function introducedAsExample(text: string, offset: number): boolean {
  const start = Math.max(text.lastIndexOf('\n', offset - 1) + 1, offset - 80);
  return INTRO.test(text.slice(start, offset));
}

/**
 * For Markdown text: which lines are illustrations, by line index. A line saying "example", anything under an
 * Example heading (formats/markdown-blocks), and every line of a fenced block whose lead-in line (the last
 * non-blank line before it) says "example", "e.g." or "sample".
 */
export function illustrationLines(text: string): Uint8Array {
  const md = new MarkdownText(text);
  const lines = md.lines;
  const kind = md.fences;
  // md is this call's own: its examples can be added to in place.
  const out = md.examples;
  let lead = false;
  for (let i = 0; i < lines.length; i++) {
    const k = kind[i]!;
    if (k === FENCE_OPEN) {
      let j = i - 1;
      while (j >= 0 && !/\S/.test(lines[j]!)) j--;
      lead = j >= 0 && kind[j] !== FENCE_CLOSE && LEAD_IN.test(lines[j]!);
    } else if (k === FENCED && lead) out[i] = 1;
  }
  return out;
}

// A Firebase Storage download link (`https://<host>/…v0/b/<bucket>/o/<file>?alt=media&token=<uuid>`, the shape of
// every GitBook file link), whose query asks for the file itself.
const STORAGE_LINK = /^https?:\/\/[^/]+\/(?:[^?]*\/)?v0\/b\/[^/?]+\/o\/[^?]+\?(?:[^#]*&)?alt=media(?:[&#]|$)/;
// What ends a link in prose, Markdown or HTML. Before the token a link may hold brackets (`output%20(10).png`, as
// GitBook names a second upload): there it runs back to a blank, a quote or a square bracket, and starts at its last
// `http://` or `https://`.
const LINK_END = ' \t\r\n"\'<>()[]`';
const LINK_START = ' \t\r\n"\'<>[]`';

/**
 * Whether the `token=…` at `offset` is the download token of a Firebase Storage link: what makes that one file
 * readable by whoever has the link, published with the link on purpose (documentation exported from GitBook holds
 * hundreds, one per image), not a key to an account.
 */
export function storageLinkToken(text: string, offset: number): boolean {
  const before = text.charCodeAt(offset - 1);
  // `?token=`, `&token=`, or `&amp;token=` / `&#x26;token=` in HTML.
  if (before !== 63 && before !== 38 && before !== 59) return false;
  // The link it stands in: between the blanks, quotes or brackets around it, at most 2,000 characters each way.
  let start = offset;
  for (const from = Math.max(0, offset - 2000); start > from && !LINK_START.includes(text[start - 1]!);) start--;
  const scheme = text.slice(start, offset);
  start += Math.max(0, scheme.lastIndexOf('http://'), scheme.lastIndexOf('https://'));
  let end = offset;
  for (const to = Math.min(text.length, offset + 2000); end < to && !LINK_END.includes(text[end]!);) end++;
  // In its query, with no `#` before it (HTML writes `&` as `&amp;` or `&#x26;`, Markdown may escape it as `\&`).
  const plain = (s: string) => s.replace(/\\&|&(?:amp|#x26|#38);/gi, '&');
  const head = plain(text.slice(start, offset));
  const query = head.indexOf('?');
  return query >= 0 && !head.includes('#') && STORAGE_LINK.test(plain(text.slice(start, end)));
}

// What jwt.io's debugger shows, and many a guide copies with whatever signature: its sample claims
// ({"sub": "1234567890", "name": "John Doe", "iat": 1516239022}, "admin": true in the newer one).
const sampleClaims = (o: Record<string, unknown>) => o.sub === '1234567890' && o.name === 'John Doe';
// The fields of a JWT's header (its algorithm, type, content type, key id): public by design, never a secret.
const HEADER_KEYS = new Set(['alg', 'typ', 'cty', 'kid']);
const header = (o: Record<string, unknown>) => 'alg' in o && Object.keys(o).every((k) => HEADER_KEYS.has(k));

/** A base64url part that decodes to a JSON object (`eyJ…`), or undefined. */
function decodedJson(part: string): Record<string, unknown> | undefined {
  if (!part.startsWith('eyJ')) return undefined;
  try {
    const o: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof o === 'object' && o !== null && !Array.isArray(o) ? (o as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a JWT, or a part of one given as a value (`token: eyJzdWIi…`), is public sample text: it holds jwt.io's
 * sample claims (whatever signed them), or it is a header alone (`eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9`). A token
 * with other claims and a signature is judged as any other.
 */
export function sampleJwt(v: string): boolean {
  const parts = v.split('.').slice(0, 3);
  const decoded = parts.map((p) => (p === '' ? undefined : decodedJson(p)));
  if (decoded.some((o) => o !== undefined && sampleClaims(o))) return true;
  return parts.length < 3 && decoded.every((o) => o !== undefined && header(o));
}
