// Installing skills: from a folder, an archive, or a spec resolved against a registry, with their
// dependencies; into the registry (registerSkill does the store and the index) and, when asked, into flat
// `<into>/<id>/` folders; recorded in skills-lock.json. Everything that can refuse (validation, resolution, the
// lock, an existing folder) is decided before the first write, so a refused install leaves nothing behind.
import { cpSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, rmdirSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import rcompare from 'semver/functions/rcompare.js';
import { SkillsError, isSkillsError } from '../errors.js';
import { INTO_PATH, LOCKFILE_NAME, diffLockfiles, emptyLockfile, formatLockSource, intoOf, parseLockSource, parseLockfile, serializeLockfile, type LockEntry, type Lockfile } from '../formats/lockfile.js';
import type { Release } from '../formats/index-file.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Skill } from '../model/skill.js';
import { parseSpec, type DependencySpec } from '../model/spec.js';
import { DEFAULT_LIMITS, extractArchive, skillFoldersIn, type ArchiveLimits } from '../fs/archive.js';
import { cleanStale, tempName, writeAtomic } from '../fs/atomic.js';
import { discoverSkills, isSkillFolder } from '../skill/discover.js';
import { isInside, present } from '../fs/walk.js';
import { loadSkill } from '../skill/load.js';
import { folderIntegrity, integrityOf, isUnversioned, readIndex, readReleases, registerSkill, registryVersion, removeSkill, unuseSkill, unversionedWarning, useSkill, type RegisterStatus } from '../registry/registry.js';
import { catalogFromIndex, resolveSpecs, type Catalog, type CatalogRelease, type ResolvedSkill } from '../resolve/resolve.js';
import { validateSkills } from '../skill/validate.js';
import { isStrictSemver } from '../model/spec.js';

const UNPACK_PREFIX = '.unpack-';
const STAGING_PREFIX = '.staging-';
const TRASH_PREFIX = '.trash-';
const REMOVING_PREFIX = '.removing-';

export interface InstallOptions {
  /** The registry installed into (absolute). */
  registry: string;
  /** skills-lock.json (absolute). */
  lockfile: string;
  /** As typed: folders, archives, specs. None: install what the lock says. */
  sources: string[];
  /** Another registry folder to resolve specs and dependencies from (absolute). */
  from?: string;
  /** Also write flat `<into>/<id>/` folders here (absolute), besides the folders the lock records (and record it). */
  into?: string;
  /** Record this consumer in the usedBy of every skill installed. */
  consumer?: string;
  /** Fail (before writing) when skills-lock.json would change. */
  frozen?: boolean;
  /** Replace a registered version with other content, and an `<into>/<id>` that skills did not write. */
  force?: boolean;
  cwd: string;
  nodeVersion: string;
  limits?: ArchiveLimits;
  /** Told what is happening, for a spinner. */
  progress?: (text: string) => void;
}

export interface InstalledSkill {
  id: string;
  version: string;
  /** As the lock records it. */
  source: string;
  integrity: string;
  dependencies: Record<string, string>;
  /** What the registry did: added, updated, replaced or unchanged. */
  status: RegisterStatus;
  /** The stored copy (absolute). */
  path: string;
  /** The first of `placed`: `<into>/<id>` (absolute), --into's when it is given. */
  into?: string;
  intoStatus?: 'written' | 'unchanged';
  /** Every `<into>/<id>` written or found identical: --into's first, then the lock's recorded folders. */
  placed?: Placed[];
  /** Named on the command line (or in the lock), as opposed to pulled in as a dependency. */
  requested: boolean;
}

export interface Placed {
  /** `<folder>/<id>` (absolute). */
  into: string;
  status: 'written' | 'unchanged';
}

/** A folder that gets flat `<id>/` copies: --into, or one the lock records. */
interface Place {
  abs: string;
  /** How messages name it: `--into <abs>`, or `<lockfile>: into "<path>"`. */
  label: string;
  recorded: boolean;
}

export interface InvalidSource {
  /** The folder or archive as typed. */
  source: string;
  id?: string;
  message: string;
  diagnostics: Diagnostic[];
}

export interface InstallResult {
  registry: string;
  lockfile: string;
  lockChanged: boolean;
  /** Dependencies first. */
  skills: InstalledSkill[];
  warnings: string[];
}

/** ok, or a refusal that is a finding about the skills (exit 1): invalid, no resolution, a frozen lock that would change. */
export type InstallOutcome =
  | ({ ok: true } & InstallResult)
  | { ok: false; kind: 'invalid' | 'unresolved' | 'frozen'; error: SkillsError; invalid?: InvalidSource[]; changes?: string[]; warnings: string[] };

/** A local skill read and checked: from a folder, or from an archive unpacked into the scratch. */
interface Prepared {
  typed: string;
  source: string;
  skill: Skill;
  integrity: string;
  /** For a skill from an archive: names its scratch folder as `<archive>: <path inside>` in messages. */
  relabel?: Relabel;
}

type Relabel = (text: string) => string;

/** A skill found in an unpacked archive, moved to a scratch folder named after it. */
interface ArchivedSkill {
  /** `<registry>/.unpack-…/<id>`. */
  root: string;
  /** Its folder inside the archive; '' when the skill file sits at the archive's top. */
  inner: string;
  id: string;
}

/** Where one resolved skill comes from. */
type Plan =
  | { kind: 'local'; prepared: Prepared }
  | { kind: 'from'; root: string; release: Release; owner: string; registry: string }
  | { kind: 'present'; release: Release };

/** The nearest skills-lock.json from `cwd` up to the repository root (the first folder with .git); else `<cwd>/skills-lock.json`. */
export function findLockfile(cwd: string): string {
  for (let d = resolve(cwd), prev = ''; d !== prev; prev = d, d = dirname(d)) {
    if (present(join(d, LOCKFILE_NAME))) return join(d, LOCKFILE_NAME);
    if (present(join(d, '.git'))) break;
  }
  return join(resolve(cwd), LOCKFILE_NAME);
}

/** Read skills-lock.json; undefined when there is none, a located E_CONFIG when it is corrupt. */
export function readLockfile(file: string): Lockfile | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SkillsError('E_IO', `cannot read ${file}: ${(err as Error).message}`, { cause: err });
  }
  const { lock, problem } = parseLockfile(text, LOCKFILE_NAME);
  if (!lock) {
    throw new SkillsError('E_CONFIG', `${file}:${problem!.line}:${problem!.column}: ${problem!.message}`, {
      hint: `nothing was installed or written: fix ${file} by hand (see the README's lockfile format), or delete it and install again`,
    });
  }
  return lock;
}


