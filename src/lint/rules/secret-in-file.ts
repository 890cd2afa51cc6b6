import { join } from 'node:path';
import type { Rule } from '../types.js';
import { nextOfTwo, positionFinder } from '../../formats/text.js';
import { byPath } from './script-shebang.js';
import {
  illustrationLines,
  introducedAsExample,
  madeUpValue,
  maskedAround,
  sampleJwt,
  storageLinkToken,
} from '../helpers/made-up-secret.js';
import { isMarkdown } from '../references.js';

interface Pattern {
  kind: string;
  re: RegExp;
  /** Also demand randomness of the match (for prefixes that ordinary words can share). */
  random?: boolean;
  /** Text that every match holds: a text without any of them is not searched (most texts hold none). */
  hints: string[];
}

// Every quantifier is bounded and no repetition nests: this runs on strangers' files.
const END = '(?![A-Za-z0-9_-])';
export const PATTERNS: Pattern[] = [
  {
    kind: 'private key',
    re: /-----BEGIN (?:[A-Z0-9]{1,20} ){0,3}PRIVATE KEY(?: BLOCK)?-----/g,
    hints: ['-----BEGIN '],
  },
  { kind: 'AWS access key id', re: new RegExp(`\\b(?:AKIA|ASIA)[A-Z0-9]{16}${END}`, 'g'), hints: ['AKIA', 'ASIA'] },
  {
    kind: 'GitHub token',
    re: new RegExp(`\\bgh[pousr]_[A-Za-z0-9]{36}${END}`, 'g'),
    hints: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'],
  },
  {
    kind: 'GitHub token',
    re: new RegExp(`\\bgithub_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}${END}`, 'g'),
    hints: ['github_pat_'],
  },
  {
    kind: 'Anthropic API key',
    re: new RegExp(`\\bsk-ant-[A-Za-z0-9_-]{20,200}`, 'g'),
    random: true,
    hints: ['sk-ant-'],
  },
  {
    kind: 'OpenAI API key',
    re: new RegExp(`\\bsk-(?!ant-)[A-Za-z0-9_-]{20,200}`, 'g'),
    random: true,
    hints: ['sk-'],
  },
  {
    kind: 'Slack token',
    re: new RegExp(`\\bxox[baprs]-[0-9]{6,20}-[A-Za-z0-9-]{10,200}`, 'g'),
    hints: ['xoxb-', 'xoxa-', 'xoxp-', 'xoxr-', 'xoxs-'],
  },
  { kind: 'Google API key', re: new RegExp(`\\bAIza[0-9A-Za-z_-]{35}${END}`, 'g'), hints: ['AIza'] },
  {
    kind: 'Stripe live key',
    re: new RegExp(`\\b[sr]k_live_[0-9A-Za-z]{20,200}`, 'g'),
    hints: ['sk_live_', 'rk_live_'],
  },
  {
    kind: 'JSON Web Token',
    re: /\beyJ[A-Za-z0-9_-]{10,4000}\.eyJ[A-Za-z0-9_-]{10,8000}\.[A-Za-z0-9_-]{10,2000}/g,
    hints: ['eyJ'],
  },
];

// `API_KEY=…`, `"token": "…"`, `password: …`: the key, then a value of 20 or more token characters. Sticky: it is
// tried only where a KEYWORDS word starts (assignments()).
const ASSIGNMENT =
  /(api[_.-]?key|secret|token|passw(?:or)?d|pwd|access[_.-]?key|credentials?|private[_.-]?key)[A-Za-z0-9_.-]{0,40}["']?[ \t]{0,5}(?:=|:=?|=>)[ \t]{0,5}["'`]?([A-Za-z0-9_\-+/=.~]{20,200})/iy;
// Where ASSIGNMENT can start: every match of it starts with a match of this (passw for password, credential for
// credentials), so it is tried only there, as a sticky match, rather than at every character of the text.
const KEYWORDS = /api[_.-]?key|secret|token|passw|pwd|access[_.-]?key|credential|private[_.-]?key/gi;
// The shortest value ASSIGNMENT takes, and its characters (by code: the class holds ASCII alone, even with /i).
const MIN_VALUE = 20;
const VALUE_CHAR = Uint8Array.from({ length: 128 }, (_, c) =>
  /[A-Za-z0-9_\-+/=.~]/.test(String.fromCharCode(c)) ? 1 : 0,
);
// How far before its operator an ASSIGNMENT starts at most: the longest keyword (credentials, private_key: 11), 40
// name characters, a quote and 5 blanks.
const KEY_REACH = 11 + 40 + 1 + 5;
// How far after the operator's first character its value starts: 1 (`=`) to 8 (`:=` or `=>`, 5 blanks, a quote).
const VALUE_REACH = 8;

/**
 * Whether the operator (`=` or `:`) at `at` can be an ASSIGNMENT's: a run of MIN_VALUE value characters starts at
 * most VALUE_REACH after it. Most are not (`x = 1`, `name="short"`, `Example: the`), and then no keyword before them
 * needs a look.
 */
export function valueAfter(text: string, at: number): boolean {
  // A run that starts at most VALUE_REACH after the operator holds every character from there to MIN_VALUE after
  // it: those are looked at first, from the far end (most operators fail at once), before the runs are counted.
  if (at + MIN_VALUE >= text.length) return false;
  for (let i = at + MIN_VALUE; i >= at + VALUE_REACH; i--) {
    const c = text.charCodeAt(i);
    if (c >= 128 || VALUE_CHAR[c] !== 1) return false;
  }
  const end = Math.min(text.length, at + VALUE_REACH + MIN_VALUE);
  let run = 0;
  for (let i = at + 1; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 128 && VALUE_CHAR[c] === 1) {
      if (++run >= MIN_VALUE) return true;
    } else {
      // The next run would start past where a value may.
      if (i >= at + VALUE_REACH) return false;
      run = 0;
    }
  }
  return false;
}

