// Taking in what install is given: a path or a spec, a skill folder or a folder of skills, an archive unpacked
// into a scratch folder beside where it goes (Scratch), each local skill loaded and checked.
import { mkdirSync, renameSync, statSync, type Dirent } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { SkillsError, isSkillsError } from '../errors.js';
import { formatLockSource } from '../formats/lockfile.js';
import { notUtf8Failure } from '../fs/byte-names.js';
import { parseRemoteSource, type RemoteSource } from '../formats/install-source.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Skill, SkillEntry } from '../model/skill.js';
import { isStrictSemver, parseSpec, type DependencySpec } from '../model/spec.js';
import { DEFAULT_LIMITS, extractArchive, skillFoldersIn } from '../fs/archive.js';
import { KEEP_BYTES, type ExtractedFile } from '../fs/archive-entries.js';
import { tempName } from '../fs/atomic.js';
import { isInside, knownEntries, present, removeEmptyUpTo } from '../fs/walk.js';
import { discoverSkills, isSkillFolder, type DiscoveryBudget } from '../skill/discover.js';
import { loadSkill } from '../skill/load.js';
import type { HeldFile } from '../fs/read-held.js';
import { validateSkills } from '../skill/validate.js';
import {
  digest,
  digestKeeping,
  integrityOf,
  knownSkillFiles,
  skillFiles,
  type KeepBudget,
  type StoredFile,
} from '../registry/integrity.js';
import { removeTree } from '../registry/store.js';
import { StreamedDigest } from '../registry/streamed-digest.js';
import { blocksCopying, isUnversioned, registryVersion } from '../registry/unversioned.js';
import type { ArchivedSkill, InstallOptions, InvalidSource, Prepared, Relabel } from './types.js';

/** The prefix of the scratch folders archives are unpacked into, inside the registry. */
export const UNPACK_PREFIX = '.unpack-';

const ARCHIVE_NAME = /\.(tgz|tar\.gz|tar|skill|zip)$/i;

export type Classified =
  | { kind: 'folder' | 'archive'; abs: string }
  | { kind: 'spec'; spec: DependencySpec }
  | { kind: 'git'; remote: Extract<RemoteSource, { kind: 'git' }> }
  | { kind: 'url'; remote: Extract<RemoteSource, { kind: 'url' }> }
  | { kind: 'npm'; remote: Extract<RemoteSource, { kind: 'npm' }> }
  | { kind: 'well-known'; remote: Extract<RemoteSource, { kind: 'well-known' }> }
  | { kind: 'mcp'; remote: Extract<RemoteSource, { kind: 'mcp' }> };

/**
 * What a source is: a git repository or an archive's URL (parseRemoteSource's shapes: `owner/repo` only when no such
 * path exists here), else npm's rule: a path when it looks like one (`.`, `/`, a slash inside, an archive's name),
 * else a spec.
 */
export function classifySource(raw: string, cwd: string): Classified {
  const remote = parseRemoteSource(raw, (p) => present(resolve(cwd, p)));
  if (remote?.kind === 'git') return { kind: 'git', remote };
  if (remote?.kind === 'url') return { kind: 'url', remote };
  if (remote?.kind === 'npm') return { kind: 'npm', remote };
  if (remote?.kind === 'well-known') return { kind: 'well-known', remote };
  if (remote?.kind === 'mcp') return { kind: 'mcp', remote };
  const looksLikePath =
    raw.startsWith('.') ||
    raw.startsWith('/') ||
    raw.startsWith('~') ||
    raw.includes('/') ||
    raw.includes('\\') ||
    ARCHIVE_NAME.test(raw);
  if (!looksLikePath) {
    const spec = parseSpec(raw);
    if ('error' in spec) {
      throw new SkillsError('E_USAGE', `${spec.error}; or, for a folder or an archive, a path such as ./${raw}`, {
        hint: 'a source is a git repository (owner/repo, a URL), a skill folder, an archive, or a spec: id, id@1.2.3, id@^1.2',
      });
    }
    return { kind: 'spec', spec };
  }
  const abs = resolve(cwd, raw);
  let st;
  try {
    st = statSync(abs);
  } catch (err) {
    throw (
      notUtf8Failure(abs, 'nothing was installed', err) ??
      new SkillsError('E_NOT_FOUND', `${raw}: no such file or folder`, {
        hint: 'give a skill folder, an archive (.tgz, .zip, .skill), or a git repository: owner/repo, https://…, git@host:owner/repo',
      })
    );
  }
  return { kind: st.isDirectory() ? 'folder' : 'archive', abs };
}

