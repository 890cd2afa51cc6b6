import { basename, join, posix } from 'node:path';
import type { Skill } from '../../model/skill.js';
import { nestedSkillFolders } from '../helpers/nested.js';
import { placeholder } from '../../formats/markdown-refs.js';
import {
  entryMap,
  foundPath,
  isFolder,
  isMarkdown,
  referencesIn,
  refDoc,
  relPath,
  skillReferences,
  type LocatedRef,
  type RefDoc,
} from '../references.js';
import type { Rule } from '../types.js';

// Files that are there for tools, people or the law, not for the agent: nothing needs to mention them.
const IGNORED =
  /^(?:skill\.md|manifest\.json|\.env\.example|licen[cs]e(?:\..+)?|copying(?:\..+)?|notice(?:\..+)?|readme(?:\..+)?|changelog(?:\..+)?|\.gitignore|\.gitattributes|\.gitkeep|\.keep|\.npmignore|\.editorconfig|package\.json|package-lock\.json|pnpm-lock\.yaml|yarn\.lock|requirements[\w.-]*\.txt|pyproject\.toml|poetry\.lock|uv\.lock|pipfile(?:\.lock)?|tsconfig[\w.-]*\.json|go\.mod|go\.sum|cargo\.toml|cargo\.lock|gemfile(?:\.lock)?)$/i;
// Files for hosts' user interfaces, by path from the skill root: Codex's agents/openai.yaml, a registry's
// metadata.json.
const IGNORED_PATHS = /^(?:agents\/openai\.ya?ml|metadata\.json)$/i;
// Tests are run by the skill's developers (pytest, vitest), not read or run by the agent.
const TESTS =
  /(?:^|\/)(?:tests?|__tests__)\/|(?:^|\/)(?:test_[^/]+\.py|[^/]+_test\.(?:py|go)|conftest\.py|[^/]+\.(?:test|spec)\.[cm]?[jt]sx?)$/i;
