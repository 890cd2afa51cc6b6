import { basename, join, posix } from 'node:path';
import type { Skill, SkillEntry } from '../model/skill.js';

/** A file reference found in Markdown text. */
export interface Ref {
  /** The reference as written (placeholder, <>, #fragment and all); it starts at `column` of `line`. */
  raw: string;
  /** The path it names: placeholder, <>, #fragment and ?query removed, %xx decoded; slashes as written. */
  path: string;
  line: number;
  /** 1-based column of `raw`'s first character. */
  column: number;
  kind: 'link' | 'image' | 'bare';
  /** It began with a skill-root placeholder (`{baseDir}/…`, `/mnt/skills/…/<skill>/`): relative to the root, whatever file holds it. */
  rooted?: boolean;
  /**
   * A bare file name without a folder (`FORMS.md`, `guidelines.md`): a reference only when the skill has a file
   * of that name somewhere, compared case-insensitively.
   */
  name?: boolean;
  /** A bare path in fenced code outside scripts/, references/ and assets/: a reference only when the file exists. */
  loose?: boolean;
  /** A bare path in an illustration: on a line or list item saying "example", "e.g." …, or under an Example heading. */
  example?: boolean;
}

/** What findReferences needs to know of the skill: the names it is mounted under (`/mnt/skills/user/<name>/`). */
export interface FindOptions {
  mounts?: readonly string[];
}

/** Folders of the specification's layout; bare paths into them are checked even inside fenced code. */
export const STANDARD_FOLDERS = new Set(['scripts', 'references', 'assets']);

// Placeholders that agents' hosts replace with the skill's folder.
const PLACEHOLDER = /^(?:\{\{?(?:baseDir|base_dir|skill_dir|skillDir)\}\}?|\$\{(?:CLAUDE_SKILL_DIR|SKILL_DIR)\}|\$(?:CLAUDE_SKILL_DIR|SKILL_DIR))(?=[/\\]|$)/i;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const DRIVE = /^[A-Za-z]:[/\\]/;
const FENCE = /^[ \t]*(`{3,}|~{3,})/;
const REF_DEF = /^ {0,3}\[([^\]\n]+)\]:[ \t]*(\S+)/;
// One character class, so a token is found in linear time; `:`, `#`, `?`, `%`, quotes and brackets end a token.
const TOKEN = /[\p{L}\p{N}_.\-/\\{}$@+~]+/gu;
const MAX_DEST = 2048;
/** Extensions of the text and script files that a bare name (`see FORMS.md`) may refer to. */
const NAME_EXTENSIONS = new Set(['md', 'markdown', 'txt', 'py', 'sh', 'bash', 'js', 'mjs', 'cjs', 'ts', 'json', 'yaml', 'yml', 'toml', 'csv', 'html', 'xml', 'sql', 'rb', 'pl', 'ps1']);
// A cheap first look for a file name on a line: one of NAME_EXTENSIONS after a dot, ending a word.
const NAME_HINT = /\.(?:md|markdown|txt|py|sh|bash|js|mjs|cjs|ts|json|ya?ml|toml|csv|html|xml|sql|rb|pl|ps1)(?![\p{L}\p{N}_])/iu;
const FILE_NAME = /^[\p{L}\p{N}_][\p{L}\p{N}_.+-]*$/u;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]|$)/;
const LIST_ITEM = /^([ \t]*)(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$)/;
// Words that introduce an illustration, not a file of the skill; never part of a path (`examples/a.py`).
const EXAMPLE_WORDS = /(?<![\p{L}\p{N}_./\\-])(?:examples?|e\.g\.|for instance|such as|i\.e\.)(?![\p{L}\p{N}_/\\-])/iu;
const EXAMPLE_HEADING = /(?<![\p{L}\p{N}_./\\-])examples?(?![\p{L}\p{N}_/\\-])/iu;
const MOUNT = '/mnt/skills/';