/**
 * The registry's "no skill" error for a bare name (read as a spec, as npm reads one) with the hint to install the
 * folder of that name in the working folder instead, when there is one that holds a skill (`skills init my-skill`
 * makes one); the error as it was otherwise.
 */
export function withFolderHint(
  error: SkillsError,
  specs: DependencySpec[],
  known: (id: string) => boolean,
  cwd: string,
): SkillsError {
  const here = specs.find((s) => {
    if (known(s.id)) return false;
    const abs = resolve(cwd, s.raw);
    return isSkillFolder(abs) || skillsBelow(abs).roots.length > 0;
  });
  if (!here) return error;
  return new SkillsError(error.code, error.message, {
    hint: `${here.raw} is also a folder here that holds a skill, but a bare name means a registry id: to install the folder, give it as a path: skills install ./${here.raw}`,
    cause: error,
  });
}

/** The findings that make a skill uninstallable: validation errors, and a missing or malformed version. */
export async function problemsOf(skill: Skill): Promise<Diagnostic[]> {
  return (await installProblems(skill)).errors;
}

/**
 * problemsOf, and whether the skill's name differs from its folder's. That is no reason not to install it: install
 * names each copy by the skill's name, so the copy is right whatever the source's folder is called (a stored copy
 * lives in `<id>@<version>/`, an archive's in a folder install made; vercel-labs/agent-skills keeps
 * `vercel-react-best-practices` in `react-best-practices/`, as four of its seven skills do).
 */
export async function installProblems(skill: Skill): Promise<{ errors: Diagnostic[]; misnamed: boolean }> {
  const [report] = await validateSkills([skill]);
  let misnamed = false;
  const errors = report!.diagnostics.filter((d) => {
    if (d.rule === 'name-matches-folder') misnamed = true;
    return blocksCopying(d);
  });
  // No version is fine (kept as 0.0.0, with a warning), and so is a SKILL.md version that plainly means one (`1.0`,
  // kept as 1.0.0: looseVersion); any other that is not MAJOR.MINOR.PATCH is not.
  const v = skill.version;
  if (errors.length === 0 && !isUnversioned(skill) && !isStrictSemver(registryVersion(skill))) {
    errors.push({
      ruleId: 'SK023',
      rule: 'version-semver',
      severity: 'error',
      message: `version "${v}" is not a semantic version: expected MAJOR.MINOR.PATCH, e.g. "1.0.0"`,
      file: skill.file,
      hint:
        skill.layout === 'skill-md'
          ? 'add to the frontmatter:\nmetadata:\n  version: "1.0.0"'
          : 'add "version": "1.0.0" to manifest.json',
    });
  }
  return { errors, misnamed };
}

/**
 * The skill folders below a folder that is not one itself (none when it holds none), and `cut` when the search stopped
 * at its limits (SKILLS_MAX_FOLDERS, …): skills beyond it are left out, which the caller says, as it says `unread`
 * (what the search could not read). `budget`: one shared by several searches of one source.
 */
export function skillsBelow(
  dir: string,
  budget?: DiscoveryBudget,
): { roots: string[]; listings: Map<string, Dirent[]>; cut?: string; unread?: { path: string; message: string }[] } {
  try {
    const found = discoverSkills([dir], { cwd: dir, ...(budget ? { budget } : {}) });
    return {
      roots: found.roots.filter((r) => r !== dir),
      listings: found.listings,
      ...(found.cut ? { cut: found.cut } : {}),
      // A folder it could not read, or one whose SKILL.md is a FIFO, a device or a folder: said, not passed over.
      ...(found.links.length > 0 ? { unread: found.links } : {}),
    };
  } catch (err) {
    if (isSkillsError(err)) return { roots: [], listings: new Map() };
    throw err;
  }
}

/**
 * Where a run unpacks archives when it has no better place (an install into a registry unpacks into it, so the store
 * adopts by rename; a project install into the agent folder it places into, see installLocked): the registry, else
 * the cache's scratch.
 */
export const scratchBase = (
  options: Pick<InstallOptions, 'useRegistry' | 'registry' | 'cacheDir' | 'lockfile'>,
): string =>
  options.useRegistry
    ? options.registry
    : // No cache (no home): the project's folder, where the install writes anyway; nothing downloads without one.
      options.cacheDir === undefined
      ? dirname(options.lockfile)
      : join(options.cacheDir, 'scratch');

