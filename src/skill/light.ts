import { readdirSync, type Dirent } from 'node:fs';
import { basename, join } from 'node:path';
import { isSkillsError } from '../errors.js';
import { readManifestData } from '../formats/manifest.js';
import { parseSkillMd, splitSkillMd } from '../formats/skill-md.js';
import { codePoints, normalizeText } from '../formats/text.js';
import { lenientCandidates } from '../formats/yaml-repair.js';
import { readBounded } from '../fs/read.js';
import { identityOf, type FileIdentity } from '../fs/user-cache.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Layout, McpServer, Skill, Triggers } from '../model/skill.js';
import { checkPath } from './check-path.js';
import { real } from '../fs/walk.js';
import { discoverIn, type FolderScope, type SkillFolder } from './folders.js';
import { childPath, type DiscoveryBudget } from './discover.js';
import { loadSkill, readTriggers } from './load.js';
import { readHead, scriptDescription } from './script-info.js';
import { MAX_SKILL_FILE_BYTES, skillFileIn, unreadableSkillFile } from './skill-file.js';
import type { FileMeta, MetaCache, MetaRead } from './meta-cache.js';

// The catalog's light reading of skill folders (seed 003): only the skill file's frontmatter or manifest fields,
// about a twentieth of what a full load costs, so that 10,000 skills fit in a second. It is lenient, as the Agent
// Skills client guide asks: what an agent could still use is read with a warning, and what it could not is
// skipped with one. The skills that end up selected are loaded in full (activate).

export type CatalogScope = FolderScope | 'registry';

/** One skill as the catalog knows it, before it is activated. */
export interface CatalogEntry {
  /**
   * The name the skill goes by: SKILL.md `name` (NFKC), manifest `id`. What selection, --select and disabledSkills use.
   */
  name: string;
  /**
   * The name as written (SKILL.md `name` trimmed; manifest `name`): the reference's `<name>`, the `## Title` heading.
   */
  title: string;
  description: string;
  briefDescription?: string;
  version?: string;
  triggers?: Triggers;
  layout: Layout;
  /** Absolute path of the skill file (SKILL.md, skill.md or manifest.json), symlinks resolved as the reference does. */
  location: string;
  /** Absolute path of the skill folder (for registry skills, the stored copy). */
  root: string;
  scope: CatalogScope;
  /**
   * `disable-model-invocation: true` or `default_enabled: false`: kept out of the catalog, still selectable by name.
   */
  hidden: boolean;
  /** The folder listing discovery read, handed on to the full load. */
  listing?: Dirent[];
  /** SKILL.md's body (the instructions), read with the frontmatter: selection reads its headings and words. */
  body?: string;
}

/**
 * The skills of one folder, read light, in discovery order; with `bodies`, each SKILL.md's body is kept in its entry
 * (for selection: a body kept alive is no longer cheap to collect, so only when a query will read it). With a
 * `cache`, a skill file unchanged since its reading was kept is not parsed again: not read at all without bodies,
 * and with them only its body is taken (a manifest's reading has none: not read).
 */
export function readFolder(
  folder: SkillFolder,
  warnings: string[],
  budget?: DiscoveryBudget,
  bodies = false,
  cache?: MetaCache,
): CatalogEntry[] {
  const { dir, scope } = folder;
  const kept = cache;
  // Most skill folders hold a SKILL.md: opening it straight away finds the skill and reads it in one go, where a
  // listing first would cost a second read of the folder. It is read into an entry at once, while its text is young
  // (cheap to collect). Anything else (no SKILL.md, a SKILL.md that is not a regular file, one that cannot be
  // opened) goes the listing's way, which says what is wrong as before. (Where file names ignore case, a skill.md
  // is opened as SKILL.md: the same file.)
  const ahead = new Map<string, CatalogEntry | undefined>();
  const aheadSaid = new Map<string, string[]>();
  const said: string[] = [];
  const probe = (child: string, realChild: string | undefined): boolean => {
    const read = readSkillFile(child, childPath(child, 'SKILL.md'), SKILL_MD, bodies, kept);
    if (!read) return false;
    ahead.set(child, entryFromRead(child, realChild ?? real(child), scope, SKILL_MD, read, undefined, said, bodies));
    if (said.length > 0) aheadSaid.set(child, said.splice(0));
    return true;
  };
  // A missing folder gives nothing; a file given stands for the skill that holds it (as SKILL.md does for skills-ref).
  const discovery = discoverIn(dir, budget, probe);
  if (discovery.cut) warnings.push(discovery.cut);
  for (const l of discovery.links) warnings.push(`${l.path}: skipped: ${l.message}`);
  const out: CatalogEntry[] = [];
  for (const root of discovery.roots) {
    const probed = ahead.has(root);
    if (probed) warnings.push(...(aheadSaid.get(root) ?? []));
    const e = probed
      ? ahead.get(root)
      : readEntry(root, discovery.reals.get(root) ?? root, scope, discovery.listings.get(root), warnings, bodies, kept);
    if (e) out.push(e);
  }
  return out;
}

