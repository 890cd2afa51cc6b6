import { join } from 'node:path';
import type { Rule } from '../types.js';
import { positionFinder } from '../../formats/text.js';
import { byPath } from './script-shebang.js';
import { illustrationLines, introducedAsExample, madeUpValue } from '../helpers/made-up-secret.js';
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
const PATTERNS: Pattern[] = [
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

// `API_KEY=…`, `"token": "…"`, `password: …`: the key, then a value of 20 or more token characters.
const ASSIGNMENT =
  /(api[_.-]?key|secret|token|passw(?:or)?d|pwd|access[_.-]?key|credentials?|private[_.-]?key)[A-Za-z0-9_.-]{0,40}["']?[ \t]{0,5}(?:=|:=?|=>)[ \t]{0,5}["'`]?([A-Za-z0-9_\-+/=.~]{20,200})/gi;
// Every word ASSIGNMENT starts with: a file that holds none of them is not searched for assignments.
const KEYWORDS = /api[_.-]?key|secret|token|passw|pwd|access[_.-]?key|credential|private[_.-]?key/i;

// Every pattern's hints in one expression: most texts hold none, and then the patterns are not run at all.
const ANY_HINT = PATTERNS.flatMap((p) => p.hints)
  .map((h) => h.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&'))
  .join('|');
// The hints and the keywords in one pass, case aside: every place where either matches is a place where this does.
const GATE = new RegExp(`${ANY_HINT}|${KEYWORDS.source}`, 'gi');
const HINT_AT = new RegExp(ANY_HINT, 'y');
const KEYWORD_AT = new RegExp(KEYWORDS.source, 'iy');
const HINT_FROM = new RegExp(ANY_HINT, 'g');
const KEYWORD_FROM = new RegExp(KEYWORDS.source, 'gi');

/** Whether the text holds a hint of some pattern, and a KEYWORDS word: one pass over it rather than two. */
function gate(text: string): { hinted: boolean; keyword: boolean } {
  GATE.lastIndex = 0;
  for (let m = GATE.exec(text); m; m = GATE.exec(text)) {
    const at = m.index;
    HINT_AT.lastIndex = at;
    KEYWORD_AT.lastIndex = at;
    const hinted = HINT_AT.test(text);
    const keyword = KEYWORD_AT.test(text);
    if (hinted || keyword) {
      // Nothing before `at` is either: the one not found yet is looked for alone, from here.
      const rest = hinted ? KEYWORD_FROM : HINT_FROM;
      rest.lastIndex = at;
      const other = rest.test(text);
      return { hinted: hinted || other, keyword: keyword || (hinted && other) };
    }
    GATE.lastIndex = at + 1;
  }
  return { hinted: false, keyword: false };
}

const PLACEHOLDER =
  /your|xxxx|example|changeme|change_me|dummy|placeholder|test|sample|fake|redacted|replace|insert|todo|secret_here|\.\.\./i;
// The signature of jwt.io's sample token, quoted in many a README.
const JWT_SAMPLE = 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';

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
  const sample = (offset: number, v: string, end: number) => {
    if (madeUpValue(v) || introducedAsExample(text, offset) || (text[offset - 1] === '<' && text[end] === '>'))
      return true;
    if (!options.markdown) return false;
    illustration ??= illustrationLines(text);
    lineOf ??= positionFinder(text);
    return illustration[lineOf(offset).line - 1] === 1;
  };
  const { hinted, keyword } = gate(text);
  for (const p of hinted ? PATTERNS : []) {
    if (!p.hints.some((h) => text.includes(h))) continue;
    for (const m of text.matchAll(p.re)) {
      const v = m[0];
      if (PLACEHOLDER.test(v) || (p.random && !random(v.replace(/^sk-(?:ant-|proj-)?/, '')))) continue;
      if (p.kind === 'JSON Web Token' && v.endsWith(JWT_SAMPLE)) continue;
      // A JWT's header and body are encoded JSON, not random: only its signature says whether it was made up.
      const judged = p.kind === 'JSON Web Token' ? v.slice(v.lastIndexOf('.') + 1) : v;
      if (p.kind !== 'private key' && sample(m.index, judged, m.index + v.length)) continue;
      // A key header in documentation (`-----BEGIN … PRIVATE KEY-----` then `...`) is no key: demand a body.
      if (
        p.kind === 'private key' &&
        !/[A-Za-z0-9+/]{40}/.test(text.slice(m.index + v.length, m.index + v.length + 400))
      )
        continue;
      hits.push({
        kind: p.kind,
        offset: m.index,
        masked: p.kind === 'private key' ? '-----BEGIN … PRIVATE KEY-----' : mask(v),
      });
      taken.push([m.index, m.index + v.length]);
    }
  }
  if (keyword) {
    for (const m of text.matchAll(ASSIGNMENT)) {
      const v = m[2]!;
      const at = m.index + m[0].length - v.length;
      if (taken.some(([a, b]) => at < b && at + v.length > a)) continue;
      if (v.length < minLength || PLACEHOLDER.test(v) || !random(v) || sample(at, v, at + v.length)) continue;
      // A dotted name (`process.env.API_TOKEN_2`, `config.auth.token1`) is code, not a value.
      if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(v)) continue;
      hits.push({ kind: `${m[1]!.toLowerCase()} value`, offset: at, masked: mask(v) });
    }
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