/**
 * The unpack folders this run made, in `base` (a registry, so a skill unpacked is moved into the store, not copied;
 * the agent folder a project install places into, so the last placement is one rename on one file system; else the
 * cache), removed at the end whatever happens. Each is `.unpack-<name>.<pid>.<random>`: one a killed run left is
 * removed by the next (cleanStale).
 */
export class Scratch {
  readonly dirs: string[] = [];
  /** Each archive is unpacked once a run, however many skills (or lock entries) it stands for. */
  readonly archives = new Map<string, Promise<ArchivedSkill[]>>();
  /** Each archive by URL is downloaded once a run. */
  readonly downloads = new Map<string, Promise<string>>();
  /** The links of each archive unpacked, left out (ExtractOptions.onLink; said by archive-links.ts). */
  readonly linksLeftOut = new Map<string, string[]>();
  /** The first folder this run created to hold `base` (base itself, or a parent), when it was not there. */
  private created: string | undefined;
  /**
   * `keepBytes`: bytes of unpacked files the run may hold in memory (64 MiB in all), so as not to read them again for
   * the copies it makes. None when it makes none (one folder placed into, which adopts the unpacked folder by rename,
   * and no registry): keeping 35 MB of a 10,000-file archive's bytes cost a tenth of its install in copies and GC.
   */
  constructor(
    readonly base: string,
    public keepBytes = KEEP_BYTES,
  ) {}
  folder(name: string): string {
    if (this.dirs.length === 0 && !present(this.base))
      this.created = mkdirSync(this.base, { recursive: true }) ?? undefined;
    const dir = join(this.base, tempName(UNPACK_PREFIX, name.replace(/[^\w.@-]/g, '_')));
    this.dirs.push(dir);
    return dir;
  }
  /** True when `path` is in one of this run's unpack folders. */
  holds(path: string): boolean {
    return this.dirs.some((d) => isInside(d, path));
  }
  cleanup(): void {
    // removeTree: the files are unpacked read-only, which Windows will not delete as they are.
    for (const d of this.dirs) removeTree(d);
    // The folders this run created and left empty go too (a registry, an agent folder and its parents): a refused
    // install leaves nothing behind.
    if (this.created !== undefined) removeEmptyUpTo(this.base, this.created);
  }
}

/** Rewrites the scratch folder `from` of an unpacked skill as `<archive>: <path inside>` wherever a text names it. */
export function relabeler(from: string, archive: string, inner: string): Relabel {
  const asFolder = inner === '' ? archive : `${archive}: ${inner}`;
  const asParent = inner === '' ? `${archive}: ` : `${archive}: ${inner}/`;
  return (text) => text.split(`${from}${sep}`).join(asParent).split(from).join(asFolder);
}

export function relabelError(err: unknown, relabel: Relabel | undefined): unknown {
  if (!relabel || !isSkillsError(err)) return err;
  return new SkillsError(err.code, relabel(err.message), {
    cause: err,
    ...(err.hint === undefined ? {} : { hint: relabel(err.hint) }),
  });
}

/** Unpack an archive (once a run) into the scratch; each skill in it is moved to a folder named after the skill. */
export function unpackArchive(
  abs: string,
  typed: string,
  scratch: Scratch,
  options: InstallOptions,
): Promise<ArchivedSkill[]> {
  let unpacked = scratch.archives.get(abs);
  if (!unpacked) {
    unpacked = unpack(abs, typed, scratch, options);
    scratch.archives.set(abs, unpacked);
  }
  return unpacked;
}

