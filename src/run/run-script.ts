import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import { basename, dirname, extname, isAbsolute, join, resolve } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { SkillsError, isSkillsError } from '../errors.js';
import type { Skill } from '../model/skill.js';
import { skillRootOf } from '../skill/discover.js';
import { isInside } from '../fs/walk.js';
import { loadSkill } from '../skill/load.js';
import { readIndex, readReleases } from '../registry/registry.js';
import { locateRegistry } from '../registry/locate.js';
import { readHead, scriptDescription } from '../skill/script-info.js';
import { parseJsonObject } from '../formats/json.js';
import { findSkills, skillFolders, type FolderScope } from '../skill/folders.js';

// Run one script of a skill the way seed 000's agents do: JSON arguments in (first argument and stdin), a
// `{success, result | error}` line out, the exit code passed through; with seed 004's limits (60 s, 1 MB of
// output per stream, 100 arguments, 4,096 bytes of arguments, the skill's folder as working directory), a clean
// environment, and secret values masked in everything that comes back. The core never prints: output goes to the
// sinks the caller hands in.

export const DEFAULT_TIMEOUT_SECONDS = 60;
/** Output kept (and passed through) per stream; the rest is read and dropped. */
export const MAX_OUTPUT_BYTES = 1024 * 1024;
/** Top-level entries of the arguments object. */
export const MAX_ARGS = 100;
/** Bytes of the arguments, serialized as compact JSON (UTF-8). */
export const MAX_ARGS_BYTES = 4096;
/** A value shorter than this is not masked: masking "a" or "1" would garble every line and hide nothing. */
export const MIN_SECRET_LENGTH = 4;
/** Between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 2000;
/** The environment variables passed from the caller when set (with SKILL_DIR and the declared secrets). */
export const PASSED_ENV = ['PATH', 'HOME', 'LANG', 'TMPDIR'];

// ---------------------------------------------------------------------------------------------- finding the skill

export type SkillSource = 'path' | FolderScope | 'registry';

export interface FoundSkillFor {
  skill: Skill;
  source: SkillSource;
}

export interface FindSkillOptions {
  cwd: string;
  home: string;
  env: Record<string, string | undefined>;
  /** --registry: also puts the registry ahead of the skill folders. */
  registry?: string;
  /** skillDirs from skills.config.json (absolute), as `list` reads them; asked only when an id is looked up. */
  configured?: () => string[] | undefined;
}

/**
 * The skill an argument names: an existing path (a skill folder or a file inside one), else an id (`id@version`
 * only in the registry) from the project and user skill folders, then the registry — or the registry first when
 * --registry is given.
 */
export function findSkillFor(arg: string, opts: FindSkillOptions): FoundSkillFor {
  const looksLikePath = arg.includes('/') || arg.includes('\\') || arg === '.' || arg === '..' || arg.startsWith('~');
  const abs = resolve(opts.cwd, arg.startsWith('~/') ? join(opts.home, arg.slice(2)) : arg);
  const fromPath = skillAtPath(abs);
  if (fromPath) return { skill: loadSkill(fromPath), source: 'path' };
  if (looksLikePath) {
    throw new SkillsError('E_NOT_FOUND', existsSync(abs) ? `${arg} is not a skill and not inside one: no SKILL.md or manifest.json at or above it` : `${arg}: no such file or folder`, {
      hint: 'give a skill folder, a file inside one, or a skill id (skills list shows them)',
    });
  }
  const at = arg.lastIndexOf('@');
  const id = at > 0 ? arg.slice(0, at) : arg;
  const version = at > 0 ? arg.slice(at + 1) : undefined;
  const registry = locateRegistry({ registry: opts.registry, cwd: opts.cwd, env: opts.env, home: opts.home });
  const fromRegistry = (): FoundSkillFor | undefined => {
    const entry = readIndex(registry).skills.find((e) => e.id === id);
    if (!entry) return undefined;
    let path = entry.latest.path;
    if (version !== undefined) {
      const release = readReleases(registry, id)[version];
      if (!release) {
        throw new SkillsError('E_NOT_FOUND', `${id}@${version} is not in the registry ${registry}; its versions: ${entry.versions.join(', ')}`, {
          hint: `run the latest with skills run-script ${id} <script>`,
        });
      }
      path = release.path;
    }
    return { skill: loadSkill(join(registry, path)), source: 'registry' };
  };
  const fromFolders = (): FoundSkillFor | undefined => {
    if (version !== undefined) return undefined;
    const found = findSkills(skillFolders({ cwd: opts.cwd, home: opts.home, env: opts.env, configured: opts.configured?.() }));
    const hit = found.skills.find((f) => f.skill.id === id);
    return hit ? { skill: hit.skill, source: hit.scope } : undefined;
  };
  const order = opts.registry !== undefined && opts.registry.trim() !== '' ? [fromRegistry, fromFolders] : [fromFolders, fromRegistry];
  for (const look of order) {
    const hit = look();
    if (hit) return hit;
  }
  throw new SkillsError('E_NOT_FOUND', `no skill "${arg}": it is no path, and neither the skill folders nor the registry (${registry}) hold it`, {
    hint: 'skills list shows the skills found; or give the path of the skill folder',
  });
}

