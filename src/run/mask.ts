import { StringDecoder } from 'node:string_decoder';

// Secret values masked in everything run-script hands back: the script's output, live and kept, and its messages.
// Masking works on bytes, so output that is not UTF-8 passes through byte for byte. It finds a secret in every
// form a JSON encoder writes it in (Python's json.dumps, JSON.stringify, Go's encoding/json, PHP's json_encode,
// .NET): each character as itself (UTF-8, or one Latin-1 byte), as \uXXXX in either case (a surrogate pair past
// U+FFFF), or as its short escape (\" \\ \/ \b \f \n \r \t). What these encoders write is masked again in its own
// forms, so JSON encoded twice (a JSON text inside a JSON string) is masked too.

/** A value shorter than this is not masked: masking "a" or "1" would garble every line and hide nothing. */
export const MIN_SECRET_LENGTH = 4;

/** What a secret becomes. */
const STARS = Buffer.from('***');
const SHORT_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  '\b': 'b',
  '\f': 'f',
  '\n': 'n',
  '\r': 'r',
  '\t': 't',
};

/**
 * The strings to mask for some secret values: each of at least MIN_SECRET_LENGTH, also as JSON escapes it; longest
 * first.
 */
export function maskList(values: string[]): string[] {
  const set = new Set<string>();
  for (const v of values) {
    if (v.length < MIN_SECRET_LENGTH) continue;
    set.add(v);
    const escaped = JSON.stringify(v).slice(1, -1);
    if (escaped !== v) set.add(escaped);
  }
  return [...set].sort((a, b) => b.length - a.length);
}

/** One way to write one character: these bytes; `fold` marks hex digits that may be upper case. */
interface Form {
  bytes: Uint8Array;
  fold?: boolean[];
}

/** The secrets compiled: each a list of characters, each character the forms it may take. */
interface Matcher {
  secrets: Form[][][];
  /** By first byte: the secrets that may start with it. */
  first: (number[] | undefined)[];
}

const hex4 = (n: number) => n.toString(16).padStart(4, '0');

function unicodeEscape(units: number[]): Form {
  const text = units.map((u) => `\\u${hex4(u)}`).join('');
  return { bytes: Buffer.from(text, 'latin1'), fold: [...text].map((c) => /[a-f]/.test(c)) };
}

/** Every form of one character (a code point, or a lone surrogate). */
function formsOf(char: string): Form[] {
  const code = char.codePointAt(0)!;
  const forms: Form[] = [{ bytes: Buffer.from(char, 'utf8') }];
  if (code >= 0x80 && code <= 0xff) forms.push({ bytes: Uint8Array.of(code) });
  forms.push(unicodeEscape(char.length === 2 ? [char.charCodeAt(0), char.charCodeAt(1)] : [code]));
  const short = SHORT_ESCAPES[char];
  if (short !== undefined) forms.push({ bytes: Buffer.from(`\\${short}`, 'latin1') });
  return forms;
}

/** How encoders write a text: the styles of Python, PHP, Go and .NET (JSON.stringify's is in maskList). */
const STYLES = [
  { ascii: true },
  { ascii: true, upper: true },
  { ascii: true, slash: true },
  { html: true },
  { ascii: true, html: true, upper: true },
  { ascii: true, slash: true, html: true, upper: true },
];

/** A text as an encoder of a style writes it inside a JSON string. */
function encode(text: string, style: { ascii?: boolean; upper?: boolean; slash?: boolean; html?: boolean }): string {
  let out = '';
  for (const c of text) {
    const code = c.codePointAt(0)!;
    const u = (n: number) => `\\u${style.upper ? hex4(n).toUpperCase() : hex4(n)}`;
    if (c === '"' || c === '\\') out += `\\${c}`;
    else if (c === '/' && style.slash) out += '\\/';
    else if (code < 0x20 || (code > 0x7e && style.ascii) || ('<>&'.includes(c) && style.html))
      out += code > 0xffff ? u(c.charCodeAt(0)) + u(c.charCodeAt(1)) : u(code);
    else out += c;
  }
  return out;
}

const compiled = new WeakMap<readonly string[], Matcher | undefined>();