/**
 * Every file reference in Markdown text whose first line is line `firstLine` of its file: links and images
 * (URLs, mail addresses and pure #anchors skipped), reference-style definitions, and bare relative paths in
 * text and inline code (`scripts/extract.py`, `./assets/logo.png`). In fenced code only bare paths into
 * scripts/, references/ or assets/ count: agents run `python scripts/x.py` from code blocks, while other paths
 * there are mostly examples of the user's files (they are kept as `loose`: references only if the file exists).
 * Bare absolute paths (`/tmp/out.json`, `~/x`) are the machine's, not the skill's, and are left out, except
 * where the skill is mounted (`/mnt/skills/user/<mount>/…`); absolute link targets are kept. Bare file names
 * with a known extension (`FORMS.md`) in text and inline code are kept as `name` references.
 */
export function findReferences(markdown: string, firstLine: number, opts: FindOptions = {}): Ref[] {
  const out: Ref[] = [];
  const lines = markdown.split('\n');
  const mounts = opts.mounts ?? [];
  const kind = fences(lines);
  let bareSeen = false;
  for (let i = 0; i < lines.length; i++) {
    const k = kind[i]!;
    if (k === FENCE_OPEN || k === FENCE_CLOSE) continue;
    let line = lines[i]!;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    const lineNo = firstLine + i;
    if (k === FENCED) {
      bareSeen = bare(line, lineNo, true, out, [], mounts) || bareSeen;
    } else {
      const links: Ref[] = [];
      const masks: [number, number][] = [];
      const def = REF_DEF.exec(line);
      if (def && !def[1]!.startsWith('^')) {
        const start = def[0].length - def[2]!.length;
        const close = def[2]!.startsWith('<') ? line.indexOf('>', start) : -1;
        const rawTarget = close > 0 ? line.slice(start, close + 1) : def[2]!;
        const r = linkRef(rawTarget, lineNo, start, 'link', mounts);
        if (r) links.push(r);
        masks.push([start, start + rawTarget.length]);
      } else {
        scanLinks(maskCodeSpans(line), lineNo, links, masks, mounts);
      }
      bareSeen = bare(maskRanges(line, masks), lineNo, false, out, links, mounts) || bareSeen;
      for (const l of links) out.push(l);
    }
  }
  // Which bare paths are illustrations: read only for texts that have bare paths at all.
  if (bareSeen) {
    const example = examples(lines, kind);
    for (const r of out) if (r.kind === 'bare' && example[r.line - firstLine] === 1) r.example = true;
  }
  return out.sort((a, b) => a.line - b.line || a.column - b.column);
}

const FENCED = 1;
const FENCE_OPEN = 2;
const FENCE_CLOSE = 3;

/** Which lines are fenced code (FENCED), open a fence or close one; an unclosed fence runs to the end. */
function fences(lines: string[]): Uint8Array {
  const kind = new Uint8Array(lines.length);
  let fence: { char: string; len: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    const f = FENCE.exec(line);
    if (fence) {
      if (f && f[1]![0] === fence.char && f[1]!.length >= fence.len && line.slice(f[0].length).trim() === '') {
        kind[i] = FENCE_CLOSE;
        fence = undefined;
      } else kind[i] = FENCED;
    } else if (f && !(f[1]![0] === '`' && line.slice(f[0].length).includes('`'))) {
      kind[i] = FENCE_OPEN;
      fence = { char: f[1]![0]!, len: f[1]!.length };
    }
  }
  return kind;
}

interface Unit {
  /** An example word is in one of its own lines (a list item's, not its children's). */
  kw: boolean;
  /** Under an Example heading, or in a list led in by a paragraph such as "Example: … shows:". */
  scope: boolean;
  parent: number;
}

/**
 * One pass over the lines: which are illustrations (a line saying "e.g.", a list item saying it in any of its
 * lines or inheriting it from its parent item, a list led in by such a paragraph ending in ":", anything under a
 * heading saying "Example"); fenced code counts as part of the list item it is indented into.
 */