/** The skill folder a path is, or is inside of; undefined when it is neither (or does not exist). */
function skillAtPath(abs: string): string | undefined {
  let st;
  try {
    st = statSync(abs);
  } catch {
    return undefined;
  }
  return skillRootOf(st.isDirectory() ? abs : dirname(abs));
}

// ---------------------------------------------------------------------------------------------- finding the script

export interface ScriptInfo {
  /** Path relative to the skill root, forward slashes (as declared, when a declared path does not exist). */
  path: string;
  /** What to type: the file's name. */
  name: string;
  declared: boolean;
  /** Why it will not run (not declared in a manifest skill, leads outside, missing); undefined when it may run. */
  refused?: string;
}

/** Every script a skill offers: the declared ones, then the files below scripts/ (in a manifest skill these are refused). */
export function listScripts(skill: Skill): ScriptInfo[] {
  const out = new Map<string, ScriptInfo>();
  const file = basename(skill.file);
  for (const s of skill.scripts) {
    if (!s.declared) continue;
    const path = s.path.replace(/\\/g, '/').replace(/^\.\//, '');
    const entry = skill.entries.find((e) => e.path === path);
    let refused: string | undefined;
    if (isAbsolute(path) || /^[A-Za-z]:\//.test(path) || path.split('/').includes('..')) refused = `its declared path leads outside the skill`;
    else if (entry?.kind === 'symlink' && !entry.inside) refused = `it is a symlink that leads outside the skill${entry.target ? ` (to ${entry.target})` : ''}`;
    else if (!entry && linkedOut(skill, path)) refused = `its folder ${linkedOut(skill, path)} is a symlink that leads outside the skill`;
    else if (!entry) refused = `it is declared in ${file} but does not exist`;
    else if (entry.kind === 'dir' || entry.mode === 0o040000) refused = 'it is a folder, not a file';
    out.set(path, { path, name: basename(path), declared: true, refused });
  }
  for (const e of skill.entries) {
    if (!e.path.startsWith('scripts/') || out.has(e.path)) continue;
    if (e.kind !== 'file' && e.kind !== 'symlink') continue;
    if (e.kind === 'symlink' && e.mode === 0o040000) continue; // a link to a folder inside
    let refused: string | undefined;
    if (e.kind === 'symlink' && !e.inside) refused = `it is a symlink that leads outside the skill${e.target ? ` (to ${e.target})` : ''}`;
    else if (skill.layout === 'manifest') refused = `it is not declared in ${file} "scripts", and a manifest skill runs only its declared scripts`;
    out.set(e.path, { path: e.path, name: basename(e.path), declared: false, refused });
  }
  return [...out.values()];
}

/** The folder on the way to `path` that is a symlink leading out of the skill (the walk does not enter those). */
function linkedOut(skill: Skill, path: string): string | undefined {
  const parts = path.split('/');
  for (let i = 1; i < parts.length; i++) {
    const dir = parts.slice(0, i).join('/');
    if (skill.entries.some((e) => e.path === dir && e.kind === 'symlink' && !e.inside)) return dir;
  }
  return undefined;
}

const stem = (p: string) => {
  const b = basename(p);
  const ext = extname(b);
  return ext ? b.slice(0, -ext.length) : b;
};

/** A skill's name and folder, for messages. */
export function skillLabel(skill: Skill): string {
  return `${skill.id} (${skill.root})`;
}

export interface PickedScript extends ScriptInfo {
  /** Absolute path, checked to stay inside the skill after every symlink. */
  abs: string;
}

/**
 * The script a name picks: its path in the skill, its file name, or its name without extension. Refused (E_USAGE)
 * when it leads outside the skill or is not declared in a manifest skill; ambiguous names list the candidates.
 */
export function pickScript(skill: Skill, name: string): PickedScript {
  const wanted = name.replace(/\\/g, '/').replace(/^(?:\.\/)+/, '');
  const refuse = (why: string, code: 'E_USAGE' | 'E_NOT_FOUND' = 'E_USAGE', hint?: string) =>
    new SkillsError(code, `refused to run "${name}" of the skill ${skillLabel(skill)}: ${why}`, {
      hint: hint ?? `skills run-script ${skill.id} --list shows the scripts it may run`,
    });
  if (isAbsolute(name) || /^[A-Za-z]:[\\/]/.test(name)) throw refuse('an absolute path leads outside the skill; name a script inside it');
  if (wanted.split('/').includes('..')) throw refuse('".." leads outside the skill; name a script inside it');
  if (wanted === '') throw new SkillsError('E_USAGE', 'the script name is empty', { hint: `skills run-script ${skill.id} --list` });
  const all = listScripts(skill);
  const tiers: ((s: ScriptInfo) => boolean)[] = [
    (s) => s.path === wanted || s.path === `scripts/${wanted}`,
    (s) => !wanted.includes('/') && s.name === wanted,
    (s) => {
      const noExt = s.path.slice(0, s.path.length - (s.name.length - stem(s.path).length));
      return noExt === wanted || noExt === `scripts/${wanted}` || (!wanted.includes('/') && stem(s.path) === wanted);
    },
  ];
  let matches: ScriptInfo[] = [];
  for (const tier of tiers) {
    matches = all.filter(tier);
    if (matches.length > 0) break;
  }
  if (matches.length === 0) {
    const runnable = all.filter((s) => !s.refused).map((s) => s.path);
    throw new SkillsError('E_NOT_FOUND', `the skill ${skillLabel(skill)} has no script "${name}"; ${runnable.length > 0 ? `its scripts: ${runnable.join(', ')}` : 'it has no scripts it may run'}`, {
      hint: skill.layout === 'manifest' ? 'a manifest skill runs the scripts its manifest.json declares in "scripts"' : 'a script is a file below scripts/ or a path in the frontmatter "scripts"',
    });
  }
  if (matches.length > 1) {
    throw new SkillsError('E_USAGE', `"${name}" is ambiguous in the skill ${skillLabel(skill)}: it names ${matches.map((m) => m.path).join(' and ')}`, {
      hint: `name one with its extension or path, e.g. skills run-script ${skill.id} ${matches[0]!.name}`,
    });
  }
  const script = matches[0]!;
  if (script.refused) throw refuse(`${script.path}: ${script.refused}`, script.refused.includes('does not exist') ? 'E_NOT_FOUND' : 'E_USAGE');
  // The walk saw each link; check the real path too, so a linked folder on the way cannot lead out either.
  const abs = join(skill.root, script.path);
  let real: string;
  try {
    real = realpathSync.native(abs);
    if (!statSync(real).isFile()) throw refuse(`${script.path} is not a file`);
  } catch (err) {
    if (isSkillsError(err)) throw err;
    throw refuse(`${script.path} cannot be read: ${(err as Error).message}`, 'E_NOT_FOUND');
  }
  if (!isInside(realpathSync.native(skill.root), real)) throw refuse(`${script.path} leads outside the skill (to ${real})`);
  return { ...script, abs };
}

// ---------------------------------------------------------------------------------------------- the interpreter

export interface Shebang {
  /** The program: a path, or a name to find on PATH (after `env`). */
  command: string;
  args: string[];
  /** NAME=value assignments given to env. */
  env: Record<string, string>;
}

/**
 * Parse a `#!` line. Arguments are split on whitespace, with quotes, as `env -S` splits them (and as macOS splits
 * every shebang); through `env`, its options -S, -i and -u and NAME=value assignments are understood.
 */
export function parseShebang(line: string): Shebang | undefined {
  if (!line.startsWith('#!')) return undefined;
  const words = splitWords(line.slice(2).replace(/\r$/, ''));
  if (words.length === 0) return undefined;
  const [first, ...rest] = words;
  if (basename(first!) !== 'env') return { command: first!, args: rest, env: {} };
  const env: Record<string, string> = {};
  const queue = [...rest];
  while (queue.length > 0) {
    const w = queue.shift()!;
    if (w === '-S' || w === '--split-string' || w === '-i' || w === '--ignore-environment' || w === '-') continue;
    if (w.startsWith('--split-string=')) queue.unshift(...splitWords(w.slice('--split-string='.length)));
    else if (w.startsWith('-S')) queue.unshift(...splitWords(w.slice(2)));
    else if (w === '-u' || w === '--unset') queue.shift();
    else if (w.startsWith('-u') || w.startsWith('--unset=')) continue;
    else if (w.startsWith('-')) throw new SkillsError('E_USAGE', `the shebang uses the env option ${w}, which run-script does not understand`, { hint: 'use #!/usr/bin/env <interpreter> [args], or env -S' });
    else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) {
      const eq = w.indexOf('=');
      env[w.slice(0, eq)] = w.slice(eq + 1);
    } else return { command: w, args: queue, env };
  }
  return undefined;
}

/** Split like `env -S`: whitespace separates words; '…' is literal, "…" and \ escape; an unquoted # starts a comment. */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === ' ' || c === '\t') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else if (c === '#' && !inWord) {
      break;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      word += text.slice(i + 1, end === -1 ? undefined : end);
      i = end === -1 ? text.length : end;
      inWord = true;
    } else if (c === '"') {
      inWord = true;
      for (i++; i < text.length && text[i] !== '"'; i++) {
        if (text[i] === '\\' && i + 1 < text.length) i++;
        word += text[i];
      }
    } else if (c === '\\' && i + 1 < text.length) {
      word += text[++i];
      inWord = true;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

export interface Interpreter {
  /** What to spawn: an absolute path (ours: node) or a name to find on the script's PATH. */
  command: string;
  /** Arguments before the script's path. */
  args: string[];
  /** NAME=value the shebang's env sets. */
  env: Record<string, string>;
  /** Short name to show: node, tsx, python3, bash, or the shebang's program. */
  label: string;
  via: 'shebang' | 'extension';
}

const BY_EXTENSION: Record<string, 'bash' | 'python3' | 'node' | 'tsx'> = {
  '.sh': 'bash',
  '.bash': 'bash',
  '.py': 'python3',
  '.js': 'node',
  '.mjs': 'node',
  '.cjs': 'node',
  '.ts': 'tsx',
  '.mts': 'tsx',
  '.cts': 'tsx',
  '.tsx': 'tsx',
};

/** The path of tsx's command-line entry, from our own install (works from src/ and from dist/commands/*.cjs). */
export function tsxCli(): string {
  const req = createRequire(import.meta.url);
  try {
    return req.resolve('tsx/cli');
  } catch {
    try {
      const pkgFile = req.resolve('tsx/package.json');
      const bin = (JSON.parse(readFileSync(pkgFile, 'utf8')) as { bin?: string | Record<string, string> }).bin;
      const rel = typeof bin === 'string' ? bin : bin?.tsx;
      if (rel) return join(dirname(pkgFile), rel);
    } catch {
      /* reported below */
    }
  }
  throw new SkillsError('E_NOT_FOUND', 'cannot find tsx, which runs TypeScript scripts: it is a dependency of skills but is not installed', {
    hint: 'reinstall skills (npm install), or give the script a shebang naming another runner',
  });
}

/**
 * How to run a script: its shebang first (node and tsx mean ours: this Node, and the tsx skills depends on), else
 * its extension: .sh bash, .py python3, .js/.mjs/.cjs node, .ts/.mts/.cts tsx. `firstLine` is the script's first line.
 */
export function chooseInterpreter(path: string, firstLine: string, resolveTsx: () => string = tsxCli): Interpreter {
  const shebang = parseShebang(firstLine.replace(/^\uFEFF/, ''));
  if (shebang) {
    let prog = basename(shebang.command);
    // `npx tsx` (with npx's own flags) is tsx: run ours rather than let npx look for one.
    if (prog === 'npx') {
      const at = shebang.args.findIndex((a) => !a.startsWith('-'));
      if (at >= 0 && shebang.args[at] === 'tsx' && shebang.args.slice(0, at).every((a) => /^(?:-y|--yes|--no-install|--no|--quiet|-q)$/.test(a))) {
        prog = 'tsx';
        shebang.args = shebang.args.slice(at + 1);
      }
    }
    if (prog === 'node' || prog === 'nodejs') return { command: process.execPath, args: shebang.args, env: shebang.env, label: 'node', via: 'shebang' };
    if (prog === 'tsx') return { command: process.execPath, args: [resolveTsx(), ...shebang.args], env: shebang.env, label: 'tsx', via: 'shebang' };
    return { command: shebang.command, args: shebang.args, env: shebang.env, label: prog, via: 'shebang' };
  }
  const kind = BY_EXTENSION[extname(path).toLowerCase()];
  if (kind === 'node') return { command: process.execPath, args: [], env: {}, label: 'node', via: 'extension' };
  if (kind === 'tsx') return { command: process.execPath, args: [resolveTsx()], env: {}, label: 'tsx', via: 'extension' };
  if (kind) return { command: kind, args: [], env: {}, label: kind, via: 'extension' };
  throw new SkillsError('E_USAGE', `cannot tell how to run ${path}: it has no shebang (#!) and its extension${extname(path) ? ` ${extname(path)}` : ''} is not one of .sh, .py, .js, .mjs, .cjs, .ts, .mts, .cts`, {
    hint: 'start it with a shebang such as #!/usr/bin/env python3, or give it one of those extensions',
  });
}


export interface ScriptListing extends ScriptInfo {
  /** The interpreter's label, or undefined when it cannot be told (see `problem`). */
  interpreter?: string;
  via?: 'shebang' | 'extension';
  description?: string;
  /** Why the interpreter cannot be told. */
  problem?: string;
}

/** --list: each script with its interpreter and the description its leading comment or docstring gives. */
export function describeScripts(skill: Skill): ScriptListing[] {
  return listScripts(skill).map((s) => {
    const row: ScriptListing = { ...s };
    if (s.refused && (s.refused.includes('outside') || s.refused.includes('does not exist'))) return row;
    let head: string;
    try {
      head = readHead(join(skill.root, s.path));
    } catch (err) {
      row.problem = `cannot be read: ${(err as Error).message}`;
      return row;
    }
    try {
      const it = chooseInterpreter(s.path, head.split('\n', 1)[0] ?? '');
      row.interpreter = it.label;
      row.via = it.via;
    } catch (err) {
      if (!isSkillsError(err)) throw err;
      row.problem = err.message;
    }
    const d = scriptDescription(head, s.path);
    if (d !== undefined) row.description = d;
    return row;
  });
}

// ---------------------------------------------------------------------------------------------- arguments

/** What a script is given: a JSON object (seed 000's tools), or command-line words (a CLI such as an argparse script). */
export interface ScriptArgs {
  /** The object, when the arguments are one. */
  args?: Record<string, unknown>;
  /** The words, when the arguments are a JSON list of text. */
  argv?: string[];
  /** The arguments as compact JSON, as given. */
  json: string;
}

/**
 * The arguments from JSON text: a JSON object of at most MAX_ARGS entries and MAX_ARGS_BYTES bytes once
 * serialized, or a JSON list of text, the script's command-line words (at most MAX_ARGS of them and MAX_ARGS_BYTES
 * bytes). `label` says where the text came from (--args, a file, stdin) in the located E_USAGE.
 */
export function parseScriptArgs(text: string, label: string): ScriptArgs {
  const source = text.replace(/^\uFEFF/, '');
  if (source.trim() === '') return { args: {}, json: '{}' };
  const { value, problem } = parseJsonObject(source);
  if (problem && /found an array$/.test(problem.message)) return parseScriptWords(JSON.parse(source) as unknown[], label);
  if (problem) {
    const what = problem.message.startsWith('not') ? `the arguments are ${problem.message}` : `the arguments: ${problem.message}`;
    throw new SkillsError('E_USAGE', `${label}:${problem.line}:${problem.column}: ${what}`, {
      hint: `the arguments are one JSON object, e.g. --args '{"url": "https://example.com", "limit": 10}', or a list of command-line words, e.g. --args '["--format", "json"]'`,
    });
  }
  const args = value!;
  const count = Object.keys(args).length;
  if (count > MAX_ARGS) {
    throw new SkillsError('E_USAGE', `${label}: ${count} arguments, more than the ${MAX_ARGS} allowed (top-level entries of the object)`, {
      hint: 'group related values into a nested object or a list',
    });
  }
  const json = JSON.stringify(args);
  const bytes = Buffer.byteLength(json);
  if (bytes > MAX_ARGS_BYTES) {
    throw new SkillsError('E_USAGE', `${label}: the arguments take ${bytes} bytes as JSON, more than the ${MAX_ARGS_BYTES} allowed`, {
      hint: 'pass large data as a file and give its path in the arguments',
    });
  }
  return { args, json };
}

/** A JSON list as command-line words: text only, at most MAX_ARGS words and MAX_ARGS_BYTES bytes (each word and its NUL). */
function parseScriptWords(list: unknown[], label: string): ScriptArgs {
  const bad = list.findIndex((w) => typeof w !== 'string');
  if (bad !== -1) {
    const w = list[bad];
    const found = w === null ? 'null' : Array.isArray(w) ? 'a list' : typeof w === 'object' ? 'an object' : `the ${typeof w} ${JSON.stringify(w)}`;
    throw new SkillsError('E_USAGE', `${label}: item ${bad + 1} of the list is ${found}; command-line words are text`, {
      hint: typeof w === 'number' || typeof w === 'boolean' ? `quote it: ${JSON.stringify(String(w))}` : 'give each word as a JSON string, e.g. ["--limit", "10"]',
    });
  }
  const argv = list as string[];
  if (argv.length > MAX_ARGS) throw new SkillsError('E_USAGE', `${label}: ${argv.length} command-line words, more than the ${MAX_ARGS} allowed`);
  const bytes = argv.reduce((n, w) => n + Buffer.byteLength(w) + 1, 0);
  if (bytes > MAX_ARGS_BYTES) {
    throw new SkillsError('E_USAGE', `${label}: the command-line words take ${bytes} bytes, more than the ${MAX_ARGS_BYTES} allowed`, {
      hint: 'pass large data as a file and give its path as a word',
    });
  }
  if (argv.some((w) => w.includes('\0'))) throw new SkillsError('E_USAGE', `${label}: a command-line word holds a NUL character, which no program can receive`);
  return { argv, json: JSON.stringify(argv) };
}

// ---------------------------------------------------------------------------------------------- environment

export interface EnvPlan {
  env: Record<string, string>;
  /** Declared variables the script gets no value for. */
  missing: string[];
  /** Values to mask: those of the declared variables the script gets. */
  secretValues: string[];
}

/**
 * The script's environment: PATH, HOME, LANG, TMPDIR (when the caller has them), SKILL_DIR, and the declared
 * variables from the secrets — or, with `inherit`, the caller's whole environment with those added.
 */
export function buildEnv(opts: {
  caller: Record<string, string | undefined>;
  skillDir: string;
  declared: string[];
  secrets: Record<string, string>;
  inherit?: boolean;
  extra?: Record<string, string>;
}): EnvPlan {
  const env: Record<string, string> = {};
  const take = (k: string) => {
    const v = opts.caller[k];
    if (v !== undefined) env[k] = v;
  };
  if (opts.inherit) Object.keys(opts.caller).forEach(take);
  else PASSED_ENV.forEach(take);
  Object.assign(env, opts.extra);
  env.SKILL_DIR = opts.skillDir;
  Object.assign(env, opts.secrets);
  const missing = opts.declared.filter((n) => env[n] === undefined);
  const secretValues = opts.declared.map((n) => env[n]).filter((v): v is string => v !== undefined);
  return { env, missing, secretValues };
}

// ---------------------------------------------------------------------------------------------- masking

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The strings to mask for some secret values: each of at least MIN_SECRET_LENGTH, also as JSON escapes it; longest first. */
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

/** Replace every secret in a finished text with ***. */
export function maskText(text: string, secrets: string[]): string {
  if (secrets.length === 0) return text;
  return text.replace(new RegExp(secrets.map(escapeRe).join('|'), 'g'), '***');
}

/**
 * A masker for a stream of text: a secret split across two chunks is still masked, because the end of a chunk
 * that could be the start of a secret is held back until the next chunk (or `end`) tells.
 */
export class StreamMasker {
  private pending = '';
  private readonly re: RegExp | undefined;
  private readonly longest: number;
  constructor(private readonly secrets: string[]) {
    this.re = secrets.length > 0 ? new RegExp(secrets.map(escapeRe).join('|'), 'g') : undefined;
    this.longest = Math.max(0, ...secrets.map((s) => s.length));
  }

  /** Masked text that is safe to emit now. */
  push(chunk: string): string {
    if (!this.re) return chunk;
    const text = this.pending + chunk;
    let out = '';
    let last = 0;
    for (const m of text.matchAll(this.re)) {
      out += `${text.slice(last, m.index)}***`;
      last = m.index! + m[0].length;
    }
    // Hold back the earliest tail that is a proper prefix of a secret: from there a secret may still complete.
    let hold = text.length;
    for (let p = Math.max(last, text.length - this.longest + 1); p < text.length; p++) {
      const tail = text.slice(p);
      if (this.secrets.some((s) => s.length > tail.length && s.startsWith(tail))) {
        hold = p;
        break;
      }
    }
    this.pending = text.slice(hold);
    return out + text.slice(last, hold);
  }

  /** The rest, at the end of the stream. */
  end(): string {
    const rest = this.pending;
    this.pending = '';
    return maskText(rest, this.secrets);
  }
}

// ---------------------------------------------------------------------------------------------- running

/** Where the script's (masked) output goes live; `write` returning false pauses the script's stream until 'drain'. */
export interface Sink {
  write(text: string): boolean;
  once(event: 'drain', listener: () => void): unknown;
}

export interface RunRequest {
  /** Absolute path of the script. */
  script: string;
  /** The working directory: the skill's folder. */
  cwd: string;
  interpreter: Interpreter;
  /** The arguments as compact JSON: the first argument, and stdin (unless `argv` is given). */
  argsJson: string;
  /** Command-line words given instead of the JSON: the script's arguments, with nothing on stdin. */
  argv?: string[];
  env: Record<string, string>;
  /** Strings to mask (maskList). */
  mask: string[];
  timeoutMs: number;
  stdout?: Sink;
  stderr?: Sink;
  /** Aborting ends the script's process group, with the abort reason's signal when it is SIGINT or SIGTERM. */
  signal?: AbortSignal;
  /** Between SIGTERM and SIGKILL. */
  graceMs?: number;
}

export interface ScriptResultLine {
  success: boolean;
  result?: unknown;
  error?: unknown;
}

export interface RunOutcome {
  /** The script's exit code; 124 on timeout; 128 + n when a signal n ended it. */
  exitCode: number;
  /** The signal that ended the script, if one did. */
  signal?: string;
  timedOut: boolean;
  durationMs: number;
  /** Masked, at most MAX_OUTPUT_BYTES of each stream. */
  stdout: string;
  stderr: string;
  truncated: { stdout: boolean; stderr: boolean };
  /** Bytes read past the cap and dropped. */
  dropped: { stdout: number; stderr: number };
  /** The last line of stdout that is a JSON object with a boolean `success`. */
  resultLine?: ScriptResultLine;
}

/** The last line of stdout that parses as `{success: boolean, …}`. */
export function lastResultLine(stdout: string): ScriptResultLine | undefined {
  const lines = stdout.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!.trim();
    if (!line.startsWith('{') || !line.endsWith('}')) continue;
    try {
      const v = JSON.parse(line) as unknown;
      if (v && typeof v === 'object' && !Array.isArray(v) && typeof (v as ScriptResultLine).success === 'boolean') return v as ScriptResultLine;
    } catch {
      /* not JSON: look further up */
    }
  }
  return undefined;
}

