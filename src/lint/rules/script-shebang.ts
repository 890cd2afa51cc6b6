import { basename, extname, join } from 'node:path';
import { EXTENSIONS, suggestedShebang } from '../../formats/shebang.js';
import type { ScriptRef, Skill } from '../../model/skill.js';
import { isFolder, skillReferences, type RefDoc } from '../references.js';
import type { Rule } from '../types.js';

// Which program runs a script is decided once, in formats/shebang.ts, for this rule, its siblings and run-script.

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

/** Scripts in path order, so findings do not depend on the order the file system lists them in. */
export function byPath<T extends { path: string }>(items: T[]): T[] {
  return items.length < 2 ? items : [...items].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

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
const ALL_EXTENSIONS = ['.sh', '.bash', '.zsh', '.py', '.js', '.mjs', '.cjs', '.ts', '.rb', '.pl', ''];

/** Whether the text before a path on its line ends in an interpreter command (`python3 -u `, `uv run --with x `). */
export function afterInterpreter(before: string): boolean {
  const words = before.slice(-200).split(/[ \t]+/);
  if (words[words.length - 1] === '') words.pop();
  for (let k = words.length - 1, seen = 0; k >= 0 && seen < 5; k--, seen++) {
    const w = words[k]!.replace(/^[`'"(]+|^\$\(/, '');
    const prog = w.slice(w.lastIndexOf('/') + 1);
    if (INTERPRETER.test(prog)) return true;
    // Flags, a flag's value, subcommands may stand between.
    if (w.startsWith('-') || SUBCOMMAND.test(w) || (k > 0 && words[k - 1]!.startsWith('-'))) continue;
    return false;
  }
  return false;
}

export interface ScriptUses {
  /** Scripts (by path) that the instructions mention, and whether every mention runs them through an interpreter. */
  interpreterOnly: Map<string, boolean>;
  /** Files outside the skill's scripts that the instructions run by path (`./find-polluter.sh`). */
  runByPath: ScriptRef[];
}

const usesCache = new WeakMap<Skill, ScriptUses>();

/**
 * How the instructions and the Markdown files they reference use the skill's files as scripts: computed once per
 * skill from the shared references, shared by script-shebang and script-executable.
 */
export function scriptUses(skill: Skill, readText: (rel: string) => string | undefined): ScriptUses {
  const cached = usesCache.get(skill);
  if (cached) return cached;
  const known = new Set(skill.scripts.map((s) => s.path));
  const interpreterOnly = new Map<string, boolean>();
  const outside = new Map<string, ScriptRef>();
  const lines = new Map<RefDoc, string[]>();
  for (const r of skillReferences(skill, readText).refs) {
    const t = r.target;
    if (t.status !== 'ok' || t.path === '' || isFolder(t.entry)) continue;
    const isScript = known.has(t.path);
    // Outside scripts/, only what is plainly run by path: `./x.sh`, `{baseDir}/tools/x.sh`, `tools/x.sh` in a code
    // block; `tools/x.ts` in a sentence is a mention.
    const explicit = r.raw.startsWith('./') || r.raw.startsWith('.\\') || r.rooted === true || r.loose === true;
    if (!isScript && (outside.has(t.path) || !explicit || !runsDirectly(t.path, ALL_EXTENSIONS))) continue;
    let docLines = lines.get(r.doc);
    if (!docLines) lines.set(r.doc, (docLines = r.doc.text.split('\n')));
    const before = (docLines[r.line - r.doc.line] ?? '').slice(0, r.column - 1);
    if (isScript) {
      const via = afterInterpreter(before);
      interpreterOnly.set(t.path, via && interpreterOnly.get(t.path) !== false);
    } else if (COMMAND_START.test(before.trimEnd())) {
      const mode = t.entry?.mode;
      outside.set(t.path, {
        path: t.path,
        declared: false,
        exists: true,
        ...(mode !== undefined ? { executable: (mode & 0o111) !== 0 } : {}),
      });
    }
  }
  const uses = { interpreterOnly, runByPath: [...outside.values()] };
  usesCache.set(skill, uses);
  return uses;
}

/**
 * Whether another script in the same folder imports this file as a module: Python `import name` or `from name
 * import`, JavaScript `require('./name')` or `from './name.js'`, shell `source ./name.sh` or `. "$DIR/name.sh"`.
 */
export function importedBySibling(skill: Skill, path: string, readText: (rel: string) => string | undefined): boolean {
  const slash = path.lastIndexOf('/');
  const dir = path.slice(0, slash + 1);
  const file = path.slice(slash + 1);
  const ext = extname(file).toLowerCase();
  const stem = file.slice(0, file.length - ext.length).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (stem === '') return false;
  let pattern: RegExp;
  if (ext === '.py')
    pattern = new RegExp(
      `^[ \\t]*(?:from[ \\t]+\\.?${stem}[ \\t]+import\\b|import[ \\t]+(?:[\\w.]+[ \\t]*,[ \\t]*)*${stem}\\b)`,
      'm',
    );
  else if (EXTENSIONS[ext]?.language === 'js')
    pattern = new RegExp(`(?:require\\(|import\\(|from)[ \\t]*['"]\\./${stem}(?:\\.[cm]?[jt]sx?)?['"]`);
  else if (EXTENSIONS[ext]?.language === 'shell')
    pattern = new RegExp(
      `(?:^|[;&|]|\\bthen|\\bdo)[ \\t]*(?:source|\\.)[ \\t]+[^\\n]*?(?<![\\w.-])${stem}\\${ext}\\b`,
      'm',
    );
  else return false;
  for (const other of skill.scripts) {
    if (
      other.path === path ||
      !other.exists ||
      !other.path.startsWith(dir) ||
      other.path.indexOf('/', dir.length) !== -1
    )
      continue;
    const text = readText(other.path);
    if (text !== undefined && pattern.test(text)) return true;
  }
  return false;
}

export default {
  names: ['SK113', 'script-shebang'],
  description: 'scripts that are run by path start with a #! line naming their interpreter',
  tags: ['scripts', 'portability', 'best-practice'],
  layouts: ['skill-md', 'manifest'],
  severity: 'warning',
  sources: [
    'seed 000 (BuzyBeez): scripts, envVars, secrets',
    'Anthropic, Skill authoring best practices: utility scripts',
  ],
  fixable: false,
  options: {
    extensions: {
      default: ['.sh', '.bash', '.zsh', '.py', '.js', '.mjs', '.cjs', '.ts', '.rb', '.pl', ''],
      description: 'extensions of scripts that need a shebang ("" for files without one)',
    },
  },
  check(skill, ctx) {
    const extensions = ctx.options.extensions as string[];
    const uses = scriptUses(skill, ctx.readText);
    for (const script of byPath([...skill.scripts, ...uses.runByPath])) {
      if (!script.exists || !runsDirectly(script.path, extensions)) continue;
      // `python scripts/x.py` everywhere it is mentioned: it is never run by path.
      if (!script.declared && uses.interpreterOnly.get(script.path) === true) continue;
      // Never mentioned, but imported by a script beside it (`from github_utils import …`): a module, not a script.
      if (
        !script.declared &&
        !uses.interpreterOnly.has(script.path) &&
        importedBySibling(skill, script.path, ctx.readText)
      )
        continue;
      const text = ctx.readText(script.path);
      // Empty files are another rule's business; binary or huge ones are not scripts we can read.
      if (text === undefined || text.trim() === '' || text.startsWith('#!')) continue;
      const bom = text.startsWith('\ufeff#!');
      const suggestion = suggestedShebang(script.path);
      ctx.report({
        message: bom
          ? `${script.path} starts with a byte-order mark before #!, so the system does not see the shebang`
          : `${script.path} has no shebang line (#!), so running it by path fails or picks the wrong interpreter`,
        file: join(skill.root, script.path),
        line: 1,
        column: 1,
        hint: bom ? 'save the file as UTF-8 without a BOM' : `start it with ${suggestion}`,
      });
    }
  },
} satisfies Rule;