function examples(lines: string[], kind: Uint8Array): Uint8Array {
  const n = lines.length;
  const example = new Uint8Array(n);
  const unitOf = new Int32Array(n).fill(-1);
  const units: Unit[] = [];
  const headings: { level: number; ex: boolean }[] = [];
  let headingEx = false;
  let items: { markerIndent: number; contentIndent: number; unit: number }[] = [];
  let para = -1;
  let leadIn: { unit: number; colon: boolean } | undefined;
  let runScope: boolean | undefined;
  let prevBlank = true;
  let fenceUnit = -1;
  const endBlocks = () => {
    items = [];
    para = -1;
    leadIn = undefined;
    runScope = undefined;
  };
  for (let i = 0; i < n; i++) {
    let line = lines[i]!;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    const k = kind[i]!;
    if (k === FENCED) {
      unitOf[i] = fenceUnit;
      if (headingEx) example[i] = 1;
      continue;
    }
    if (k === FENCE_CLOSE) {
      prevBlank = false;
      continue;
    }
    if (!/\S/.test(line)) {
      prevBlank = true;
      continue;
    }
    const indent = indentOf(line);
    const lineKw = EXAMPLE_WORDS.test(line);
    if (k === FENCE_OPEN) {
      // A fence indented into the current list item belongs to it; any other ends the paragraph and the list.
      while (items.length > 0 && items[items.length - 1]!.contentIndent > indent) items.pop();
      fenceUnit = items.length > 0 ? items[items.length - 1]!.unit : -1;
      if (fenceUnit < 0) endBlocks();
      prevBlank = false;
      continue;
    }
    const h = HEADING.exec(line);
    if (h) {
      const level = h[1]!.length;
      while (headings.length > 0 && headings[headings.length - 1]!.level >= level) headings.pop();
      headings.push({ level, ex: EXAMPLE_HEADING.test(line) });
      headingEx = headings.some((x) => x.ex);
      endBlocks();
      if (lineKw || headingEx) example[i] = 1;
      prevBlank = false;
      continue;
    }
    const li = LIST_ITEM.exec(line);
    if (li) {
      const markerIndent = indentOf(li[1]!);
      while (items.length > 0 && items[items.length - 1]!.markerIndent >= markerIndent) items.pop();
      if (items.length === 0 && runScope === undefined) runScope = !!leadIn && leadIn.colon && units[leadIn.unit]!.kw;
      const unit = units.length;
      units.push({ kw: lineKw, scope: headingEx || !!runScope, parent: items.length > 0 ? items[items.length - 1]!.unit : -1 });
      items.push({ markerIndent, contentIndent: markerIndent + li[0].length - li[1]!.length, unit });
      unitOf[i] = unit;
      para = -1;
      leadIn = undefined;
    } else {
      if (prevBlank) {
        while (items.length > 0 && items[items.length - 1]!.contentIndent > indent) items.pop();
        if (items.length === 0) para = -1;
      }
      if (para < 0 && items.length > 0) {
        const unit = items[items.length - 1]!.unit;
        unitOf[i] = unit;
        if (lineKw) units[unit]!.kw = true;
      } else {
        if (para < 0) {
          // A new paragraph: it ends any list, and may lead in the next one.
          runScope = undefined;
          para = units.length;
          units.push({ kw: false, scope: false, parent: -1 });
        }
        if (lineKw) units[para]!.kw = true;
        leadIn = { unit: para, colon: endsWithColon(line) };
      }
    }
    if (lineKw || headingEx) example[i] = 1;
    prevBlank = false;
  }
  // A list item is an illustration when it, an item it is nested in, or its lead-in says so.
  const ex = new Uint8Array(units.length);
  units.forEach((u, k) => {
    ex[k] = u.kw || u.scope || (u.parent >= 0 && ex[u.parent] === 1) ? 1 : 0;
  });
  // Paragraphs are read line by line (set above; their lines have no unit); list items as a whole.
  for (let i = 0; i < n; i++) {
    const u = unitOf[i]!;
    if (u >= 0 && ex[u] === 1) example[i] = 1;
  }
  return example;
}

/** "Examples:", "**Example**:", "the analysis shows:" — emphasis and spaces after the colon allowed. */
function endsWithColon(line: string): boolean {
  let e = line.length;
  while (e > 0 && (line[e - 1] === '*' || line[e - 1] === '_' || line[e - 1] === ' ' || line[e - 1] === '\t')) e--;
  return line[e - 1] === ':';
}

function indentOf(s: string): number {
  let w = 0;
  for (const c of s) {
    if (c === ' ') w++;
    else if (c === '\t') w += 4 - (w % 4);
    else break;
  }
  return w;
}