/**
 * A skill file's light reading: the cache's when the file is as it was when the reading was kept, else read and
 * parsed (and kept). Undefined when the file cannot be opened as a regular file inside the skill folder `root` (a
 * link leading out of it is not read); `thrown.error` then says why.
 */
function readSkillFile(
  root: string,
  file: string,
  found: { name: string; layout: Layout },
  bodies: boolean,
  cache: MetaCache | undefined,
  thrown?: { error?: unknown },
): MetaRead | undefined {
  // A body is read from the file: then the identity is the open file's, and only the frontmatter's parse is saved.
  const withBody = bodies && found.layout === 'skill-md';
  let id: FileIdentity | undefined;
  if (cache && !withBody) {
    // Taken before the file is read: a change made meanwhile gives the next run another identity.
    id = identityOf(file);
    const hit = id && cache.get(file, id);
    if (hit) return hit;
  }
  let read;
  try {
    read = readBounded(file, MAX_SKILL_FILE_BYTES, root);
  } catch (error) {
    if (thrown) thrown.error = error;
    return undefined;
  }
  id ??= read.identity;
  if (cache && withBody) {
    const hit = cache.get(file, id);
    if (hit && (!hit.meta || read.text === undefined)) return hit;
    if (hit) {
      // The frontmatter's reading is kept; the body, which selection reads, is cut from the text by its split alone.
      const split = splitSkillMd(normalizeText(read.text!).text);
      if (typeof split !== 'string') return { meta: { ...hit.meta, body: split.body } as Meta, said: hit.said };
    }
  }
  const result = metaOfRead(found, read, bodies);
  if (cache) cache.set(file, id, result);
  return result;
}

/**
 * The body of the SKILL.md at `location`, inside the skill folder `root` (a registry's stored copy), as a folder's
 * catalog entry holds it when read with `bodies`; undefined when it cannot be opened as a regular file inside `root`,
 * is over MAX_SKILL_FILE_BYTES, or has no frontmatter to split it from.
 */
export function skillMdBody(location: string, root: string): string | undefined {
  let read;
  try {
    read = readBounded(location, MAX_SKILL_FILE_BYTES, root);
  } catch {
    return undefined;
  }
  if (read.text === undefined) return undefined;
  const split = splitSkillMd(normalizeText(read.text).text);
  return typeof split === 'string' ? undefined : split.body;
}

const SKILL_MD = { name: 'SKILL.md', layout: 'skill-md' } as const;

/** Read one skill folder's metadata leniently; undefined (with a warning) when an agent could not use it. */
export function readEntry(
  root: string,
  realRoot: string,
  scope: CatalogScope,
  listing: Dirent[] | undefined,
  warnings: string[],
  bodies = false,
  cache?: MetaCache,
): CatalogEntry | undefined {
  let names: string[];
  try {
    listing ??= readdirSync(root, { withFileTypes: true });
    names = listing.filter((d) => d.isFile() || d.isSymbolicLink()).map((d) => d.name);
  } catch (err) {
    warnings.push(`${root}: skipped: cannot read the folder (${(err as Error).message})`);
    return undefined;
  }
  const found = skillFileIn(names);
  if (!found) return undefined;
  const thrown: { error?: unknown } = {};
  const file = join(root, found.name);
  const read = readSkillFile(root, file, found, bodies, cache, thrown);
  if (!read) {
    const why = unreadableSkillFile(file, found.name, thrown.error)?.[0];
    warnings.push(`${root}: skipped: ${why ?? `cannot read ${found.name} (${(thrown.error as Error).message})`}`);
    return undefined;
  }
  return entryFromRead(root, realRoot, scope, found, read, listing, warnings, bodies);
}

/** What a skill file's text says for the catalog, and the warnings reading it gave (without the folder). */
function metaOfRead(
  found: { name: string; layout: Layout },
  read: { text?: string; tooLarge?: number },
  bodies: boolean,
): MetaRead {
  const said: string[] = [];
  const warn = (m: string) => said.push(m);
  if (read.text === undefined) {
    warn(`skipped: ${found.name} is ${read.tooLarge} bytes, over the ${MAX_SKILL_FILE_BYTES} read`);
    return { said };
  }
  const { text } = normalizeText(read.text);
  const meta = found.layout === 'skill-md' ? skillMdMeta(text, found.name, warn) : manifestMeta(text, warn);
  if (meta && !bodies) meta.body = undefined;
  return { meta, said };
}

