import { readdirSync, type Dirent } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import yaml from 'js-yaml';
import { isSkillsError } from '../errors.js';
import { BLOCK_INDICATOR_WITH_TEXT, parseSkillMd } from '../formats/skill-md.js';
import { codePoints, normalizeText } from '../formats/text.js';
import type { Layout, McpServer, Skill, Triggers } from '../model/skill.js';
import { loadSkill, readTriggers } from '../skill/load.js';
import { MAX_SKILL_FILE_BYTES, skillFileIn } from '../skill/skill-file.js';
import { readBounded } from '../fs/read.js';
import { readIndex } from '../registry/registry.js';
import { readHead, scriptDescription } from '../skill/script-info.js';
import { discoverIn, real, type FolderScope, type SkillFolder } from '../skill/folders.js';

// render-prompt's view of the skills an agent could use. Folders are read metadata first (seed 003): only the
// skill file's frontmatter or manifest fields, about a twentieth of what a full load costs, so that 10,000
// skills fit in a second; the registry answers from index.json alone. Only the skills that end up selected are
// loaded in full (activate). Loading is lenient, as the Agent Skills client guide asks: what an agent could
// still use loads with a warning, and what it could not is skipped with one.

export type CatalogScope = FolderScope | 'registry';

/** One skill as the catalog knows it, before it is activated. */
export interface CatalogEntry {
  /** The name the skill goes by: SKILL.md `name` (NFKC), manifest `id`. What selection, --select and disabledSkills use. */
  name: string;
  /** The name as written (SKILL.md `name` trimmed; manifest `name`): the reference's `<name>`, the `## Title` heading. */
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
  /** `disable-model-invocation: true` or `default_enabled: false`: kept out of the catalog, still selectable by name. */
  hidden: boolean;
  /** The folder listing discovery read, handed on to the full load. */
  listing?: Dirent[];
}

export interface Catalog {
  /** The skills of the catalog, in discovery order: folders in the order given, then the registry. */
  entries: CatalogEntry[];
  /** Hidden skills (see CatalogEntry.hidden). */
  hidden: CatalogEntry[];
  /** Names removed by disabledSkills. */
  disabled: string[];
  /** Skills left out because a skill of the same name came first. */
  shadowed: { name: string; location: string; scope: CatalogScope; by: string; byScope: CatalogScope }[];
  warnings: string[];
}

export interface CatalogOptions {
  folders: SkillFolder[];
  /** The registry folder, or undefined to read none. */
  registry?: string;
  disabled?: readonly string[];
}

/**
 * Build the catalog: the skills of each folder in order, then the registry's. The first skill of a name wins
 * (project folders come before user folders, folders before the registry); a user skill hidden by a project
 * skill is warned about, a registry skill hidden by a folder skill is not (a registry usually holds copies of
 * the project's own skills).
 */
export function buildCatalog(opts: CatalogOptions): Catalog {
  const out: Catalog = { entries: [], hidden: [], disabled: [], shadowed: [], warnings: [] };
  const disabled = new Set(opts.disabled ?? []);
  const byName = new Map<string, CatalogEntry>();
  const seenRoots = new Set<string>();
  const take = (e: CatalogEntry) => {
    const first = byName.get(e.name);
    if (first) {
      out.shadowed.push({ name: e.name, location: e.location, scope: e.scope, by: first.location, byScope: first.scope });
      if (e.scope !== 'registry') out.warnings.push(`${e.name} in ${e.root} (${e.scope}) is shadowed by ${first.root} (${first.scope})`);
      return;
    }
    byName.set(e.name, e);
    if (disabled.has(e.name)) out.disabled.push(e.name);
    else if (e.hidden) out.hidden.push(e);
    else out.entries.push(e);
  };
  for (const folder of opts.folders) {
    for (const e of folderEntries(folder, out.warnings)) {
      // The same folder reached twice (a symlink, a folder listed twice) counts once.
      if (seenRoots.has(e.location)) continue;
      seenRoots.add(e.location);
      take(e);
    }
  }
  if (opts.registry !== undefined) for (const e of registryEntries(opts.registry)) take(e);
  return out;
}