/** A path as the lock keeps it: relative to the lockfile's folder, forward slashes. */
function lockPath(lockDir: string, abs: string): string {
  const rel = relative(lockDir, abs);
  return (rel === '' ? '.' : isAbsolute(rel) ? abs : rel).split(sep).join('/');
}

const ARCHIVE_NAME = /\.(tgz|tar\.gz|tar|skill|zip)$/i;

/** npm's rule: a source is a path when it looks like one (`.`, `/`, a slash inside, an archive's name); else a spec. */
export function classifySource(raw: string, cwd: string): { kind: 'folder' | 'archive'; abs: string } | { kind: 'spec'; spec: DependencySpec } {
  const looksLikePath = raw.startsWith('.') || raw.startsWith('/') || raw.startsWith('~') || raw.includes('/') || raw.includes('\\') || ARCHIVE_NAME.test(raw);
  if (!looksLikePath) {
    const spec = parseSpec(raw);
    if ('error' in spec) {
      throw new SkillsError('E_USAGE', `${spec.error}; or, for a folder or an archive, a path such as ./${raw}`, {
        hint: 'a source is a skill folder, a .tgz made by skills pack, a .skill or .zip, or a spec: id, id@1.2.3, id@^1.2',
      });
    }
    return { kind: 'spec', spec };
  }
  const abs = resolve(cwd, raw);
  let st;
  try {
    st = statSync(abs);
  } catch {
    throw new SkillsError('E_NOT_FOUND', `${raw}: no such file or folder`, { hint: 'give a skill folder, a .tgz made by skills pack, or a .skill / .zip archive' });
  }
  return { kind: st.isDirectory() ? 'folder' : 'archive', abs };
}

/** The findings that make a skill uninstallable: validation errors, and a missing or malformed version. */
async function problemsOf(skill: Skill, folderNotNamed: boolean): Promise<Diagnostic[]> {
  const [report] = await validateSkills([skill]);
  // A stored copy lives in `<id>@<version>/`, and a skill from an archive in a folder install made for it: neither
  // folder is named by the skill's author.
  const errors = report!.diagnostics.filter((d) => d.severity === 'error' && !(folderNotNamed && d.rule === 'name-matches-folder'));
  // No version is fine (kept as 0.0.0, with a warning); a version that is not MAJOR.MINOR.PATCH is not.
  const v = skill.version;
  if (errors.length === 0 && !isUnversioned(skill) && !isStrictSemver(v!)) {
    errors.push({
      ruleId: 'SK023',
      rule: 'version-semver',
      severity: 'error',
      message: `version "${v}" is not a semantic version: expected MAJOR.MINOR.PATCH, e.g. "1.0.0"`,
      file: skill.file,
      hint: skill.layout === 'skill-md' ? 'add to the frontmatter:\nmetadata:\n  version: "1.0.0"' : 'add "version": "1.0.0" to manifest.json',
    });
  }
  return errors;
}


/** The skill folders below a folder that is not one itself (none when it holds none). */
function skillsBelow(dir: string): string[] {
  try {
    return discoverSkills([dir], { cwd: dir }).roots.filter((r) => r !== dir);
  } catch (err) {
    if (isSkillsError(err)) return [];
    throw err;
  }
}