/** The catalog entry of a skill file's reading (or a warning why there is none). */
function entryFromRead(
  root: string,
  realRoot: string,
  scope: CatalogScope,
  found: { name: string; layout: Layout },
  read: MetaRead,
  listing: Dirent[] | undefined,
  warnings: string[],
  bodies = false,
): CatalogEntry | undefined {
  const warn = (m: string) => warnings.push(`${root}: ${m}`);
  for (const m of read.said) warn(m);
  // A reading may be the cache's: it is not changed.
  const meta: Meta | undefined = read.meta;
  if (!meta) return undefined;
  let { description, name, title } = meta;
  if (description === '') {
    warn(`skipped: ${found.name} has no description, which an agent needs to know when to use the skill`);
    return undefined;
  }
  // A text has at most as many code points as UTF-16 units: most are counted by their length alone.
  const length = description.length > MAX_DESCRIPTION ? codePoints(description) : 0;
  if (length > MAX_DESCRIPTION) {
    // Every catalog entry goes into every prompt: one runaway description would crowd out all the others.
    warn(
      `the description is ${length} characters long, over the ${MAX_DESCRIPTION} allowed; cut to ${MAX_DESCRIPTION} in the catalog`,
    );
    description = cutCodePoints(description, MAX_DESCRIPTION - 1).trimEnd() + '…';
  }
  const folderName = basename(root);
  if (name === undefined) {
    warn(`${found.name} has no name; the folder's name "${folderName}" is used`);
    name = folderName;
    title = folderName;
  } else if (found.layout === 'skill-md') {
    if (name !== folderName && name !== folderName.normalize('NFKC'))
      warn(`the name "${name}" does not match the folder "${folderName}"; loaded anyway`);
    if (name.length > 64 && codePoints(name) > 64)
      warn(`the name is ${codePoints(name)} characters long, over the 64 allowed; loaded anyway`);
  }
  return entryOf(
    name,
    title ?? name,
    description,
    meta.briefDescription || undefined,
    meta.version || undefined,
    meta.triggers,
    found.layout,
    childPath(realRoot, found.name),
    root,
    scope,
    meta.hidden,
    listing,
    bodies ? meta.body : undefined,
  );
}

/**
 * A catalog entry, always of this one shape (absent fields undefined, never missing): ten thousand entries of
 * one hidden class keep every later field read fast, where spreads give each entry a class of its own.
 */
export function entryOf(
  name: string,
  title: string,
  description: string,
  briefDescription: string | undefined,
  version: string | undefined,
  triggers: Triggers | undefined,
  layout: Layout,
  location: string,
  root: string,
  scope: CatalogScope,
  hidden: boolean,
  listing: Dirent[] | undefined,
  body?: string,
): CatalogEntry {
  return {
    name,
    title,
    description,
    briefDescription,
    version,
    triggers,
    layout,
    location,
    root,
    scope,
    hidden,
    listing,
    body,
  };
}

/** The Agent Skills limit on a description, in code points. */
const MAX_DESCRIPTION = 1024;

/** The first `n` code points of a text (a surrogate pair is never split). */
function cutCodePoints(text: string, n: number): string {
  let i = 0;
  for (let seen = 0; i < text.length && seen < n; seen++) {
    const c = text.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? 2 : 1;
  }
  return text.slice(0, i);
}

interface Meta extends FileMeta {
  body?: string;
}

function skillMdMeta(text: string, fileName: string, warn: (m: string) => void): Meta | undefined {
  let parsed = parseSkillMd(text, { positions: false });
  // A repaired frontmatter is parsed alone: the body stays the file's.
  const body = parsed.body;
  if (parsed.problem?.check === 'yaml-syntax') {
    // Two slips that break the YAML of real skills, each repaired on its own and then both together.
    for (const { text: fixed, says } of lenientCandidates(parsed.frontmatter)) {
      const again = parseSkillMd(`---\n${fixed}---\n`, { positions: false });
      if (again.data) {
        warn(`${fileName}: ${says}`);
        parsed = again;
        break;
      }
    }
  }
  if (!parsed.data) {
    warn(`skipped: ${fileName}: ${parsed.problem?.message ?? 'the frontmatter cannot be read'}`);
    return undefined;
  }
  const data = parsed.data;
  const str = (v: unknown) => (typeof v === 'string' ? v.trim() : undefined);
  const rawName = str(data.name);
  const meta = data.metadata;
  const metaVersion =
    meta && typeof meta === 'object' && !Array.isArray(meta) ? (meta as Record<string, unknown>).version : undefined;
  const defaultEnabled = str(data.default_enabled);
  const disableInvocation = str(data['disable-model-invocation']);
  return {
    name: rawName ? rawName.normalize('NFKC') : undefined,
    title: rawName || undefined,
    description: str(data.description) ?? '',
    briefDescription: str(data.brief_description) || undefined,
    version: str(data.version) || (typeof metaVersion === 'string' ? metaVersion : undefined),
    triggers: data.triggers === undefined ? undefined : readTriggers(data.triggers),
    hidden:
      (defaultEnabled !== undefined && defaultEnabled.toLowerCase() === 'false') ||
      (disableInvocation !== undefined && disableInvocation.toLowerCase() === 'true'),
    body,
  };
}

