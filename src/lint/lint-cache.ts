// lint's result cache (ESLint's --cache): each skill's findings kept between runs in the user's cache folder, with
// the identity (device, inode, size, mtime and ctime) of every path they were made from: the skill folder, every
// folder below it (their listings: a file added, removed or renamed changes one) and every file of the skill. The
// rules read nothing else: file access goes through the skill's entries (files.ts), a reference leading out of the
// skill is judged by its text alone, never looked up (but SK109's `../` from a skill in a plugin's `skills/`: a rule
// that reads outside says so, ctx.readsOutside, and that skill is not kept), and a skill holding a symlink (whose
// target could change with no identity here changing) is linted every time. The cache file is one per build of
// skills and effective configuration (rules, severities, options, ignores, its folder, --spec), so a row never
// crosses either. Results are kept only from paths changed at least TOO_RECENT_MS before the run began
// (fs/user-cache.ts): a change in the same clock tick as this run's read then always shows as a later ctime. The
// rules that compare skills are not kept: they run over every skill each time, from the small summary (id, name,
// root, positions) a row holds.
import { createHash } from 'node:crypto';
import { existsSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, isAbsolute, join, sep } from 'node:path';
import type { Config } from '../config/config.js';
import type { Severity } from '../model/diagnostic.js';
import type { Layout, Skill } from '../model/skill.js';
import {
  buildOf,
  cacheFileFor,
  currentUid,
  identityOf,
  isNum,
  isStr,
  settled,
  userCacheDir,
} from '../fs/user-cache.js';
import { openKeptRows, type KeptRows } from '../fs/kept-rows.js';
import type { FileDisables } from './inline-disables.js';
import type { LintFinding, LintedSkill, SkillResult } from './linter.js';
import type { Change, Fix } from './types.js';

/** The files are `lint-<hash of the build and the configuration>.json`. */
export const LINT_CACHE_KIND = 'lint';
/** A larger file is not read. */
const MAX_FILE_BYTES = 128 << 20;
/** Most skills kept (this run's first). */
const MAX_ENTRIES = 100_000;
/** Most files and folders of a skill that is kept; a larger one is linted each time. */
const MAX_SKILL_ENTRIES = 1000;

/**
 * What a result was made from: the device of the skill's paths, then each path (relative to the skill folder, ''
 * for the folder) followed by its inode, size, mtime and ctime (as its difference from the mtime: mostly 0), flat.
 * (A hundred thousand skills' rows are tens of megabytes: each number said once, and short.)
 */
export type SkillInputs = (string | number)[];

export interface LintCache {
  /** The result kept for the skill folder `root`, when nothing it was made from changed since. */
  take(root: string): SkillResult | undefined;
  /** Keep the result this run made of a skill from `inputs` (none: the skill cannot be kept, its row goes). */
  record(result: SkillResult, inputs: SkillInputs | undefined): void;
  /** Write the file when something changed; never throws. */
  save(): void;
}

export interface LintCacheOptions {
  /** Who must own the folder and the file; the current user by default. */
  uid?: number;
}