async function unpack(abs: string, typed: string, scratch: Scratch, options: InstallOptions): Promise<ArchivedSkill[]> {
  options.progress?.(`unpacking ${typed}`);
  const dest = scratch.folder(basename(abs));
  // The files are written read-only when they go into a registry, as the store keeps them (else writable, as an
  // agent folder's copy is, so the last placement can take them as they are), and listed with their bytes: the
  // skills' integrity, their move into the store or an agent folder and the copies need no walk and no second read.
  // The skill's integrity is hashed meanwhile, by the thread that writes the files.
  const streamed = new StreamedDigest();
  const {
    written = [],
    folders: made = [],
    digest,
  } = await extractArchive(abs, dest, options.limits ?? DEFAULT_LIMITS, {
    record: true,
    readOnly: options.useRegistry,
    keepBytes: scratch.keepBytes,
    digest: streamed.options,
    onLink: (name) => scratch.linksLeftOut.set(abs, [...(scratch.linksLeftOut.get(abs) ?? []), name]),
  });
  for (const f of written) scratch.keepBytes -= f.content?.length ?? 0;
  let folders;
  try {
    folders = skillFoldersIn(dest, abs, isSkillFolder);
  } catch (err) {
    throw relabelError(err, relabeler(dest, typed, ''));
  }
  return folders.map(({ dir, inner }) => {
    // A folder inside an archive is not the skill's folder (a release's pdf-1.2.0/, a repository's repo-main/,
    // or none at the top): the skill gets a folder named after it, as a skill folder is. Its folder in the archive
    // is named so as a rule (pack's `<id>/`): moved there and loaded once, and moved again only when that was not it.
    let root = dir;
    let skill: Skill | undefined;
    // What a walk of the folder would find, known from what was written: the skill is loaded without one.
    const entries = entriesBelow(written, made, inner);
    if (dir !== dest) {
      root = moveTo(scratch, dir, safeName(basename(dir)) || 'skill');
      skill = loaded(root, typed, inner, entries);
    }
    const id = skill?.id ?? loaded(dir, typed, inner, entries).id;
    const name = (dir === dest && id === basename(dest) ? '' : safeName(id)) || 'skill';
    if (basename(root) !== name || root === dest) {
      root = moveTo(scratch, root, name);
      skill = undefined;
    }
    const files = knownSkillFiles(root, written, inner);
    const integrity = streamed.result(files, inner, digest);
    if (integrity !== undefined) hashedWhileUnpacked.set(files, integrity);
    return {
      root,
      inner,
      id,
      files,
      only: holdsOnly(files, written, made, inner),
      ...(skill ? { skill } : {}),
      ...(entries ? { entries } : {}),
    };
  });
}

/**
 * True when the folder `inner` of an unpacked archive holds `files` (what the skill keeps of it) and nothing else: no
 * file left out (a .env, a folder of .git), and no folder made there that holds none of them (an empty one).
 */
function holdsOnly(files: StoredFile[], written: ExtractedFile[], made: string[], inner: string): boolean {
  const prefix = inner === '' ? '' : `${inner}/`;
  let below = 0;
  for (const w of written) if (w.rel.startsWith(prefix)) below++;
  if (below !== files.length) return false;
  // The folders above the kept files: each made folder must be one of them (a folder made implies its parents).
  const kept = new Set<string>();
  for (const f of files)
    for (let i = f.rel.lastIndexOf('/'); i > 0; i = f.rel.lastIndexOf('/', i - 1)) {
      const d = f.rel.slice(0, i);
      if (kept.has(d)) break;
      kept.add(d);
    }
  for (const d of made) if (d.startsWith(prefix) && d !== inner && !kept.has(d.slice(prefix.length))) return false;
  return true;
}

/**
 * The integrity hashed while an archive was unpacked, kept by the very list of files it covers: a list filtered or
 * replaced since (an npm package's package.json taken out) has none, and its integrity is worked out from its files.
 */
const hashedWhileUnpacked = new WeakMap<StoredFile[], string>();

/** knownEntries of the folder `inner` of an unpacked archive, from the files written and the folders made. */
function entriesBelow(written: ExtractedFile[], made: string[], inner: string): SkillEntry[] | undefined {
  if (inner === '')
    return knownEntries(
      written.map((w) => w.rel),
      made,
    );
  const prefix = `${inner}/`;
  const files: string[] = [];
  for (const w of written) if (w.rel.startsWith(prefix)) files.push(w.rel.slice(prefix.length));
  const folders: string[] = [];
  for (const d of made) if (d.startsWith(prefix)) folders.push(d.slice(prefix.length));
  return knownEntries(files, folders);
}

/** A skill id as a folder name: letters, digits and dashes. */
const safeName = (id: string) => id.replace(/[^\p{L}\p{N}-]/gu, '-');

/** Move an unpacked folder to `<a new scratch folder>/<name>`; returns its new path. */
function moveTo(scratch: Scratch, dir: string, name: string): string {
  const home = scratch.folder(name);
  mkdirSync(home);
  const root = join(home, name);
  renameSync(dir, root);
  return root;
}

/** loadSkill of an unpacked folder (from its entries when known), a failure naming it inside the archive. */
function loaded(dir: string, typed: string, inner: string, entries: SkillEntry[] | undefined): Skill {
  try {
    return loadSkill(dir, entries ? { entries } : {});
  } catch (err) {
    throw relabelError(err, relabeler(dir, typed, inner));
  }
}

