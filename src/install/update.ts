// `skills update`: each git or registry skill in the lock moved to what its ref or range wants now (or, --latest,
// the newest version), by installSkills, so the lock records the new commit or version. A placed copy edited since
// it was installed is refused before anything is written (unless --force); --dry-run shows, file by file and line
// by line, what would change, and writes nothing.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { SkillsError } from '../errors.js';
import { redactUrl } from '../formats/install-source.js';
import { fetchCommit, folderOfTree } from '../fetch/git.js';
import { loadNpmConfig } from '../fetch/npm-config.js';
import { fetchPackument, fetchTarball } from '../fetch/npm-registry.js';
import { DEFAULT_LIMITS, extractArchive } from '../fs/archive.js';
import { parseLockSource, type LockEntry } from '../formats/lockfile.js';
import { present } from '../fs/walk.js';
import { readReleases } from '../registry/index-io.js';
import { registryVersion } from '../registry/unversioned.js';
import { loadSkill } from '../skill/load.js';
import { contentOf, folderHolds, skillFiles } from '../registry/integrity.js';
import { installSkills } from './install.js';
import { heldText, MissingSkills } from './missing-skills.js';
import { readLockfile } from './lock.js';
import {
  checkOutdated,
  gitFrom,
  parseVersionTag,
  removedUpstream,
  type OutdatedEntry,
  type Point,
} from './outdated.js';
import { isLink, placesOf } from './places.js';
import type { InstallOptions, InstallOutcome } from './types.js';

export interface UpdateOptions extends Omit<InstallOptions, 'sources' | 'only'> {
  /** Only these skills (default: every git or registry skill in the lock). */
  ids?: string[];
  /** To the newest version (the highest version tag, the registry's latest) rather than what the ref wants. */
  latest?: boolean;
  /** Show what would change, write nothing. */
  dryRun?: boolean;
  /** The most characters of unified diff shown per skill (--dry-run). */
  maxDiffChars?: number;
}

export interface FileChanges {
  added: string[];
  removed: string[];
  /** Content or execute bit. */
  changed: string[];
}

export interface PlannedUpdate {
  id: string;
  source: string;
  /** Where it comes from, as outdated shows it. */
  from: string;
  current: Point;
  target: Point;
  /** What installSkills is given: `<url>#<ref>:<path>`, `id@range`. */
  install: string;
  /** The ref the lock will keep. */
  ref?: string;
  /** A registry source's folder. */
  registryDir?: string;
  /** `<folder>/<id>` copies whose files no longer match the lock's integrity (edited since installed). */
  edited: string[];
  /** --dry-run: the files that change, from the placed copy (else the locked content) to the new one. */
  files?: FileChanges;
  /** --dry-run: a unified diff of the text files that change, cut at maxDiffChars. */
  diff?: string;
  diffCut?: boolean;
  /**
   * Updated, and its files are what they were (the lock's integrity unchanged): the repository moved on, this skill
   * did not (another skill of the same repository changed). The lock records the new commit all the same.
   */
  sameFiles?: true;
  /**
   * A git skill's own versions (its metadata), as the lock records them: before, and after (updated, or with --dry-run
   * read from the new files). A version tag may say another (tag v2.0.0 of a skill at 0.4.0).
   */
  recorded?: { current: string; target?: string };
}

export interface UpdateResult {
  lockfile: string;
  /** Whether the lockfile is there: false when nothing is installed (and nothing was checked), as outdated says. */
  locked: boolean;
  /** How many skills the lockfile holds (0 for an empty one, which outdated and update say as such). */
  lockedSkills: number;
  dryRun: boolean;
  updates: PlannedUpdate[];
  /** Checked, and already at their target. */
  upToDate: string[];
  /** Of those, the ones with a newer version outside their ref or range (what --latest would take). */
  newerOutside: string[];
  /** Could not be checked (an unreachable remote): left as they are. */
  errors: { id: string; code: string; message: string; hint?: string }[];
  /** Their folder is not in their repository at the commit they would go to (removed or moved upstream): left. */
  removed: { id: string; message: string; hint: string }[];
  /** The install that carried the updates out (none for --dry-run or nothing to update). */
  outcome?: InstallOutcome;
  warnings: string[];
}

