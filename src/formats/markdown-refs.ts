// File references in Markdown text: links, images, reference definitions, bare paths and file names, each with
// its line and column. Pure: text in, references out; resolving them against a skill's files is lint's.
import { FENCE_CLOSE, FENCE_OPEN, FENCED, kindAt, MarkdownText } from './markdown-blocks.js';
import { tokenEnd, tokenStart } from './path-words.js';
import { NONE, Places } from './reference-places.js';
import { maskCodeSpans, maskRanges } from './code-spans.js';
import { movedAway, writtenAt, type MovedMemo } from './shell-context.js';

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
  /**
   * It began with a skill-root placeholder (`{baseDir}/…`, `/mnt/skills/…/<skill>/`): relative to the root, whatever
   * file holds it.
   */
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
  /** A bare path in fenced code that a command writes: after `>`, `>>`, `-o` or `--output` (`cmd > out/plan.md`). */
  written?: boolean;
}

/** What findReferences needs to know of the skill: the names it is mounted under (`/mnt/skills/user/<name>/`). */
export interface FindOptions {
  mounts?: readonly string[];
}

/** Folders of the specification's layout; bare paths into them are checked even inside fenced code. */
export const STANDARD_FOLDERS = new Set(['scripts', 'references', 'assets']);

// Placeholders that agents' hosts replace with the skill's folder.
// `<path-to-skill>/` and its kin stand where the reader puts the skill's folder (122 times in 20 public collections).
const PLACEHOLDER =
  /^(?:\{\{?(?:baseDir|base_dir|skill_dir|skillDir)\}\}?|\$\{(?:CLAUDE_SKILL_DIR|SKILL_DIR)\}|\$(?:CLAUDE_SKILL_DIR|SKILL_DIR)|<(?:path[-_]to[-_](?:this[-_])?skill|skill[-_](?:path|root|dir|directory|folder))>)(?=[/\\]|$)/i;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
// A link to a slash command, as Claude Code's plugins name their skills and commands (`[uipath-functions](/uipath:
// uipath-functions)`, `(/superpowers:brainstorming)`): the agent runs it, and no file is meant.
const COMMAND_LINK = /^\/[A-Za-z0-9][\w.-]*:[A-Za-z0-9][\w.-]*$/;
/** A path on a Windows drive: `C:\` or `C:/`. */
export const DRIVE = /^[A-Za-z]:[/\\]/;
const REF_DEF = /^ {0,3}\[([^\]\n]+)\]:[ \t]*(\S+)/;
// What may follow a reference definition's destination on its line (CommonMark): nothing, or a title in quotes or
// brackets (one going on to the next line too). `[FATAL]: None of the following …` is a paragraph, not a definition.
const DEF_REST = /^(?:[ \t]*|[ \t]+(?:"[^"]*"|'[^']*'|\([^)]*\))[ \t]*|[ \t]+["'(][^"')]*)$/;
const MAX_DEST = 2048;
/** Extensions of the text and script files that a bare name (`see FORMS.md`) may refer to. */
const NAME_EXTENSIONS = new Set([
  'md',
  'markdown',
  'txt',
  'py',
  'sh',
  'bash',
  'js',
  'mjs',
  'cjs',
  'ts',
  'json',
  'yaml',
  'yml',
  'toml',
  'csv',
  'html',
  'xml',
  'sql',
  'rb',
  'pl',
  'ps1',
]);
const FILE_NAME = /^[\p{L}\p{N}_][\p{L}\p{N}_.+-]*$/u;
const MOUNT = '/mnt/skills/';
// A repository's skills folder, from the repository's top: `python3 skills/cloud/access-management/scripts/x.py`
// (elastic/agent-skills) runs the skill's own script from where the agent works in a clone of it.
const REPO_SKILLS = 'skills/';

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
export function findReferences(markdown: string | MarkdownText, firstLine: number, opts: FindOptions = {}): Ref[] {
  const md = typeof markdown === 'string' ? new MarkdownText(markdown) : markdown;
  const out = scanReferences(md, firstLine, opts);
  markExamples(md, out, firstLine);
  return out;
}

