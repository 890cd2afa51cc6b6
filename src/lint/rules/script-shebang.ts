import { extname, join } from 'node:path';
import { EXTENSIONS, suggestedShebang } from '../../formats/shebang.js';
import type { Skill } from '../../model/skill.js';
import { runsDirectly, scriptUses } from '../helpers/script-uses.js';
import type { Rule } from '../types.js';

export { afterInterpreter, scriptUses } from '../helpers/script-uses.js';

// Which program runs a script is decided once, in formats/shebang.ts, for this rule, its siblings and run-script.

/** Scripts in path order, so findings do not depend on the order the file system lists them in. */
export function byPath<T extends { path: string }>(items: T[]): T[] {
  return items.length < 2 ? items : [...items].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
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
  const name = file.slice(0, file.length - ext.length);
  const stem = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (stem === '') return false;
  let pattern: { test(text: string): boolean };
  if (ext === '.py')
    pattern = new RegExp(
      `^[ \\t]*(?:from[ \\t]+\\.?${stem}[ \\t]+import\\b|import[ \\t]+(?:[\\w.]+[ \\t]*,[ \\t]*)*${stem}\\b)`,
      'm',
    );
  else if (EXTENSIONS[ext]?.language === 'js')
    pattern = new RegExp(`(?:require\\(|import\\(|from)[ \\t]*['"]\\./${stem}(?:\\.[cm]?[jt]sx?)?['"]`);
  else if (EXTENSIONS[ext]?.language === 'shell') pattern = sourcing(new RegExp(`(?<![\\w.-])${stem}\\${ext}\\b`, 'g'));
  else return false;
  // Every pattern has the name start after a character that is not a word's and its first run of word characters
  // end where a word ends: only the scripts that hold that word can match (holdersOf: searched for in a folder's few
  // scripts, and found in one index of the words of a folder of many).
  const word = /\w+/.exec(name)?.[0];
  const others = word === undefined ? siblings(skill, dir) : holdersOf(skill, dir, word, readText);
  for (const other of others) {
    if (other === path) continue;
    const text = readText(other);
    // Every match holds the name as written: most texts are ruled out by a plain search.
    if (text !== undefined && text.includes(name) && pattern.test(text)) return true;
  }
  return false;
}

/** A shell command that sources a file: `source` or `.`, at a line's start, after ; & | or after then/do. */
const SOURCE = /(?:^|[;&|]|\bthen|\bdo)[ \t]*(?:source|\.)[ \t]+/gm;

/**
 * Whether a line of a text sources `name` (a global pattern): a source command, then on the same line, anywhere
 * after it, the name. One regular expression with `[^\n]*?` between the two took time quadratic in a line's length
 * (a line of 60 KB of `;. ` took 1.7 s, one of 1 MB minutes): here the first source command of each line that holds
 * the name is looked for once, in that line alone.
 */
export function sourcing(name: RegExp): { test(text: string): boolean } {
  return {
    test(text) {
      let line = -1;
      let sourceEnd = Infinity;
      for (const m of text.matchAll(name)) {
        const start = text.lastIndexOf('\n', m.index - 1) + 1;
        if (start !== line) {
          line = start;
          const end = text.indexOf('\n', start);
          SOURCE.lastIndex = 0;
          const s = SOURCE.exec(text.slice(start, end === -1 ? text.length : end));
          sourceEnd = s ? start + s.index + s[0].length : Infinity;
        }
        if (sourceEnd <= m.index) return true;
      }
      return false;
    },
  };
}

/** The paths of the scripts that exist in folder `dir` (with its slash; '' for the skill's own folder), in order. */
function siblings(skill: Skill, dir: string): string[] {
  return skill.scripts
    .filter((s) => s.exists && s.path.startsWith(dir) && s.path.indexOf('/', dir.length) === -1)
    .map((s) => s.path);
}

/** For each skill, its readText and, by folder, which scripts hold each word asked for (a run of \w of its own). */
const wordIndexes = new WeakMap<
  Skill,
  { readText: (rel: string) => string | undefined; byDir: Map<string, FolderWords> }
>();

interface FolderWords {
  paths: string[];
  /** The scripts holding each word asked for so far, or (in a folder of many scripts) every word of every script. */
  holders: Map<string, string[]>;
  indexed: boolean;
}

/**
 * Scripts in one folder past which every word of every script is indexed at once: a folder of thousands of scripts
 * would otherwise be searched once per script in it (quadratic). Below it, each word asked for is searched for in
 * the few scripts, which reads far less than splitting them all into words.
 */
const INDEX_PAST = 32;

/** The scripts in folder `dir` whose text holds `word` (made of \w) as a run of \w of its own, in folder order. */
function holdersOf(
  skill: Skill,
  dir: string,
  word: string,
  readText: (rel: string) => string | undefined,
): readonly string[] {
  let entry = wordIndexes.get(skill);
  if (!entry || entry.readText !== readText) {
    entry = { readText, byDir: new Map() };
    wordIndexes.set(skill, entry);
  }
  let folder = entry.byDir.get(dir);
  if (!folder) {
    const paths = siblings(skill, dir);
    folder = { paths, holders: new Map(), indexed: paths.length > INDEX_PAST };
    if (folder.indexed) indexWords(folder, readText);
    entry.byDir.set(dir, folder);
  }
  let list = folder.holders.get(word);
  if (!list) {
    if (folder.indexed) return [];
    list = folder.paths.filter((p) => {
      const text = readText(p);
      return text !== undefined && holdsWord(text, word);
    });
    folder.holders.set(word, list);
  }
  return list;
}

function indexWords(folder: FolderWords, readText: (rel: string) => string | undefined): void {
  for (const path of folder.paths) {
    const text = readText(path);
    if (text === undefined) continue;
    for (const w of new Set(text.match(/\w+/g))) {
      const holders = folder.holders.get(w);
      if (holders) holders.push(path);
      else folder.holders.set(w, [path]);
    }
  }
}

/** Whether `word` (made of \w) stands in `text` with no \w character right before or after it. */
export function holdsWord(text: string, word: string): boolean {
  for (let i = text.indexOf(word); i >= 0; i = text.indexOf(word, i + 1)) {
    const end = i + word.length;
    if ((i === 0 || !isWordCode(text.charCodeAt(i - 1))) && (end === text.length || !isWordCode(text.charCodeAt(end))))
      return true;
  }
  return false;
}

/** \w: an ASCII letter, digit or underscore. */
function isWordCode(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
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
      if (!script.declared) {
        const byPathToo = uses.mentioned.get(script.path);
        // Mentioned, but never run by path (`python scripts/x.py`, "the scripts/recalc.py script"): an agent runs it
        // with its interpreter, as the instructions do.
        if (byPathToo === false) continue;
        // Never mentioned: only an execute bit says it is run by path (not a module, a test, a helper the agent
        // runs with `python`), and not when a script beside it imports it (`from github_utils import …`).
        if (
          byPathToo === undefined &&
          (script.executable !== true || importedBySibling(skill, script.path, ctx.readText))
        )
          continue;
      }
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
