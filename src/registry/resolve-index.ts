// A registry's resolve index, `<registry>/resolve-index`: what resolve needs of index.json (each skill's versions) and
// of each skill's releases file (each version's layout, stored copy and dependencies), in one file. Without it
// resolve parses index.json whole (7.5 MB for 10,000 skills) and one releases file per skill it reaches (2,514 files,
// 14 MB of JSON for the bench's registry), where it needs a fraction of each.
//
// Line 1 (JSON): {"format", "version", "index": the identity of the index.json the versions were taken from
//   (index-io.ts indexIdentity) or null, "skills": the number of lines after this one, "length": their length}.
// Then a line per skill, in index.json's order: "<id>\t<versions>\t<identity>\t<row>".
// - versions: the JSON array of the versions index.json lists for the skill. Trusted only when "index" is the
//   identity of the index.json there now; else resolve reads index.json.
// - identity: that of the skill's releases file (index-io.ts fileIdentity: device, inode, size, modification and
//   change times) when the row was made from it; the row is what that file held: the JSON array of its versions, then
//   for each of them, after a U+001E (which JSON never holds raw), the JSON array [version, layout (0 skill-md, 1
//   manifest), path (0 for built-in/<id>@<version>, 1 for custom/<id>@<version>, else the path), dependencies,
//   nodeVersion or null, systemPackages], trailing absent fields left off. Both are empty for a skill with no row.
//   Resolve asks every skill it reaches which versions it has, and the release of one or two: a version's fields are
//   parsed, and checked, only when asked for (parsing whole rows was a tenth of resolve's time).
//
// A row is a cache of one file, trusted only while that file's identity is the one it names: a releases file written
// since (by a writer killed before it wrote this file, by hand, by another tool) is read instead, and so is the file
// of a skill without a row, or whose row fails its checks. So the resolve index is never wrong, only incomplete: every
// write of the registry writes it under the lock (update.ts: the versions of every skill, the rows of the skills it
// touched), and resolve writes the rows it had to read from the files (a registry written by an older version has
// none), keeping the rest as they were.
import { isAscii } from 'node:buffer';
import { closeSync, fstatSync, readFileSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { SkillsError } from '../errors.js';
import { STORE_PATH, byId, type RegistryIndex, type Release } from '../formats/index-file.js';
import { writeAtomic } from '../fs/atomic.js';
import { readBoundedBytes } from '../fs/read.js';
import { openRegularFile } from '../fs/walk.js';
import type { Layout } from '../model/skill.js';
import {
  fileIdentity,
  identityOfIndex,
  indexIdentity,
  legacyReleases,
  parseIndexText,
  readIndex,
  readReleases,
  releasesCache,
} from './index-io.js';
import { INDEX_FILE, RELEASES_DIR, releasesFile } from './layout.js';
import { isFields, isStrings } from './resolve-fields.js';

export const RESOLVE_INDEX_FILE = 'resolve-index';
const FORMAT = 'skills-resolve-index';
const VERSION = 2;
/** Before each version's fields in a row. */
const SEP = '\x1e';

/** What resolve needs of one registered version (a Release is one). */
export interface ResolveRelease {
  layout: Layout;
  /** The stored copy's folder, relative to the registry. */
  path: string;
  /** Dependency specs as written: `id` or `id@range`. */
  dependencies: string[];
  nodeVersion?: string;
  systemPackages?: string[];
}

/** version → what resolve needs of it. */
export type ResolveReleases = Readonly<Record<string, ResolveRelease>>;

/** A resolve index's text and, by id, where each skill's line goes on after its id and tab. */
interface Lines {
  text: string;
  /** The identity of the index.json the versions were taken from. */
  index: string | undefined;
  /** Where each id's line goes on after its tab (its end is the next newline, or the end of the text). */
  at: Map<string, number>;
}

const NONE: Lines = { text: '', index: undefined, at: new Map() };

/** legacyReleases' key of a registry folder. */
const dirKey = (dir: string) => resolve(dir);

/** The lines of the resolve index in `dir`; none when there is no file, or it is not whole or of this version. */
function readLines(dir: string): Lines {
  let bytes: Buffer;
  try {
    // A FIFO or a device there is no resolve index (never waited on).
    bytes = readBoundedBytes(join(dir, RESOLVE_INDEX_FILE), Number.POSITIVE_INFINITY).bytes!;
  } catch {
    return NONE;
  }
  // Ids are mostly ASCII, and so is all the rest: then the bytes are the text, without decoding UTF-8.
  const text = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
  const nl = text.indexOf('\n');
  let header: { format?: unknown; version?: unknown; index?: unknown; skills?: unknown; length?: unknown };
  try {
    header = JSON.parse(text.slice(0, nl)) as typeof header;
  } catch {
    return NONE;
  }
  if (nl === -1 || header.format !== FORMAT || header.version !== VERSION || header.length !== text.length - nl - 1)
    return NONE;
  const at = new Map<string, number>();
  for (let start = nl + 1; start < text.length;) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const tab = text.indexOf('\t', start);
    if (tab !== -1 && tab < end) at.set(text.slice(start, tab), tab + 1);
    start = end + 1;
  }
  // A line lost (its length made up) would hide a skill: then the versions are not trusted.
  const whole = typeof header.index === 'string' && header.skills === at.size;
  return { text, index: whole ? (header.index as string) : undefined, at };
}