/** The unpack folders this run made in the registry, removed at the end whatever happens. */
class Scratch {
  readonly dirs: string[] = [];
  /** Each archive is unpacked once a run, however many skills (or lock entries) it stands for. */
  readonly archives = new Map<string, Promise<ArchivedSkill[]>>();
  private created = false;
  constructor(private readonly registry: string) {}
  folder(base: string): string {
    if (!present(this.registry)) {
      mkdirSync(this.registry, { recursive: true });
      this.created = true;
    }
    const dir = join(this.registry, tempName(UNPACK_PREFIX, base.replace(/[^\w.@-]/g, '_')));
    this.dirs.push(dir);
    return dir;
  }
  cleanup(): void {
    for (const d of this.dirs) rmSync(d, { recursive: true, force: true });
    // A registry this run created and left empty goes too: a refused install leaves nothing behind.
    if (this.created) {
      try {
        rmdirSync(this.registry);
      } catch {
        /* not empty: the install wrote to it */
      }
    }
  }
}

/** Rewrites the scratch folder `from` of an unpacked skill as `<archive>: <path inside>` wherever a text names it. */
function relabeler(from: string, archive: string, inner: string): Relabel {
  const asFolder = inner === '' ? archive : `${archive}: ${inner}`;
  const asParent = inner === '' ? `${archive}: ` : `${archive}: ${inner}/`;
  return (text) => text.split(`${from}${sep}`).join(asParent).split(from).join(asFolder);
}

function relabelError(err: unknown, relabel: Relabel | undefined): unknown {
  if (!relabel || !isSkillsError(err)) return err;
  return new SkillsError(err.code, relabel(err.message), { cause: err, ...(err.hint === undefined ? {} : { hint: relabel(err.hint) }) });
}

/** Unpack an archive (once a run) into the scratch; each skill in it is moved to a folder named after the skill. */
function unpackArchive(abs: string, typed: string, scratch: Scratch, options: InstallOptions): Promise<ArchivedSkill[]> {
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
  await extractArchive(abs, dest, options.limits ?? DEFAULT_LIMITS);
  try {
    return skillFoldersIn(dest, abs, isSkillFolder).map(({ dir, inner }) => {
      // A folder inside an archive is not the skill's folder (a release's pdf-1.2.0/, a repository's repo-main/,
      // or none at the top): the skill gets a folder named after it, as a skill folder is.
      const { id } = loadSkill(dir);
      const name = (dir === dest && id === basename(dest) ? '' : id.replace(/[^\p{L}\p{N}-]/gu, '-')) || 'skill';
      const home = scratch.folder(name);
      mkdirSync(home);
      const root = join(home, name);
      renameSync(dir, root);
      return { root, inner, id };
    });
  } catch (err) {
    throw relabelError(err, relabeler(dest, typed, ''));
  }
}

/** Load and check a local skill; `source` is its lock entry's source. */
async function prepareLocal(root: string, typed: string, source: string, relabel?: Relabel): Promise<Prepared | InvalidSource> {
  try {
    const skill = loadSkill(root);
    const problems = await problemsOf(skill, relabel !== undefined);
    if (problems.length > 0) {
      const shown = relabel ? problems.map((d) => ({ ...d, file: relabel(d.file), message: relabel(d.message), ...(d.hint === undefined ? {} : { hint: relabel(d.hint) }) })) : problems;
      return { source: typed, id: skill.id, message: `${typed}: ${skill.id} is not valid; nothing was installed`, diagnostics: shown };
    }
    return { typed, source, skill, integrity: integrityOf(skill), ...(relabel ? { relabel } : {}) };
  } catch (err) {
    throw relabelError(err, relabel);
  }
}

/**
 * One skill of an unpacked archive, prepared. An archive of several skills locks each as `archive:<path>#<path
 * inside>` and names it `<archive>: <path inside>`; an archive of one stays `archive:<path>`.
 */
function prepareArchived(a: ArchivedSkill, archive: string, lockedPath: string, several: boolean): Promise<Prepared | InvalidSource> {
  const source = formatLockSource({ kind: 'archive', path: lockedPath, ...(several ? { inner: a.inner } : {}) });
  return prepareLocal(a.root, several ? `${archive}: ${a.inner}` : archive, source, relabeler(a.root, archive, a.inner));
}

/** The registry's catalog with the local skills laid over it, so their dependencies resolve with everything else. */
function overlayCatalog(base: Catalog, locals: Map<string, Prepared>): Catalog {
  const lists = new Map<string, string[]>();
  return {
    ids: () => [...new Set([...base.ids(), ...locals.keys()])],
    versions(id) {
      const local = locals.get(id);
      if (!local) return base.versions(id);
      let list = lists.get(id);
      if (!list) {
        list = [...new Set([...(base.versions(id) ?? []), registryVersion(local.skill)])].sort(rcompare);
        lists.set(id, list);
      }
      return list;
    },
    release(id, version): CatalogRelease | undefined {
      const local = locals.get(id);
      if (local && registryVersion(local.skill) === version) {
        const s = local.skill;
        return { version, dependencies: s.dependencies, nodeVersion: s.nodeVersion, systemPackages: s.systemPackages, layout: s.layout, path: '' };
      }
      return base.release(id, version);
    },
  };
}

