import type { ZodIssue } from 'zod';

// The one place where a zod issue becomes a message. Documents differ in how much they say: a skill's fields
// are told in plain words, a configuration file names what it expects, a registry file keeps zod's words.

/** How one kind of document words its issues. */
export interface IssueWording {
  /** What an empty path is called (`the configuration`, `the file`); '' by default. */
  root?: string;
  /** `ignores.0` (zod's own join) rather than `scripts[0]`. */
  dots?: boolean;
  /**
   * `plain`: a skill's fields, in plain words (text, a list, "is required", "must not be empty"); `named`: zod's
   * type names (`must be array, found string`); `zod`: zod's message after the path, whatever the issue.
   */
  words: 'plain' | 'named' | 'zod';
  /** An enum of text that is really true or false (SKILL.md reads every scalar as text). */
  booleanEnum?: boolean;
  /** Unknown keys say which keys are known, e.g. `rules, ignores` (and not where they are). */
  knownKeys?: string;
  /** What a value that matches no member of a union must be. */
  union?: string;
}

const PLAIN: Record<string, string> = {
  string: 'text',
  array: 'a list',
  object: 'a mapping',
  boolean: 'true or false',
  number: 'a number',
};

/** A zod issue path as a field path: `mcpServers[1].url`, or with `dots` `mcpServers.1.url`. */
export function issuePath(parts: readonly (string | number)[], dots = false): string {
  if (dots) return parts.join('.');
  let s = '';
  for (const p of parts) s += typeof p === 'number' ? `[${p}]` : s === '' ? p : `.${p}`;
  return s;
}

/** One zod issue as a message, worded as the document's `wording` says. */
export function issueMessage(issue: ZodIssue, wording: IssueWording): string {
  const path = issuePath(issue.path, wording.dots) || (wording.root ?? '');
  const keys = (list: string[]) => `key${list.length > 1 ? 's' : ''} ${list.map((k) => `"${k}"`).join(', ')}`;
  if (issue.code === 'unrecognized_keys' && wording.knownKeys)
    return `unknown ${keys(issue.keys)} (expected ${wording.knownKeys})`;
  if (issue.code === 'invalid_union' && wording.union) return `${path} must be ${wording.union}`;
  if (wording.words === 'named' && issue.code === 'invalid_type')
    return `${path} must be ${issue.expected}, found ${issue.received}`;
  if (wording.words !== 'plain') return `${path}: ${issue.message}`;
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.received === 'undefined') return `${path} is required`;
      const got = issue.received === 'null' ? 'nothing' : (PLAIN[issue.received] ?? issue.received);
      return `${path} must be ${PLAIN[issue.expected] ?? issue.expected}, found ${got}`;
    }
    case 'invalid_enum_value':
      if (wording.booleanEnum) return `${path} must be true or false, found "${String(issue.received)}"`;
      return `${path} must be one of ${issue.options.map((o) => JSON.stringify(o)).join(', ')}`;
    case 'invalid_union_discriminator':
      return `${path} must be "local" (with command) or "remote" (with url)`;
    case 'invalid_literal':
      return `${path} must be ${JSON.stringify(issue.expected)}`;
    case 'unrecognized_keys':
      return `${path || 'the entry'} has unknown ${keys(issue.keys)}`;
    case 'too_small':
      return `${path} must not be empty`;
    case 'invalid_string':
      if (issue.validation === 'url') return `${path} must be a URL (https://…)`;
      if (issue.validation === 'regex') return `${path} must be ${issue.message}`;
      break;
    default:
      break;
  }
  return `${path}: ${issue.message}`;
}