/**
 * Where the three fields of a skill's line after its id are (versions, releases identity, row): the offsets of the
 * two tabs between them and of the line's end; undefined for an id without a line, or a line of another shape.
 * Offsets, not slices: resolve reads a line's versions and its row at different times, and most of a row never.
 */
function fieldsOf(lines: Lines, id: string): { start: number; tab1: number; tab2: number; end: number } | undefined {
  const start = lines.at.get(id);
  if (start === undefined) return undefined;
  const { text } = lines;
  let end = text.indexOf('\n', start);
  if (end === -1) end = text.length;
  const tab1 = text.indexOf('\t', start);
  if (tab1 === -1 || tab1 >= end) return undefined;
  const tab2 = text.indexOf('\t', tab1 + 1);
  if (tab2 === -1 || tab2 >= end) return undefined;
  const tab3 = text.indexOf('\t', tab2 + 1);
  return tab3 === -1 || tab3 >= end ? { start, tab1, tab2, end } : undefined;
}

/** The versions field of a line fieldsOf found. */
const versionsField = (lines: Lines, f: { start: number; tab1: number }) => lines.text.slice(f.start, f.tab1);

/** The row of a skill's releases (see the top of this file). */
export function rowOf(id: string, releases: ResolveReleases): string {
  const versions: string[] = [];
  let fieldsText = '';
  for (const [version, r] of Object.entries(releases)) {
    const path = r.path === `built-in/${id}@${version}` ? 0 : r.path === `custom/${id}@${version}` ? 1 : r.path;
    const fields: unknown[] = [
      version,
      r.layout === 'skill-md' ? 0 : 1,
      path,
      r.dependencies,
      r.nodeVersion ?? null,
      r.systemPackages ?? null,
    ];
    while (fields[fields.length - 1] === null) fields.pop();
    versions.push(version);
    fieldsText += SEP + JSON.stringify(fields);
  }
  return JSON.stringify(versions) + fieldsText;
}

/** The releases of one skill, looked up by version. */
export interface ResolveReleaseSet {
  has(version: string): boolean;
  get(version: string): ResolveRelease | undefined;
}

/** The ResolveReleaseSet of releases read whole. */
const setOf = (r: ResolveReleases): ResolveReleaseSet => ({
  has: (v) => Object.hasOwn(r, v),
  get: (v) => (Object.hasOwn(r, v) ? r[v] : undefined),
});

/**
 * The releases a row holds; undefined when it is not a row. Its list of versions is checked now (`lists` keeps one
 * array for each text: skills mostly list the same versions), a version's fields when that version is asked for:
 * fields that fail their checks then are `damaged(id, version)`'s to answer.
 */