const depsOf = (r: ResolvedSkill): Record<string, string> =>
  Object.fromEntries(r.dependencies.map((d) => [d.slice(0, d.indexOf('@', 1)), d.slice(d.indexOf('@', 1) + 1)]));

function mismatch(id: string, version: string, lockfile: string, locked: string, origin: string, found: string): SkillsError {
  return new SkillsError('E_INVALID', `integrity mismatch for ${id}@${version}: ${lockfile} has ${locked}, but ${origin} has ${found}; nothing was installed`, {
    hint: `if the new content is wanted, give the skill a new version; or run skills uninstall ${id} and install it again`,
  });
}

/**
 * The folders that get `<id>/` copies: --into first (so a result's `into` stays --into's), then the lock's recorded
 * ones. Each must be a folder, or not there yet below one; a recorded one must not lead out of the lockfile's folder
 * through a symlink (the schema has already refused `..` and absolute paths).
 */
function placesOf(lockfile: string, lock: Lockfile | undefined, into: string | undefined, nothing = 'nothing was installed'): Place[] {
  const lockDir = dirname(lockfile);
  const places: Place[] = into === undefined ? [] : [{ abs: into, label: `--into ${into}`, recorded: false }];
  for (const rel of lock ? intoOf(lock) : []) {
    const abs = resolve(lockDir, rel);
    if (abs === into) places[0]!.recorded = true;
    else places.push({ abs, label: `${lockfile}: into "${rel}"`, recorded: true });
  }
  for (const place of places) {
    // It is made on the first write: the nearest part of it that exists must be a folder.
    for (let d = place.abs; ; d = dirname(d)) {
      let st;
      try {
        st = statSync(d);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT' && dirname(d) !== d) continue;
      }
      if (!st?.isDirectory()) throw new SkillsError('E_USAGE', `${place.label}: ${d} is not a folder; ${nothing}`, { hint: 'give the folder agents read skills from, e.g. .claude/skills' });
      if (place.recorded && place.abs !== into && !isInside(realpathSync(lockDir), realpathSync(d))) {
        throw new SkillsError('E_CONFIG', `${place.label}: ${d} leads out of ${lockDir} (through a symlink, to ${realpathSync(d)}); ${nothing}`, {
          hint: `a lock names folders inside its project: remove that entry from "into" in ${lockfile}, or pass the folder with --into if it is meant`,
        });
      }
      break;
    }
  }
  return places;
}

/** `skills install`: install the sources (or, with none, exactly what the lockfile says). */
export async function installSkills(options: InstallOptions): Promise<InstallOutcome> {
  const { registry, lockfile } = options;
  const lockDir = dirname(lockfile);
  cleanStale(registry, [UNPACK_PREFIX]);
  if (options.from !== undefined && !present(join(options.from, 'index.json'))) {
    throw new SkillsError('E_NOT_FOUND', `--from ${options.from}: no registry there (no index.json)`, { hint: 'give a registry folder: one that skills sync wrote, with index.json in it' });
  }
  const before = readLockfile(lockfile);
  const places = placesOf(lockfile, before, options.into);
  for (const p of places) cleanStale(p.abs, [STAGING_PREFIX, REMOVING_PREFIX], { prefix: TRASH_PREFIX, target: (base) => base });
  const scratch = new Scratch(registry);
  try {
    const planned = options.sources.length === 0 ? await planFromLock(options, before, scratch) : await planFromSources(options, before ?? emptyLockfile(), scratch, lockDir);
    if (!planned.ok) return planned;
    // --into is recorded, so the next `skills install` (a teammate's clone) places skills there too; --frozen
    // records nothing, and a folder outside the project cannot be recorded.
    const into = options.into;
    if (into !== undefined && !places[0]!.recorded && !options.frozen) {
      const rel = lockPath(lockDir, into);
      if (isInside(lockDir, into) && INTO_PATH.test(rel)) planned.next = { ...planned.next, into: [...intoOf(planned.next), rel].sort() };
      else planned.warnings.push(`--into ${into} is outside ${lockDir}, so ${LOCKFILE_NAME} does not record it: pass --into again to place skills there`);
    }
    return await carryOut(options, planned, before, places);
  } finally {
    scratch.cleanup();
  }
}

interface Planned {
  ok: true;
  /** `intoActions`: one per place, in order. */
  items: { resolved: ResolvedSkill; plan: Plan; entry: LockEntry; requested: boolean; intoActions?: ('write' | 'unchanged')[] }[];
  next: Lockfile;
  warnings: string[];
}