/**
 * The matches of ASSIGNMENT in `text`, as `text.matchAll(ASSIGNMENT)` finds them: each at the first place from the
 * end of the last where it matches. It can match only where a KEYWORDS word starts, at most KEY_REACH before an
 * operator on the same line that a value follows (valueAfter): only those stretches are searched for keywords.
 */
export function* assignments(text: string): Generator<RegExpExecArray> {
  let from = 0;
  const nextOperator = nextOfTwo(text, '=', ':');
  // The stretch searched last ends at `searched`: a keyword that starts before it was tried already.
  let searched = 0;
  for (let op = nextOperator(0); op >= 0; op = nextOperator(op + 1)) {
    if (!valueAfter(text, op)) continue;
    // From the start of the operator's line, or KEY_REACH before it; each look is bounded, whatever the line's length.
    let start = Math.max(searched, op - KEY_REACH);
    for (let i = op - 1; i >= start; i--)
      if (text.charCodeAt(i) === 10) {
        start = i + 1;
        break;
      }
    searched = op;
    if (op - start < 3) continue;
    // No keyword holds an operator, so those before this one lie whole in the stretch up to it.
    const stretch = text.slice(start, op);
    KEYWORDS.lastIndex = 0;
    for (let k = KEYWORDS.exec(stretch); k; k = KEYWORDS.exec(stretch)) {
      const at = start + k.index;
      KEYWORDS.lastIndex = k.index + 1;
      if (at < from) continue;
      ASSIGNMENT.lastIndex = at;
      const m = ASSIGNMENT.exec(text);
      if (!m) continue;
      from = at + m[0].length;
      yield m;
    }
  }
}

// Where a hint can be, each looked for as a plain string (indexOf: a native scan, and no JavaScript runs for the
// characters between): a hint itself, or a rarer part of some (`k-` of `sk-`, `gh` of `ghp_`, `J` of `eyJ`, `BEGIN `
// of `-----BEGIN `, `_pat_` of `github_pat_`, `_live_` of `sk_live_`), then judged in place. Anchors on single common
// characters (`-`, `_`, `A`) stopped 337,000 times in the real skill collections, and the function judging each was
// compiled and deoptimised over and over on a cold run; a scan for a string whose first character is common in prose
// (`sk-`, five `gh?_`) costs more than one for a rarer part. A place of 7 or more characters is searched another way
// (Boyer-Moore), slower on text that holds none: `-----BEGIN `, `github_pat_` and `k_live_` took 0.7, 0.6 and 1 ms a
// MB of prose, their 6-character parts 0.03 each, and the ten scans 3.1 ms a MB in all, now 0.8.
const HINT_PLACES = ['k-', 'xox', 'BEGIN ', 'gh', '_pat_', '_live_', 'J', 'AKIA', 'ASIA', 'AIza'];