const DEFAULT_DIFF_CHARS = 64 * 1024;
/** A file larger than this is said to differ, not diffed line by line. */
const MAX_DIFF_FILE = 512 * 1024;

/** `skills update`: plan each skill's move, check the placed copies, then show it (--dry-run) or install it. */
export async function updateSkills(options: UpdateOptions): Promise<UpdateResult> {
  const lock = readLockfile(options.lockfile);
  const result: UpdateResult = {
    lockfile: options.lockfile,
    locked: lock !== undefined,
    lockedSkills: Object.keys(lock?.skills ?? {}).length,
    dryRun: options.dryRun === true,
    updates: [],
    upToDate: [],
    newerOutside: [],
    errors: [],
    removed: [],
    warnings: [],
  };
  const ids = selectIds(options, lock?.skills ?? {});
  if (!lock || ids.length === 0) return result;
  const report = await checkOutdated({ ...options, ids });
  const places = placesOf(options.lockfile, lock, options.into ?? [], {
    home: options.home,
    global: options.global,
    nothing: 'nothing was updated',
  });
  for (const s of report.skills) {
    if (s.error) {
      result.errors.push({ id: s.id, ...s.error });
      continue;
    }
    const goal = options.latest ? s.latest : s.wanted;
    if (goal?.gone) {
      result.removed.push({ id: s.id, ...removedUpstream(s, goal) });
      continue;
    }
    const entry = lock.skills[s.id]!;
    const planned = planOne(s, entry, options.latest === true);
    if (!planned) {
      result.upToDate.push(s.id);
      if (!options.latest && s.latestNewer) result.newerOutside.push(s.id);
      if (s.note) result.warnings.push(`${s.id}: ${s.note}`);
      continue;
    }
    const edited = places
      .map((p) => join(p.abs, s.id))
      .filter((dir) => present(dir) && !isLink(dir) && !folderHolds(dir, entry.integrity));
    result.updates.push({ ...planned, edited });
  }
  if (result.updates.length === 0) return result;
  if (options.dryRun) {
    for (const u of result.updates) {
      const placed = places.map((p) => join(p.abs, u.id)).find((d) => present(d) && !isLink(d));
      Object.assign(u, await changesOf(u, lock.skills[u.id]!, placed, options));
    }
    return result;
  }
  const edited = result.updates.flatMap((u) => u.edited);
  if (edited.length > 0 && !options.force) {
    throw new SkillsError(
      'E_EXISTS',
      `${edited.join(', ')} ${edited.length === 1 ? 'was' : 'were'} edited since ${edited.length === 1 ? 'it was' : 'they were'} installed (the files no longer match ${options.lockfile}); nothing was updated`,
      {
        hint: `run skills update ${[...new Set(result.updates.filter((u) => u.edited.length).map((u) => u.id))].join(' ')} --dry-run to see what would change, or --force to overwrite the edits`,
      },
    );
  }
  return carryOut(options, result, lock.skills);
}

/** The ids to update: those asked (each locked, from git or a registry), else every git or registry skill. */
function selectIds(options: UpdateOptions, skills: Record<string, LockEntry>): string[] {
  const updatable = (e: LockEntry) => ['git', 'registry', 'npm'].includes(parseLockSource(e.source).kind);
  if (!options.ids?.length) return Object.keys(skills).filter((id) => updatable(skills[id]!));
  for (const id of options.ids) {
    const e = skills[id];
    if (!e)
      throw new SkillsError('E_NOT_FOUND', `${id} is not installed here (not in ${options.lockfile})`, {
        hint: 'skills outdated --all lists the skills the lock holds',
      });
    if (!updatable(e))
      throw new SkillsError(
        'E_USAGE',
        `${id} was installed from ${e.source}, which has no versions to update to; nothing was updated`,
        { hint: `install it again from its source to take its changes: skills install <source>` },
      );
  }
  return [...new Set(options.ids)];
}