async function planFromSources(options: InstallOptions, lock: Lockfile, scratch: Scratch, lockDir: string): Promise<Planned | Extract<InstallOutcome, { ok: false }>> {
  const specs: DependencySpec[] = [];
  const locals = new Map<string, Prepared>();
  const invalid: InvalidSource[] = [];
  for (const raw of options.sources) {
    const c = classifySource(raw, options.cwd);
    if (c.kind === 'spec') {
      specs.push(c.spec);
      continue;
    }
    const prepared: (Prepared | InvalidSource)[] = [];
    if (c.kind === 'folder') {
      // A folder that holds skills (a clone of a skills repository) stands for every skill in it, as sync reads it.
      const folders = isSkillFolder(c.abs) ? [] : skillsBelow(c.abs);
      for (const abs of folders.length > 0 ? folders : [c.abs]) {
        prepared.push(await prepareLocal(abs, abs === c.abs ? raw : join(raw, relative(c.abs, abs)), formatLockSource({ kind: 'folder', path: lockPath(lockDir, abs) })));
      }
    } else {
      // So does an archive that holds skills (a repository's "Download ZIP", git archive).
      const found = await unpackArchive(c.abs, raw, scratch, options);
      for (const a of found) prepared.push(await prepareArchived(a, raw, lockPath(lockDir, c.abs), found.length > 1));
    }
    for (const p of prepared) {
      if ('diagnostics' in p) {
        invalid.push(p);
        continue;
      }
      const twice = locals.get(p.skill.id);
      if (twice) throw new SkillsError('E_USAGE', `${p.skill.id} is given twice: ${twice.typed} and ${p.typed}`, { hint: 'install one of them' });
      locals.set(p.skill.id, p);
    }
  }
  if (invalid.length > 0) {
    const error = new SkillsError('E_INVALID', invalid.map((i) => i.message).join('\n'), { hint: 'run skills validate on the skill folder (unpack an archive first) to see every finding' });
    return { ok: false, kind: 'invalid', error, invalid, warnings: [] };
  }
  const source = options.from ?? options.registry;
  options.progress?.('resolving dependencies');
  const base = catalogFromIndex(readIndex(source), (id) => readReleases(source, id));
  const catalog = overlayCatalog(base, locals);
  const roots: DependencySpec[] = [...[...locals.values()].map((p) => ({ raw: `${p.skill.id}@${registryVersion(p.skill)}`, id: p.skill.id, range: registryVersion(p.skill), exact: true })), ...specs];
  const resolution = resolveSpecs(roots, catalog, { nodeVersion: options.nodeVersion });
  if (!resolution.ok) return { ok: false, kind: 'unresolved', error: resolution.error, warnings: resolution.warnings };
  const requested = new Set(resolution.roots);
  const owners = new Map(options.from ? readIndex(options.from).skills.map((e) => [e.id, e.owner]) : []);
  const items: Planned['items'] = [];
  for (const r of resolution.resolved) {
    const local = locals.get(r.id);
    let plan: Plan;
    let entrySource: string;
    let integrity: string;
    if (local && registryVersion(local.skill) === r.version) {
      plan = { kind: 'local', prepared: local };
      entrySource = local.source;
      integrity = local.integrity;
    } else {
      const release = readReleases(source, r.id)[r.version]!;
      integrity = release.integrity;
      if (options.from) {
        plan = { kind: 'from', root: join(options.from, release.path), release, owner: owners.get(r.id) ?? 'built-in', registry: options.from };
        entrySource = `registry:${lockPath(lockDir, options.from)}`;
      } else {
        plan = { kind: 'present', release };
        entrySource = 'registry';
      }
    }
    const old = lock.skills[r.id];
    // An unversioned skill from a folder or archive changes without a version to bump: its new content is an update.
    const unversionedUpdate = plan.kind === 'local' && isUnversioned(plan.prepared.skill);
    if (old && old.version === r.version && old.integrity !== integrity && !unversionedUpdate) {
      throw mismatch(r.id, r.version, options.lockfile, old.integrity, plan.kind === 'local' ? plan.prepared.typed : entrySource, integrity);
    }
    // The same content, pulled in again from elsewhere (a dependency now found in the registry): the lock keeps
    // where it first came from, so installs in a different order write the same lock.
    const keep = old !== undefined && old.version === r.version && plan.kind !== 'local';
    const entry: LockEntry = { version: r.version, source: keep ? old!.source : entrySource, integrity, dependencies: depsOf(r) };
    items.push({ resolved: r, plan, entry, requested: requested.has(`${r.id}@${r.version}`) });
  }
  const next: Lockfile = { ...lock, skills: { ...lock.skills } };
  for (const i of items) next.skills[i.resolved.id] = i.entry;
  const changes = diffLockfiles(lock, next);
  if (options.frozen && changes.length > 0) {
    return {
      ok: false,
      kind: 'frozen',
      changes,
      warnings: resolution.warnings,
      error: new SkillsError('E_INVALID', `--frozen: ${options.lockfile} would change; nothing was installed:\n${changes.map((c) => `  ${c}`).join('\n')}`, {
        hint: 'run skills install without --frozen and commit skills-lock.json',
      }),
    };
  }
  const unversioned = [...locals.values()].filter((p) => isUnversioned(p.skill)).map((p) => unversionedWarning(p.skill));
  return { ok: true, items, next, warnings: [...unversioned, ...resolution.warnings] };
}

