import { join, posix } from 'node:path';
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
  /** It began with a skill-root placeholder (`{baseDir}/…`): relative to the root, whatever file holds it. */
  rooted?: boolean;
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

/**
 * Every file reference in Markdown text whose first line is line `firstLine` of its file: links and images
 * (URLs, mail addresses and pure #anchors skipped), reference-style definitions, and bare relative paths in
 * text and inline code (`scripts/extract.py`, `./assets/logo.png`). In fenced code only bare paths into
 * scripts/, references/ or assets/ count: agents run `python scripts/x.py` from code blocks, while other paths
 * there are mostly examples of the user's files. Bare absolute paths (`/tmp/out.json`, `~/x`) are the
 * machine's, not the skill's, and are left out; absolute link targets are kept.
 */
export function findReferences(markdown: string, firstLine: number): Ref[] {
  const out: Ref[] = [];
  const lines = markdown.split('\n');
  let fence: { char: string; len: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    const lineNo = firstLine + i;
    const f = FENCE.exec(line);
    if (fence) {
      if (f && f[1]![0] === fence.char && f[1]!.length >= fence.len && line.slice(f[0].length).trim() === '') fence = undefined;
      else bare(line, lineNo, true, out, []);
      continue;
    }
    if (f && !(f[1]![0] === '`' && line.slice(f[0].length).includes('`'))) {
      fence = { char: f[1]![0]!, len: f[1]!.length };
      continue;
    }
    const links: Ref[] = [];
    const masks: [number, number][] = [];
    const def = REF_DEF.exec(line);
    if (def && !def[1]!.startsWith('^')) {
      const start = def[0].length - def[2]!.length;
      const close = def[2]!.startsWith('<') ? line.indexOf('>', start) : -1;
      const rawTarget = close > 0 ? line.slice(start, close + 1) : def[2]!;
      const r = linkRef(rawTarget, lineNo, start, 'link');
      if (r) links.push(r);
      masks.push([start, start + rawTarget.length]);
    } else {
      scanLinks(maskCodeSpans(line), lineNo, links, masks);
    }
    bare(maskRanges(line, masks), lineNo, false, out, links);
    for (const l of links) out.push(l);
  }
  return out.sort((a, b) => a.line - b.line || a.column - b.column);
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
function scanLinks(s: string, lineNo: number, out: Ref[], masks: [number, number][]): void {
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
      const r = linkRef(s.slice(d.start, d.end), lineNo, d.start, image ? 'image' : 'link');
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

function linkRef(raw: string, line: number, index: number, kind: 'link' | 'image'): Ref | undefined {
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
  const p = placeholder(t);
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

/** A path without its leading skill-root placeholder (`{baseDir}/`, `${CLAUDE_SKILL_DIR}/`, …), and whether it had one. */
export function placeholder(t: string): { rest: string; rooted: boolean } {
  const m = PLACEHOLDER.exec(t);
  if (!m) return { rest: t, rooted: false };
  let i = m[0].length;
  while (t[i] === '/' || t[i] === '\\') i++;
  return { rest: t.slice(i), rooted: true };
}

/** Bare paths on one line; `links` are the line's links, so a path that is also a link target is kept once. */
function bare(line: string, lineNo: number, inFence: boolean, out: Ref[], links: Ref[]): void {
  if (!/[/\\]/.test(line)) return;
  const linked = new Set(links.map((l) => l.path));
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
    const r = bareRef(tok, index > 0 ? line[index - 1]! : '', inFence);
    if (!r) continue;
    if (linked.has(r.path)) continue;
    out.push({ raw: tok, path: r.path, line: lineNo, column: index + 1, kind: 'bare', ...(r.rooted ? { rooted: true } : {}) });
  }
}

function bareRef(tok: string, before: string, inFence: boolean): { path: string; rooted: boolean } | undefined {
  if (!tok.includes('/') && !tok.includes('\\')) return undefined;
  const c = tok[0];
  // Absolute and home paths are the machine's; `@scope/pkg` is a package; after `:` it is a URL or scp address.
  if (c === '/' || c === '\\' || c === '~' || c === '@' || before === ':') return undefined;
  const { rest, rooted } = placeholder(tok);
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
    if (!STANDARD_FOLDERS.has(top)) return undefined;
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
  /** Inside the skill but absent; `plausible` when it points into a folder the skill has or a standard one. */
  | { status: 'missing'; path: string; plausible: boolean }
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

/**
 * Whether a reference is worth a finding: links always are; a bare path only when it resolves or when it
 * points into a folder of the skill (`output/report.md` in prose is the user's file, not the skill's).
 */
export function isRelevant(r: LocatedRef): boolean {
  return r.kind !== 'bare' || r.target.status !== 'missing' || r.target.plausible;
}

function dirOf(rel: string): string {
  const i = rel.lastIndexOf('/');
  return i < 0 ? '' : rel.slice(0, i);
}

/** References of one text of the skill, resolved. */
export function referencesIn(skill: Skill, doc: RefDoc): LocatedRef[] {
  const from = dirOf(doc.rel);
  return findReferences(doc.text, doc.line).map((r) => ({ ...r, doc, target: resolveReference(skill, r, from) }));
}

/**
 * The references of the instructions and of the Markdown files they reference (one level), resolved; computed
 * once per skill and shared by the rules that need them.
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
    if (t.status !== 'ok' || !isMarkdown(t.path) || seen.has(t.path) || isFolder(t.entry)) continue;
    seen.add(t.path);
    const text = readText(t.path);
    if (text === undefined) continue;
    const doc: RefDoc = { file: join(skill.root, t.path), rel: t.path, text, line: 1, level: 1 };
    docs.push(doc);
    refs.push(...referencesIn(skill, doc));
  }
  const result = { docs, refs };
  refCache.set(skill, result);
  return result;
}