/** The move for one skill, or undefined when it is where its target is. */
function planOne(s: OutdatedEntry, entry: LockEntry, latest: boolean): Omit<PlannedUpdate, 'edited'> | undefined {
  const target = latest ? s.latest : s.wanted;
  const newer = latest ? s.latestNewer : s.wantedNewer;
  if (!target || !newer) return undefined;
  const base = { id: s.id, source: s.source, from: s.from, current: s.current, target };
  if (s.kind === 'npm') {
    // As for a registry: the range is kept (or widened by --latest), and what had none is pinned.
    const { name } = parseLockSource(s.source) as { kind: 'npm'; name: string };
    const range = entry.ref === undefined ? undefined : latest ? `^${target.version!}` : entry.ref;
    return {
      ...base,
      install: `npm:${name}@${range ?? target.version!}`,
      ...(range === undefined ? {} : { ref: range }),
    };
  }
  if (s.kind === 'registry') {
    // What the ref asks resolves to wanted and keeps the range in the lock; --latest widens a range to the new
    // version (`^1.0` → `^2.0.0`, as `npm install pkg@latest` rewrites a range), and pins what had no range.
    const range = entry.ref === undefined ? undefined : latest ? `^${target.version!}` : entry.ref;
    const spec = `${s.id}@${range ?? target.version!}`;
    const ref = range === undefined ? {} : { ref: range };
    return { ...base, install: spec, registryDir: s.registryDir, ...ref };
  }
  // The ref itself, when it names the target as the installer reads it (so the lock keeps it); else the tag.
  const plainTag = target.tag !== undefined && parseVersionTag(target.tag, s.id)?.prefixed === false;
  const keepRef = !latest && (s.refKind === 'branch' || s.refKind === 'tag' || (s.refKind === 'semver' && plainTag));
  // --latest past a `semver:` range widens it to the new version's major, as for a registry range.
  const widened = latest && s.refKind === 'semver' && plainTag ? `semver:^${target.version!}` : undefined;
  const ref = keepRef ? entry.ref : (widened ?? target.tag ?? target.branch ?? target.commit!);
  const refText = ref === 'HEAD' && target.branch === 'HEAD' ? undefined : ref;
  const frag = `${refText ?? ''}${s.path ? `:${s.path}` : ''}`;
  return {
    ...base,
    // Where it comes from once updated: the ref --latest widened (`#semver:^2.0.0`), not the one it replaces.
    from: gitFrom(s.url!, refText, s.path),
    install: `${s.url!}${frag === '' ? '' : `#${frag}`}`,
    ...(refText ? { ref: refText } : {}),
  };
}