/** The identity of the whole configuration a lint run applies: every skill's result depends on all of it. */
export function configKey(config: Config, spec: boolean | undefined): string {
  const text = JSON.stringify([config.dir, config.rules, config.ignores, !!spec]);
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/**
 * The user's lint cache for this build of skills, this configuration and these folders
 * (`~/.cache/skills/lint-<hash>.json`), or
 * undefined when SKILLS_LINT_CACHE=0 turns it off.
 */
export function userLintCache(
  env: Record<string, string | undefined>,
  home: string,
  version: string,
  key: string,
  /** The paths linted, absolute: each set of projects they lie in has its own file (cacheScopes). */
  folders: readonly string[],
  /** This build of skills (buildOf(version) unless given: tests). */
  build = buildOf(version),
  options: LintCacheOptions = {},
): LintCache | undefined {
  if (env.SKILLS_LINT_CACHE === '0') return undefined;
  build = `${build}|${key}`;
  // One file per project, as ESLint keeps one `.eslintcache` a project: linting a small tree never reads the rows
  // of a large one elsewhere (a file of 100,000 skills is tens of megabytes).
  const file = cacheFileFor(userCacheDir(env, home), LINT_CACHE_KIND, [build, ...cacheScopes(folders)]);
  return openLintCache(file, build, options);
}

/**
 * The projects the paths linted lie in, sorted: for each, the git work tree holding it (the pre-commit hook passes
 * the changed files, a different set at each commit, all in one repository), else the path itself.
 */
export function cacheScopes(paths: readonly string[]): string[] {
  // Each folder looked at: the work tree above it, or '' for none.
  const tops = new Map<string, string>();
  const workTree = (path: string): string => {
    const seen: string[] = [];
    let top = '';
    for (let d = path; ;) {
      const known = tops.get(d);
      if (known !== undefined) {
        top = known;
        break;
      }
      seen.push(d);
      if (existsSync(join(d, '.git'))) {
        top = d;
        break;
      }
      const up = dirname(d);
      if (up === d) break;
      d = up;
    }
    for (const d of seen) tops.set(d, top);
    return top;
  };
  return [...new Set(paths.map((p) => workTree(p) || p))].sort();
}

/**
 * A row: the skill folder, its result, the device, then each path it was made from (its number in the file's table
 * of strings) and its identity.
 */
const DEV_AT = 2;
const PATHS_AT = 3;
const STRIDE = 5;

/**
 * A skill's kept result: its report's parts (not the report the linter keeps, to which the tree rules add their
 * findings), and what it was made from: `ids` from `at` on, laid out as SkillInputs, each path a string or its
 * number in `table` (a row as read is used where it is, not copied: a hundred thousand of them are a warm run's
 * memory).
 */
interface Kept {
  skill: LintedSkill;
  valid: boolean;
  findings: LintFinding[];
  disables?: FileDisables;
  ids: readonly unknown[];
  at: number;
  table?: readonly string[];
}

const NONE: LintFinding[] = [];

/** The results kept in `file` for `build` (the build and configuration): read now, written by save(). */
export function openLintCache(file: string, build: string, options: LintCacheOptions = {}): LintCache {
  let opened: KeptRows<Kept> | undefined;
  // Found when first asked for; each row is parsed when its skill is taken (fs/kept-rows.ts).
  const open = () =>
    (opened ??= openKeptRows<Kept>(file, {
      build,
      field: 'skills',
      kind: LINT_CACHE_KIND,
      maxBytes: MAX_FILE_BYTES,
      maxEntries: MAX_ENTRIES,
      uid: options.uid ?? currentUid(),
      codec: { decode: keptOf, encode: rowOf },
    }));
  return {
    take(root) {
      const rows = open();
      const k = rows.get(root);
      if (!k) return undefined;
      const { ids, at, table } = k;
      const dev = ids[at];
      for (let i = at + 1; i < ids.length; i += STRIDE) {
        const p = (typeof ids[i] === 'number' ? table![ids[i] as number] : ids[i]) as string;
        const st = statOf(p === '' ? root : `${root}${sep}${p}`);
        if (
          st === undefined ||
          st.dev !== dev ||
          st.ino !== ids[i + 1] ||
          st.size !== ids[i + 2] ||
          st.mtimeMs !== ids[i + 3] ||
          // Exact: the difference of two times this close is exact, and so is adding it back.
          st.ctimeMs - st.mtimeMs !== ids[i + 4]
        ) {
          rows.drop(root);
          return undefined;
        }
      }
      rows.use(root, k);
      const diagnostics = k.findings.length > 0 ? k.findings.slice() : [];
      const result: SkillResult = { report: { skill: k.skill, valid: k.valid, diagnostics } };
      if (k.disables) result.disables = k.disables;
      return result;
    },
    record(result, inputs) {
      const rows = open();
      const r = result.report;
      const root = r.skill.root;
      // A skill file outside its folder's path as written (a root of '/', say) is not kept: its row could not say it.
      if (result.failed || !inputs || !r.skill.file.startsWith(root + sep)) {
        rows.drop(root);
        return;
      }
      const findings = r.diagnostics.length > 0 ? r.diagnostics.slice() : NONE;
      const k: Kept = { skill: r.skill, valid: r.valid, findings, ids: inputs, at: 0 };
      if (result.disables) k.disables = result.disables;
      rows.put(root, k);
    },
    save: () => opened?.save(),
  };
}

/**
 * What `skill`'s findings are made from, with the identities of now (taken once the rules have read the files: a
 * file changed since the run began has a later ctime, and is then not kept); undefined when the skill is not to be
 * kept: it holds a symlink or something that is neither file nor folder, it is large, or it changed too recently.
 */
export function inputsOf(skill: Skill, start: number): SkillInputs | undefined {
  if (skill.entries.length > MAX_SKILL_ENTRIES) return undefined;
  const out: SkillInputs = [];
  const add = (rel: string) => {
    const id = identityOf(rel === '' ? skill.root : `${skill.root}${sep}${rel}`);
    if (!id || !settled(id, start)) return false;
    // A skill across two file systems (one mounted inside it) is not kept: its row says one device.
    if (out.length === 0) out.push(id[0]);
    else if (out[0] !== id[0]) return false;
    out.push(rel, id[1], id[2], id[3], id[4] - id[3]);
    return true;
  };
  if (!add('')) return undefined;
  for (const e of skill.entries) {
    if (e.kind !== 'file' && e.kind !== 'dir') return undefined;
    if (!add(e.path)) return undefined;
  }
  return out;
}

/** A `..` segment. */
const OUTSIDE = /(?:^|\/)\.\.(?:\/|$)/;

/** A row as read, checked whole: undefined when anything in it is not as rowOf writes it. */
function keptOf(row: unknown[], root: string, strings: readonly string[]): Kept | undefined {
  if (row.length < PATHS_AT + STRIDE || (row.length - PATHS_AT) % STRIDE !== 0 || !isNum(row[DEV_AT])) return undefined;
  for (let i = PATHS_AT; i < row.length; i += STRIDE) {
    const p = str(row[i], strings);
    // Only paths inside the skill folder: a file written by another hand must not make us stat elsewhere.
    if (p === undefined || p.startsWith('/') || p.includes('\\') || OUTSIDE.test(p)) return undefined;
    for (let k = 1; k < STRIDE; k++) if (!isNum(row[i + k])) return undefined;
  }
  const kept = resultOf(root, row[1], strings);
  if (!kept) return undefined;
  // The row stays as the skill's identities; its result, now decoded, goes.
  row[1] = 0;
  return { ...kept, ids: row, at: DEV_AT, table: strings };
}

function rowOf(root: string, k: Kept, intern: (s: string) => number): unknown[] {
  const { ids, at, table } = k;
  const row: unknown[] = [root, encodeResult(k, intern), ids[at]];
  for (let i = at + 1; i < ids.length; i += STRIDE) {
    row.push(intern((typeof ids[i] === 'number' ? table![ids[i] as number] : ids[i]) as string));
    for (let j = 1; j < STRIDE; j++) row.push(ids[i + j]);
  }
  return row;
}

/** The string numbered `v` in the file's table. */
const str = (v: unknown, strings: readonly string[]) =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < strings.length ? strings[v] : undefined;

// A result as kept, each string by its number in the file's table (`n` below): [skill, valid (1/0), findings,
// disable comments or 0]; the skill [id (null: the folder's name), name (null: the id), layout, its file relative to
// the folder, positions (key, line, column, …), version if any]; a finding [ruleId, rule, severity, message, file,
// line, column, hint, fix] with trailing nulls left off, its file -1 for the skill file, n for a path relative to
// the folder, or [n] for an absolute path.

function encodeResult(r: Kept, n: (s: string) => number): unknown[] {
  const s = r.skill;
  const positions: number[] = [];
  for (const [k, p] of Object.entries(s.positions)) positions.push(n(k), p.line, p.column);
  // The id is mostly the folder's name, and the name the id.
  const id = s.id === basename(s.root) ? null : n(s.id);
  const name = s.name === s.id ? null : n(s.name);
  const skill = [id, name, n(s.layout), n(s.file.slice(s.root.length + 1)), positions];
  if (s.version !== undefined) skill.push(n(s.version));
  const findings = r.findings.map((d) => encodeFinding(d, s, n));
  const disables = r.disables
    ? [encodeOff(r.disables.all), [...r.disables.lines].map(([l, o]) => [l, encodeOff(o)])]
    : 0;
  return [skill, r.valid ? 1 : 0, findings, disables];
}

function encodeFinding(d: LintFinding, s: LintedSkill, n: (s: string) => number): unknown[] {
  const under = d.file.startsWith(s.root + sep) ? d.file.slice(s.root.length + 1) : undefined;
  const file = d.file === s.file ? -1 : under !== undefined && !isAbsolute(under) ? n(under) : [n(d.file)];
  const out: unknown[] = [n(d.ruleId), n(d.rule), n(d.severity), n(d.message), file, d.line ?? null];
  out.push(d.column ?? null, d.hint === undefined ? null : n(d.hint), d.fix ?? null);
  while (out[out.length - 1] === null) out.pop();
  return out;
}

const encodeOff = (o: FileDisables['all']) => (o === undefined ? 0 : o === 'all' ? 'all' : [...o]);

const LAYOUTS: Layout[] = ['skill-md', 'manifest'];
const SEVERITIES: Severity[] = ['error', 'warning', 'info'];
const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** What is at `path` (symlinks followed), or undefined. */
function statOf(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** The result a row keeps for `root`, checked whole; undefined when anything in it is not as encodeResult makes. */
function resultOf(
  root: string,
  v: unknown,
  strings: readonly string[],
): Pick<Kept, 'skill' | 'valid' | 'findings' | 'disables'> | undefined {
  if (!Array.isArray(v) || v.length !== 4) return undefined;
  const [s, valid, findings, disables] = v as unknown[];
  if (!Array.isArray(s) || s.length < 5 || s.length > 6 || (valid !== 0 && valid !== 1) || !Array.isArray(findings))
    return undefined;
  const [idN, nameN, layoutN, fileN, places, versionN] = s as unknown[];
  const id = idN === null ? basename(root) : str(idN, strings);
  const name = nameN === null ? id : str(nameN, strings);
  const layout = str(layoutN, strings) as Layout | undefined;
  const file = str(fileN, strings);
  const version = versionN === undefined ? undefined : str(versionN, strings);
  if (id === undefined || name === undefined || !LAYOUTS.includes(layout!) || file === undefined) return undefined;
  if ((versionN !== undefined && version === undefined) || !Array.isArray(places) || places.length % 3 !== 0)
    return undefined;
  const positions: LintedSkill['positions'] = {};
  for (let i = 0; i < places.length; i += 3) {
    const [k, line, column] = [str(places[i], strings), places[i + 1], places[i + 2]];
    if ((k !== 'id' && k !== 'name') || !isNum(line) || !isNum(column)) return undefined;
    positions[k] = { line, column };
  }
  const skill: LintedSkill = { id, name, layout: layout!, root, file: `${root}${sep}${file}`, positions };
  if (version !== undefined) skill.version = version;
  const diagnostics: LintFinding[] = [];
  for (const f of findings) {
    const d = findingOf(f, skill, strings);
    if (!d) return undefined;
    diagnostics.push(d);
  }
  const kept: Pick<Kept, 'skill' | 'valid' | 'findings' | 'disables'> = {
    skill,
    valid: valid === 1,
    findings: diagnostics.length > 0 ? diagnostics : NONE,
  };
  if (disables !== 0) {
    const d = disablesOf(disables);
    if (!d) return undefined;
    kept.disables = d;
  }
  return kept;
}

function findingOf(v: unknown, skill: LintedSkill, strings: readonly string[]): LintFinding | undefined {
  if (!Array.isArray(v) || v.length < 5 || v.length > 9) return undefined;
  const [ruleIdN, ruleN, severityN, messageN, file, line, column, hintN, fix] = v as unknown[];
  const [ruleId, rule, severity, message] = [ruleIdN, ruleN, severityN, messageN].map((x) => str(x, strings));
  if (ruleId === undefined || rule === undefined || message === undefined) return undefined;
  if (!SEVERITIES.includes(severity as Severity)) return undefined;
  const rel = file === -1 || Array.isArray(file) ? undefined : str(file, strings);
  const path =
    file === -1
      ? skill.file
      : rel !== undefined
        ? `${skill.root}${sep}${rel}`
        : Array.isArray(file) && file.length === 1
          ? str(file[0], strings)
          : undefined;
  if (path === undefined) return undefined;
  const d: LintFinding = { ruleId, rule, severity: severity as Severity, message, file: path };
  if (line !== undefined && line !== null) {
    if (!isNum(line) || !isNum(column)) return undefined;
    d.line = line;
    d.column = column;
  } else if (column !== undefined && column !== null) return undefined;
  if (hintN !== undefined && hintN !== null) {
    const hint = str(hintN, strings);
    if (hint === undefined) return undefined;
    d.hint = hint;
  }
  if (fix !== undefined && fix !== null) {
    if (!isFix(fix)) return undefined;
    d.fix = fix;
  }
  return d;
}

function isFix(v: unknown): v is Fix {
  return isObj(v) && isStr(v.description) && Array.isArray(v.changes) && v.changes.every(isChange);
}

function isChange(v: unknown): v is Change {
  if (!isObj(v) || !isStr(v.file)) return false;
  if (v.kind === 'chmod') return isNum(v.mode);
  if (v.kind === 'append') return isStr(v.text);
  return (
    v.kind === 'replace' &&
    isNum(v.line) &&
    (v.endLine === undefined || isNum(v.endLine)) &&
    isStr(v.expect) &&
    isStr(v.text)
  );
}

function offOf(v: unknown): FileDisables['all'] | null {
  if (v === 0) return undefined;
  if (v === 'all') return 'all';
  return Array.isArray(v) && v.every(isStr) ? new Set(v) : null;
}

function disablesOf(v: unknown): FileDisables | undefined {
  if (!Array.isArray(v) || v.length !== 2 || !Array.isArray(v[1])) return undefined;
  const all = offOf(v[0]);
  if (all === null) return undefined;
  const lines: FileDisables['lines'] = new Map();
  for (const e of v[1] as unknown[]) {
    if (!Array.isArray(e) || e.length !== 2 || !isNum(e[0])) return undefined;
    const off = offOf(e[1]);
    if (off === null || off === undefined) return undefined;
    lines.set(e[0], off);
  }
  return { all, lines };
}