async function planFromLock(options: InstallOptions, lock: Lockfile | undefined, scratch: Scratch): Promise<Planned> {
  if (!lock) {
    throw new SkillsError('E_USAGE', `nothing to install: no ${LOCKFILE_NAME} in ${options.cwd} or the folders above it (up to the repository root)`, {
      hint: 'name what to install: skills install <folder | archive | id[@range]>',
    });
  }
  const lockDir = dirname(options.lockfile);
  const items: Planned['items'] = [];
  const ids = Object.keys(lock.skills).sort();
  for (const id of ids) {
    const entry = lock.skills[id]!;
    const where = `${id}@${entry.version}`;
    let plan: Plan;
    let found: string;
    let origin: string;
    const src = parseLockSource(entry.source);
    if (src.kind === 'folder' || src.kind === 'archive') {
      let { path } = src;
      let inner = src.kind === 'archive' ? src.inner : undefined;
      // A lock written before `#<path inside>` existed may have a `#` in the archive's own path.
      const whole = entry.source.slice(entry.source.indexOf(':') + 1);
      if (inner !== undefined && (path === '' || !present(resolve(lockDir, path))) && present(resolve(lockDir, whole))) [path, inner] = [whole, undefined];
      const abs = resolve(lockDir, path);
      if (!present(abs)) throw new SkillsError('E_NOT_FOUND', `${options.lockfile}: ${where} comes from ${entry.source}, and ${abs} is not there`, { hint: `restore it, or install ${id} again from where it is now` });
      let p: Prepared | InvalidSource;
      let shown = abs;
      if (src.kind === 'folder') p = await prepareLocal(abs, path, entry.source);
      else {
        const inArchive = await unpackArchive(abs, path, scratch, options);
        // No path inside: the archive's one skill (or, should it hold several now, the one with the locked id).
        const a = inner !== undefined ? inArchive.find((f) => f.inner === inner) : inArchive.length === 1 ? inArchive[0] : inArchive.find((f) => f.id === id);
        if (!a) {
          throw new SkillsError('E_NOT_FOUND', `${options.lockfile}: ${where} comes from ${entry.source}, but ${abs} holds no skill ${inner !== undefined ? `at "${inner}"` : `with the id ${id}`}; it holds ${inArchive.map((f) => (f.inner === '' ? `${f.id} at its top` : `${f.id} in "${f.inner}"`)).join(', ')}. Nothing was installed`, {
            hint: `install ${id} again from where it is now`,
          });
        }
        p = await prepareArchived(a, path, path, inner !== undefined);
        if (inner !== undefined) shown = `${abs}: ${inner}`;
      }
      if ('diagnostics' in p) {
        throw new SkillsError('E_INVALID', `${p.message}:\n${p.diagnostics.map((d) => `  ${d.file}${d.line ? `:${d.line}:${d.column ?? 1}` : ''}  ${d.message}`).join('\n')}`, {
          hint: src.kind === 'archive' ? `unpack ${abs} and run skills validate on the skill folder` : `run skills validate ${abs}`,
        });
      }
      if (p.skill.id !== id || registryVersion(p.skill) !== entry.version) {
        throw new SkillsError('E_INVALID', `${options.lockfile} locks ${where}, but ${shown} holds ${p.skill.id}@${registryVersion(p.skill)}; nothing was installed`, { hint: `install it again to update the lock: skills install ${path}` });
      }
      plan = { kind: 'local', prepared: { ...p, source: entry.source } };
      found = p.integrity;
      origin = shown;
    } else {
      const arg = src.dir ?? '';
      const reg = arg !== '' ? resolve(lockDir, arg) : options.registry;
      const index = readIndex(reg);
      const e = index.skills.find((s) => s.id === id);
      const release = e?.versions.includes(entry.version) ? readReleases(reg, id)[entry.version] : undefined;
      if (!release) {
        throw new SkillsError('E_NOT_FOUND', `${options.lockfile} locks ${where} from the registry ${reg}, which does not have it${e ? ` (it has ${e.versions.join(', ')})` : ''}; nothing was installed`, {
          hint: arg ? 'restore that registry folder' : `register it (skills sync <dir>), or use --registry to point at the registry that has it`,
        });
      }
      found = release.integrity;
      origin = reg;
      plan = arg ? { kind: 'from', root: join(reg, release.path), release, owner: e!.owner, registry: reg } : { kind: 'present', release };
    }
    if (found !== entry.integrity) throw mismatch(id, entry.version, options.lockfile, entry.integrity, origin, found);
    const resolved: ResolvedSkill = { id, version: entry.version, layout: plan.kind === 'local' ? plan.prepared.skill.layout : plan.release.layout, path: '', dependencies: Object.entries(entry.dependencies).map(([d, v]) => `${d}@${v}`) };
    items.push({ resolved, plan, entry, requested: true });
  }
  return { ok: true, items, next: lock, warnings: [] };
}