function folderEntries(folder: SkillFolder, warnings: string[]): CatalogEntry[] {
  const { dir, scope } = folder;
  // A missing folder gives nothing; a file given stands for the skill that holds it (as SKILL.md does for skills-ref).
  const discovery = discoverIn(dir);
  // Discovery never follows a symlinked folder below `dir`, so resolving `dir` once resolves every root below it.
  const realDir = real(dir);
  const out: CatalogEntry[] = [];
  for (const root of discovery.roots) {
    const rel = relative(dir, root);
    const realRoot = rel === '' ? realDir : rel.startsWith('..') ? real(root) : join(realDir, rel);
    const e = readEntry(root, realRoot, scope, discovery.listings.get(root), warnings);
    if (e) out.push(e);
  }
  return out;
}

/** Read one skill folder's metadata leniently; undefined (with a warning) when an agent could not use it. */
export function readEntry(root: string, realRoot: string, scope: CatalogScope, listing: Dirent[] | undefined, warnings: string[]): CatalogEntry | undefined {
  const warn = (m: string) => warnings.push(`${root}: ${m}`);
  let names: string[];
  try {
    listing ??= readdirSync(root, { withFileTypes: true });
    names = listing.filter((d) => d.isFile() || d.isSymbolicLink()).map((d) => d.name);
  } catch (err) {
    warn(`skipped: cannot read the folder (${(err as Error).message})`);
    return undefined;
  }
  const found = skillFileIn(names);
  if (!found) return undefined;
  const file = join(root, found.name);
  let read;
  try {
    read = readBounded(file, MAX_SKILL_FILE_BYTES);
  } catch (err) {
    warn(`skipped: cannot read ${found.name} (${(err as Error).message})`);
    return undefined;
  }
  if (read.text === undefined) {
    warn(`skipped: ${found.name} is ${read.tooLarge} bytes, over the ${MAX_SKILL_FILE_BYTES} read`);
    return undefined;
  }
  const { text } = normalizeText(read.text);
  const meta = found.layout === 'skill-md' ? skillMdMeta(text, found.name, warn) : manifestMeta(text, warn);
  if (!meta) return undefined;
  if (meta.description === '') {
    warn(`skipped: ${found.name} has no description, which an agent needs to know when to use the skill`);
    return undefined;
  }
  const length = codePoints(meta.description);
  if (length > MAX_DESCRIPTION) {
    // Every catalog entry goes into every prompt: one runaway description would crowd out all the others.
    warn(`the description is ${length} characters long, over the ${MAX_DESCRIPTION} allowed; cut to ${MAX_DESCRIPTION} in the catalog`);
    meta.description = cutCodePoints(meta.description, MAX_DESCRIPTION - 1).trimEnd() + '…';
  }
  const folderName = basename(root);
  if (meta.name === undefined) {
    warn(`${found.name} has no name; the folder's name "${folderName}" is used`);
    meta.name = folderName;
    meta.title = folderName;
  } else if (found.layout === 'skill-md') {
    if (meta.name !== folderName.normalize('NFKC')) warn(`the name "${meta.name}" does not match the folder "${folderName}"; loaded anyway`);
    if (codePoints(meta.name) > 64) warn(`the name is ${codePoints(meta.name)} characters long, over the 64 allowed; loaded anyway`);
  }
  return entryOf(meta.name, meta.title ?? meta.name, meta.description, meta.briefDescription || undefined, meta.version || undefined, meta.triggers, found.layout, join(realRoot, found.name), root, scope, meta.hidden, listing);
}

/**
 * A catalog entry, always of this one shape (absent fields undefined, never missing): ten thousand entries of
 * one hidden class keep every later field read fast, where spreads give each entry a class of its own.
 */
