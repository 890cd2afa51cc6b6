import { CONFUSABLE_LETTERS, CONFUSABLE_SEQUENCES } from './confusables-data.js';

// Look-alike skill names: `рdf` with a Cyrillic р passes every name rule and reads as `pdf`. Following Unicode
// TS #39 (security mechanisms), a name is suspicious when it mixes scripts (beyond the mixes CJK writing uses),
// or when it is written in another script with letters that all look like Latin ones; and two names are
// confusable when their skeletons (each letter mapped to the Latin letter it looks like) are the same.

// Scripts told apart; a letter of any other script counts as "another script".
const SCRIPTS = [
  'Latin',
  'Greek',
  'Cyrillic',
  'Armenian',
  'Georgian',
  'Hebrew',
  'Arabic',
  'Syriac',
  'Thaana',
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Oriya',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Sinhala',
  'Thai',
  'Lao',
  'Tibetan',
  'Myanmar',
  'Khmer',
  'Mongolian',
  'Ethiopic',
  'Cherokee',
  'Canadian_Aboriginal',
  'Hangul',
  'Hiragana',
  'Katakana',
  'Bopomofo',
  'Han',
  'Yi',
  'Coptic',
  'Tifinagh',
  'Runic',
  'Ogham',
  'Vai',
  'Lisu',
] as const;

let matchers: { name: string; re: RegExp }[] | undefined;
const NEUTRAL = /^[\p{Script=Common}\p{Script=Inherited}]$/u;

/** The script of one character ("Common" for digits, hyphens and marks that take their base's script). */
export function scriptOf(ch: string): string {
  if (NEUTRAL.test(ch)) return 'Common';
  matchers ??= SCRIPTS.map((name) => ({ name, re: new RegExp(`^\\p{Script=${name}}$`, 'u') }));
  for (const m of matchers) if (m.re.test(ch)) return m.name;
  return 'another script';
}

// The mixes that real writing uses (TS #39's "highly restrictive" level): Japanese, Chinese and Korean text with
// Latin.
const ALLOWED_MIXES = [
  ['Latin', 'Han', 'Hiragana', 'Katakana'],
  ['Latin', 'Han', 'Bopomofo'],
  ['Latin', 'Han', 'Hangul'],
];

/** The scripts of a name's letters and digits, in order of first use, Common left out. */
export function scriptsOf(name: string): string[] {
  const seen: string[] = [];
  for (const ch of name) {
    if (ch.charCodeAt(0) < 0x80 && !/[a-zA-Z]/.test(ch)) continue;
    const s = scriptOf(ch);
    if (s !== 'Common' && !seen.includes(s)) seen.push(s);
  }
  return seen;
}

/** True when the scripts of a name form no mix that real writing uses. */
export function isMixedScript(scripts: string[]): boolean {
  return scripts.length > 1 && !ALLOWED_MIXES.some((mix) => scripts.every((s) => mix.includes(s)));
}

// Every letter in the table is beyond ASCII, and NFKC leaves ASCII as it is: an ASCII name (list compares ten
// thousand) of printable ASCII reads as itself in lower case.
const ASCII_NAME = /^[ -~]*$/;
const ASCII_UNTOUCHED = Object.keys(CONFUSABLE_LETTERS).every((k) => !ASCII_NAME.test(k));

/** The name with each letter that looks like a Latin one replaced by it (NFKC and lower case first). */
export function latinLookalike(name: string): string {
  if (ASCII_UNTOUCHED && ASCII_NAME.test(name)) return name.toLowerCase();
  let out = '';
  for (const ch of name.normalize('NFKC').toLowerCase()) out += CONFUSABLE_LETTERS[ch] ?? ch;
  return out;
}

/**
 * The skeleton two names are compared by: the Latin look-alike, then the digits and letter pairs that read as
 * others (0 → o, 1 → l, rn → m). Names with the same skeleton look the same.
 */
export function skeleton(name: string): string {
  let s = latinLookalike(name);
  for (const [from, to] of CONFUSABLE_SEQUENCES) if (s.includes(from)) s = s.split(from).join(to);
  return s;
}

/** Why a name can pass for another one, or undefined: it mixes scripts, or only looks Latin. */
export function lookalikeProblem(name: string): { message: string; latin?: string } | undefined {
  const n = name.normalize('NFKC');
  if (/^[\x20-\x7e]*$/.test(n)) return undefined;
  const scripts = scriptsOf(n);
  const latin = latinLookalike(n);
  const readsLatin = /^[a-z0-9-]+$/.test(latin) && latin !== n.toLowerCase();
  const foreign = [...new Set([...n.toLowerCase()].filter((ch) => CONFUSABLE_LETTERS[ch] !== undefined))];
  const letters = foreign.map(
    (ch) => `${scriptOf(ch)} ${ch} (U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`,
  );
  if (isMixedScript(scripts)) {
    return {
      message: `name "${n}" mixes scripts (${scripts.join(', ')})${readsLatin ? `: it reads as "${latin}" but holds ${letters.join(', ')}` : ''}`,
      ...(readsLatin ? { latin } : {}),
    };
  }
  if (readsLatin) {
    return {
      message: `name "${n}" is written in ${scripts.join(', ')} letters that look like Latin ones: it reads as "${latin}" (${letters.join(', ')})`,
      latin,
    };
  }
  return undefined;
}

/** Groups of two or more different names that look the same (same skeleton), each group in the order given. */
export function confusableGroups(names: string[]): string[][] {
  const bySkeleton = new Map<string, string[]>();
  for (const n of names) {
    const k = skeleton(n);
    const group = bySkeleton.get(k);
    if (!group) bySkeleton.set(k, [n]);
    else if (!group.includes(n)) group.push(n);
  }
  return [...bySkeleton.values()].filter((g) => g.length > 1);
}
