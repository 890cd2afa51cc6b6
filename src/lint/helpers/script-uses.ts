// How the instructions (and the Markdown files they reference) use the skill's files as scripts: run through an
// interpreter (`python scripts/x.py`), run by path (`scripts/x.py --in a`, `./x.sh`), or only named (`the
// scripts/recalc.py script`). Shared by script-shebang, script-executable and shell-set-e, computed once per skill.
import { basename, extname } from 'node:path';
import { FENCED } from '../../formats/markdown-blocks.js';
import type { ScriptRef, Skill } from '../../model/skill.js';
import { isFolder, skillReferences, type LocatedRef } from '../references.js';

// Files without an extension that are not scripts run by path.
const NOT_SCRIPTS = new Set([
  'Makefile',
  'GNUmakefile',
  'Dockerfile',
  'Containerfile',
  'Gemfile',
  'Procfile',
  'Rakefile',
  'Pipfile',
  'Brewfile',
  'Vagrantfile',
  'Justfile',
  'justfile',
  'LICENSE',
  'README',
  'CODEOWNERS',
]);

/** Whether a file is of a kind that is run by path (and so needs a shebang), by its extension. */
export function runsDirectly(path: string, extensions: string[]): boolean {
  const name = basename(path);
  if (name.startsWith('.') || name === '__init__.py' || name.endsWith('.d.ts') || NOT_SCRIPTS.has(name)) return false;
  const ext = extname(name).toLowerCase();
  return ext === '' ? extensions.includes('') : extensions.includes(ext);
}

// Programs that run a script given as an argument, so the script needs no shebang (`python3.12`, `/usr/bin/env` not).
const INTERPRETER =
  /^(?:python[\d.]*|py|pypy3?|uv|uvx|poetry|pipenv|bash|sh|zsh|dash|ksh|fish|source|\.|node|nodejs|npx|pnpx|bunx|tsx|ts-node|deno|bun|ruby|perl|pwsh|powershell|php|rscript|lua|osascript)$/i;
// Words between the interpreter and the script: `uv run`, `npx tsx`, `deno run`, `python -m`.
const SUBCOMMAND = /^(?:run|exec|x|tsx|ts-node)$/;
// What may come right before a command: start of code, a pipe, `&&`, `;`, `$(`, a prompt.
const COMMAND_START = /(?:^|[`(;|&$]|\b(?:sudo|exec|then|do|time|nohup))$/;
export const ALL_EXTENSIONS = ['.sh', '.bash', '.zsh', '.py', '.js', '.mjs', '.cjs', '.ts', '.rb', '.pl', ''];

/** Whether the text before a path on its line ends in an interpreter command (`python3 -u `, `uv run --with x `). */
export function afterInterpreter(before: string): boolean {
  const words = before.slice(-200).split(/[ \t]+/);
  if (words[words.length - 1] === '') words.pop();
  for (let k = words.length - 1, seen = 0; k >= 0 && seen < 5; k--, seen++) {
    const w = words[k]!.replace(/^[`'"(]+|^\$\(/, '');
    // The opening quote of the path itself: `. "{baseDir}/scripts/log.sh"`.
    if (w === '' && k === words.length - 1) continue;
    const prog = w.slice(w.lastIndexOf('/') + 1);
    if (INTERPRETER.test(prog)) return true;
    // Flags, a flag's value, subcommands may stand between.
    if (w.startsWith('-') || SUBCOMMAND.test(w) || (k > 0 && words[k - 1]!.startsWith('-'))) continue;
    return false;
  }
  return false;
}