/** The line with the contents of its code spans blanked, so links inside code are not read as links. */
function maskCodeSpans(line: string): string {
  if (!line.includes('`')) return line;
  const runs: [number, number][] = [];
  for (let i = 0; i < line.length; ) {
    if (line[i] === '\\' && line[i + 1] === '`') {
      i += 2;
      continue;
    }
    if (line[i] !== '`') {
      i++;
      continue;
    }
    let j = i;
    while (j < line.length && line[j] === '`') j++;
    runs.push([i, j - i]);
    i = j;
  }
  // Pair each run with the next run of the same length; pointers only move forward, so this is linear.
  const byLen = new Map<number, number[]>();
  runs.forEach(([, n], k) => {
    const l = byLen.get(n);
    if (l) l.push(k);
    else byLen.set(n, [k]);
  });
  const ptr = new Map<number, number>();
  const masks: [number, number][] = [];
  for (let k = 0; k < runs.length; ) {
    const [start, n] = runs[k]!;
    const list = byLen.get(n)!;
    let p = ptr.get(n) ?? 0;
    while (p < list.length && list[p]! <= k) p++;
    ptr.set(n, p);
    if (p === list.length) {
      k++;
      continue;
    }
    const close = list[p]!;
    masks.push([start + n, runs[close]![0]]);
    k = close + 1;
  }
  return maskRanges(line, masks);
}

function maskRanges(line: string, ranges: [number, number][]): string {
  if (ranges.length === 0) return line;
  let s = '';
  let at = 0;
  for (const [a, b] of ranges) {
    s += line.slice(at, a) + ' '.repeat(b - a);
    at = b;
  }
  return s + line.slice(at);
}

/** Inline links and images, nested ones included (`[![badge](a.png)](b.md)`), by one pass with a bracket stack. */
function scanLinks(s: string, lineNo: number, out: Ref[], masks: [number, number][], mounts: readonly string[]): void {
  if (!s.includes('](')) return;
  const stack: boolean[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') {
      i++;
    } else if (c === '[') {
      stack.push(i > 0 && s[i - 1] === '!');
    } else if (c === ']') {
      const image = stack.pop();
      if (image === undefined || s[i + 1] !== '(') continue;
      const d = destination(s, i + 2);
      if (!d) continue;
      const r = linkRef(s.slice(d.start, d.end), lineNo, d.start, image ? 'image' : 'link', mounts);
      if (r) out.push(r);
      masks.push([d.start, d.end]);
      i = d.next - 1;
    }
  }
}

/** Where a link destination starts and ends (after `](`), and where the link ends; undefined when it is none. */
function destination(s: string, from: number): { start: number; end: number; next: number } | undefined {
  let j = from;
  while (s[j] === ' ' || s[j] === '\t') j++;
  const start = j;
  let end: number;
  if (s[j] === '<') {
    let k = j + 1;
    const stop = Math.min(s.length, j + MAX_DEST);
    while (k < stop && s[k] !== '>' && s[k] !== '<') k++;
    if (s[k] !== '>') return undefined;
    end = k + 1;
  } else {
    let depth = 0;
    let k = j;
    // Brackets and < end the attempt, so a line of `![a](![a](…` is read once, not once per link.
    const stop = Math.min(s.length, j + MAX_DEST);
    for (; k < stop; k++) {
      const c = s[k];
      if (c === ' ' || c === '\t' || c === '[' || c === ']' || c === '<') break;
      if (c === '\\') k++;
      else if (c === '(') depth++;
      else if (c === ')') {
        if (depth === 0) break;
        depth--;
      }
    }
    end = Math.min(k, s.length);
    if (end === start) return undefined;
  }
  let k = end;
  while (s[k] === ' ' || s[k] === '\t') k++;
  if (s[k] === ')') return { start, end, next: k + 1 };
  // A title follows: `[x](path "title")`; its end is not looked for, so a long line costs one pass.
  if (k > end && (s[k] === '"' || s[k] === "'" || s[k] === '(')) return { start, end, next: k };
  return undefined;
}

