import { existsSync } from 'node:fs';
import { dirname, join, parse, resolve } from 'node:path';
import { parseTree, getNodeValue, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { z, type ZodIssue } from 'zod';
import { SkillsError } from '../errors.js';
import type { Severity } from '../model/diagnostic.js';
import { positionFinder } from '../formats/text.js';
import { readBounded } from '../fs/read.js';

export const CONFIG_FILE = 'skills.config.json';

const severity = z.enum(['off', 'error', 'warning', 'warn', 'info']);
const ruleSetting = z.union([
  severity,
  z.tuple([severity, z.record(z.unknown())]),
  z.object({ severity: severity.optional(), options: z.record(z.unknown()).optional() }).strict(),
]);

export const configSchema = z
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
  ignores: string[];
  /** From the file's `skillDirs`, made absolute (relative to its folder, ~ to HOME); undefined when not set. */
  skillDirs?: string[];
  /** `disabledSkills` (or `disabled_skills`); undefined when not set. */
  disabledSkills?: string[];
  /** `maxSkills` (or `max_skills`); undefined when not set. */
  maxSkills?: number;
}

/** The nearest skills.config.json from `cwd` upward, or undefined. */
export function findConfigFile(cwd: string): string | undefined {
  const top = parse(cwd).root;
  for (let d = cwd; ; d = dirname(d)) {
    const f = join(d, CONFIG_FILE);
    if (existsSync(f)) return f;
    if (d === top) return undefined;
  }
}

/**
 * Load the configuration: `file` when given (--config), else the nearest skills.config.json from cwd upward,
 * else defaults. Comments and trailing commas are allowed; anything else wrong is an E_CONFIG error that
 * names the file, line and column.
 */
export function loadConfig(cwd: string, file?: string, home?: string): Config {
  const path = file ? join(cwd, file) : findConfigFile(cwd);
  if (!path) return { dir: cwd, rules: {}, ignores: [] };
  let text: string;
  try {
    // A cloned repository's file: a regular file of at most 1 MiB (a symlink to a FIFO must not hang a hook).
    const read = readBounded(path, 1024 * 1024);
    if (read.text === undefined) throw new Error(`it is ${read.tooLarge} bytes; a configuration file is at most 1 MiB`);
    text = read.text;
  } catch (err) {
    throw new SkillsError('E_CONFIG', `cannot read ${path}: ${(err as Error).message}`, { cause: err });
  }
  const errors: ParseError[] = [];
  const at = positionFinder(text);
  const tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0 || !tree) {
    const e = errors[0];
    const pos = at(e?.offset ?? 0);
    throw new SkillsError('E_CONFIG', `${path}:${pos.line}:${pos.column}: not valid JSON (${e ? printParseErrorCode(e.error) : 'empty file'})`, {
      hint: 'the file holds one JSON object, e.g. {"rules": {"SK102": "off"}, "ignores": ["vendor/**"]}',
    });
  }
  const data = getNodeValue(tree);
  const parsed = configSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const pos = locate(tree, issue.path, at);
    throw new SkillsError('E_CONFIG', `${path}:${pos.line}:${pos.column}: ${describe(issue)}`, {
      hint: 'see "Configuration" in the README: rules maps a rule id or alias to "off" | "error" | "warning" | "info", [severity, {options}] or {severity, options}',
    });
  }
  const rules: Record<string, RuleSetting> = {};
  for (const [k, v] of Object.entries(parsed.data.rules ?? {})) {
    const norm = (s: z.infer<typeof severity> | undefined) => (s === 'warn' ? 'warning' : s);
    if (typeof v === 'string') rules[k] = { severity: norm(v) };
    else if (Array.isArray(v)) rules[k] = { severity: norm(v[0]), options: v[1] };
    else rules[k] = { severity: norm(v.severity), options: v.options };
  }
  const dir = dirname(path);
  const skillDirs = (parsed.data.skillDirs ?? parsed.data.skill_dirs)?.map((d) => (d === '~' || d.startsWith('~/') ? join(home ?? dir, d.slice(1)) : resolve(dir, d)));
  const disabledSkills = parsed.data.disabledSkills ?? parsed.data.disabled_skills;
  const maxSkills = parsed.data.maxSkills ?? parsed.data.max_skills;
  return {
    file: path,
    dir,
    rules,
    ignores: parsed.data.ignores ?? [],
    ...(skillDirs ? { skillDirs } : {}),
    ...(disabledSkills ? { disabledSkills } : {}),
    ...(maxSkills !== undefined ? { maxSkills } : {}),
  };
}

function describe(issue: ZodIssue): string {
  const path = issue.path.length ? issue.path.join('.') : 'the configuration';
  if (issue.code === 'unrecognized_keys') return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')} (expected rules, ignores, skillDirs, disabledSkills, maxSkills)`;
  if (issue.code === 'invalid_union') return `${path} must be "off", "error", "warning" or "info", [severity, {options}], or {"severity": …, "options": {…}}`;
  if (issue.code === 'invalid_type') return `${path} must be ${issue.expected}, found ${issue.received}`;
  return `${path}: ${issue.message}`;
}

function locate(tree: import('jsonc-parser').Node, path: (string | number)[], at: (o: number) => { line: number; column: number }) {
  let node: import('jsonc-parser').Node | undefined = tree;
  let best = tree.offset;
  for (const key of path) {
    if (!node) break;
    if (node.type === 'object') {
      const prop: import('jsonc-parser').Node | undefined = node.children?.find((c) => c.children?.[0]?.value === key);
      node = prop?.children?.[1];
      if (prop) best = prop.offset;
    } else if (node.type === 'array' && typeof key === 'number') {
      node = node.children?.[key];
      if (node) best = node.offset;
    } else break;
  }
  return at(best);
}