/** Install every update in one run (one per registry given by `--from`), then check the lock landed on the targets. */
async function carryOut(
  options: UpdateOptions,
  result: UpdateResult,
  before: Record<string, LockEntry>,
): Promise<UpdateResult> {
  const groups = new Map<string | undefined, PlannedUpdate[]>();
  for (const u of result.updates) {
    const src = parseLockSource(u.source);
    const from = src.kind === 'registry' && src.dir !== undefined ? src.dir : undefined;
    groups.set(from, [...(groups.get(from) ?? []), u]);
  }
  for (const [from, list] of groups) {
    const gitIds = list.filter((u) => parseLockSource(u.source).kind === 'git').map((u) => u.id);
    const dir = from === undefined ? undefined : list[0]!.registryDir;
    const install = (updates: PlannedUpdate[], ids: string[]) =>
      installSkills({
        ...options,
        sources: updates.map((u) => u.install),
        ...(ids.length ? { only: ids } : {}),
        ...(dir ? { from: dir } : {}),
        into: options.into ?? [],
      });
    let outcome: InstallOutcome;
    try {
      outcome = await install(list, gitIds);
    } catch (err) {
      if (!(err instanceof MissingSkills)) throw err;
      // A git skill whose folder is there but names another skill now (its SKILL.md renamed upstream) is left as
      // it is, as one whose folder is gone, and the others are updated.
      const renamed = list.filter((u) => err.missing.includes(u.id));
      for (const u of renamed) result.removed.push({ id: u.id, ...renamedUpstream(u, err.held.get(u.install) ?? []) });
      result.updates = result.updates.filter((u) => !renamed.includes(u));
      const rest = list.filter((u) => !renamed.includes(u));
      if (rest.length === 0) continue;
      outcome = await install(
        rest,
        gitIds.filter((id) => !err.missing.includes(id)),
      );
    }
    // Several runs (skills from several registries): the last one is reported, the warnings of each.
    if (result.outcome) result.warnings.push(...result.outcome.warnings);
    result.outcome = outcome;
    if (!outcome.ok) return result;
  }
  const after = readLockfile(options.lockfile);
  for (const u of result.updates) {
    const e = after?.skills[u.id];
    const landed = u.target.commit !== undefined ? e?.commit === u.target.commit : e?.version === u.target.version;
    if (!landed)
      result.warnings.push(
        `${u.id}: the source moved while updating: installed ${e?.version ?? '?'}${e?.commit ? ` (${e.commit.slice(0, 7)})` : ''}, not ${u.target.label}`,
      );
    else if (e?.integrity !== undefined && e.integrity === before[u.id]?.integrity) u.sameFiles = true;
    if (landed && e && parseLockSource(u.source).kind === 'git')
      u.recorded = { current: before[u.id]!.version, target: e.version };
  }
  return result;
}

/** An update whose folder upstream holds other skills than its own id now: what to say, and what to run. */
function renamedUpstream(u: PlannedUpdate, held: string[]): { message: string; hint: string } {
  const [url = '', frag = ''] = u.install.split('#', 2);
  const path = frag.includes(':') ? frag.slice(frag.indexOf(':') + 1) : undefined;
  const pin = gitFrom(url, u.current.commit, path);
  return {
    message: `${u.id}: ${redactUrl(url)}${path ? ` (${path})` : ''} has no skill named ${u.id} at ${u.target.label}${heldText(held)}: renamed or moved upstream`,
    hint: `skills uninstall ${u.id}, then install it under its new name; or keep it at the commit it was installed from: skills install ${pin}`,
  };
}

/** A skill's files by path: content (a link's text) and whether it is executable. */
function filesOf(root: string): Map<string, { content: Buffer; exec: boolean }> {
  return new Map(
    skillFiles(root).map((f) => [f.rel, { content: contentOf(f), exec: f.kind === 'file' && (f.mode & 0o111) !== 0 }]),
  );
}

const isText = (b: Buffer): boolean => {
  if (b.length > MAX_DIFF_FILE || b.subarray(0, 8000).includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(b);
    return true;
  } catch {
    return false;
  }
};

/** The folders of the old content (the placed copy, else the locked one) and of the new one. */
async function rootsOf(
  u: PlannedUpdate,
  entry: LockEntry,
  placed: string | undefined,
  options: UpdateOptions,
): Promise<{ before?: string; after: string; cleanup?: () => void }> {
  const src = parseLockSource(u.source);
  const git = { env: options.env, cacheDir: options.cacheDir, progress: options.progress };
  if (src.kind === 'git') {
    // A folder that is a link out of the repository is never read, as a missing one.
    const folderAt = async (commit: string) =>
      folderOfTree((await fetchCommit(src.url, commit, git, entry.path || undefined)).dir, entry.path).folder;
    const after = await folderAt(u.target.commit!);
    if (after === undefined)
      throw new SkillsError('E_NOT_FOUND', `${u.from}: no folder "${entry.path}" at ${u.target.label}`, {
        hint: 'the skill moved inside the repository: install it again from its new folder',
      });
    return { before: placed ?? (await folderAt(entry.commit!)), after };
  }
  if (src.kind === 'npm') {
    // The new version's files: its tarball, checked against the packument, unpacked into a temp folder.
    const config = loadNpmConfig({ cwd: dirname(options.lockfile), env: options.env });
    const version = u.target.version!;
    const doc = await fetchPackument(src.name, { config });
    const bytes = await fetchTarball(src.name, version, doc.versions[version]?.dist.integrity, { config });
    const tmp = mkdtempSync(join(tmpdir(), 'skills-update-'));
    const file = join(tmp, 'package.tgz');
    writeFileSync(file, bytes);
    await extractArchive(file, join(tmp, 'x'), DEFAULT_LIMITS);
    rmSync(join(tmp, 'x', 'package', 'package.json'), { force: true });
    return {
      before: placed,
      after: join(tmp, 'x', 'package'),
      cleanup: () => rmSync(tmp, { recursive: true, force: true }),
    };
  }
  const dir = u.registryDir ?? options.registry;
  const releases = readReleases(dir, u.id);
  const stored = releases[entry.version] ? join(dir, releases[entry.version]!.path) : undefined;
  return { before: placed ?? stored, after: join(dir, releases[u.target.version!]!.path) };
}