function linkRef(raw: string, line: number, index: number, kind: 'link' | 'image', mounts: readonly string[]): Ref | undefined {
  let t = raw.startsWith('<') && raw.endsWith('>') ? raw.slice(1, -1) : raw;
  let cut = t.length;
  for (let i = 0; i < t.length; i++) {
    if (t[i] === '#' || t[i] === '?') {
      cut = i;
      break;
    }
  }
  t = t.slice(0, cut).trim();
  if (t === '') return undefined;
  if (!DRIVE.test(t) && (SCHEME.test(t) || t.startsWith('//'))) return undefined;
  t = decode(t);
  const p = placeholder(t, mounts);
  if (p.rest === '') return undefined;
  if (/[{}]|\$/.test(p.rest)) return undefined;
  return { raw, path: p.rest, line, column: index + 1, kind, ...(p.rooted ? { rooted: true } : {}) };
}

function decode(t: string): string {
  if (!t.includes('%')) return t;
  try {
    return decodeURIComponent(t);
  } catch {
    return t;
  }
}

/**
 * A path without its leading skill-root placeholder (`{baseDir}/`, `${CLAUDE_SKILL_DIR}/`, …), and whether it
 * had one. With `mounts` (the skill's folder name and name), `/mnt/skills/<anything>/<mount>/` and
 * `/mnt/skills/<mount>/` count as placeholders too: Claude.ai mounts skills there.
 */
export function placeholder(t: string, mounts: readonly string[] = []): { rest: string; rooted: boolean } {
  let i: number;
  const m = PLACEHOLDER.exec(t);
  if (m) i = m[0].length;
  else if (mounts.length > 0 && t.startsWith(MOUNT)) {
    const at = mountEnd(t, mounts);
    if (at < 0) return { rest: t, rooted: false };
    i = at;
  } else return { rest: t, rooted: false };
  while (t[i] === '/' || t[i] === '\\') i++;
  return { rest: t.slice(i), rooted: true };
}

/** Where the skill's own folder ends in `/mnt/skills/a/b/<mount>/…` (the first segment, of the first three, that is a mount), or -1. */
function mountEnd(t: string, mounts: readonly string[]): number {
  let start = MOUNT.length;
  for (let k = 0; k < 3 && start < t.length; k++) {
    let end = t.indexOf('/', start);
    if (end < 0) end = t.length;
    if (mounts.includes(t.slice(start, end))) return end;
    start = end + 1;
  }
  return -1;
}

/** The skill's folder name and its name: where hosts mount it. */
export function mountNames(skill: Skill): string[] {
  const folder = basename(skill.root);
  return skill.name && skill.name !== folder ? [folder, skill.name] : [folder];
}

/**
 * Bare paths on one line, added to `out`; true when there were any. `links` are the line's links, so a path that
 * is also a link target is kept once.
 */
function bare(line: string, lineNo: number, inFence: boolean, out: Ref[], links: Ref[], mounts: readonly string[]): boolean {
  // Most lines hold neither a path nor a file name: one quick look instead of reading every word.
  if (!/[/\\]/.test(line) && (inFence || !NAME_HINT.test(line))) return false;
  let found = false;
  const linked = new Set(links.map((l) => l.path));
  let linkedNames: Set<string> | undefined;
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(line); m; m = TOKEN.exec(line)) {
    let tok = m[0];
    const index = m.index;
    // A sentence's full stop is no part of the path.
    if (tok.endsWith('.') && !/(?:^|[/\\])\.\.?$/.test(tok)) {
      let e = tok.length;
      while (e > 0 && tok[e - 1] === '.') e--;
      tok = tok.slice(0, e);
    }
    const r = bareRef(tok, index > 0 ? line[index - 1]! : '', inFence, mounts);
    if (!r) continue;
    if (linked.has(r.path)) continue;
    if (r.name) {
      // `[FORMS.md](forms.md)`: the link's text names its own target.
      linkedNames ??= new Set(links.map((l) => baseName(l.path).toLowerCase()));
      if (linkedNames.has(r.path.toLowerCase())) continue;
    }
    out.push({
      raw: tok,
      path: r.path,
      line: lineNo,
      column: index + 1,
      kind: 'bare',
      ...(r.rooted ? { rooted: true } : {}),
      ...(r.name ? { name: true } : {}),
      ...(r.loose ? { loose: true } : {}),
    });
    found = true;
  }
  return found;
}

function baseName(p: string): string {
  return p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);
}

interface BareRef {
  path: string;
  rooted: boolean;
  name?: boolean;
  loose?: boolean;
}