function compile(secrets: readonly string[]): Matcher | undefined {
  if (compiled.has(secrets)) return compiled.get(secrets);
  const list = [...new Set(secrets.flatMap((s) => [s, ...STYLES.map((style) => encode(s, style))]))].filter(
    (s) => s !== '',
  );
  let matcher: Matcher | undefined;
  if (list.length > 0) {
    matcher = { secrets: [], first: [] };
    for (const secret of list) {
      const chars = [...secret].map(formsOf);
      const index = matcher.secrets.push(chars) - 1;
      for (const form of chars[0]!) {
        const at = (matcher.first[form.bytes[0]!] ??= []);
        if (!at.includes(index)) at.push(index);
      }
    }
  }
  compiled.set(secrets, matcher);
  return matcher;
}

const FULL = 1;
const PARTIAL = 2;

/** Compare `form.bytes` with `buf` at `at`: FULL, PARTIAL (the input ends first) or 0. */
function compare(buf: Uint8Array, at: number, form: Form): number {
  const { bytes, fold } = form;
  for (let i = 0; i < bytes.length; i++) {
    const pos = at + i;
    if (pos >= buf.length) return PARTIAL;
    const b = buf[pos]!;
    if (b !== bytes[i] && !(fold?.[i] && (b | 0x20) === bytes[i])) return 0;
  }
  return FULL;
}

const MORE = -1;

/** The length of the longest match of a secret at `at`, 0 for none, MORE when more input may tell. */
function matchAt(chars: Form[][], buf: Uint8Array, at: number): number {
  // Where the characters matched so far may end: most often one place, so that case allocates nothing.
  let one = at;
  let many: number[] | undefined;
  let more = false;
  for (const forms of chars) {
    if (!many) {
      // One place to go on from: try its forms without allocating; most fail at their first byte.
      let end = -1;
      let other = -1;
      for (const form of forms) {
        const r = compare(buf, one, form);
        if (r === PARTIAL) more = true;
        else if (r === FULL) {
          const e = one + form.bytes.length;
          if (end < 0 || e === end) end = e;
          else if (other < 0 || e === other) other = e;
          else if (!many?.includes(e)) (many ??= [end, other]).push(e);
        }
      }
      if (end < 0) return more ? MORE : 0;
      if (other >= 0) many ??= [end, other];
      one = end;
      continue;
    }
    const next: number[] = [];
    for (const o of many) {
      for (const form of forms) {
        const r = compare(buf, o, form);
        if (r === PARTIAL) more = true;
        else if (r === FULL && !next.includes(o + form.bytes.length)) next.push(o + form.bytes.length);
      }
    }
    if (next.length === 0) return more ? MORE : 0;
    one = next[0]!;
    many = next.length > 1 ? next : undefined;
  }
  return (many ? Math.max(...many) : one) - at;
}

interface Scanned {
  /** Masked bytes, at most the budget. */
  out: Buffer;
  /** Bytes of the input decided: passed on, masked, or past the budget. */
  next: number;
  /** The budget was reached. */
  full: boolean;
}

/**
 * Mask `buf` up to the budget. Unless `final`, stop where a secret may begin and only more input can tell, so the
 * decision at each byte never depends on how the stream was cut into chunks.
 */
function scan(matcher: Matcher | undefined, buf: Buffer, final: boolean, budget: number): Scanned {
  if (!matcher) {
    const out = buf.length > budget ? buf.subarray(0, budget) : buf;
    return { out, next: out.length, full: buf.length > budget };
  }
  const pieces: Buffer[] = [];
  let size = 0;
  // Emit `piece`, which stands for the input up to `upTo`; past the budget, what is cut.
  const put = (piece: Buffer, upTo: number): Scanned | undefined => {
    if (size + piece.length <= budget) {
      pieces.push(piece);
      size += piece.length;
      return undefined;
    }
    const room = budget - size;
    pieces.push(piece.subarray(0, room));
    // A literal run is cut at the budget; a mask stands for the whole secret.
    const next = piece === STARS ? upTo : upTo - piece.length + room;
    return { out: Buffer.concat(pieces), next, full: true };
  };
  let literal = 0;
  let i = 0;
  while (i < buf.length) {
    const candidates = matcher.first[buf[i]!];
    if (candidates) {
      let best = 0;
      let more = false;
      for (const s of candidates) {
        const r = matchAt(matcher.secrets[s]!, buf, i);
        if (r === MORE) more = true;
        else if (r > best) best = r;
      }
      if (more && !final) break;
      if (best > 0) {
        const cut = put(buf.subarray(literal, i), i) ?? put(STARS, i + best);
        if (cut) return cut;
        i += best;
        literal = i;
        continue;
      }
    }
    i++;
  }
  return put(buf.subarray(literal, i), i) ?? { out: Buffer.concat(pieces), next: i, full: false };
}