function decodeRow(
  id: string,
  row: string,
  lists: Map<string, string[]>,
  damaged: (id: string, version: string) => ResolveRelease | undefined,
): ResolveReleaseSet | undefined {
  const first = row.indexOf(SEP);
  const listText = first === -1 ? row : row.slice(0, first);
  let versions = lists.get(listText);
  if (!versions) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(listText);
    } catch {
      return undefined;
    }
    if (!isStrings(parsed)) return undefined;
    lists.set(listText, (versions = parsed));
  }
  // Fields for each version, no more, no fewer.
  let count = 0;
  for (let at = first; at !== -1; at = row.indexOf(SEP, at + 1)) count++;
  if (count !== versions.length) return undefined;
  return new RowReleases(id, row, first, versions, damaged);
}

/** A row's releases (one object, not closures: resolve makes one for every skill it reaches). */
class RowReleases implements ResolveReleaseSet {
  constructor(
    private readonly id: string,
    private readonly row: string,
    /** Where the first version's fields start (their U+001E). */
    private readonly first: number,
    private readonly list: readonly string[],
    private readonly damaged: (id: string, version: string) => ResolveRelease | undefined,
  ) {}

  /** Each version's place in the list, and where each version's fields start: made on first use, once per row. */
  private places: Map<string, number> | undefined;
  private starts: number[] | undefined;

  has(v: string): boolean {
    return this.place(v) !== undefined;
  }

  private place(v: string): number | undefined {
    if (!this.places) {
      this.places = new Map();
      for (let i = 0; i < this.list.length; i++) if (!this.places.has(this.list[i]!)) this.places.set(this.list[i]!, i);
    }
    return this.places.get(v);
  }

  get(v: string): ResolveRelease | undefined {
    const { id, row } = this;
    const at = this.place(v);
    if (at === undefined) return undefined;
    if (!this.starts) {
      // One walk over the row's separators, instead of one walk per version asked for.
      this.starts = [];
      let start = this.first;
      for (let k = 0; k < this.list.length && start !== -1; k++) {
        this.starts.push(start);
        start = row.indexOf(SEP, start + 1);
      }
    }
    const start = this.starts[at] ?? -1;
    const end = row.indexOf(SEP, start + 1);
    let f: unknown;
    try {
      f = JSON.parse(row.slice(start + 1, end === -1 ? row.length : end));
    } catch {
      return this.damaged(id, v);
    }
    // built-in/ and custom/ take the same folder names.
    if (!isFields(STORE_PATH.test(`built-in/${id}@0`), f) || f[0] !== v) return this.damaged(id, v);
    const version = f[0];
    const layout = f[1];
    const p = f[2];
    const dependencies = f[3];
    const nodeVersion = f[4];
    const systemPackages = f[5];
    const path = p === 0 ? `built-in/${id}@${version}` : p === 1 ? `custom/${id}@${version}` : p;
    const r: ResolveRelease = { layout: layout === 0 ? 'skill-md' : 'manifest', path, dependencies };
    if (nodeVersion !== undefined && nodeVersion !== null) r.nodeVersion = nodeVersion;
    if (systemPackages !== undefined) r.systemPackages = systemPackages;
    return r;
  }
}

/** A row made from a releases file: the file's identity, and the row; undefined when the skill has none. */
type NewRow = { identity: string; row: string } | undefined;

/**
 * Write the resolve index of `dir`: a line for each of `ids` (in that order), its versions as `versions` gives them
 * (from the index.json of identity `index`), its row `rows` has for it, else the one the file had. Never flushed: a
 * file lost in a crash costs only time.
 */