function bareRef(tok: string, before: string, inFence: boolean, mounts: readonly string[]): BareRef | undefined {
  if (!tok.includes('/') && !tok.includes('\\')) {
    // A file name alone: in text and inline code, with an extension of a text or script file.
    if (inFence || before === ':' || !FILE_NAME.test(tok)) return undefined;
    const dot = tok.lastIndexOf('.');
    if (dot <= 0 || !NAME_EXTENSIONS.has(tok.slice(dot + 1).toLowerCase())) return undefined;
    return { path: tok, rooted: false, name: true };
  }
  const { rest, rooted } = placeholder(tok, mounts);
  const c = tok[0];
  // Absolute and home paths are the machine's; `@scope/pkg` is a package; after `:` it is a URL or scp address.
  if (!rooted && (c === '/' || c === '\\' || c === '~' || c === '@' || before === ':')) return undefined;
  if (rest === '' || /[{}$]/.test(rest)) return undefined;
  const dotted = /^\.{1,2}[/\\]/.test(rest);
  if (dotted) {
    if (!/[\p{L}\p{N}_]/u.test(rest)) return undefined;
  } else if (!rooted) {
    if (!/[/\\]/.test(rest) || !hasExtension(rest) || looksLikeHost(rest)) return undefined;
  }
  if (inFence) {
    let i = 0;
    while (rest.startsWith('./', i) || rest.startsWith('.\\', i)) i += 2;
    const top = rest.slice(i).split(/[/\\]/, 1)[0]!;
    // Other paths in code are mostly the user's files: they count only when the skill has them (`./find-polluter.sh`).
    if (!STANDARD_FOLDERS.has(top)) return { path: rest, rooted, loose: true };
  }
  return { path: rest, rooted };
}

function hasExtension(p: string): boolean {
  const seg = p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);
  const dot = seg.lastIndexOf('.');
  if (dot < 0) return false;
  const ext = seg.slice(dot + 1);
  return ext.length >= 1 && ext.length <= 10 && /^[A-Za-z0-9]+$/.test(ext) && /[A-Za-z]/.test(ext);
}

/** `example.com/docs/a.html` written without its scheme. */
function looksLikeHost(p: string): boolean {
  const first = p.split(/[/\\]/, 1)[0]!;
  const labels = first.split('.');
  if (labels.length < 2) return false;
  const tld = labels[labels.length - 1]!;
  return /^[A-Za-z]{2,24}$/.test(tld) && labels.every((l) => /^[A-Za-z0-9-]+$/.test(l));
}

// ---------------------------------------------------------------------------------------------------------
// References of a loaded skill, resolved against its entries.

export type Resolution =
  /** Inside the skill and present (`entry` is missing when it lies below a symlinked folder inside). */
  | { status: 'ok'; path: string; entry?: SkillEntry }
  /**
   * Inside the skill but absent; `plausible` when it points into a folder the skill has or a standard one;
   * `actual`, for a bare file name, the file whose name differs only in case (`forms.md` for `FORMS.md`).
   */
  | { status: 'missing'; path: string; plausible: boolean; actual?: string }
  | { status: 'outside'; path: string; why: 'absolute' | 'parent' | 'symlink'; via?: string };

/** A text that references are read from: a part of the instructions, or a Markdown file they reference. */
export interface RefDoc {
  /** Absolute path. */
  file: string;
  /** Path relative to the skill root. */
  rel: string;
  text: string;
  /** Line of `file` where `text` starts. */
  line: number;
  /** 0: the instructions; 1: a Markdown file the instructions reference. */
  level: 0 | 1;
}

export interface LocatedRef extends Ref {
  doc: RefDoc;
  target: Resolution;
}

export interface SkillRefs {
  docs: RefDoc[];
  refs: LocatedRef[];
}

const MARKDOWN = /\.(?:md|markdown|mdx)$/i;

/** True for a Markdown file name. */
export function isMarkdown(p: string): boolean {
  return MARKDOWN.test(p);
}

const entryMaps = new WeakMap<Skill, Map<string, SkillEntry>>();
const nameMaps = new WeakMap<Skill, Map<string, SkillEntry[]>>();
const refCache = new WeakMap<Skill, SkillRefs>();