/** What an update would change: the files added, removed and changed, and a unified diff of the text ones. */
async function changesOf(
  u: PlannedUpdate,
  entry: LockEntry,
  placed: string | undefined,
  options: UpdateOptions,
): Promise<Pick<PlannedUpdate, 'files' | 'diff' | 'diffCut' | 'recorded'>> {
  const { before, after, cleanup } = await rootsOf(u, entry, placed, options);
  const a = before ? filesOf(before) : new Map<string, { content: Buffer; exec: boolean }>();
  const b = filesOf(after);
  // The version the lock would record: the new files' own, whatever the tag says.
  const recorded =
    parseLockSource(u.source).kind === 'git' ? { current: entry.version, target: versionAt(after) } : undefined;
  cleanup?.();
  const files: FileChanges = { added: [], removed: [], changed: [] };
  const paths = [...new Set([...a.keys(), ...b.keys()])].sort();
  let diff = '';
  for (const p of paths) {
    const x = a.get(p);
    const y = b.get(p);
    if (x && y && x.exec === y.exec && x.content.equals(y.content)) continue;
    (!x ? files.added : !y ? files.removed : files.changed).push(p);
    let text = `diff --git a/${p} b/${p}\n`;
    if (x && y && x.exec !== y.exec)
      text += `old mode ${x.exec ? '100755' : '100644'}\nnew mode ${y.exec ? '100755' : '100644'}\n`;
    if (!x) text += `new file mode ${y!.exec ? '100755' : '100644'}\n`;
    if (!y) text += `deleted file mode ${x!.exec ? '100755' : '100644'}\n`;
    const old = x?.content ?? Buffer.alloc(0);
    const now = y?.content ?? Buffer.alloc(0);
    if (!old.equals(now)) {
      if (isText(old) && isText(now)) {
        const patch = createTwoFilesPatch(
          x ? `a/${p}` : '/dev/null',
          y ? `b/${p}` : '/dev/null',
          old.toString('utf8'),
          now.toString('utf8'),
          undefined,
          undefined,
          { context: 3 },
        );
        // jsdiff starts with an "Index:" banner and a ==== rule; git's format has neither.
        text += patch.replace(/^(?:Index: [^\n]*\n)?=+\n/, '');
      } else text += `Binary files ${x ? `a/${p}` : '/dev/null'} and ${y ? `b/${p}` : '/dev/null'} differ\n`;
    }
    diff += text;
  }
  const max = options.maxDiffChars ?? DEFAULT_DIFF_CHARS;
  const kept = recorded ? { recorded } : {};
  if (diff.length <= max) return { files, diff, ...kept };
  const cut = diff.lastIndexOf('\n', max);
  return { files, diff: diff.slice(0, cut < 0 ? max : cut + 1), diffCut: true, ...kept };
}

/** The version install would record of the skill in `root` (registryVersion); undefined when it does not load. */
function versionAt(root: string): string | undefined {
  try {
    return registryVersion(loadSkill(root));
  } catch {
    return undefined;
  }
}