const NO_LINKS: Ref[] = [];

/** Whether a `cd`'s folder is the skill's own, by a placeholder (`"${CLAUDE_SKILL_DIR}"`, `{baseDir}`). */
const skillRoot = (word: string): boolean => placeholder(word).rooted;

/**
 * findReferences without the `example` marks, which cost a pass over the block structure: for callers that need
 * them only for some references (markExamples adds them).
 */
export function scanReferences(md: MarkdownText, firstLine: number, opts: FindOptions = {}): Ref[] {
  const out: Ref[] = [];
  const { text, blocks } = md;
  const mounts = opts.mounts ?? [];
  // One pass over the text: the places where a reference may stand are found by a few streams of indexOf and one
  // regex over the whole text; only the lines holding a place are looked at, found around the place, and of those
  // only the lines with a link (`](`, `]:`) are cut out as strings. On the others the words around the places are
  // read in the text itself. Whether a line is fenced code is read from the fenced blocks, and its number counted
  // from the last line's: no table of every line's start is made.
  const places = new Places(text);
  const cache: BareCache = [new Map(), new Map(), new Map(), new Map()];
  let sorted = true;
  let moved: MovedMemo | undefined;
  for (let at = places.any(0); at < NONE;) {
    const lineStart = text.lastIndexOf('\n', at) + 1;
    let lineEnd = text.indexOf('\n', at);
    if (lineEnd < 0) lineEnd = text.length;
    const k = kindAt(blocks, lineStart);
    if (k === FENCED) {
      const from = out.length;
      bare(places, lineStart, lineEnd, firstLine + md.lineOf(lineStart), true, out, NO_LINKS, mounts, cache);
      // After a `cd` in the same block (`git clone …/yarn && cd yarn`, then `python scripts/train.py`), a path is
      // relative to that folder, not to the skill: it counts only when the skill has the file.
      for (let r = from; r < out.length; r++) {
        const ref = out[r]!;
        if (
          !ref.loose &&
          !ref.rooted &&
          movedAway(text, blocks, lineStart + ref.column - 1, (moved ??= new Map()), skillRoot)
        )
          ref.loose = true;
      }
    } else if (k !== FENCE_OPEN && k !== FENCE_CLOSE) {
      const lineNo = firstLine + md.lineOf(lineStart);
      if (places.link(lineStart) < lineEnd) {
        let line = text.slice(lineStart, lineEnd);
        if (line.endsWith('\r')) line = line.slice(0, -1);
        linkLine(line, lineNo, out, mounts, cache);
        sorted = false;
      } else {
        bare(places, lineStart, lineEnd, lineNo, false, out, NO_LINKS, mounts, cache);
      }
    }
    at = places.any(lineEnd + 1);
  }
  return sorted ? out : out.sort((a, b) => a.line - b.line || a.column - b.column);
}

/** The references of a line that holds a link or a reference definition: its links, then its bare paths. */
function linkLine(line: string, lineNo: number, out: Ref[], mounts: readonly string[], cache: BareCache): void {
  const links: Ref[] = [];
  const masks: [number, number][] = [];
  const def = line.includes(']:') ? REF_DEF.exec(line) : null;
  const start = def ? def[0].length - def[2]!.length : 0;
  const close = def?.[2]!.startsWith('<') ? line.indexOf('>', start) : -1;
  const rawTarget = def ? (close > 0 ? line.slice(start, close + 1) : def[2]!) : '';
  if (def && !def[1]!.startsWith('^') && DEF_REST.test(line.slice(start + rawTarget.length))) {
    const r = linkRef(rawTarget, lineNo, start, 'link', mounts);
    if (r) links.push(r);
    masks.push([start, start + rawTarget.length]);
  } else {
    // Code spans are blanked only for the link scan, which reads nothing in a line without `](`.
    if (line.includes('](')) scanLinks(maskCodeSpans(line), lineNo, links, masks, mounts);
  }
  const masked = maskRanges(line, masks);
  bare(new Places(masked), 0, masked.length, lineNo, false, out, links, mounts, cache);
  for (const l of links) out.push(l);
}