/**
 * A masker for a stream of bytes: a secret split across two chunks is still masked, because the end of a chunk
 * that could be the start of a secret is held back until the next chunk (or `end`) tells. With a budget, it
 * masks before it cuts: the bytes it returns never hold part of a secret.
 */
export class ByteMasker {
  private pending: Buffer = Buffer.alloc(0);
  private readonly matcher: Matcher | undefined;
  /** Bytes of the stream decided so far (passed on, masked, or cut at a budget). */
  consumed = 0;
  constructor(secrets: readonly string[]) {
    this.matcher = compile(secrets);
  }

  /** Masked bytes that are safe to emit now, at most `budget`; once the budget is reached, the rest is dropped. */
  push(chunk: Buffer, budget = Infinity): Buffer {
    return this.run(this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk, false, budget);
  }

  /** The rest, at the end of the stream. */
  end(budget = Infinity): Buffer {
    return this.run(this.pending, true, budget);
  }

  private run(buf: Buffer, final: boolean, budget: number): Buffer {
    const r = scan(this.matcher, buf, final, budget);
    this.consumed += r.next;
    this.pending = r.full || final ? Buffer.alloc(0) : Buffer.from(buf.subarray(r.next));
    return r.out;
  }
}

/** The text form of ByteMasker: a stream of text in, masked text out. */
export class StreamMasker {
  private readonly masker: ByteMasker;
  private readonly decoder = new StringDecoder('utf8');
  constructor(secrets: readonly string[]) {
    this.masker = new ByteMasker(secrets);
  }

  /** Masked text that is safe to emit now. */
  push(chunk: string): string {
    return this.decoder.write(this.masker.push(Buffer.from(chunk, 'utf8')));
  }

  /** The rest, at the end of the stream. */
  end(): string {
    return this.decoder.write(this.masker.end()) + this.decoder.end();
  }
}

/** Replace every secret in a finished text, in any of its forms, with ***. */
export function maskText(text: string, secrets: readonly string[]): string {
  const matcher = compile(secrets);
  if (!matcher) return text;
  const buf = Buffer.from(text, 'utf8');
  const out = scan(matcher, buf, true, Infinity).out;
  return out.equals(buf) ? text : out.toString('utf8');
}

/**
 * A value decoded from the script's output with every secret masked: strings, object keys, and numbers. The value
 * is walked with a stack of its own, not by recursion, so however deep a script nests it, the walk cannot run out
 * of the call stack; with no secret to mask it is handed back as it is.
 */
export function maskValue(value: unknown, secrets: readonly string[]): unknown {
  if (compile(secrets) === undefined) return value;
  const leaf = (v: unknown): unknown => {
    if (typeof v === 'string') return maskText(v, secrets);
    if (typeof v === 'number' || typeof v === 'bigint') {
      const masked = maskText(String(v), secrets);
      return masked === String(v) ? v : masked;
    }
    return v;
  };
  // Each array or object met is copied as an empty shell at once, and filled when its turn on the stack comes.
  const pending: [from: unknown, to: unknown[] | Record<string, unknown>][] = [];
  const copy = (v: unknown): unknown => {
    if (Array.isArray(v)) {
      const to: unknown[] = new Array<unknown>(v.length);
      pending.push([v, to]);
      return to;
    }
    if (v && typeof v === 'object') {
      const to: Record<string, unknown> = {};
      pending.push([v, to]);
      return to;
    }
    return leaf(v);
  };
  const top = copy(value);
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [from, to] = next;
    if (Array.isArray(to)) (from as unknown[]).forEach((v, i) => (to[i] = copy(v)));
    else
      for (const [k, v] of Object.entries(from as object))
        // As an own property, whatever the key ("__proto__" included), as JSON.parse made it.
        Object.defineProperty(to, maskText(k, secrets), {
          value: copy(v),
          enumerable: true,
          writable: true,
          configurable: true,
        });
  }
  return top;
}