function writeLines(
  dir: string,
  old: Lines,
  rows: Map<string, NewRow>,
  ids: readonly string[],
  index: { identity: string | undefined; versions: (id: string) => string },
): void {
  const lines: string[] = [];
  for (const id of ids) {
    const row = rows.get(id);
    let rest = row ? `${row.identity}\t${row.row}` : '\t';
    if (!rows.has(id)) {
      // The old line's identity and row, when it has them (an empty or damaged one is left out).
      const f = fieldsOf(old, id);
      if (f && f.tab2 > f.tab1 + 1) rest = old.text.slice(f.tab1 + 1, f.end);
    }
    lines.push(`${id}\t${index.versions(id)}\t${rest}\n`);
  }
  const body = lines.join('');
  const header = JSON.stringify({
    format: FORMAT,
    version: VERSION,
    index: index.identity ?? null,
    skills: ids.length,
    length: body.length,
  });
  writeAtomic(join(dir, RESOLVE_INDEX_FILE), `${header}\n${body}`, { flush: false });
}

/** The identity of `file` now; undefined when there is none. */
function identityNow(file: string): string | undefined {
  const st = statSync(file, { throwIfNoEntry: false });
  return st && fileIdentity(st);
}

/**
 * Under the registry's lock, once a write is done: the versions of every skill `index` (just written) lists, the rows
 * of the skills it touched (`touched`: their releases as the files now hold them, undefined for a skill that went),
 * and the rows the file had of the others.
 */
export function updateResolveIndex(
  dir: string,
  index: RegistryIndex,
  touched: Map<string, Readonly<Record<string, Release>> | undefined>,
): void {
  const rows = new Map<string, NewRow>();
  for (const [id, releases] of touched) {
    const identity = releases && identityNow(releasesFile(dir, id));
    rows.set(id, identity === undefined ? undefined : { identity, row: rowOf(id, releases!) });
  }
  const entries = [...index.skills].sort(byId);
  const versions = new Map(entries.map((e) => [e.id, e.versions]));
  writeLines(
    dir,
    readLines(dir),
    rows,
    entries.map((e) => e.id),
    { identity: indexIdentity(dir), versions: (id) => JSON.stringify(versions.get(id)) },
  );
}

/** The registry as resolve reads it: each skill's versions and releases, from the resolve index where it holds. */
export interface ResolveIndex {
  /** Every id, in index.json's order. */
  ids(): readonly string[];
  /** The versions index.json lists for `id` (the same array on every call); undefined for an id it does not list. */
  versions(id: string): readonly string[] | undefined;
  /** The releases of `id`, as readReleases (index-io.ts) gives them, with its errors. */
  releases(id: string): ResolveReleaseSet;
  /** Write the rows this run had to read from the files, when there were any (never throws). */
  save(): void;
  /** What was read besides the resolve index: index.json, and the ids whose releases file was. */
  read(): { index: boolean; releases: string[] };
}

/** index.json read, with the identity of the file read; an empty index, of no identity, when there is none. */
function readIndexAndIdentity(dir: string): { index: RegistryIndex; identity: string | undefined } {
  const file = join(dir, INDEX_FILE);
  let fd: number;
  try {
    fd = openRegularFile(file).fd;
  } catch {
    // None (an empty registry), or one readIndex reports as it should (a FIFO there too).
    return { index: readIndex(dir), identity: undefined };
  }
  let text: string;
  let identity: string;
  try {
    identity = identityOfIndex(fstatSync(fd, { bigint: true }));
    text = readFileSync(fd, 'utf8');
  } catch (err) {
    throw new SkillsError('E_IO', `cannot read ${file}: ${(err as Error).message}`, { cause: err });
  } finally {
    closeSync(fd);
  }
  return { index: parseIndexText(text, file).index, identity };
}

/**
 * The registry `dir` as resolve reads it. index.json is read only when the resolve index was not written from the
 * one there now (or is damaged); a version 1 index.json is read, and never gets a resolve index.
 */