/**
 * Mark the bare paths among `refs` (found by scanReferences in `md`, whose first line is `firstLine`) that stand in
 * an illustration; the block structure is read only when there are bare paths.
 */
export function markExamples<R extends Ref>(md: MarkdownText, refs: R[], firstLine: number): void {
  if (!refs.some((r) => r.kind === 'bare')) return;
  const example = md.examples;
  for (const r of refs) if (r.kind === 'bare' && example[r.line - firstLine] === 1) r.example = true;
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

function linkRef(
  raw: string,
  line: number,
  index: number,
  kind: 'link' | 'image',
  mounts: readonly string[],
): Ref | undefined {
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
  if (COMMAND_LINK.test(t)) return undefined;
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
 * `/mnt/skills/<mount>/` count as placeholders too: Claude.ai mounts skills there; so does `skills/<mount>/` or
 * `skills/<anything>/<mount>/` with more after it, the skill's folder from the top of its repository.
 */
export function placeholder(t: string, mounts: readonly string[] = []): { rest: string; rooted: boolean } {
  let i: number;
  const m = PLACEHOLDER.exec(t);
  if (m) i = m[0].length;
  else if (mounts.length > 0 && (t.startsWith(MOUNT) || t.startsWith(REPO_SKILLS))) {
    const at = mountEnd(t, mounts, t.startsWith(MOUNT) ? MOUNT.length : REPO_SKILLS.length);
    if (at < 0) return { rest: t, rooted: false };
    i = at;
  } else return { rest: t, rooted: false };
  while (t[i] === '/' || t[i] === '\\') i++;
  return { rest: t.slice(i), rooted: true };
}

/**
 * Where the skill's own folder ends in `/mnt/skills/a/b/<mount>/…` or `skills/a/<mount>/…` (the first segment after
 * `from`, of the first three, that is a mount and has more of the path after it), or -1.
 */
function mountEnd(t: string, mounts: readonly string[], from: number): number {
  let start = from;
  for (let k = 0; k < 3 && start < t.length; k++) {
    let end = t.indexOf('/', start);
    if (end < 0) end = t.length;
    if (mounts.includes(t.slice(start, end)) && (from === MOUNT.length || end < t.length - 1)) return end;
    start = end + 1;
  }
  return -1;
}

/**
 * Bare paths on the line from `lineStart` to `lineEnd` of the text `places` reads, added to `out`. `links` are the
 * line's links, so a path that is also a link target is kept once.
 */
function bare(
  places: Places,
  lineStart: number,
  lineEnd: number,
  lineNo: number,
  inFence: boolean,
  out: Ref[],
  links: Ref[],
  mounts: readonly string[],
  cache: BareCache,
): void {
  const s = places.text;
  let linked: Set<string> | undefined;
  let linkedNames: Set<string> | undefined;
  // Only a word holding a slash, or (outside fenced code) a known extension, can be a reference (see bareRef): the
  // words of the line are looked up around those places, in order, rather than read one by one.
  // One call of places.path, not one before the loop and one in it: each call site is compiled on its own.
  for (let from = lineStart; ;) {
    const place = places.path(from, !inFence);
    if (place >= lineEnd) break;
    let index = tokenStart(s, place);
    const end = tokenEnd(s, place);
    from = end;
    // `<path-to-skill>/scripts/x.py`: the brackets end a word, so the placeholder is put back before the path.
    if (s.charCodeAt(index) === 47 && s.charCodeAt(index - 1) === 62) index = angleStart(s, index, lineStart);
    // Half the words found are URLs and the machine's paths (`//github.com/…`, `/tmp/x`, `~/x`, `@scope/pkg`), which
    // bareRef turns down by their first character: turned down here, before a string is cut and looked up.
    if (machinePath(s, index, mounts)) continue;
    let tok = s.slice(index, end);
    // A sentence's full stop is no part of the path.
    if (tok.endsWith('.') && !/(?:^|[/\\])\.\.?$/.test(tok)) {
      let e = tok.length;
      while (e > 0 && tok[e - 1] === '.') e--;
      tok = tok.slice(0, e);
    }
    // bareRef's answer depends on the word, on whether it is in fenced code and follows a colon, and (under
    // /mnt/skills/ and skills/ alone) on the mounts: a word is judged once a scan, or (no mount in it) once for all
    // scans.
    const colon = index > lineStart && s.charCodeAt(index - 1) === 58;
    const slot = inFence ? (colon ? 3 : 2) : colon ? 1 : 0;
    const known = tok.startsWith(MOUNT) || tok.startsWith(REPO_SKILLS) ? cache[slot]! : SHARED[slot]!;
    let r = known.get(tok);
    if (r === undefined) known.set(tok, (r = bareRef(tok, colon ? ':' : '', inFence, mounts) ?? null));
    if (known.size > SHARED_MAX) known.clear();
    if (!r) continue;
    if (links.length > 0) {
      linked ??= new Set(links.map((l) => l.path));
      if (linked.has(r.path)) continue;
      if (r.name) {
        // `[FORMS.md](forms.md)`: the link's text names its own target.
        linkedNames ??= new Set(links.map((l) => baseName(l.path).toLowerCase()));
        if (linkedNames.has(r.path.toLowerCase())) continue;
      }
    }
    const ref: Ref = { raw: tok, path: r.path, line: lineNo, column: index - lineStart + 1, kind: 'bare' };
    if (r.rooted) ref.rooted = true;
    if (r.name) ref.name = true;
    if (r.loose) ref.loose = true;
    if (inFence && writtenAt(s, index, lineStart)) ref.written = true;
    out.push(ref);
  }
}

// The placeholders written in angle brackets (PLACEHOLDER's last part), as they end right before a path's `/`.
const ANGLE_PLACEHOLDER = /<(?:path[-_]to[-_](?:this[-_])?skill|skill[-_](?:path|root|dir|directory|folder))>$/i;

/** Where `<path-to-skill>` (or its kin) starts when it ends right before `index`; else `index`. */
function angleStart(s: string, index: number, lineStart: number): number {
  const from = Math.max(lineStart, index - 24);
  const m = ANGLE_PLACEHOLDER.exec(s.slice(from, index));
  return m ? from + m.index : index;
}

/**
 * Whether the word at `index` of `s` starts as bareRef never takes a word to start (it says undefined whatever
 * follows): with `\`, `~` or `@`, or with `/` outside a mount (`/mnt/skills/…`, read only with `mounts`). Trailing
 * full stops cut off the word leave its first character as it is.
 */
export function machinePath(s: string, index: number, mounts: readonly string[]): boolean {
  const c = s.charCodeAt(index);
  if (c === 47) return mounts.length === 0 || !s.startsWith(MOUNT, index);
  return c === 92 || c === 126 || c === 64;
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

/** bareRef's answers in one scan by word (null: none): a map each for prose, after a colon, fenced, fenced after. */
type BareCache = Map<string, BareRef | null>[];

// bareRef's answers for words outside /mnt/skills/, kept from scan to scan; emptied at SHARED_MAX words a map.
const SHARED: BareCache = [new Map(), new Map(), new Map(), new Map()];
const SHARED_MAX = 20_000;

function bareRef(tok: string, before: string, inFence: boolean, mounts: readonly string[]): BareRef | undefined {
  if (!tok.includes('/') && !tok.includes('\\')) {
    // A file name alone: in text and inline code, with an extension of a text or script file.
    if (inFence || before === ':') return undefined;
    // The extension first: most words have none, and FILE_NAME is the dearer test.
    const dot = tok.lastIndexOf('.');
    if (dot <= 0 || !NAME_EXTENSIONS.has(tok.slice(dot + 1).toLowerCase()) || !FILE_NAME.test(tok)) return undefined;
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
