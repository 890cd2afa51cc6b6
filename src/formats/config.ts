import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { Position, Severity } from '../model/diagnostic.js';
import { closest } from './did-you-mean.js';
import { duplicateKey, offsetOf, parseJson, readableError } from './json.js';
import { issueMessage } from './zod-issue.js';

// skills.config.json: its schema and its reading from text. Finding the file and reading it is config/'s.

export const CONFIG_FILE = 'skills.config.json';

// Built on first use: zod is set up only when a configuration file is read (README, "Libraries set up on first use").
function buildSchema() {
  const severity = z.enum(['off', 'error', 'warning', 'warn', 'info']);
  const ruleSetting = z.union([
    severity,
    z.tuple([severity, z.record(z.unknown())]),
    z.object({ severity: severity.optional(), options: z.record(z.unknown()).optional() }).strict(),
  ]);
  return z
    .object({
      $schema: z.string().optional(),
      rules: z.record(ruleSetting).optional(),
      ignores: z.array(z.string().min(1)).optional(),
      /** Skill folders `skills list` reads when none are given (relative to the file's folder; ~ is HOME). */
      skillDirs: z.array(z.string().min(1)).optional(),
      /** Skill names render-prompt leaves out (seed 003's disabled_skills). */
      disabledSkills: z.array(z.string().min(1)).optional(),
      /** How many skills render-prompt activates for a query (seed 004's max_skills). */
      maxSkills: z.number().int().min(0).optional(),
      // Seed 003 and 004 spell them in snake_case: accepted as aliases.
      skill_dirs: z.array(z.string().min(1)).optional(),
      disabled_skills: z.array(z.string().min(1)).optional(),
      max_skills: z.number().int().min(0).optional(),
    })
    .strict();
}

let schema: ReturnType<typeof buildSchema> | undefined;
const configSchema = () => (schema ??= buildSchema());
type SeverityWord = 'off' | 'error' | 'warning' | 'warn' | 'info';

export interface RuleSetting {
  severity?: Severity | 'off';
  options?: Record<string, unknown>;
}

export interface Config {
  /** The file it came from, or undefined for the built-in defaults. */
  file?: string;
  /** Folder that ignore globs are relative to. */
  dir: string;
  /** Settings by rule id or alias, as written. */
  rules: Record<string, RuleSetting>;
  /** Where each name of `rules` is written in the file, for a message about it. */
  rulePlaces?: Record<string, Position>;
  ignores: string[];
  /** From the file's `skillDirs`, made absolute (relative to its folder, ~ to HOME); undefined when not set. */
  skillDirs?: string[];
  /** `disabledSkills` (or `disabled_skills`); undefined when not set. */
  disabledSkills?: string[];
  /** `maxSkills` (or `max_skills`); undefined when not set. */
  maxSkills?: number;
}

/** A mistake in a configuration file, located in its text, with what to do about it. */
export interface ConfigProblem {
  message: string;
  line: number;
  column: number;
  hint: string;
}

const WORDING = {
  root: 'the configuration',
  dots: true,
  words: 'named',
  knownKeys: 'rules, ignores, skillDirs, disabledSkills, maxSkills',
  union: '"off", "error", "warning" or "info", [severity, {options}], or {"severity": …, "options": {…}}',
} as const;

const WHOLE = 'the file holds one JSON object, e.g. {"rules": {"SK102": "off"}, "ignores": ["vendor/**"]}';
const KEY_HINTS: Record<string, string> = {
  rules:
    'rules maps a rule id or alias to "off" | "error" | "warning" | "info", [severity, {options}] or {severity, options}',
  ignores: 'ignores is a list of globs (picomatch), relative to the file\'s folder, e.g. ["vendor/**"]',
  skillDirs:
    'skillDirs is a list of folders of skills that skills list reads, relative to the file\'s folder (~ is your home), e.g. ["team-skills", "~/.agents/skills"]',
  disabledSkills: 'disabledSkills is a list of skill names render-prompt leaves out, e.g. ["legacy-helper"]',
  maxSkills: 'maxSkills is a whole number of 0 or more: how many skills render-prompt activates for a query, e.g. 2',
  $schema: '$schema is text: the address of a JSON schema for the file',
};

/** The hint for a mistake at the top-level key `key` (none: the value as a whole), each key its own. */
function configHint(key: PropertyKey | undefined, unknownKey?: string): string {
  if (unknownKey !== undefined) {
    const near = closest(unknownKey, [...WORDING.knownKeys.split(', '), 'skill_dirs', 'disabled_skills', 'max_skills']);
    return `${near ? `did you mean "${near}"? If not, r` : 'r'}emove the key, or spell it as one of those (skill_dirs, disabled_skills and max_skills are read too); see "Configuration" in the README`;
  }
  const hint = key === undefined ? WHOLE : KEY_HINTS[String(key).replace(/_(\w)/g, (_, c: string) => c.toUpperCase())];
  return `see "Configuration" in the README: ${hint ?? WHOLE}`;
}