export function openResolveIndex(dir: string): ResolveIndex {
  let lines = readLines(dir);
  const identity = indexIdentity(dir);
  const trusted = identity !== undefined && lines.index === identity;
  /** index.json's versions of each id, and its identity, once it had to be read. */
  let read: { versions: Map<string, readonly string[]>; ids: string[]; identity: string | undefined } | undefined;
  const readIndexFile = () => {
    if (!read) {
      const { index, identity: readIdentity } = readIndexAndIdentity(dir);
      read = {
        versions: new Map(index.skills.map((e) => [e.id, e.versions])),
        ids: index.skills.map((e) => e.id),
        identity: readIdentity,
      };
      // A version 1 index: its releases are in it, and the resolve index is of no use.
      if (legacyReleases.has(dirKey(dir))) lines = NONE;
    }
    return read;
  };
  if (!trusted) readIndexFile();
  const versionLists = new Map<string, readonly string[] | undefined>();
  const listsByText = new Map<string, string[]>();
  const rows = new Map<string, NewRow>();
  const legacy = () => read !== undefined && legacyReleases.has(dirKey(dir));
  // releasesFile's path, joined once: an id it accepts is one plain name.
  const releasesDir = join(dir, RELEASES_DIR);
  const fileOf = (id: string) =>
    id === '' || id.includes('/') || id.includes('\\') || id.startsWith('.')
      ? releasesFile(dir, id)
      : `${releasesDir}${sep}${id}.json`;
  /** The releases of `id` read from its file, its row kept to be written. */
  const fromFiles = (id: string): ResolveReleaseSet => {
    const releases = readReleases(dir, id);
    if (!legacy()) {
      const identity = releasesCache.get(releasesFile(dir, id))?.identity;
      rows.set(id, identity === undefined ? undefined : { identity, row: rowOf(id, releases) });
    }
    return setOf(releases);
  };
  /** A version's fields damaged in a row: the file says, as it would have for the whole row. */
  const damaged = (id: string, version: string): ResolveRelease | undefined => {
    const fromFile = fromFiles(id);
    if (!fromFile.has(version))
      throw new SkillsError(
        'E_CONFIG',
        `${join(dir, RESOLVE_INDEX_FILE)}: the line of ${id} lists version ${version}, which ${releasesFile(dir, id)} does not have`,
        { hint: `the file is damaged: delete it (every registry write and resolve rebuild it)` },
      );
    return fromFile.get(version);
  };
  return {
    ids: () => (read ? read.ids : [...lines.at.keys()]),
    versions(id) {
      if (versionLists.has(id)) return versionLists.get(id);
      let list: readonly string[] | undefined;
      if (read) list = read.versions.get(id);
      else {
        const f = fieldsOf(lines, id);
        const text = f && versionsField(lines, f);
        // Skills mostly list the same versions: one array for each text.
        let parsed: unknown = text === undefined ? undefined : listsByText.get(text);
        if (parsed === undefined && text !== undefined) {
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          if (isStrings(parsed)) listsByText.set(text, parsed);
        }
        // A damaged line: index.json says.
        if (f && isStrings(parsed)) list = parsed;
        else if (lines.at.has(id)) list = readIndexFile().versions.get(id);
      }
      versionLists.set(id, list);
      return list;
    },
    releases(id) {
      const f = fieldsOf(lines, id);
      if (f && f.tab2 > f.tab1 + 1 && lines.text.slice(f.tab1 + 1, f.tab2) === identityNow(fileOf(id))) {
        const decoded = decodeRow(id, lines.text.slice(f.tab2 + 1, f.end), listsByText, damaged);
        if (decoded) return decoded;
      }
      return fromFiles(id);
    },
    read: () => ({ index: read !== undefined, releases: [...rows.keys()] }),
    save() {
      if (rows.size === 0 || legacy()) return;
      try {
        if (read)
          writeLines(dir, lines, rows, read.ids, {
            identity: read.identity,
            versions: (id) => JSON.stringify(read!.versions.get(id)),
          });
        else
          writeLines(dir, lines, rows, [...lines.at.keys()], {
            identity: lines.index,
            versions: (id) => {
              const f = fieldsOf(lines, id);
              return f ? versionsField(lines, f) : '';
            },
          });
      } catch {
        // A registry this user may not write (someone else's): resolve reads the files, as before.
      }
    },
  };
}