/** The skill's entries by relative path. */
export function entryMap(skill: Skill): Map<string, SkillEntry> {
  let m = entryMaps.get(skill);
  if (!m) {
    m = new Map(skill.entries.map((e) => [e.path, e]));
    entryMaps.set(skill, m);
  }
  return m;
}

/** Whether an entry is a folder (a symlink to a folder inside the skill counts). */
export function isFolder(e: SkillEntry | undefined): boolean {
  return !!e && (e.kind === 'dir' || (e.kind === 'symlink' && e.inside === true && e.mode === 0o040000));
}

/** Path relative to the skill root of a file of the skill. */
export function relPath(skill: Skill, abs: string): string {
  return abs.slice(skill.root.length + 1).split('\\').join('/');
}

function norm(p: string): string {
  let n = posix.normalize(p);
  if (n === '.' || n === './') return '';
  if (n.startsWith('./')) n = n.slice(2);
  while (n.length > 1 && n.endsWith('/')) n = n.slice(0, -1);
  return n;
}

/**
 * Resolve a reference found in a file whose folder is `fromDir` (relative to the root, '' for the root).
 * Markdown resolves a link against its file's folder; agents mostly read paths from the skill root. Both are
 * tried, the file's folder first; a placeholder-rooted reference is tried against the root only.
 */
export function resolveReference(skill: Skill, ref: Pick<Ref, 'path' | 'rooted'> & { kind?: Ref['kind'] }, fromDir: string): Resolution {
  const p = ref.path.replace(/\\/g, '/');
  if (p.startsWith('/') || p.startsWith('~') || DRIVE.test(p)) return { status: 'outside', path: ref.path, why: 'absolute' };
  const map = entryMap(skill);
  const bases = ref.rooted || fromDir === '' ? [''] : [fromDir, ''];
  const inside: string[] = [];
  let escapes = false;
  let symlinkOut: string | undefined;
  for (const base of bases) {
    const n = norm(base === '' ? p : `${base}/${p}`);
    if (n === '..' || n.startsWith('../')) {
      if (inside.length === 0) escapes = true;
      continue;
    }
    inside.push(n);
    if (n === '') return { status: 'ok', path: '' };
    const e = map.get(n);
    if (e) {
      if (e.kind === 'symlink' && !e.inside) {
        symlinkOut ??= n;
        continue;
      }
      return { status: 'ok', path: n, entry: e };
    }
    // The walk does not enter symlinked folders: below one inside, the file cannot be checked cheaply.
    for (let k = n.indexOf('/'); k > 0; k = n.indexOf('/', k + 1)) {
      const via = map.get(n.slice(0, k));
      if (via?.kind === 'symlink') {
        if (via.inside) return { status: 'ok', path: n };
        symlinkOut ??= via.path;
        break;
      }
    }
  }
  if (symlinkOut) return { status: 'outside', path: ref.path, why: 'symlink', via: symlinkOut };
  if (escapes) return { status: 'outside', path: ref.path, why: 'parent' };
  const plausible =
    !!ref.rooted ||
    inside.some((n) => {
      const slash = n.lastIndexOf('/');
      if (slash < 0) return false;
      return isFolder(map.get(n.slice(0, slash))) || STANDARD_FOLDERS.has(n.slice(0, n.indexOf('/')));
    });
  // A missing link is looked for where Markdown would; a missing bare path where an agent would, from the root.
  const path = (ref.kind === 'bare' ? inside[inside.length - 1] : inside[0]) ?? norm(p);
  return { status: 'missing', path, plausible };
}

/** The skill's files by lower-cased file name, nearest the root first. */
function nameMap(skill: Skill): Map<string, SkillEntry[]> {
  let m = nameMaps.get(skill);
  if (!m) {
    m = new Map();
    const files = skill.entries
      .filter((e) => e.kind === 'file' || (e.kind === 'symlink' && e.inside === true && !isFolder(e)))
      .map((e) => ({ e, depth: e.path.split('/').length }));
    files.sort((a, b) => a.depth - b.depth || (a.e.path < b.e.path ? -1 : a.e.path > b.e.path ? 1 : 0));
    for (const { e } of files) {
      const key = posix.basename(e.path).toLowerCase();
      const l = m.get(key);
      if (l) l.push(e);
      else m.set(key, [e]);
    }
    nameMaps.set(skill, m);
  }
  return m;
}