/** Whether the place `p` (one of HINT_PLACES) found at `i` starts a hint, or stands in one. */
function hintAt(text: string, p: string, i: number): boolean {
  // sk-
  if (p === 'k-') return i >= 1 && text.charCodeAt(i - 1) === 115;
  // xoxb-, xoxa-, xoxp-, xoxr-, xoxs-
  if (p === 'xox')
    return i + 4 < text.length && oneOf(text.charCodeAt(i + 3), 'baprs') && text.charCodeAt(i + 4) === 45;
  // -----BEGIN
  if (p === 'BEGIN ') return i >= 5 && text.startsWith('-----', i - 5);
  // ghp_, gho_, ghu_, ghs_, ghr_
  if (p === 'gh') return i + 3 < text.length && oneOf(text.charCodeAt(i + 2), 'pousr') && text.charCodeAt(i + 3) === 95;
  // github_pat_
  if (p === '_pat_') return i >= 6 && text.startsWith('github', i - 6);
  // sk_live_, rk_live_
  if (p === '_live_') return i >= 2 && text.charCodeAt(i - 1) === 107 && oneOf(text.charCodeAt(i - 2), 'sr');
  // eyJ
  if (p === 'J') return i >= 2 && text.charCodeAt(i - 1) === 121 && text.charCodeAt(i - 2) === 101;
  return true;
}

/** Whether character code `c` is one of the (ASCII) characters of `set`. */
function oneOf(c: number, set: string): boolean {
  for (let k = 0; k < set.length; k++) if (set.charCodeAt(k) === c) return true;
  return false;
}

// How far before each of HINT_PLACES its hint starts (`k-` stands 1 into `sk-`, `BEGIN ` 5 into `-----BEGIN `).
const PLACE_BACK = [1, 0, 5, 0, 6, 2, 2, 0, 0, 0];
// For each of HINT_PLACES, the hints that hold it PLACE_BACK from their start, each with its pattern's index.
const PLACE_HINTS = HINT_PLACES.map((p, k) =>
  PATTERNS.flatMap((pattern, j) =>
    pattern.hints.filter((h) => h.startsWith(p, PLACE_BACK[k]!)).map((h): [string, number] => [h, j]),
  ),
);
// Each pattern, tried as a sticky match where one of its hints starts.
const STICKY = PATTERNS.map((p) => new RegExp(p.re.source, 'y'));

/**
 * Where each pattern's hints start in the text, by pattern (in PATTERNS' order, each list ascending), or undefined
 * when no hint is there (most texts). Every match of a pattern starts with one of its hints, and each hint holds one
 * of HINT_PLACES at a set place: one native scan of the text for each place finds them all.
 */
export function hintStarts(text: string): number[][] | undefined {
  let out: number[][] | undefined;
  for (let k = 0; k < HINT_PLACES.length; k++) {
    const p = HINT_PLACES[k]!;
    for (let i = text.indexOf(p); i >= 0; i = text.indexOf(p, i + 1)) {
      if (!hintAt(text, p, i)) continue;
      const at = i - PLACE_BACK[k]!;
      for (const [h, j] of PLACE_HINTS[k]!) if (text.startsWith(h, at)) (out ??= PATTERNS.map(() => []))[j]!.push(at);
    }
  }
  // AWS's two hints come from two places; every other pattern's from one, in order already.
  if (out) for (const list of out) list.sort((a, b) => a - b);
  return out;
}

/**
 * The matches of pattern `j` in `text`, as `text.matchAll(PATTERNS[j].re)` finds them, tried only at `starts`
 * (where its hints start, ascending): the first place from the end of the last match where it matches.
 */
export function* patternMatches(text: string, j: number, starts: number[]): Generator<RegExpExecArray> {
  const re = STICKY[j]!;
  let from = 0;
  for (const at of starts) {
    if (at < from) continue;
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) continue;
    from = at + m[0].length;
    yield m;
  }
}

// A value that says what it stands for: `hardcoded-password-123` under "DON'T: Hardcode secrets" (simota's Scaffold).
const PLACEHOLDER =
  /your|xxxx|example|changeme|change_me|dummy|placeholder|test|sample|fake|redacted|replace|insert|todo|secret_here|hard[-_]?coded|\.\.\./i;
// Keys their makers publish for tests, which work for anyone and guard nothing: Google reCAPTCHA v2's test site key
// and secret (its FAQ: "I'd like to run automated tests with reCAPTCHA").
const PUBLISHED_TEST_KEYS = new Set([
  '6LeIxAcTAAAAAJcZVRqyHh71UMIEGNQ_MXjiZKhI',
  '6LeIxAcTAAAAAGG-vFI1TnRWxMZNFuojJ4WifJWe',
]);
// AWS's documentation key pair (AKIAIOSFODNN7EXAMPLE, wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY) and guides' variants of
// it (`AKIAIOSFODNN7PRODUCTION`).
const AWS_DOC_KEY = /^(?:AKIAIOSFODNN7|wJalrXUtnFEMI\/K7MDENG)/;