async function carryOut(options: InstallOptions, planned: Planned, before: Lockfile | undefined, places: Place[]): Promise<InstallOutcome> {
  const { registry } = options;
  const previous = before ?? emptyLockfile();
  // Checks that read the disk but write nothing: stored copies from another registry, <into>/<id> folders.
  const fromSkills = new Map<string, Skill>();
  for (const item of planned.items) {
    const { plan, resolved } = item;
    if (plan.kind === 'from') {
      options.progress?.(`checking ${resolved.id}@${resolved.version}`);
      const skill = loadSkill(plan.root);
      const problems = await problemsOf(skill, true);
      if (problems.length > 0) {
        throw new SkillsError('E_INVALID', `${plan.root}: the stored copy of ${resolved.id}@${resolved.version} in ${plan.registry} is not valid: ${problems.map((d) => d.message).join('; ')}`, { hint: `run skills validate ${plan.root}` });
      }
      const found = integrityOf(skill);
      if (found !== plan.release.integrity) throw mismatch(resolved.id, resolved.version, join(plan.registry, 'releases', `${resolved.id}.json`), plan.release.integrity, plan.root, found);
      fromSkills.set(resolved.id, skill);
    }
    item.intoActions = places.map(({ abs }) => {
      const target = join(abs, resolved.id);
      if (!present(target)) return 'write';
      const existing = statSync(target).isDirectory() ? folderIntegrity(target) : undefined;
      if (existing === item.entry.integrity) return 'unchanged';
      if (options.force || (existing !== undefined && previous.skills[resolved.id]?.integrity === existing)) return 'write';
      throw new SkillsError('E_EXISTS', `${target} already exists and is not a copy skills installed (its content matches no version in ${options.lockfile}); nothing was installed`, {
        hint: `move it away, or run again with --force to replace it`,
      });
    });
  }

  const skills: InstalledSkill[] = [];
  for (const item of planned.items) {
    const { plan, resolved, entry } = item;
    let status: RegisterStatus = 'unchanged';
    let path: string;
    if (plan.kind === 'present') {
      path = join(registry, plan.release.path);
      if (!present(path)) {
        throw new SkillsError('E_CONFIG', `${registry}: ${resolved.id}@${resolved.version} is in the index but its stored copy ${path} is missing`, { hint: `register it again: skills sync <its folder> --force` });
      }
    } else {
      options.progress?.(`installing ${resolved.id}@${resolved.version}`);
      const skill = plan.kind === 'local' ? plan.prepared.skill : fromSkills.get(resolved.id)!;
      // An unpacked archive is this run's own scratch folder, inside the registry: moved into the store, not copied.
      const adopt = plan.kind === 'local' && plan.prepared.source.startsWith('archive:') && isInside(registry, skill.root);
      const relabel = plan.kind === 'local' ? plan.prepared.relabel : undefined;
      let r;
      try {
        r = await registerSkill(registry, skill, { force: options.force, adopt, ...(adopt ? { integrity: entry.integrity } : {}), ...(plan.kind === 'from' ? { owner: plan.owner } : {}) });
      } catch (err) {
        throw relabelError(err, relabel);
      }
      if (r.integrity !== entry.integrity) {
        throw new SkillsError('E_IO', `${relabel ? relabel(skill.root) : skill.root} changed while it was being installed (integrity ${entry.integrity}, then ${r.integrity})`, { hint: 'run the install again once the skill is written' });
      }
      status = r.status;
      path = join(registry, r.path);
    }
    const installed: InstalledSkill = { id: resolved.id, version: resolved.version, source: entry.source, integrity: entry.integrity, dependencies: entry.dependencies, status, path, requested: item.requested };
    if (places.length > 0) {
      installed.placed = places.map(({ abs }, i) => {
        const action = item.intoActions![i];
        if (action === 'write') placeInto(abs, resolved.id, path);
        return { into: join(abs, resolved.id), status: action === 'unchanged' ? 'unchanged' : 'written' };
      });
      installed.into = installed.placed[0]!.into;
      installed.intoStatus = installed.placed[0]!.status;
    }
    skills.push(installed);
  }
  if (options.consumer) for (const s of skills) await useSkill(registry, s.id, options.consumer);
  const text = serializeLockfile(planned.next);
  // --frozen never writes the lock: not even one whose text is only reordered (a hand edit).
  const lockChanged = !options.frozen && (before === undefined || serializeLockfile(before) !== text);
  if (lockChanged) writeAtomic(options.lockfile, text);
  return { ok: true, registry, lockfile: options.lockfile, lockChanged, skills, warnings: planned.warnings };
}