function entryOf(
  name: string, title: string, description: string, briefDescription: string | undefined, version: string | undefined, triggers: Triggers | undefined,
  layout: Layout, location: string, root: string, scope: CatalogScope, hidden: boolean, listing: Dirent[] | undefined,
): CatalogEntry {
  return { name, title, description, briefDescription, version, triggers, layout, location, root, scope, hidden, listing };
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

interface Meta {
  name?: string;
  title?: string;
  description: string;
  briefDescription?: string;
  version?: string;
  triggers?: Triggers;
  hidden: boolean;
}

// A top-level `key: value` whose plain value holds ": " (`description: Use when: …`): YAML reads a nested key.
const PLAIN_WITH_COLON = /^([\w-]+):[ \t]+([^'"|>\s[{&*!%@`#].*)$/;

/**
 * The frontmatter with every top-level plain value that holds ": " turned into a double-quoted string (with the
 * more indented lines that continue it folded in, as YAML folds them); undefined when there is none.
 */
export function quoteColonValues(frontmatter: string): string | undefined {
  return requote(frontmatter, (line) => {
    const m = PLAIN_WITH_COLON.exec(line);
    const value = m?.[2]!.replace(/\s+#.*$/, '');
    return m && /:(\s|$)/.test(value!) ? { key: m[1]!, value: value!, comments: true } : undefined;
  });
}

/**
 * The frontmatter with every top-level `key: | text` (or `key: > text`) read as the plain text after the
 * indicator, more indented lines that follow folded in, as a double-quoted string; undefined when there is none.
 */
export function inlineBlockValues(frontmatter: string): string | undefined {
  return requote(frontmatter, (line) => {
    // Top-level keys only; a `#` right after the indicator starts a comment, and is not text.
    const m = BLOCK_INDICATOR_WITH_TEXT.exec(line);
    if (!m || m[1] !== '' || m[4]!.startsWith('#')) return undefined;
    // The lines below a block indicator are its text, `#` and all.
    return { key: m[2]!, value: m[4]!.replace(/\s+#.*$/, ''), comments: false };
  });
}

/**
 * Each top-level line `repair` recognises rewritten as `key: "<value>"`, the more indented lines that continue
 * it folded in as YAML folds them (` # comments` dropped when `comments`); undefined when no line was recognised.
 */
function requote(frontmatter: string, repair: (line: string) => { key: string; value: string; comments: boolean } | undefined): string | undefined {
  const lines = frontmatter.split('\n');
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    const r = repair(lines[i]!);
    if (!r) continue;
    const parts = [r.value.trim()];
    let j = i + 1;
    while (j < lines.length && /^[ \t]+\S/.test(lines[j]!)) parts.push((r.comments ? lines[j++]!.replace(/\s+#.*$/, '') : lines[j++]!).trim());
    // JSON strings are valid YAML double-quoted scalars.
    lines.splice(i, j - i, `${r.key}: ${JSON.stringify(parts.join(' '))}`);
    changed = true;
  }
  return changed ? lines.join('\n') : undefined;
}

/** The frontmatter text, split as parseSkillMd splits it (first line `---`, up to the next line that is `---`, spaces after it allowed). */
function frontmatterOf(text: string): string | undefined {
  const firstEnd = text.indexOf('\n');
  if (firstEnd === -1 || text.slice(0, firstEnd).trimEnd() !== '---') return undefined;
  for (let at = text.indexOf('\n---', firstEnd); at !== -1; at = text.indexOf('\n---', at + 1)) {
    let after = at + 4;
    while (text.charCodeAt(after) === 32 || text.charCodeAt(after) === 9) after++;
    if (after === text.length || text.charCodeAt(after) === 10) return text.slice(firstEnd + 1, at + 1);
  }
  return undefined;
}

/** The frontmatter mapping, read quickly (no positions); undefined when anything is wrong, for parseSkillMd to say what. */
function quickData(text: string): Record<string, unknown> | undefined {
  const fm = frontmatterOf(text);
  if (fm === undefined) return undefined;
  try {
    const data = yaml.load(fm, { schema: yaml.FAILSAFE_SCHEMA });
    return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function skillMdMeta(text: string, fileName: string, warn: (m: string) => void): Meta | undefined {
  const quick = quickData(text);
  let parsed = quick ? { data: quick, frontmatter: '', problem: undefined } : parseSkillMd(text);
  if (parsed.problem?.check === 'yaml-syntax') {
    // Two slips that break the YAML of real skills, each repaired on its own and then both together.
    const repairs = [
      { fix: quoteColonValues, says: 'a value holds an unquoted ": "; read as quoted text (quote it to silence this)' },
      { fix: inlineBlockValues, says: 'a value starts with | or > followed by text on the same line; read as that text (drop the | or > to silence this)' },
    ];
    const both = (fm: string) => {
      const once = inlineBlockValues(fm);
      return quoteColonValues(once ?? fm) ?? once;
    };
    for (const { fix, says } of [...repairs, { fix: both, says: repairs.map((r) => r.says).join('; ') }]) {
      const fixed = fix(parsed.frontmatter);
      const again = fixed === undefined ? undefined : parseSkillMd(`---\n${fixed}---\n`);
      if (again?.data) {
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
  const str = (k: string) => (typeof data[k] === 'string' ? (data[k] as string).trim() : undefined);
  const rawName = str('name');
  const meta = data.metadata;
  const metaVersion = meta && typeof meta === 'object' && !Array.isArray(meta) ? (meta as Record<string, unknown>).version : undefined;
  return {
    ...(rawName ? { name: rawName.normalize('NFKC'), title: rawName } : {}),
    description: str('description') ?? '',
    briefDescription: str('brief_description') || undefined,
    version: str('version') || (typeof metaVersion === 'string' ? metaVersion : undefined),
    triggers: readTriggers(data.triggers),
    hidden: /^false$/i.test(str('default_enabled') ?? '') || /^true$/i.test(str('disable-model-invocation') ?? ''),
  };
}

function manifestMeta(text: string, warn: (m: string) => void): Meta | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    warn(`skipped: manifest.json is not valid JSON (${(err as Error).message})`);
    return undefined;
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    warn('skipped: manifest.json does not hold an object');
    return undefined;
  }
  const d = data as Record<string, unknown>;
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

/** The registry's skills, from index.json alone: each entry's latest summary. */
function registryEntries(dir: string): CatalogEntry[] {
  // Ten thousand entries: plain assignments and one path.join each, as this runs on every render from a registry.
  const base = dir.endsWith(sep) ? dir : `${dir}${sep}`;
  return readIndex(dir).skills.map((e) => {
    const l = e.latest;
    // index-file.ts admits only `built-in/<id>@<version>` or `custom/<id>@<version>` here: already a normal path.
    const root = l.path ? `${base}${sep === '/' ? l.path : l.path.replace(/\//g, sep)}` : dir;
    const triggers = l.triggers ? { keywords: l.triggers.keywords ?? [], verbs: l.triggers.verbs ?? [], patterns: l.triggers.patterns ?? [] } : undefined;
    const location = `${root}${sep}${l.layout === 'skill-md' ? 'SKILL.md' : 'manifest.json'}`;
    return entryOf(e.id, l.name, l.description, l.briefDescription || undefined, e.latestVersion, triggers, l.layout, location, root, 'registry', l.hidden === true, undefined);
  });
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

/**
 * Load a selected skill in full: its instructions, bundled files, scripts (each with the description its
 * leading comment gives) and MCP servers. Undefined, with a warning, when the folder cannot be loaded (a
 * registry skill whose stored copy is gone).
 */
export function activate(entry: CatalogEntry, warnings: string[]): ActiveSkill | undefined {
  let skill: Skill;
  try {
    skill = loadSkill(entry.root, entry.listing ? { listing: entry.listing } : {});
  } catch (err) {
    if (!isSkillsError(err)) throw err;
    warnings.push(`${entry.name}: its instructions cannot be loaded (${err.message}); only its catalog entry is shown`);
    return undefined;
  }
  const fromInstructions = new Set([skill.file, ...skill.instructionParts.map((p) => p.file)]);
  const files = skill.entries
    .filter((e) => (e.kind === 'file' || (e.kind === 'symlink' && e.inside)) && !fromInstructions.has(join(skill.root, e.path)))
    .map((e) => e.path)
    .sort();
  const tools: Tool[] = skill.scripts
    .filter((s) => s.exists)
    .map((s) => {
      let description: string | undefined;
      try {
        const text = readHead(join(skill.root, s.path), MAX_SCRIPT_HEAD);
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