/** A key its maker published for tests or documentation. */
const published = (v: string) => PUBLISHED_TEST_KEYS.has(v) || AWS_DOC_KEY.test(v);

/** Shannon entropy of a string, in bits per character. */
export function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/** What to show of a secret: its first four characters. */
export function mask(secret: string): string {
  return `${secret.slice(0, 4)}…`;
}

export interface SecretHit {
  kind: string;
  offset: number;
  masked: string;
}

export interface FindOptions {
  minLength?: number;
  minEntropy?: number;
  /** The text is Markdown: values in its illustrations (an Example section, a block led in by "e.g.") are samples. */
  markdown?: boolean;
}

/**
 * Whether an assignment's value is a file's path: absolute or from the home folder, two or more names of path
 * characters, under a system folder (`/etc/…`, `/run/secrets/…`) or given to a key named for one (`…_file`, `…_path`).
 */
function filePath(key: string, value: string): boolean {
  if (!/^~?(?:\/[\w.-]+){2,}\/?$/.test(value)) return false;
  return (
    /^~?\/(?:etc|var|run|home|usr|opt|tmp|srv|mnt|root|Users|private|certs?|secrets?|keys?)\//.test(value) ||
    /(?:file|path|dir|location)[\s"'`]*[:=]/i.test(key)
  );
}

// The name of a key that holds a digest: `…_sha256`, `…_md5`, `…hash`, `…digest`, `…checksum`, `…fingerprint`.
const DIGEST_KEY =
  /(?:sha-?(?:1|224|256|384|512)|md5|hash|digest|checksum|fingerprint)[A-Za-z0-9_.-]*["']?[ \t]*(?:=|:=?|=>)/i;

// A private key's body right after its header: base64 once past line breaks, blanks, quotes and the joins of a string
// written over lines (`\n' +`, `",`), a listing's line numbers (`20. `) and an encrypted key's `Proc-Type:` and
// `DEK-Info:` lines.
const KEY_BODY = /^(?:\s|\\[nr]|["'`+,;(|]|\d{1,6}[.:|]|(?:Proc-Type|DEK-Info):[^\n"'\\]{0,200})*[A-Za-z0-9+/]{40}/;

// A key that says tokenizer, tokenize or tokenization (s or z): what splits text into tokens, not one.
const TOKENIZER_KEY = /^tokeni[sz]/i;
const KEYWORD = new RegExp(KEYWORDS.source, 'i');

// What stands before `token` in the name of a page token: `nextPageToken`, `page_token`, `continuationToken`.
const PAGE_KEY = /(?:page|next|continuation|sync)[_-]?$/i;

/**
 * Strings in `text` that look like secrets; placeholders and samples left out: values presented as examples or
 * "your" key, masked or counting ones (`AIzaSyA1B2C3…`), and in Markdown, values in an illustration.
 */
export function findSecrets(text: string, options: FindOptions = {}): SecretHit[] {
  const { minLength = 20, minEntropy = 3.5 } = options;
  const hits: SecretHit[] = [];
  const taken: [number, number][] = [];
  const random = (v: string) => /[0-9]/.test(v) && /[A-Za-z]/.test(v) && entropy(v) >= minEntropy;
  let illustration: Uint8Array | undefined;
  let lineOf: ((offset: number) => { line: number }) | undefined;
  // `words`: a value of words and numbers counts as a stand-in (not for a password, which people make of words).
  const sample = (offset: number, v: string, end: number, words = true) => {
    if (
      madeUpValue(v, words) ||
      maskedAround(text, offset, end) ||
      introducedAsExample(text, offset) ||
      (text[offset - 1] === '<' && text[end] === '>')
    )
      return true;
    if (!options.markdown) return false;
    illustration ??= illustrationLines(text);
    lineOf ??= positionFinder(text);
    return illustration[lineOf(offset).line - 1] === 1;
  };
  const starts = hintStarts(text);
  for (let j = 0; starts && j < PATTERNS.length; j++) {
    const p = PATTERNS[j]!;
    for (const m of patternMatches(text, j, starts[j]!)) {
      const v = m[0];
      if (PLACEHOLDER.test(v) || published(v) || (p.random && !random(v.replace(/^sk-(?:ant-|proj-)?/, '')))) continue;
      // jwt.io's sample token, quoted in many a README, with its signature or another.
      if (p.kind === 'JSON Web Token' && sampleJwt(v)) continue;
      // A JWT's header and body are encoded JSON, not random: only its signature says whether it was made up.
      const judged = p.kind === 'JSON Web Token' ? v.slice(v.lastIndexOf('.') + 1) : v;
      if (p.kind !== 'private key' && sample(m.index, judged, m.index + v.length)) continue;
      // A key header in documentation (`-----BEGIN … PRIVATE KEY-----` then `...`) is no key: demand a body, right
      // after the header (a test's `PEM_HEADER = "-----BEGIN …-----"` with other strings below it has none).
      if (p.kind === 'private key' && !KEY_BODY.test(text.slice(m.index + v.length, m.index + v.length + 400)))
        continue;
      hits.push({
        kind: p.kind,
        offset: m.index,
        masked: p.kind === 'private key' ? '-----BEGIN … PRIVATE KEY-----' : mask(v),
      });
      taken.push([m.index, m.index + v.length]);
    }
  }
  for (const m of assignments(text)) {
    const v = m[2]!;
    const at = m.index + m[0].length - v.length;
    if (taken.some(([a, b]) => at < b && at + v.length > a)) continue;
    if (v.length < minLength || PLACEHOLDER.test(v) || !random(v) || published(v) || sampleJwt(v)) continue;
    // A dotted name (`process.env.API_TOKEN_2`, `config.auth.token1`) is code, not a value; asked before sample(),
    // which may read the whole Markdown text's block structure.
    const password = /^(?:passw|pwd)/i.test(m[1]!);
    if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(v) || sample(at, v, at + v.length, !password)) continue;
    // A call (`token = forge_token_with_key(key)`) is code, and a file's path (`private_key_file = /etc/ssl/x.key`)
    // says where a secret is, not what.
    if (text.charCodeAt(at + v.length) === 40 || filePath(m[0].slice(0, -v.length), v)) continue;
    // A digest (`token_output_sha256: 3f78…`, `secret_hash = …`) is what a secret hashes to, not the secret.
    if (DIGEST_KEY.test(m[0].slice(0, -v.length))) continue;
    // A page token (`"nextPageToken": "WyIy…"`) is where a listing goes on, not a key to an account.
    if (PAGE_KEY.test(text.slice(Math.max(0, m.index - 12), m.index))) continue;
    // A tokenizer (`tokenizer = "nvidia/NVIDIA-Nemotron-Nano-9B-v2"`) names a model, not a token; a key that says
    // more (`tokenizer_api_key`) is still read as its other word.
    if (TOKENIZER_KEY.test(m[0]) && !KEYWORD.test(m[0].slice(6, m[0].length - v.length))) continue;
    if (/^token=/i.test(m[0]) && storageLinkToken(text, m.index)) continue;
    hits.push({ kind: `${m[1]!.toLowerCase()} value`, offset: at, masked: mask(v) });
  }
  return hits.sort((a, b) => a.offset - b.offset);
}

export default {
  names: ['SK119', 'secret-in-file'],
  description:
    'no file of the skill holds something that looks like a secret (API key, token, private key); documented placeholders (after "Example:", "e.g." or "your", masked or counting like A1B2C3, in a Markdown example) are not reported',
  tags: ['security', 'secrets'],
  layouts: ['skill-md', 'manifest'],
  severity: 'error',
  sources: ['seed 000 (BuzyBeez): scripts, envVars, secrets', 'gitleaks rules', 'GitHub secret scanning patterns'],
  fixable: false,
  options: {
    minLength: { default: 20, description: 'shortest value of a generic `API_KEY=…` assignment to check' },
    minEntropy: {
      default: 3.5,
      description: 'least Shannon entropy (bits per character) for a generic value to count as a secret',
    },
  },
  check(skill, ctx) {
    const minLength = ctx.options.minLength as number;
    const minEntropy = ctx.options.minEntropy as number;
    for (const e of byPath(skill.entries)) {
      if (e.kind === 'dir' || e.kind === 'other') continue;
      const text = ctx.readText(e.path);
      if (text === undefined || text.length < 20) continue;
      const hits = findSecrets(text, { minLength, minEntropy, markdown: isMarkdown(e.path) });
      if (hits.length === 0) continue;
      const at = positionFinder(text);
      for (const h of hits) {
        ctx.report({
          message: `${e.path} holds what looks like a secret: ${h.kind} ${h.masked}`,
          file: join(skill.root, e.path),
          ...at(h.offset),
          hint: 'remove it and revoke it (it may already be published), then read it from an environment variable',
        });
      }
    }
  },
} satisfies Rule;