/**
 * A path written the Windows way, which matches nothing elsewhere: a folder of skillDirs with a backslash, and an
 * ignores pattern whose backslash comes before a letter or digit (in a glob it escapes the next character, so
 * `skills\\docx\\**` names nothing). Forward slashes work on Windows too.
 */
function windowsPath(data: {
  skillDirs?: string[];
  skill_dirs?: string[];
  ignores?: string[];
}): { path: (string | number)[]; message: string; hint: string } | undefined {
  for (const key of ['skillDirs', 'skill_dirs'] as const) {
    const i = data[key]?.findIndex((d) => d.includes('\\')) ?? -1;
    if (i >= 0)
      return {
        path: [key, i],
        message: `${key}[${i}] "${data[key]![i]}" holds a backslash: folders are written with / here, on every system`,
        hint: `write it as "${data[key]![i]!.replace(/\\/g, '/')}" (Windows reads / too)`,
      };
  }
  const i = data.ignores?.findIndex((g) => /\\[\p{L}\p{N}]/u.test(g)) ?? -1;
  if (i >= 0)
    return {
      path: ['ignores', i],
      message: `ignores[${i}] "${data.ignores![i]}" holds a backslash before a letter: in a pattern it escapes that letter, so it names no folder`,
      hint: `write folders with /: "${data.ignores![i]!.replace(/\\/g, '/')}"`,
    };
  return undefined;
}

/**
 * Read the text of the configuration file `file` (in folder `dir`): comments and trailing commas are allowed;
 * anything else wrong is a located problem. `home` is what ~ in skillDirs stands for (the file's folder when unknown).
 */
export function parseConfig(
  text: string,
  file: string,
  dir: string,
  home?: string,
): { config?: Config; problem?: ConfigProblem } {
  const { tree, value, error, tooDeep, at } = parseJson(text, { lenient: true });
  if (error || tooDeep || !tree) {
    const reason = tooDeep ? 'it nests too deeply to read' : readableError(error!);
    return {
      problem: {
        message: `not valid JSON: ${reason}`,
        line: error?.line ?? 1,
        column: error?.column ?? 1,
        hint: WHOLE,
      },
    };
  }
  const twice = duplicateKey(tree);
  if (twice) {
    const where = [...twice.path, twice.key].join('.');
    const first = at(twice.first);
    return {
      problem: {
        message: `"${where}" is written twice (first at line ${first.line}, column ${first.column}); JSON keeps only the last, so the first one's settings would be lost`,
        ...at(twice.again),
        hint: `keep one "${twice.key}", and put in it what the two of them say`,
      },
    };
  }
  const parsed = configSchema().safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    // An unknown key is shown where it is written, not at the object that holds it.
    const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]!] : issue.path;
    return {
      problem: {
        message: issueMessage(issue, WORDING),
        ...at(offsetOf(tree, path, 'key')),
        hint: configHint(issue.path[0], issue.code === 'unrecognized_keys' ? issue.keys[0] : undefined),
      },
    };
  }
  const windows = windowsPath(parsed.data);
  if (windows) return { problem: { ...windows, ...at(offsetOf(tree, windows.path)) } };
  const rules: Record<string, RuleSetting> = {};
  const rulePlaces: Record<string, Position> = {};
  for (const [k, v] of Object.entries(parsed.data.rules ?? {})) {
    rulePlaces[k] = at(offsetOf(tree, ['rules', k], 'key'));
    const norm = (s: SeverityWord | undefined) => (s === 'warn' ? 'warning' : s);
    if (typeof v === 'string') rules[k] = { severity: norm(v) };
    else if (Array.isArray(v)) rules[k] = { severity: norm(v[0]), options: v[1] };
    else rules[k] = { severity: norm(v.severity), options: v.options };
  }
  const skillDirs = (parsed.data.skillDirs ?? parsed.data.skill_dirs)?.map((d) =>
    d === '~' || d.startsWith('~/') ? join(home ?? dir, d.slice(1)) : resolve(dir, d),
  );
  const disabledSkills = parsed.data.disabledSkills ?? parsed.data.disabled_skills;
  const maxSkills = parsed.data.maxSkills ?? parsed.data.max_skills;
  return {
    config: {
      file,
      dir,
      rules,
      ...(Object.keys(rulePlaces).length > 0 ? { rulePlaces } : {}),
      ignores: parsed.data.ignores ?? [],
      ...(skillDirs ? { skillDirs } : {}),
      ...(disabledSkills ? { disabledSkills } : {}),
      ...(maxSkills !== undefined ? { maxSkills } : {}),
    },
  };
}