/** What prepareLocal may be told of a skill besides where it is. */
export interface LocalOptions {
  /** Rewrites the skill's folder wherever a text names it (a scratch folder, as the user knows it). */
  relabel?: Relabel;
  /** The skill's folder was not named by its author (name-matches-folder does not apply); with relabel by default. */
  folderNotNamed?: boolean;
  /** Its files, when already known (an archive's, unpacked). */
  files?: StoredFile[];
  /** The skill, when already loaded from `root`. */
  skill?: Skill;
  /** The integrity of `files`, when worked out already (while unpacking). */
  integrity?: string;
  /** Without `files`: they are listed and read once here, their bytes kept while this budget lasts. */
  keep?: KeepBudget;
  /** `root` holds `files` and nothing else (ArchivedSkill's `only`). */
  only?: boolean;
  /** The listing of `root` that discovery read on the way: the load does not list it again. */
  listing?: Dirent[];
  /**
   * The version it is installed and locked under when that is not its own (an npm package's): its own, whatever it
   * says, is then no reason to refuse it.
   */
  version?: string;
}

/**
 * Load and check a local skill; `source` is its lock entry's source. `files` are its files when already known (an
 * archive's, unpacked); else, with a `keep` budget, its files are listed and read once here, for the integrity and
 * for the copies the install makes next (the store's, the agent folders'), their bytes kept while the budget lasts.
 */
export async function prepareLocal(
  root: string,
  typed: string,
  source: string,
  local: LocalOptions = {},
): Promise<Prepared | InvalidSource> {
  const { relabel, files, keep, only = false } = local;
  const folderNotNamed = local.folderNotNamed ?? relabel !== undefined;
  try {
    // Loaded here for its files to be listed and read next: the files the load reads are read once.
    const held = !local.skill && !files && keep ? new Map<string, HeldFile>() : undefined;
    const skill = local.skill ?? loadSkill(root, { listing: local.listing, ...(held ? { held } : {}) });
    const kept = local.version === undefined ? skill : { ...skill, version: local.version };
    const { errors: problems, misnamed } = await installProblems(kept);
    if (problems.length > 0) {
      const shown = relabel
        ? problems.map((d) => ({
            ...d,
            file: relabel(d.file),
            message: relabel(d.message),
            ...(d.hint === undefined ? {} : { hint: relabel(d.hint) }),
          }))
        : problems;
      return {
        source: typed,
        id: skill.id,
        message: `${typed}: ${skill.id} is not valid; nothing was installed`,
        diagnostics: shown,
      };
    }
    // Loaded just now (or from entries a whole walk found): its files are those its load walked, not listed again.
    const listed = files ?? (keep ? skillFiles(skill.root, skill.entries, held) : undefined);
    const known = files ? local.integrity : undefined;
    return {
      typed,
      source,
      skill,
      integrity: known ?? (files ? digest(files) : listed && keep ? digestKeeping(listed, keep) : integrityOf(skill)),
      ...(listed ? { files: listed } : {}),
      ...(only && files ? { only } : {}),
      ...(relabel ? { relabel } : {}),
      // Said only of a folder its author named (an archive's or a stored copy's folder is install's own).
      ...(misnamed && !folderNotNamed ? { folderName: basename(skill.root) } : {}),
    };
  } catch (err) {
    throw relabelError(err, relabel);
  }
}

/**
 * One skill of an unpacked archive, prepared. An archive of several skills locks each as `archive:<path>#<path
 * inside>` and names it `<archive>: <path inside>`; an archive of one stays `archive:<path>`.
 */
export async function prepareArchived(
  a: ArchivedSkill,
  archive: string,
  lockedPath: string,
  several: boolean,
  version?: string,
): Promise<Prepared | InvalidSource> {
  const source = formatLockSource({ kind: 'archive', path: lockedPath, ...(several ? { inner: a.inner } : {}) });
  const relabel = relabeler(a.root, archive, a.inner);
  const typed = several ? `${archive}: ${a.inner}` : archive;
  // Moved since it was loaded: loaded again, from its entries (no walk) when known.
  const skill = a.skill ?? (a.entries ? loaded(a.root, archive, a.inner, a.entries) : undefined);
  const integrity = hashedWhileUnpacked.get(a.files);
  const p = await prepareLocal(a.root, typed, source, {
    relabel,
    folderNotNamed: true,
    files: a.files,
    ...(skill ? { skill } : {}),
    ...(integrity ? { integrity } : {}),
    only: a.only === true,
    ...(version === undefined ? {} : { version }),
  });
  const nested = a.nestedIn === undefined || 'diagnostics' in p ? p : { ...p, nestedIn: a.nestedIn };
  return a.template ? { ...nested, template: true } : nested;
}