/**
 * Resolve a bare file name (`FORMS.md`) found in a file whose folder is `fromDir`: the file of that name next to
 * it, at the root, or elsewhere (nearest the root first); a file whose name differs only in case is `missing`
 * with its `actual` path; undefined when the skill has no such file, so the name is no reference at all.
 */
export function resolveName(skill: Skill, name: string, fromDir: string): Resolution | undefined {
  const list = nameMap(skill).get(name.toLowerCase());
  if (!list) return undefined;
  const near = fromDir === '' ? name : `${fromDir}/${name}`;
  let exact: SkillEntry | undefined;
  for (const e of list) {
    if (posix.basename(e.path) !== name) continue;
    if (e.path === near) return { status: 'ok', path: e.path, entry: e };
    exact ??= e;
  }
  if (exact) return { status: 'ok', path: exact.path, entry: exact };
  // "SKILL.md" in general talk about skills names the skill file, whatever its case.
  const own = relPath(skill, skill.file);
  const e = list.find((x) => x.path === own) ?? list.find((x) => dirOf(x.path) === fromDir) ?? list[0]!;
  if (e.path === own) return { status: 'ok', path: e.path, entry: e };
  const dir = dirOf(e.path);
  return { status: 'missing', path: dir === '' ? name : `${dir}/${name}`, plausible: true, actual: e.path };
}

/** The file a reference leads to, a bare name in the wrong case included; undefined when it leads to none. */
export function foundPath(t: Resolution): string | undefined {
  if (t.status === 'ok') return t.path;
  if (t.status === 'missing') return t.actual;
  return undefined;
}

/**
 * Whether a reference is worth a finding: links always are; a bare path only when it resolves or when it
 * points into a folder of the skill (`output/report.md` in prose is the user's file, not the skill's), and not
 * when it is missing from an illustration (`e.g. references/finance.md` describes some other skill). A bare
 * name always is: it counts only when the skill has the file, in some case.
 */
export function isRelevant(r: LocatedRef): boolean {
  return r.kind !== 'bare' || r.target.status !== 'missing' || (r.target.plausible && (!r.example || !!r.name));
}

function dirOf(rel: string): string {
  const i = rel.lastIndexOf('/');
  return i < 0 ? '' : rel.slice(0, i);
}

/** References of one text of the skill, resolved; bare names and loose paths only when the skill has the file. */
export function referencesIn(skill: Skill, doc: RefDoc): LocatedRef[] {
  const from = dirOf(doc.rel);
  const out: LocatedRef[] = [];
  for (const r of findReferences(doc.text, doc.line, { mounts: mountNames(skill) })) {
    const target = r.name ? resolveName(skill, r.path, from) : resolveReference(skill, r, from);
    if (!target || (r.loose && target.status !== 'ok')) continue;
    out.push({ ...r, doc, target });
  }
  return out;
}

/**
 * The references of the instructions and of the Markdown files they reference (one level; a file named in the
 * wrong case, `FORMS.md` for forms.md, is read too), resolved; computed once per skill and shared by the rules
 * that need them.
 */
export function skillReferences(skill: Skill, readText: (rel: string) => string | undefined): SkillRefs {
  const cached = refCache.get(skill);
  if (cached) return cached;
  const docs: RefDoc[] = skill.instructionParts.map((p) => ({ file: p.file, rel: relPath(skill, p.file), text: p.text, line: p.line, level: 0 }));
  const refs: LocatedRef[] = [];
  for (const d of docs) refs.push(...referencesIn(skill, d));
  const seen = new Set(docs.map((d) => d.rel));
  const top = refs.length;
  for (let i = 0; i < top; i++) {
    const t = refs[i]!.target;
    const path = foundPath(t);
    if (path === undefined || !isMarkdown(path) || seen.has(path) || (t.status === 'ok' && isFolder(t.entry))) continue;
    seen.add(path);
    const text = readText(path);
    if (text === undefined) continue;
    const doc: RefDoc = { file: join(skill.root, path), rel: path, text, line: 1, level: 1 };
    docs.push(doc);
    refs.push(...referencesIn(skill, doc));
  }
  const result = { docs, refs };
  refCache.set(skill, result);
  return result;
}