// A skill's evaluations at its root: the cases and results Anthropic's skill-creator keeps in `evals/evals.json` are
// its developers' to run, as tests are (richfrem/agent-plugins-skills: 228 findings).
const EVALS = /^evals?\//i;
const CODE = /\.(?:py|js|mjs|cjs|ts|mts|cts|tsx|jsx|sh|bash|zsh|ps1|bat|cmd|rb|pl|php|go|rs|lua|r|java|kt|swift|cs)$/i;
// Data files that name other files: an XML schema imports its neighbours (`schemaLocation="dml-main.xsd"`).
const NAMING = /\.(?:xsd|xsl|xslt|dtd|wsdl)$/i;
// `from core.easing import x`, `import core.easing`: a dotted module (leading dots: relative to the importer).
const PY_IMPORT = /(?:^|[\s;(`])(?:from|import)[ \t]+(\.*[a-z_][\w.]*)/g;

const WORD_CHAR = /[\p{L}\p{N}_.-]/u;
const WORD = /^[\p{L}\p{N}_.-]+$/u;

/** Whether the character that ends before `i` (`before`) or starts at `i` is a word character. */
function wordAt(text: string, i: number, before: boolean): boolean {
  if (before ? i <= 0 : i >= text.length) return false;
  let c = text.charCodeAt(before ? i - 1 : i);
  if (c < 128)
    return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || c === 95 || c === 46 || c === 45;
  if (before && (c & 0xfc00) === 0xdc00 && i >= 2) c = text.codePointAt(i - 2)!;
  else if (!before) c = text.codePointAt(i)!;
  return WORD_CHAR.test(String.fromCodePoint(c));
}

/**
 * Whether a (lower-cased) text names `name` as a word of its own ("see FORMS.md" names forms.md for a reader, if
 * not for Linux): between separators such as / and spaces (`chart.py`, never `mychart.py`), a sentence's full stops
 * after it allowed. With `part`, as one of the parts between dots of such a word, for imports (`from .helpers
 * import`, `require('./util')`).
 */
function mentions(text: string, name: string, part = false): boolean {
  for (let i = text.indexOf(name); i >= 0; i = text.indexOf(name, i + 1)) {
    if (wordAt(text, i, true) && !(part && text.charCodeAt(i - 1) === 46)) continue;
    let j = i + name.length;
    if (part) {
      if (!wordAt(text, j, false) || text.charCodeAt(j) === 46) return true;
      continue;
    }
    while (text.charCodeAt(j) === 46) j++;
    if (!wordAt(text, j, false)) return true;
  }
  return false;
}

/** The lower-cased names of these files that a text can hold as words of their own (see named). */
function asWords(paths: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const p of paths) {
    const name = basename(p).toLowerCase();
    if (name !== '' && !name.endsWith('.') && WORD.test(name)) out.add(name);
  }
  return out;
}

/**
 * Whether a file is named by one of the texts: by its name, or (code) by its stem as an imported module. With
 * `words`, the names found as words of the texts (wordsIn: what mentions() finds, found once for many names).
 */
function named(path: string, texts: readonly Searched[], words: ReadonlySet<string> | undefined): boolean {
  const name = basename(path).toLowerCase();
  const dot = name.lastIndexOf('.');
  // A name with a character no word holds (a space, a bracket) is never one word of a text.
  const asWord = name !== '' && !name.endsWith('.') && WORD.test(name);
  const stem = dot > 0 && CODE.test(path) ? name.slice(0, dot) : '';
  const asPart = stem.length >= 3 && !stem.includes('.') && WORD.test(stem);
  if (!asWord && !asPart) return false;
  if (asWord && words?.has(name)) return true;
  return texts.some(
    (t) => (asWord && !words && mentions(t.text, name)) || (asPart && t.code && mentions(t.text, stem, true)),
  );
}

/** The length (1, or 2 for a pair of surrogates) of the word character that ends at `i`, by code points; else 0. */
function wordEndingAt(text: string, i: number): number {
  if (i <= 0) return 0;
  const c = text.charCodeAt(i - 1);
  if (c < 128) return ASCII_WORD[c]!;
  if ((c & 0xfc00) === 0xdc00 && i >= 2 && (text.charCodeAt(i - 2) & 0xfc00) === 0xd800)
    return WORD_CHAR.test(text.slice(i - 2, i)) ? 2 : 0;
  return (c & 0xf800) === 0xd800 || !WORD_CHAR.test(text[i - 1]!) ? 0 : 1;
}

/** Whether a word character starts at `i`, by code points (a lone surrogate is none). */
function wordStartsAt(text: string, i: number): boolean {
  if (i >= text.length) return false;
  const c = text.charCodeAt(i);
  if (c < 128) return ASCII_WORD[c] === 1;
  if ((c & 0xfc00) === 0xd800 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00)
    return WORD_CHAR.test(text.slice(i, i + 2));
  return (c & 0xf800) !== 0xd800 && WORD_CHAR.test(text[i]!);
}

const ASCII_WORD = Uint8Array.from({ length: 128 }, (_, c) => (WORD_CHAR.test(String.fromCharCode(c)) ? 1 : 0));
// How many last characters of a name are looked for in a text: names share them (`.md`, `.py`), words seldom do.
const TAIL = 3;

/**
 * Which of `wanted` (names of word characters, none ending in a full stop) are words of the texts: runs of word
 * characters, full stops after them left off. A run can only be a wanted name where it ends in a name's last
 * characters: those are found in the text, and only the runs ending there are read.
 */
function wordsIn(texts: readonly Searched[], wanted: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  const tails = new Set<string>();
  for (const k of wanted) tails.add(k.slice(-TAIL));
  for (const t of texts) {
    const text = t.text;
    for (const tail of tails) {
      for (let i = text.indexOf(tail); i >= 0; i = text.indexOf(tail, i + 1)) {
        let end = i + tail.length;
        while (text.charCodeAt(end) === 46) end++;
        if (wordStartsAt(text, end)) continue;
        let start = i + tail.length;
        for (let n = wordEndingAt(text, start); n > 0; n = wordEndingAt(text, start)) start -= n;
        const k = text.slice(start, i + tail.length);
        if (wanted.has(k)) out.add(k);
      }
    }
  }
  return out;
}

/**
 * Files that dotted Python module names in a text stand for (`core.easing` → core/easing.py or
 * core/easing/__init__.py, and core/__init__.py), from `dir`, the folder of the code file that imports them, or
 * from the root.
 */
function modulePaths(text: string, dir: string, lowerPaths: Map<string, string>): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(PY_IMPORT)) {
    let mod = m[1]!;
    while (mod.endsWith('.')) mod = mod.slice(0, -1);
    let lead = 0;
    while (mod[lead] === '.') lead++;
    const name = mod.slice(lead);
    if (lead === 0 && !name.includes('.')) continue;
    const rel = name.split('.').join('/');
    const bases = lead > 0 || dir === '' ? [dir] : [dir, ''];
    for (const b of bases) {
      const stem = b === '' ? rel : `${b}/${rel}`;
      const file = lowerPaths.get(`${stem}.py`) ?? lowerPaths.get(`${stem}/__init__.py`);
      if (!file) continue;
      out.push(file);
      // Importing core.easing runs core/__init__.py first.
      for (let k = stem.indexOf('/', b.length + 1); k > 0; k = stem.indexOf('/', k + 1)) {
        const init = lowerPaths.get(`${stem.slice(0, k)}/__init__.py`);
        if (init) out.push(init);
      }
      break;
    }
  }
  return out;
}

/** `folder/` occurs in the text as a folder, not as the start of a path to a file in it. */
export function mentionsFolder(text: string, folder: string): boolean {
  const word = `${folder}/`;
  for (let i = text.indexOf(word); i >= 0; i = text.indexOf(word, i + 1)) {
    const before = text[i - 1];
    const after = text[i + word.length];
    if (before !== undefined && isWordUnit(before)) continue;
    if (after !== undefined && isWordUnit(after)) continue;
    return true;
  }
  return false;
}

const WORD_UNIT = /[\p{L}\p{N}_.-]/u;
/** Whether one UTF-16 unit is a word character (a lone surrogate is not); ASCII looked up, not matched. */
function isWordUnit(c: string): boolean {
  const k = c.charCodeAt(0);
  return k < 128 ? ASCII_WORD[k] === 1 : WORD_UNIT.test(c);
}
// A folder whose path is made of word characters (none astral) and slashes: found among a text's folderWords().
const WORD_PATH = /^[\p{L}\p{N}_.\-/]+$/u;
const SURROGATE = /[\ud800-\udfff]/;
// From this many folders on, a text's folder mentions are gathered once rather than searched for each folder.
const MANY_FOLDERS = 4;

/**
 * Every `x/` and `x/y/` that mentionsFolder() would find in the text, for folders of word characters and slashes:
 * before each slash that no word character follows, the run of word characters and slashes, from its start or from
 * any slash in it.
 */
export function folderWords(text: string): Set<string> {
  const out = new Set<string>();
  // Where a mention of a folder (`scripts/ holds …`) can end: a slash that no word character follows.
  for (let end = text.indexOf('/'); end >= 0; end = text.indexOf('/', end + 1)) {
    if (end + 1 < text.length && isWordUnit(text[end + 1]!)) continue;
    let start = end;
    while (start > 0 && (text[start - 1] === '/' || isWordUnit(text[start - 1]!))) start--;
    for (let s = start; s < end; s = text.indexOf('/', s) + 1) out.add(text.slice(s, end));
  }
  return out;
}

/**
 * A text to search for names: lower-cased when first searched (most skills need no search at all), and the
 * folders it mentions (folderWords) when first asked for.
 */
interface Searched {
  readonly text: string;
  readonly folders: ReadonlySet<string>;
  dir: string;
  code: boolean;
}

// Past this many names to look for, the texts' words are gathered once rather than searched for each name.
const MANY_NAMES = 16;

function searched(raw: string, dir: string, code: boolean): Searched {
  let lower: string | undefined;
  let folders: Set<string> | undefined;
  return {
    get text() {
      return (lower ??= raw.toLowerCase());
    },
    get folders() {
      return (folders ??= folderWords(this.text));
    },
    dir,
    code,
  };
}

/** A declared path (manifest, frontmatter, mcpServers args) as a path relative to the skill root. */
function declared(p: string): string {
  let q = placeholder(p).rest;
  if (q.includes('\\')) q = q.replace(/\\/g, '/');
  // Most declared paths are plain (`scripts/run.sh`); normalise only the others.
  if (q.includes('./') || q.includes('//') || q.endsWith('/.') || q.endsWith('/..') || q.endsWith('/'))
    q = posix.normalize(q).replace(/^\.\//, '').replace(/\/+$/, '');
  return q;
}

/** Paths and folders that the manifest or frontmatter names: context, scripts, mcpServers, toolsets. */
function declaredPaths(skill: Skill): string[] {
  const out: string[] = [];
  for (const p of skill.instructionParts) out.push(relPath(skill, p.file));
  for (const s of skill.scripts) if (s.declared) out.push(declared(s.path));
  const context = skill.raw.context;
  if (Array.isArray(context)) for (const c of context) if (typeof c === 'string') out.push(declared(c));
  for (const m of skill.mcpServers) for (const a of [m.command ?? '', ...(m.args ?? [])]) if (a) out.push(declared(a));
  for (const t of skill.toolsets) {
    const base = declared(t.slice(0, t.lastIndexOf(':') > 0 ? t.lastIndexOf(':') : t.length));
    for (const ext of ['', '.ts', '.js', '.mjs', '.mts', '.cjs', '.tsx']) out.push(base + ext);
  }
  return out;
}

export default {
  names: ['SK120', 'unreferenced-file'],
  description: 'every file of the skill is referred to by the instructions, a file they reference, or the manifest',
  tags: ['references', 'files', 'structure'],
  layouts: ['skill-md', 'manifest'],
  severity: 'info',
  sources: [
    'Anthropic, Skill authoring best practices: progressive disclosure (agents find bundled files through SKILL.md)',
  ],
  fixable: false,
  check(skill, ctx) {
    const map = entryMap(skill);
    // A skill nested in this one refers to its own files (SK133 speaks of it).
    const nested = nestedSkillFolders(skill).map((dir) => `${dir}/`);
    const candidates = skill.entries.filter(
      (e) =>
        (e.kind === 'file' || (e.kind === 'symlink' && e.inside && !isFolder(e))) &&
        !nested.some((dir) => e.path.startsWith(dir)) &&
        !IGNORED.test(basename(e.path)) &&
        !IGNORED_PATHS.test(e.path) &&
        !TESTS.test(e.path) &&
        !EVALS.test(e.path) &&
        !e.path.endsWith('.pyc') &&
        !e.path.includes('__pycache__/'),
    );
    if (candidates.length === 0) return;
    const used = new Set<string>();
    const usedList: string[] = [];
    const folders = new Set<string>();
    const mark = (p: string) => {
      const e = map.get(p);
      if (isFolder(e)) folders.add(`${p}/`);
      else if (!used.has(p)) {
        used.add(p);
        usedList.push(p);
      }
    };
    const base = skillReferences(skill, ctx.readText);
    const docs: RefDoc[] = [...base.docs];
    const refs: LocatedRef[] = [...base.refs];
    // Texts not yet searched for names: Markdown read as documents, and code files (for imports and data files).
    const texts: Searched[] = docs.map((d) => searched(d.text, '', false));
    // Past the first level too: a file that a reference's reference names is not unreferenced.
    const read = new Set(docs.map((d) => d.rel));
    const readDoc = (p: string) => {
      if (read.has(p)) return;
      read.add(p);
      const text = ctx.readText(p);
      if (text === undefined) return;
      const doc = refDoc(join(skill.root, p), p, text, 1, 1);
      docs.push(doc);
      refs.push(...referencesIn(skill, doc));
      texts.push(searched(text, '', false));
    };
    let drained = 0;
    const drain = () => {
      for (; drained < refs.length; drained++) {
        // A bare name in the wrong case (`FORMS.md`) still says which file it means (SK108 speaks about the case).
        const p = foundPath(refs[drained]!.target);
        if (p === undefined || p === '') continue;
        mark(p);
        if (isMarkdown(p) && !isFolder(map.get(p))) readDoc(p);
      }
    };
    drain();
    const under = (p: string) => {
      if (folders.size === 0) return false;
      for (let k = p.indexOf('/'); k > 0; k = p.indexOf('/', k + 1)) if (folders.has(p.slice(0, k + 1))) return true;
      return false;
    };
    let pending = candidates.filter((e) => !used.has(e.path) && !under(e.path)).map((e) => e.path);
    if (pending.length === 0) return;
    for (const p of declaredPaths(skill)) if (map.has(p)) mark(p);
    pending = pending.filter((p) => !used.has(p) && !under(p));
    if (pending.length === 0) return;
    // Names in the texts read so far, then in the files those make used (imports, data files, Markdown found by
    // name), to a fixpoint.
    const dirs = skill.entries.filter((e) => isFolder(e)).map((e) => e.path);
    const lowerPaths = new Map<string, string>();
    for (const e of skill.entries) if (e.path.endsWith('.py')) lowerPaths.set(e.path.toLowerCase(), e.path);
    const readCode = new Set<string>();
    const queueCode = (p: string) => {
      const code = CODE.test(p);
      if ((!code && !NAMING.test(p)) || readCode.has(p)) return;
      readCode.add(p);
      const t = ctx.readText(p);
      if (t !== undefined) texts.push(searched(t, posix.dirname(p) === '.' ? '' : posix.dirname(p), code));
    };
    let codeAt = 0;
    const queueUsed = () => {
      for (; codeAt < usedList.length; codeAt++) queueCode(usedList[codeAt]!);
    };
    queueUsed();
    // Hosts' UI files name their icons (`icon_small: "assets/mark.svg"` in agents/openai.yaml).
    for (const e of skill.entries) {
      if (!IGNORED_PATHS.test(e.path)) continue;
      const t = ctx.readText(e.path);
      if (t !== undefined) texts.push(searched(t, '', false));
    }
    let scanned = 0;
    while (scanned < texts.length && pending.length > 0) {
      const batch = texts.slice(scanned);
      scanned = texts.length;
      const found: string[] = [];
      if (lowerPaths.size > 0)
        for (const t of batch) for (const p of modulePaths(t.text, t.dir, lowerPaths)) found.push(p);
      const byFolders = dirs.length >= MANY_FOLDERS;
      for (const d of dirs) {
        if (folders.has(`${d}/`)) continue;
        const lower = d.toLowerCase();
        const mentioned =
          byFolders && WORD_PATH.test(lower) && !SURROGATE.test(lower)
            ? batch.some((t) => t.folders.has(lower))
            : batch.some((t) => mentionsFolder(t.text, lower));
        if (mentioned) folders.add(`${d}/`);
      }
      const words = pending.length > MANY_NAMES ? wordsIn(batch, asWords(pending)) : undefined;
      for (const p of pending) if (named(p, batch, words)) found.push(p);
      for (const p of found) {
        if (used.has(p)) continue;
        mark(p);
        if (isMarkdown(p)) readDoc(p);
        queueCode(p);
      }
      drain();
      queueUsed();
      pending = pending.filter((p) => !used.has(p) && !under(p));
    }
    for (const p of pending.sort()) {
      ctx.report({
        message: `${p}: nothing in the skill refers to this file`,
        file: join(skill.root, p),
        hint: 'say in the instructions when to read or run it, or delete it',
      });
    }
  },
} satisfies Rule;