/**
 * Whether a process group has a member that is not a zombie, from /proc (Linux); undefined where there is no
 * /proc. kill(-pgid, 0) alone also counts zombies, and an orphan stays one until init reaps it, which some
 * container inits do late.
 */
export function livingInGroup(pgid: number): boolean | undefined {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return undefined;
  }
  for (const name of names) {
    if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') return true;
  }
  return false;
}

/** Collects one stream: caps it, masks it, passes it through, keeps it. */
class Capture {
  private readonly decoder = new StringDecoder('utf8');
  private readonly masker: StreamMasker;
  private readonly parts: string[] = [];
  bytes = 0;
  dropped = 0;
  constructor(
    mask: string[],
    private readonly sink: Sink | undefined,
    private readonly pause: () => void,
    private readonly resume: () => void,
  ) {
    this.masker = new StreamMasker(mask);
  }
  add(chunk: Buffer): void {
    const room = MAX_OUTPUT_BYTES - this.bytes;
    if (room <= 0) {
      this.dropped += chunk.length;
      return;
    }
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.dropped += chunk.length - kept.length;
    this.bytes += kept.length;
    this.emit(this.masker.push(this.decoder.write(kept)));
  }
  finish(): void {
    this.emit(this.masker.push(this.decoder.end()));
    this.emit(this.masker.end());
  }
  private emit(text: string): void {
    if (text === '') return;
    this.parts.push(text);
    if (this.sink && !this.sink.write(text)) {
      this.pause();
      this.sink.once('drain', this.resume);
    }
  }
  get text(): string {
    return this.parts.join('');
  }
}