// Loading into the shell that runs the skill's commands: `. "{baseDir}/scripts/log.sh"`, `source x.sh`.
const SOURCE = /(?:^|[\s;&|(`])(?:\.|source)[ \t]+["']?$/;
// Prose that runs what follows: "Run scripts/fetch.py", "Run: scripts/check.sh".
const RUN_WORD = /\b(?:run|execute)[ \t]*:?[ \t]*$/i;

export interface ScriptUses {
  /**
   * Scripts (by path) that the instructions mention, and whether some mention runs them by path; false when every
   * mention runs them through an interpreter or only names them.
   */
  mentioned: Map<string, boolean>;
  /** Scripts that commands load into the caller's shell (`. scripts/log.sh`, `source x.sh`) and never run. */
  sourced: Set<string>;
  /** Files outside the skill's scripts that the instructions run by path (`./find-polluter.sh`). */
  runByPath: ScriptRef[];
}

/**
 * Whether one mention runs the file by path: at the start of a command in fenced code; at the start of inline code
 * that goes on with arguments or says ./ (`scripts/init.py my-skill`, `./x.sh`, not `scripts/init.py` alone); or
 * after "run" in prose.
 */
function runsByPath(r: LocatedRef): 'command' | 'prose' | false {
  const doc = r.doc.md;
  const i = r.line - r.doc.line;
  const line = doc.line(i) ?? '';
  const before = line.slice(0, r.column - 1);
  if (afterInterpreter(before)) return false;
  const command = (yes: boolean) => (yes ? 'command' : false);
  if (doc.lineKind(i) === FENCED)
    return command(COMMAND_START.test(before.trimEnd()) || /^[ \t]*(?:[$>#%][ \t]+)?$/.test(before));
  const ticks = before.split('`').length - 1;
  if (ticks % 2 === 1) {
    const code = before.slice(before.lastIndexOf('`') + 1);
    const rest = line.slice(r.column - 1 + r.raw.length);
    const args = rest.slice(0, Math.max(0, rest.indexOf('`'))).trim();
    const dotted = r.raw.startsWith('./') || r.raw.startsWith('.\\');
    return command((args !== '' || dotted) && (code.trim() === '' || COMMAND_START.test(code.trimEnd())));
  }
  return RUN_WORD.test(before) ? 'prose' : false;
}

const usesCache = new WeakMap<Skill, ScriptUses>();

/** How the skill's instructions use its files as scripts (see ScriptUses); computed once per skill. */
export function scriptUses(skill: Skill, readText: (rel: string) => string | undefined): ScriptUses {
  const cached = usesCache.get(skill);
  if (cached) return cached;
  const known = new Set(skill.scripts.map((s) => s.path));
  const mentioned = new Map<string, boolean>();
  const loaded = new Set<string>();
  const ran = new Set<string>();
  const outside = new Map<string, ScriptRef>();
  // How each script's mentions run it: a command that runs it by path says how; "run scripts/x.py" in a sentence says
  // only that it is run, and a command elsewhere that runs it through its interpreter (`python scripts/x.py`) says how.
  const byCommand = new Set<string>();
  const inProse = new Set<string>();
  const throughInterpreter = new Set<string>();
  for (const r of skillReferences(skill, readText).refs) {
    const t = r.target;
    if (t.status !== 'ok' || t.path === '' || isFolder(t.entry)) continue;
    const isScript = known.has(t.path);
    // Outside scripts/, only what is plainly run by path: `./x.sh`, `{baseDir}/tools/x.sh`, `tools/x.sh` in a code
    // block; `tools/x.ts` in a sentence is a mention.
    const explicit = r.raw.startsWith('./') || r.raw.startsWith('.\\') || r.rooted === true || r.loose === true;
    if (!isScript && (outside.has(t.path) || !explicit || !runsDirectly(t.path, ALL_EXTENSIONS))) continue;
    if (isScript) {
      // Run by path already: a later mention can change nothing (it stays mentioned as run, and a script that is run
      // is not `sourced` whatever loads it).
      if (byCommand.has(t.path) && ran.has(t.path)) continue;
      const byPath = runsByPath(r);
      if (mentioned.get(t.path) !== true) mentioned.set(t.path, byPath !== false);
      // Sourced when some command loads it and none runs it; a mention in prose says neither.
      const before = (r.doc.md.line(r.line - r.doc.line) ?? '').slice(0, r.column - 1);
      const interpreted = afterInterpreter(before);
      if (byPath === 'command') byCommand.add(t.path);
      else if (byPath === 'prose') inProse.add(t.path);
      else if (interpreted) throughInterpreter.add(t.path);
      if (SOURCE.test(before)) loaded.add(t.path);
      else if (byPath || interpreted) ran.add(t.path);
      continue;
    }
    if (runsByPath(r)) {
      mentioned.set(t.path, true);
      const mode = t.entry?.mode;
      outside.set(t.path, {
        path: t.path,
        declared: false,
        exists: true,
        ...(mode !== undefined ? { executable: (mode & 0o111) !== 0 } : {}),
      });
    }
  }
  // "Run scripts/inject.py" above `python scripts/inject.py in.docx out.docx` (microsoft/cat-agent-skills): the command
  // says how it is run, and it is not by path.
  for (const p of inProse) if (!byCommand.has(p) && throughInterpreter.has(p)) mentioned.set(p, false);
  const sourced = new Set([...loaded].filter((p) => !ran.has(p)));
  const uses = { mentioned, sourced, runByPath: [...outside.values()] };
  usesCache.set(skill, uses);
  return uses;
}