function manifestMeta(text: string, warn: (m: string) => void): Meta | undefined {
  const { data: d, problem } = readManifestData(text);
  if (!d) {
    warn(`skipped: ${problem!.message}`);
    return undefined;
  }
  const str = (k: string) => (typeof d[k] === 'string' ? (d[k] as string).trim() : undefined);
  const id = str('id') || str('name');
  return {
    ...(id ? { name: id, title: str('name') || id } : {}),
    description: str('description') ?? '',
    briefDescription: str('brief_description') || undefined,
    version: str('version') || undefined,
    triggers: readTriggers(d.triggers),
    hidden: d.default_enabled === false || d['disable-model-invocation'] === true,
  };
}

/** A script of an active skill, for the "Available Tools" list. */
export interface Tool {
  /** Path relative to the skill folder. */
  path: string;
  description?: string;
}

/** A selected skill, loaded in full. */
export interface ActiveSkill {
  entry: CatalogEntry;
  skill: Skill;
  /** The skill file as found by the full load (a stored copy may hold skill.md). */
  location: string;
  instructions: string;
  /** Every file of the skill but the skill file and the files its instructions came from. */
  files: string[];
  tools: Tool[];
  mcpServers: McpServer[];
}

const MAX_SCRIPT_HEAD = 16 * 1024;
const UNREAD = new Set(['file-too-large', 'file-unreadable']);

/**
 * What validate says (SK025) of a manifest's context file that leads out of the skill (through a linked folder),
 * or the load's own finding of one, as a reason: its instructions would be read without it.
 */
function contextOutside(skill: Skill): string | undefined {
  const found = skill.diagnostics.find((d) => d.rule === 'path-inside');
  if (found) return found.message;
  if (skill.layout !== 'manifest') return undefined;
  const list = (skill.raw as { context?: unknown }).context;
  if (!Array.isArray(list)) return undefined;
  const out: Diagnostic[] = [];
  list.forEach((p, i) => {
    if (typeof p === 'string') checkPath(skill, p, `context[${i}]`, out, false);
  });
  return out.find((d) => d.rule === 'path-inside')?.message;
}

/**
 * Load a selected skill in full: its instructions, bundled files, scripts (each with the description its
 * leading comment gives) and MCP servers. Undefined, with a warning, when the folder cannot be loaded (a
 * registry skill whose stored copy is gone).
 */
export function activate(entry: CatalogEntry, warnings: string[]): ActiveSkill | undefined {
  let skill: Skill;
  try {
    // Listed afresh, not from the catalog's listing: a --selector ran since, and a folder made a link leading out
    // meanwhile would be walked into as the folder it was.
    skill = loadSkill(entry.root);
  } catch (err) {
    if (!isSkillsError(err)) throw err;
    warnings.push(`${entry.name}: its instructions cannot be loaded (${err.message}); only its catalog entry is shown`);
    return undefined;
  }
  // A skill file too large or unreadable loads with no instructions (a registry's stored copy grown or swapped since
  // sync checked it): rendered, its empty instructions would stand as "included below".
  const unread = skill.diagnostics.find((d) => d.file === skill.file && UNREAD.has(d.rule));
  const outside = unread?.message ?? contextOutside(skill);
  if (outside) {
    warnings.push(`${entry.name}: its instructions cannot be loaded (${outside}); only its catalog entry is shown`);
    return undefined;
  }
  const fromInstructions = new Set([skill.file, ...skill.instructionParts.map((p) => p.file)]);
  const files = skill.entries
    .filter(
      (e) =>
        (e.kind === 'file' || (e.kind === 'symlink' && e.inside)) && !fromInstructions.has(join(skill.root, e.path)),
    )
    .map((e) => e.path)
    .sort();
  const tools: Tool[] = skill.scripts
    .filter((s) => s.exists)
    .map((s) => {
      let description: string | undefined;
      try {
        const text = readHead(join(skill.root, s.path), MAX_SCRIPT_HEAD, skill.root);
        description = scriptDescription(text, s.path);
      } catch {
        /* unreadable: listed without a description */
      }
      return description ? { path: s.path, description } : { path: s.path };
    });
  const realRoot = entry.location.slice(0, entry.location.length - basename(entry.location).length - 1);
  return {
    entry,
    skill,
    location: join(realRoot, basename(skill.file)),
    instructions: skill.instructions,
    files,
    tools,
    mcpServers: skill.mcpServers,
  };
}