/** Copy a stored skill to `<into>/<id>` through a staging folder renamed into place; the old copy goes only after. */
function placeInto(into: string, id: string, stored: string): void {
  const staging = join(into, tempName(STAGING_PREFIX, id));
  const target = join(into, id);
  try {
    mkdirSync(into, { recursive: true });
    cpSync(stored, staging, { recursive: true, verbatimSymlinks: true, errorOnExist: true, force: false });
    let trash: string | undefined;
    if (present(target)) {
      trash = join(into, tempName(TRASH_PREFIX, id));
      renameSync(target, trash);
    }
    renameSync(staging, target);
    if (trash) rmSync(trash, { recursive: true, force: true });
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw new SkillsError('E_IO', `cannot write ${target}: ${(err as Error).message}`, { cause: err });
  }
}

export interface UninstallOptions {
  registry: string;
  lockfile: string;
  id: string;
  /** Also remove `<into>/<id>` (absolute), whatever it holds. */
  into?: string;
  consumer?: string;
}

export interface UninstallResult {
  id: string;
  /** The version the lock had (or undefined when it had none). */
  version?: string;
  /** The first of `removed`: --into's `<into>/<id>` when it was removed. */
  into?: string;
  /** Every `<folder>/<id>` removed: --into's, then the lock's recorded folders'. */
  removed: string[];
  /** True when the lock had the skill and no longer has it. */
  lock: boolean;
  /** Stored copies removed (absolute). */
  store: string[];
  /** The consumers that keep the skill in the store. */
  keptFor: string[];
  warnings: string[];
}

/** `skills uninstall <id>`: out of --into and the lock's recorded folders, the lock, and the store unless something still uses it. */
export async function uninstallSkill(options: UninstallOptions): Promise<UninstallResult> {
  const { id, registry, lockfile, into } = options;
  const lock = readLockfile(lockfile);
  const entry = lock?.skills[id];
  const places = placesOf(lockfile, lock, into, 'nothing was removed');
  // --into's copy goes whatever it holds (the user named it); a recorded folder's only when it is the copy skills
  // installed (its content has the lock's integrity), so a folder of someone's own work is never deleted unasked.
  const targets: string[] = [];
  const warnings: string[] = [];
  for (const place of places) {
    const target = join(place.abs, id);
    if (!present(target)) continue;
    if (place.abs === into || (entry !== undefined && statSync(target).isDirectory() && folderIntegrity(target) === entry.integrity)) targets.push(target);
    else warnings.push(`${target} was left in place: it is not the copy skills installed (its content does not match ${lockfile}); remove it by hand, or with --into ${place.abs}`);
  }
  const indexEntry = readIndex(registry).skills.find((s) => s.id === id);
  const inStore = indexEntry !== undefined && (entry === undefined || indexEntry.versions.includes(entry.version));
  if (!entry && targets.length === 0 && !inStore) {
    throw new SkillsError('E_NOT_FOUND', `${id} is not installed: not in ${lockfile}${into ? `, not in ${into}` : ''}, not in the registry ${registry}`, {
      hint: 'see what is installed in skills-lock.json, or with skills list',
    });
  }
  const result: UninstallResult = { id, ...(entry ? { version: entry.version } : {}), removed: [], lock: false, store: [], keptFor: [], warnings };
  if (lock) {
    const needers = Object.entries(lock.skills)
      .filter(([other, e]) => other !== id && Object.hasOwn(e.dependencies, id))
      .map(([other, e]) => `${other}@${e.version}`);
    if (needers.length) result.warnings.push(`${id} is a dependency of ${needers.join(', ')}, which stay installed`);
  }
  for (const target of targets) {
    const trash = join(dirname(target), tempName(REMOVING_PREFIX, id));
    renameSync(target, trash);
    rmSync(trash, { recursive: true, force: true });
    result.removed.push(target);
  }
  if (result.removed.length) result.into = result.removed[0];
  if (indexEntry) {
    let usedBy = indexEntry.usedBy;
    if (options.consumer && usedBy.includes(options.consumer)) usedBy = (await unuseSkill(registry, id, options.consumer)).usedBy;
    if (usedBy.length > 0) result.keptFor = usedBy;
    else if (inStore) {
      const removed = await removeSkill(registry, id, entry?.version);
      result.store = removed.paths.map((p) => join(registry, p));
    }
  }
  if (lock && entry) {
    const next: Lockfile = { ...lock, skills: { ...lock.skills } };
    delete next.skills[id];
    writeAtomic(lockfile, serializeLockfile(next));
    result.lock = true;
  }
  return result;
}
