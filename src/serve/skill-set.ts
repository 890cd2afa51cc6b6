// The skills served, as SEP-2640 entries: each skill's frontmatter as JSON and every file with its sha256 digest.
// The catalog and each skill's entry are read once and kept until the watcher says their folder changed.
import { createHash } from 'node:crypto';
import yaml from 'js-yaml';
import { loadYaml } from '../formats/yaml-load.js';
import { closeSync, realpathSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { isSkillsError, SkillsError } from '../errors.js';
import type { Layout, Skill, SkillEntry } from '../model/skill.js';
import { readManifestData } from '../formats/manifest.js';
import { parseSkillMd } from '../formats/skill-md.js';
import { lenientCandidates } from '../formats/yaml-repair.js';
import { normalizeText } from '../formats/text.js';
import { readBounded, readOpenFile } from '../fs/read.js';
import { openRegularFile, walkSkill } from '../fs/walk.js';
import { skipped } from '../registry/integrity.js';
import { loadSkill } from '../skill/load.js';
import { closest } from '../skill/names.js';
import { MAX_SKILL_FILE_BYTES, skillFileIn } from '../skill/skill-file.js';
import type { SkillSource, SourceSkill, SourceSkills } from './source.js';
import { skillUri, unservableName } from './uri.js';

/** One file of a served skill. */
export interface ServedFile {
  /** Path in the skill, forward slashes. */
  path: string;
  /** Where it is on disk; undefined for the SKILL.md made for a manifest skill. */
  abs?: string;
  /** The bytes of a made SKILL.md. */
  made?: Buffer;
  /** `sha256:<hex>` of its bytes. */
  digest: string;
  size: number;
}

/** A skill as the extension serves it. */
export interface ServedSkill {
  name: string;
  /** skill://<name>/SKILL.md */
  uri: string;
  source: SourceSkill;
  /**
   * The real path of the skill's folder when it was walked: every later read of its files must lie inside it, and
   * its folder must still lead there (checkRoot), whatever the folder has been swapped for since.
   */
  realRoot: string;
  layout: Layout;
  /**
   * Its SKILL.md frontmatter is not YAML as written, and was read as the catalog reads it (this says how): loadable
   * through the tools, but left out of the extension's listings, where a host checks the frontmatter it parses.
   */
  repaired?: string;
  /** The skill loaded in full (for its scripts), read on first use. */
  load(): Skill;
  /** The SKILL.md frontmatter as JSON (for a manifest skill, the frontmatter of the SKILL.md made for it). */
  frontmatter: Record<string, unknown>;
  /** The instructions an agent loads: the SKILL.md body, or a manifest's context files. */
  instructions: string;
  /** SKILL.md first, then the other files by path. */
  files: ServedFile[];
  byPath: Map<string, ServedFile>;
  /** Every folder of the skill ('' its root), by path. */
  dirs: Set<string>;
}

export const SKILL_MD = 'SKILL.md';

interface NotServed {
  why: string;
  hint: string;
}

/** Why a skill's entry cannot be read (a SkillsError's message), or undefined when it reads. */
function unreadable(set: SkillSet, s: SourceSkill): string | undefined {
  try {
    set.entry(s);
    return undefined;
  } catch (err) {
    if (isSkillsError(err)) return err.message;
    throw err;
  }
}

export class SkillSet {
  private now?: SourceSkills;
  private byName?: Map<string, SourceSkill>;
  /** Skills not served at all (a name no skill:// URI can carry, an entry that cannot be read), and why. */
  private unservable?: Map<string, NotServed>;
  private readonly entries = new Map<string, ServedSkill>();
  private readonly said = new Set<string>();

  /** `warn` is told each warning of the skills read (a skill skipped, and why) once a run: again if it changes. */
  constructor(
    readonly source: SkillSource,
    private readonly warn: (line: string) => void = () => {},
  ) {}

  /**
   * The skills served now (read once, kept until a change). A skill whose name cannot be a URI segment is left out
   * of everything, with a warning: listed, its URI would be refused when read, and its name must not become a path.
   */
  current(): SourceSkills {
    if (!this.now) {
      const all = this.source.skills();
      const warnings = [...all.warnings];
      const unservable = new Map<string, NotServed>();
      const skip = (s: SourceSkill, why: string) => warnings.push(`${s.root}: skipped: ${why}; not served`);
      // One name is one skill:// URI: of two skills of one name the source gives (the catalog keeps the first of
      // two plugins' already: prompt/catalog.ts), the first is served, and the other said. A skill whose entry
      // cannot be read (its SKILL.md too large or a FIFO, its frontmatter unreadable) is not served either: listed,
      // every read of it would fail, and the count said would not be the list's. Entries read here are kept, so the
      // first skills/list does not read them again.
      const served = new Map<string, string>();
      const keep = (s: SourceSkill) => {
        const bad = unservableName(s.name);
        const first = served.get(s.name);
        if (bad !== undefined) {
          const why = `its name cannot be a skill:// URI segment (${bad})`;
          unservable.set(s.name, { why, hint: 'rename it in its SKILL.md (skills validate suggests a name)' });
          skip(s, `the name ${JSON.stringify(s.name)} cannot be a skill:// URI segment (${bad})`);
        } else if (first !== undefined)
          skip(s, `skill://${s.name} is served from ${first}, a skill of its name in another plugin`);
        else {
          const unread = unreadable(this, s);
          if (unread === undefined) {
            served.set(s.name, s.root);
            return true;
          }
          if (!unservable.has(s.name))
            unservable.set(s.name, { why: unread, hint: `skills validate ${s.root} says what to fix` });
          skip(s, unread);
        }
        return false;
      };
      this.now = { ...all, listed: all.listed.filter(keep), hidden: all.hidden.filter(keep), warnings };
      this.unservable = unservable;
      this.byName = new Map([...this.now.listed, ...this.now.hidden].map((s) => [s.name, s]));
      for (const w of warnings) if (this.firstTime(`warning: ${w}`)) this.warn(`warning: ${w}`);
    }
    return this.now;
  }

  /** True the first time `line` is asked about: a warning is said once a run, however many sessions meet it. */
  firstTime(line: string): boolean {
    if (this.said.has(line)) return false;
    this.said.add(line);
    return true;
  }

  /** The skill of a name, listed or hidden; E_NOT_FOUND (saying whether it is disabled, or what is near) if none. */
  named(name: string): SourceSkill {
    const now = this.current();
    const hit = this.byName!.get(name) ?? this.byName!.get(name.normalize('NFKC'));
    if (hit) return hit;
    if (now.disabled.includes(name))
      throw new SkillsError('E_NOT_FOUND', `the skill "${name}" is disabled (disabledSkills) and is not served`);
    const not = this.unservable!.get(name);
    if (not !== undefined)
      throw new SkillsError('E_NOT_FOUND', `the skill ${JSON.stringify(name)} is not served: ${not.why}`, {
        hint: not.hint,
      });
    const near = closest(name, [...this.byName!.keys()]);
    throw new SkillsError('E_NOT_FOUND', `no skill "${name}" is served${near ? `; did you mean "${near}"?` : ''}`, {
      hint: 'list_skills (or skills/list) shows the skills served',
    });
  }

  /** The entry of a skill: its frontmatter and files with digests (computed once until the skill changes). */
  entry(s: SourceSkill): ServedSkill {
    let e = this.entries.get(s.root);
    if (!e || e.name !== s.name) {
      e = servedSkill(s);
      this.entries.set(s.root, e);
    }
    return e;
  }

  /**
   * Forget what the changed paths touch: the catalog always (a skill may have appeared, gone or been renamed), and
   * the entries of the skills that hold them (an enclosing skill's too), or, for a path inside no known skill (a
   * folder of skills renamed), every entry below it.
   */
  invalidate(paths: string[]): void {
    this.now = undefined;
    this.byName = undefined;
    this.unservable = undefined;
    for (const p of paths) {
      // The skill that holds the path: its folder or one above it (a look-up a level, not a scan of every skill).
      let hit = false;
      for (let d = p, up = dirname(p); ; d = up, up = dirname(d)) {
        if (this.entries.delete(d)) hit = true;
        if (up === d) break;
      }
      // A folder above the skills (renamed or removed): drop every entry below it.
      if (!hit) for (const root of this.entries.keys()) if (root.startsWith(p + sep)) this.entries.delete(root);
    }
  }
}

/** What an entry needs of a skill: its frontmatter, instructions and files (as the walk found them). */
interface SkillRead {
  layout: Layout;
  /** The skill file's name (SKILL.md, skill.md, manifest.json). */
  file: string;
  frontmatter: Record<string, unknown>;
  instructions: string;
  entries: SkillEntry[];
  /** The frontmatter is not YAML as written: how it was read (see ServedSkill.repaired). */
  repaired?: string;
}

/**
 * A skill read light, as the catalog reads it (the frontmatter or manifest parsed without positions or validation,
 * and the walk): a fifth of a full load, which 10,000 skills listed feel. The full load waits for a script tool.
 */
function readSkill(root: string, name: string): SkillRead {
  const { entries } = walkSkill(root);
  const top = skillFileIn(entries.filter((e) => !e.path.includes('/') && e.kind !== 'dir').map((e) => e.path));
  if (top?.layout === 'skill-md') {
    const at = join(root, top.name);
    const read = readBounded(at, MAX_SKILL_FILE_BYTES, root);
    if (read.text === undefined)
      throw new SkillsError('E_INVALID', `${at} is ${read.tooLarge} bytes, over the ${MAX_SKILL_FILE_BYTES} read`);
    let parsed = parseSkillMd(normalizeText(read.text).text, { positions: false });
    let repaired: string | undefined;
    // The two YAML slips real skills make, read as the catalog reads them (render-prompt lists such a skill).
    if (parsed.problem?.check === 'yaml-syntax') {
      for (const { text, says } of lenientCandidates(parsed.frontmatter)) {
        const again = parseSkillMd(`---\n${text}---\n`, { positions: false });
        if (again.data) {
          parsed = { ...again, body: parsed.body };
          repaired = says;
          break;
        }
      }
    }
    if (!parsed.data)
      throw new SkillsError('E_INVALID', `${at}: ${parsed.problem?.message ?? 'the frontmatter cannot be read'}`);
    return {
      layout: 'skill-md',
      file: top.name,
      frontmatter: typedFrontmatter(parsed.frontmatter, at) ?? jsonOf(parsed.data, at),
      instructions: parsed.body,
      entries,
      ...(repaired ? { repaired } : {}),
    };
  }
  if (top?.layout !== 'manifest') throw new SkillsError('E_NOT_FOUND', `${root} holds no SKILL.md or manifest.json`);
  const at = join(root, top.name);
  const read = readBounded(at, MAX_SKILL_FILE_BYTES, root);
  const data = read.text === undefined ? undefined : readManifestData(normalizeText(read.text).text).data;
  if (!data) throw new SkillsError('E_INVALID', `${at} cannot be read as a manifest (skills validate says why)`);
  return {
    layout: 'manifest',
    file: top.name,
    frontmatter: manifestFrontmatter(name, data),
    instructions: contextOf(root, data, entries),
    entries,
  };
}

/**
 * A manifest skill's instructions, as load reads them: its `context` files in order, joined by a blank line; only
 * files the walk found inside the skill.
 */
function contextOf(root: string, data: Record<string, unknown>, entries: SkillEntry[]): string {
  const listed = Array.isArray(data.context) ? data.context.filter((c): c is string => typeof c === 'string') : [];
  const parts: string[] = [];
  for (const c of listed) {
    const path = c.replace(/\\/g, '/').replace(/^(?:\.\/)+/, '');
    const e = entries.find((x) => x.path === path);
    if (!e || !(e.kind === 'file' || (e.kind === 'symlink' && e.inside))) continue;
    try {
      const r = readBounded(join(root, path), MAX_SKILL_FILE_BYTES, root);
      if (r.text !== undefined) parts.push(normalizeText(r.text).text);
    } catch {
      /* unreadable: left out, as load leaves it */
    }
  }
  return parts.join('\n\n');
}

/** Read a skill's entry: its frontmatter, and every file it holds with its digest. */
function servedSkill(s: SourceSkill): ServedSkill {
  let full: Skill | undefined;
  let realRoot: string;
  try {
    realRoot = realpathSync.native(s.root);
  } catch (err) {
    throw new SkillsError('E_NOT_FOUND', `${s.root}: the skill's folder cannot be read (${(err as Error).message})`);
  }
  const read = readSkill(s.root, s.name);
  const { frontmatter, instructions } = read;
  const files: ServedFile[] = [];
  if (read.layout === 'manifest') {
    const made = Buffer.from(`---\n${frontmatterYaml(frontmatter)}---\n\n${instructions}\n`);
    files.push({ path: SKILL_MD, made, digest: digestOf(made), size: made.length });
  }
  // The files the registry keeps of a skill (no .env secrets, no VCS or OS litter), from the walk load made: links
  // that stay inside are read through, links leading out are not served.
  const litter = (path: string, isDir: boolean) =>
    path.split('/').some((part, i, all) => skipped(part, isDir || i < all.length - 1));
  for (const e of read.entries) {
    if (litter(e.path, e.kind === 'dir')) continue;
    if (e.kind !== 'file' && !(e.kind === 'symlink' && e.inside && e.mode !== 0o040000)) continue;
    const abs = join(s.root, e.path);
    let bytes: Buffer;
    try {
      // Opened as load opens a skill's files: a link, or a folder on the way, leading out since the walk is not read.
      const { fd, size } = openRegularFile(abs, s.root);
      try {
        bytes = readOpenFile(fd, size);
      } finally {
        closeSync(fd);
      }
    } catch {
      continue; // gone since the walk, a dangling link, or one leading out
    }
    const path = read.layout === 'skill-md' && e.path === read.file ? SKILL_MD : e.path;
    const file = { path, abs, digest: digestOf(bytes), size: bytes.length };
    if (path === SKILL_MD) files.unshift(file);
    else files.push(file);
  }
  files.sort((a, b) =>
    a.path === SKILL_MD ? -1 : b.path === SKILL_MD ? 1 : a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
  );
  const dirs = new Set<string>(['']);
  const entry = { name: s.name, source: s, realRoot };
  // Swapped while it was walked: what was read may be another folder's, so none of it is served.
  checkRoot(entry, s.root);
  for (const e of read.entries) if (e.kind === 'dir' && !litter(e.path, true)) dirs.add(e.path);
  for (const f of files) {
    const parts = f.path.split('/');
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
  }
  return {
    name: s.name,
    uri: skillUri(s.name, SKILL_MD),
    source: s,
    realRoot,
    layout: read.layout,
    ...(read.repaired ? { repaired: read.repaired } : {}),
    load: () => {
      checkRoot(entry, s.root);
      return (full ??= loadSkill(s.root));
    },
    frontmatter,
    instructions,
    files,
    byPath: new Map(files.map((f) => [f.path, f])),
    dirs,
  };
}

/**
 * Refuse (E_USAGE, "leads outside the skill") when the skill's folder no longer leads to the real folder it was
 * walked in: moved, or swapped for a link to somewhere else (`mv skills/demo x; ln -s ~/.ssh skills/demo`), which
 * a watcher may never report. `what` is the URI, file or tool the refusal is about; `refused` what is not done.
 */
export function checkRoot(
  entry: Pick<ServedSkill, 'name' | 'source' | 'realRoot'>,
  what: string,
  refused: 'read' | 'run' = 'read',
): void {
  let now: string | undefined;
  try {
    now = realpathSync.native(entry.source.root);
  } catch {
    now = undefined;
  }
  if (now === entry.realRoot) return;
  throw new SkillsError(
    'E_USAGE',
    `${what} leads outside the skill: the folder of the skill ${entry.name} (${entry.source.root}) ${now === undefined ? 'is gone' : 'leads elsewhere'}: it was moved or replaced since the skill was loaded; it is not ${refused}`,
    {
      hint: 'skills serve reads a skill again when its watcher reports the change; restart skills serve to serve the folder as it is now',
    },
  );
}

/** `sha256:<hex>` of some bytes. */
export function digestOf(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/**
 * The frontmatter as YAML's core schema types it (`true` a boolean, `3` a number), which is what a host's YAML
 * parser gives when it checks the entry against the SKILL.md it reads (SEP-2640); skills' own reading takes every
 * scalar as text, as the reference validator does. Undefined when the core schema cannot read it.
 */
function typedFrontmatter(text: string, at: string): Record<string, unknown> | undefined {
  let v: unknown;
  try {
    v = loadYaml(text, { schema: yaml.CORE_SCHEMA });
  } catch {
    return undefined;
  }
  return v !== null && typeof v === 'object' && !Array.isArray(v)
    ? jsonOf(v as Record<string, unknown>, at)
    : undefined;
}

/** The most values, and characters of text, a served frontmatter holds once its YAML aliases are expanded. */
export const MAX_FRONTMATTER_VALUES = 10_000;
export const MAX_FRONTMATTER_TEXT = 1 << 20;

/**
 * A parsed YAML value as plain JSON (dates become text, as JSON has none), as JSON.stringify then JSON.parse give
 * it, but bounded: YAML aliases let a 1 KB frontmatter stand for billions of values (`*a` nine times, nine levels
 * deep), which a plain copy would expand until the process runs out of memory. Over the bounds, the skill is refused.
 */
function jsonOf(v: Record<string, unknown>, at: string): Record<string, unknown> {
  let values = 0;
  let text = 0;
  const over = () =>
    new SkillsError(
      'E_INVALID',
      `${at}: the frontmatter holds more than ${MAX_FRONTMATTER_VALUES.toLocaleString('en-US')} values or ${MAX_FRONTMATTER_TEXT.toLocaleString('en-US')} characters once its YAML aliases (*name) are expanded`,
      { hint: 'write the values out instead of repeating them with aliases (skills lint shows the frontmatter)' },
    );
  const copy = (x: unknown, depth: number): unknown => {
    if (++values > MAX_FRONTMATTER_VALUES || depth > 64) throw over();
    if (typeof x === 'string') {
      text += x.length;
      if (text > MAX_FRONTMATTER_TEXT) throw over();
      return x;
    }
    if (typeof x === 'number') return Number.isFinite(x) ? x : null;
    if (x === null || typeof x === 'boolean') return x;
    if (x instanceof Date) return Number.isNaN(x.getTime()) ? null : x.toISOString();
    if (Array.isArray(x)) return x.map((e) => copy(e, depth + 1) ?? null);
    if (typeof x !== 'object') return undefined;
    const out: Record<string, unknown> = {};
    for (const [k, e] of Object.entries(x)) {
      text += k.length;
      const c = copy(e, depth + 1);
      // As JSON.parse makes it: a key "__proto__" is a key, not the prototype.
      if (c !== undefined)
        Object.defineProperty(out, k, { value: c, enumerable: true, writable: true, configurable: true });
    }
    return out;
  };
  return copy(v, 0) as Record<string, unknown>;
}

/**
 * The frontmatter a manifest skill is served with: `name` its id, its `description` and `version`, `metadata`
 * with its display name and owner, and its `dependencies`. (README: "manifest.json skills over MCP".)
 */
function manifestFrontmatter(id: string, raw: Record<string, unknown>): Record<string, unknown> {
  const text = (k: string) =>
    typeof raw[k] === 'string' && (raw[k] as string).trim() !== '' ? (raw[k] as string).trim() : undefined;
  const out: Record<string, unknown> = { name: id, description: text('description') ?? '' };
  if (text('version')) out.version = text('version');
  const metadata: Record<string, string> = {};
  if (text('name')) metadata.title = text('name')!;
  if (text('owner')) metadata.owner = text('owner')!;
  if (Object.keys(metadata).length > 0) out.metadata = metadata;
  const deps = Array.isArray(raw.dependencies) ? raw.dependencies.filter((d) => typeof d === 'string') : [];
  if (deps.length > 0) out.dependencies = deps;
  return out;
}

/** YAML of a frontmatter whose values are JSON (JSON is YAML): one `key: <JSON>` line a field, no YAML library. */
function frontmatterYaml(data: Record<string, unknown>): string {
  return Object.entries(data)
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}\n`)
    .join('');
}