/**
 * Run the script in its own process group: the arguments as its first argument and on stdin (or the command-line
 * words as its arguments), output capped at
 * MAX_OUTPUT_BYTES per stream and masked. On timeout or abort the whole group gets SIGTERM, then SIGKILL after a
 * grace; when the script exits, whatever it left running in its group is ended the same way.
 */
export function executeScript(req: RunRequest): Promise<RunOutcome> {
  const grace = req.graceMs ?? KILL_GRACE_MS;
  const started = performance.now();
  return new Promise<RunOutcome>((resolvePromise, reject) => {
    const child = spawn(req.interpreter.command, [...req.interpreter.args, req.script, ...(req.argv ?? [req.argsJson])], {
      cwd: req.cwd,
      env: req.env,
      detached: true, // its own process group, so the whole tree can be signalled
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out = new Capture(req.mask, req.stdout, () => child.stdout.pause(), () => child.stdout.resume());
    const err = new Capture(req.mask, req.stderr, () => child.stderr.pause(), () => child.stderr.resume());
    child.stdout.on('data', (b: Buffer) => out.add(b));
    child.stderr.on('data', (b: Buffer) => err.add(b));
    child.stdin.on('error', () => {
      /* the script need not read stdin: EPIPE is fine */
    });
    child.stdin.end(req.argv ? '' : `${req.argsJson}\n`);

    let timedOut = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let settled = false;
    let ending: Promise<void> | undefined;
    const timers = new Set<NodeJS.Timeout>();
    const later = (ms: number, fn: () => void) => {
      const t = setTimeout(() => {
        timers.delete(t);
        fn();
      }, ms);
      timers.add(t);
    };
    const pgid = child.pid;
    const groupAlive = () => {
      if (pgid === undefined) return false;
      try {
        process.kill(-pgid, 0);
      } catch {
        return false;
      }
      return livingInGroup(pgid) ?? true;
    };
    const signalGroup = (sig: NodeJS.Signals) => {
      if (pgid === undefined) return;
      try {
        process.kill(-pgid, sig);
      } catch {
        /* the group is gone */
      }
    };
    // End the group: `sig` now, SIGKILL once the grace has passed with anything of the group still alive.
    const endGroup = (sig: NodeJS.Signals): Promise<void> => {
      ending ??= new Promise<void>((done) => {
        if (!groupAlive()) return done();
        signalGroup(sig);
        const deadline = performance.now() + grace;
        const poll = () => {
          if (!groupAlive()) return done();
          if (performance.now() < deadline) return later(25, poll);
          signalGroup('SIGKILL');
          // SIGKILL cannot be ignored, but dying takes a moment: wait (briefly) until the group is empty.
          const killedBy = performance.now() + 1000;
          const gone = () => (!groupAlive() || performance.now() > killedBy ? done() : later(10, gone));
          gone();
        };
        later(25, poll);
      });
      return ending;
    };

    const onAbort = () => {
      const reason = req.signal?.reason;
      void endGroup(reason === 'SIGINT' || reason === 'SIGTERM' ? reason : 'SIGTERM');
    };
    if (req.signal?.aborted) onAbort();
    else req.signal?.addEventListener('abort', onAbort, { once: true });
    if (req.timeoutMs > 0 && Number.isFinite(req.timeoutMs)) {
      later(req.timeoutMs, () => {
        if (exit) return; // it ended in time; what it left behind is being ended already
        timedOut = true;
        void endGroup('SIGTERM');
      });
    }

    const cleanup = () => {
      settled = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      req.signal?.removeEventListener('abort', onAbort);
    };

    child.on('error', (e: NodeJS.ErrnoException) => {
      if (settled) return;
      cleanup();
      child.stdout.destroy();
      child.stderr.destroy();
      if (e.code === 'ENOENT') {
        reject(
          new SkillsError('E_NOT_FOUND', `cannot run ${req.script}: its interpreter "${req.interpreter.command}" (by ${req.interpreter.via}) was not found`, {
            hint: req.interpreter.via === 'shebang' ? 'install it, or change the shebang' : `install ${req.interpreter.command} (the script's PATH is the caller's PATH)`,
          }),
        );
      } else {
        reject(new SkillsError('E_IO', `cannot run ${req.script}: ${e.message}`, { cause: e }));
      }
    });
    let closed = false;
    let groupEnded = false;
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // What the script left running in its group would keep its pipes open and outlive it: end it.
      void endGroup('SIGTERM').then(() => {
        groupEnded = true;
        finish();
        if (settled) return;
        // A process that left the group (setsid) may still hold the pipes: do not wait for it forever.
        later(grace, () => {
          if (closed) return;
          closed = true;
          child.stdout.destroy();
          child.stderr.destroy();
          finish();
        });
      });
    });
    child.on('close', () => {
      closed = true;
      finish();
    });

    const finish = () => {
      if (settled || !exit || !closed || !groupEnded) return;
      cleanup();
      out.finish();
      err.finish();
      const signalNumber = exit.signal ? (constants.signals as Record<string, number>)[exit.signal] : undefined;
      const exitCode = timedOut ? 124 : exit.code ?? (signalNumber !== undefined ? 128 + signalNumber : 1);
      const stdout = out.text;
      const outcome: RunOutcome = {
        exitCode,
        timedOut,
        durationMs: Math.round(performance.now() - started),
        stdout,
        stderr: err.text,
        truncated: { stdout: out.dropped > 0, stderr: err.dropped > 0 },
        dropped: { stdout: out.dropped, stderr: err.dropped },
      };
      if (exit.signal) outcome.signal = exit.signal;
      const line = lastResultLine(stdout);
      if (line) outcome.resultLine = line;
      resolvePromise(outcome);
    };
  });
}

/**
 * The variables a skill declares, which alone it gets from the secrets: a manifest's `envVars`; for a SKILL.md
 * skill (the standard has no such field), the names its `.env.example` lists, the file where such skills say
 * what they need.
 */
export function declaredEnv(skill: Skill): string[] {
  return skill.layout === 'manifest' ? skill.envVars : [...new Set(skill.envExample ?? [])];
}
