// References of a loaded skill, resolved against its entries: present, missing (and whether plausibly the
// skill's), or leading outside it. Computed once per skill and shared by the rules that need them.
import { basename, join, posix } from 'node:path';
import { MarkdownText } from '../formats/markdown-blocks.js';
import { DRIVE, markExamples, scanReferences, STANDARD_FOLDERS, type Ref } from '../formats/markdown-refs.js';
import type { Skill, SkillEntry } from '../model/skill.js';
import { isTemplateSkillMd } from '../skill/skill-file.js';

export type Resolution =
  /** Inside the skill and present (`entry` is missing when it lies below a symlinked folder inside). */
  | { status: 'ok'; path: string; entry?: SkillEntry }
  /**
   * Inside the skill but absent; `plausible` when it points into a folder the skill has or a standard one;
   * `actual`, for a bare file name, the file whose name differs only in case (`forms.md` for `FORMS.md`);
   * `standardOnly` when it is plausible only for naming a standard folder (scripts/) that the skill lacks.
   */
  | { status: 'missing'; path: string; plausible: boolean; actual?: string; standardOnly?: boolean }
  | { status: 'outside'; path: string; why: 'absolute' | 'parent' | 'symlink'; via?: string };

/** A text that references are read from: a part of the instructions, or a Markdown file they reference. */
export interface RefDoc {
  /** Absolute path. */
  file: string;
  /** Path relative to the skill root. */
  rel: string;
  text: string;
  /** `text` split and scanned once, for every rule that reads it. */
  md: MarkdownText;
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

/** The skill's folder name and its name: where hosts mount it. */
export function mountNames(skill: Skill): string[] {
  const folder = basename(skill.root);
  return skill.name && skill.name !== folder ? [folder, skill.name] : [folder];
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
  return abs
    .slice(skill.root.length + 1)
    .split('\\')
    .join('/');
}

// What posix.normalize would change in a path: an empty segment (`a//b`), a `.` or `..` segment, a slash at the end.
const NOT_NORMAL = /\/\/|(?:^|\/)\.{1,2}(?:\/|$)|\/$/;

function norm(p: string): string {
  // Most paths are normal already (`scripts/run.sh`): posix.normalize, a walk over the path by characters, is for the
  // others.
  if (p !== '' && !NOT_NORMAL.test(p)) return p;
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
export function resolveReference(
  skill: Skill,
  ref: Pick<Ref, 'path' | 'rooted'> & { kind?: Ref['kind'] },
  fromDir: string,
): Resolution {
  const p = ref.path.replace(/\\/g, '/');
  if (p.startsWith('/') || p.startsWith('~') || DRIVE.test(p))
    return { status: 'outside', path: ref.path, why: 'absolute' };
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
  // Judged on the path as written: `src/app.py` in references/guide.md names the user's src/, not references/src/,
  // and `./gradlew` names no folder at all.
  const written = norm(p);
  const slash = written.indexOf('/');
  const intoFolder =
    slash > 0 &&
    inside.some((n) => {
      const last = n.lastIndexOf('/');
      return last > 0 && isFolder(map.get(n.slice(0, last)));
    });
  const intoStandard = !intoFolder && slash > 0 && STANDARD_FOLDERS.has(written.slice(0, slash));
  // A missing link is looked for where Markdown would; a missing bare path where an agent would, from the root.
  const path = (ref.kind === 'bare' ? inside[inside.length - 1] : inside[0]) ?? norm(p);
  return {
    status: 'missing',
    path,
    plausible: !!ref.rooted || intoFolder || intoStandard,
    ...(intoStandard && !ref.rooted ? { standardOnly: true } : {}),
  };
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

// Files named in capitals without an extension by custom: a link to a missing one is a missing file.
const CAPITAL_FILES = new Set([
  'LICENSE',
  'LICENCE',
  'COPYING',
  'NOTICE',
  'README',
  'CHANGELOG',
  'AUTHORS',
  'CONTRIBUTING',
]);

/**
 * A link target in capitals with no dot or slash (`[Open ↗](LINK)`, `(URL)`, `(PATH)`): a template's stand-in for
 * a link, not a file, when the skill lacks it (LICENSE, README and the like excepted).
 */
function isPlaceholderTarget(path: string): boolean {
  return /^[A-Z][A-Z0-9_]*$/.test(path) && !CAPITAL_FILES.has(path);
}

/**
 * Whether a reference is worth a finding: links always are, but for a missing stand-in (isPlaceholderTarget); a
 * bare path only when it resolves or when it points into a folder of the skill (`output/report.md` in prose is
 * the user's file, not the skill's), and not when it is missing from an illustration (`e.g.
 * references/finance.md` describes some other skill). Into a standard folder the skill lacks, only from the
 * instructions themselves: a reference file that quotes `python scripts/fill_form.py` without a scripts/ folder
 * is describing some other skill. A bare name always is: it counts only when the skill has the file, in some case.
 */
export function isRelevant(r: LocatedRef): boolean {
  const t = r.target;
  if (t.status !== 'missing') return true;
  if (otherSkillsFile(r)) return false;
  if (r.kind !== 'bare') return !isPlaceholderTarget(r.path);
  return t.plausible && (!r.example || !!r.name) && !(t.standardOnly && r.doc.level > 0);
}

// "the `azure-deploy` skill's `references/x.md`", "the **azure-prepare** skill's …": the word before "skill's" names
// another skill (not "this", "the" or "its": those speak of this one, or of one being written).
const NAMED_SKILLS = /([\p{L}\p{N}_*`-]+)\s+skill['\u2019]s\s*[`*_"']*$/u;
const NOT_ANOTHER = new Set(['this', 'the', 'our', 'its', 'own', 'same', 'current', 'your', 'a', 'each', 'every']);

/** Whether a reference is said to be another skill's file ("see the `azure-deploy` skill's …"). */
function otherSkillsFile(r: LocatedRef): boolean {
  const line = r.doc.md.line(r.line - r.doc.line);
  if (line === undefined || r.column < 8) return false;
  const m = NAMED_SKILLS.exec(line.slice(Math.max(0, r.column - 81), r.column - 1));
  return m !== null && !NOT_ANOTHER.has(m[1]!.replace(/[*`_]/g, '').toLowerCase());
}

// A path-traversal payload, as security skills quote what an endpoint must reject (`../../../../etc/passwd`,
// `..\..\..\.env` in a table of attacks): a bare path (never a link's target: a link is followed) that climbs two
// folders or more to a system file or a secret, or three or more on a line about traversal (one or two climb to a
// plugin's shared folder: `python ..\..\tools\lfi.py` for LFI checks is a script to run). It names no file of the
// skill, nor one to copy into it (SK109), nor a path to write with / (SK110).
const CLIMB = /^(?:\.\.[\\/]+){2,}/;
const CLIMBS_FAR = /^(?:\.\.[\\/]+){3,}/;
const SYSTEM_TARGET =
  /^(?:etc[\\/](?:passwd|shadow|group|hosts|sudoers)$|windows[\\/](?:win\.ini$|system32(?:[\\/]|$))|boot\.ini$|proc[\\/]self[\\/]|(?:root[\\/])?\.ssh[\\/]|\.env$|\.aws[\\/]credentials$)/i;
const TRAVERSAL_TALK = /travers|\bCWE-22\b|\bpayloads?\b|\bLFI\b/i;

/** Whether a `../` reference is a path-traversal payload quoted as such, not a file the skill refers to. */
function traversalPayload(r: Ref, doc: RefDoc): boolean {
  const climb = r.kind === 'bare' ? CLIMB.exec(r.path) : null;
  if (!climb) return false;
  if (SYSTEM_TARGET.test(r.path.slice(climb[0].length))) return true;
  if (!CLIMBS_FAR.test(r.path)) return false;
  const line = doc.md.line(r.line - doc.line);
  return line !== undefined && TRAVERSAL_TALK.test(line);
}

function dirOf(rel: string): string {
  const i = rel.lastIndexOf('/');
  return i < 0 ? '' : rel.slice(0, i);
}

/** A text of the skill to read references from. */
export function refDoc(file: string, rel: string, text: string, line: number, level: RefDoc['level']): RefDoc {
  return { file, rel, text, md: new MarkdownText(text), line, level };
}

/** References of one text of the skill, resolved; bare names and loose paths only when the skill has the file. */
export function referencesIn(skill: Skill, doc: RefDoc): LocatedRef[] {
  const from = dirOf(doc.rel);
  const out: LocatedRef[] = [];
  // Whether a bare path stands in an illustration matters only for a missing one that points into the skill and is
  // no file name alone (isRelevant): the block structure is read only when the text has one.
  let exampleMatters = false;
  // A path written again in the same text resolves the same way: by its words, whether rooted, bare or a name.
  const resolved = new Map<string, Resolution | null>();
  for (const r of scanReferences(doc.md, doc.line, { mounts: mountNames(skill) })) {
    const key = `${r.name ? 'n' : r.rooted ? 'r' : '-'}${r.kind === 'bare' ? 'b' : '-'}${r.path}`;
    let target = resolved.get(key);
    if (target === undefined) {
      target = (r.name ? resolveName(skill, r.path, from) : resolveReference(skill, r, from)) ?? null;
      resolved.set(key, target);
    }
    if (!target || (r.loose && target.status !== 'ok')) continue;
    if (target.status === 'outside' && target.why === 'parent' && traversalPayload(r, doc)) continue;
    // The scan's references are this call's own: each becomes a LocatedRef in place rather than by a copy.
    const located = r as LocatedRef;
    located.doc = doc;
    located.target = target;
    out.push(located);
    if (
      r.kind === 'bare' &&
      target.status === 'missing' &&
      target.plausible &&
      !r.name &&
      !(target.standardOnly && doc.level > 0)
    )
      exampleMatters = true;
  }
  if (exampleMatters) markExamples(doc.md, out, doc.line);
  return out;
}

const instructionCache = new WeakMap<Skill, RefDoc[]>();

/** The parts of the skill's instructions as texts to read (level 0), made once per skill for every rule. */
export function instructionDocs(skill: Skill): readonly RefDoc[] {
  let docs = instructionCache.get(skill);
  if (!docs) {
    docs = skill.instructionParts.map((p) => refDoc(p.file, relPath(skill, p.file), p.text, p.line, 0));
    instructionCache.set(skill, docs);
  }
  return docs;
}

/**
 * The references of the instructions and of the Markdown files they reference (one level; a file named in the
 * wrong case, `FORMS.md` for forms.md, is read too; a template of a skill is not), resolved; computed once per skill
 * and shared by the rules that need them.
 */
export function skillReferences(skill: Skill, readText: (rel: string) => string | undefined): SkillRefs {
  const cached = refCache.get(skill);
  if (cached) return cached;
  const docs: RefDoc[] = [...instructionDocs(skill)];
  const refs: LocatedRef[] = [];
  for (const d of docs) refs.push(...referencesIn(skill, d));
  const seen = new Set(docs.map((d) => d.rel));
  const top = refs.length;
  for (let i = 0; i < top; i++) {
    const t = refs[i]!.target;
    const path = foundPath(t);
    if (path === undefined || !isMarkdown(path) || seen.has(path) || (t.status === 'ok' && isFolder(t.entry))) continue;
    // A template of a skill (a skill-creator's assets/template/SKILL.md) is content: its links are the new skill's.
    if (isTemplateSkillMd(path)) continue;
    seen.add(path);
    const text = readText(path);
    if (text === undefined) continue;
    const doc = refDoc(join(skill.root, path), path, text, 1, 1);
    docs.push(doc);
    refs.push(...referencesIn(skill, doc));
  }
  // A file a command of the skill writes (`node scripts/x.mjs plan > scripts/plan.md`) is made as the skill is used:
  // missing before that, it is no missing file, there or wherever the skill names it.
  const written = new Set(refs.filter((r) => r.written && r.target.status === 'missing').map((r) => r.target.path));
  const kept =
    written.size === 0 ? refs : refs.filter((r) => r.target.status !== 'missing' || !written.has(r.target.path));
  const result = { docs, refs: kept };
  refCache.set(skill, result);
  return result;
}
