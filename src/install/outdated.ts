// `skills outdated`: for each locked skill, the version it is at, the one its ref or range wants now, and the
// newest there is. A git repository is asked for its tags and branch heads (ls-remote, no clone), a registry for its
// releases. When a skill in a folder of the repository has a newer commit to go to, the commits' trees (no file
// contents) are fetched to tell whether that folder changed, or is gone. Nothing is written. A remote that cannot be
// reached is that skill's error, not the command's.
import { loadNpmConfig } from '../fetch/npm-config.js';
import { fetchPackument } from '../fetch/npm-registry.js';
import { dirname, resolve } from 'node:path';
import gt from 'semver/functions/gt.js';
import prerelease from 'semver/functions/prerelease.js';
import rcompare from 'semver/functions/rcompare.js';
import validVersion from 'semver/functions/valid.js';
import validRange from 'semver/ranges/valid.js';
import satisfies from 'semver/functions/satisfies.js';
import { isSkillsError } from '../errors.js';
import { folderTrees, insidePath, remoteTags, resolveRef, type GitOptions } from '../fetch/git.js';
import { redactUrl } from '../formats/install-source.js';
import { parseLockSource, type LockEntry, type LockSource } from '../formats/lockfile.js';
import { readIndex, readReleases } from '../registry/index-io.js';
import { readLockfile } from './lock.js';

/** A tag that names a version of a skill: `v1.2.3`, `1.2.3`, or, in a repository of many skills, `<id>@1.2.3`. */
export interface VersionTag {
  tag: string;
  commit: string;
  version: string;
}

/** One end of a comparison: what is installed, wanted or latest. */
export interface Point {
  /** As shown: `1.1.0`, `1.0.0 (abc1234)` (a commit on a branch), `main (def5678)` (a branch's head). */
  label: string;
  /** The version, when one is known (a version tag, a registry release, the locked skill's own). */
  version?: string;
  /** A git commit (40 hex). */
  commit?: string;
  /** The git tag that names it. */
  tag?: string;
  /** The git branch whose head it is (`HEAD`: the default branch). */
  branch?: string;
  /** A git commit where the skill's folder is not (removed or moved upstream): nothing to update to. */
  gone?: true;
}

/** How a git ref is followed: a semver range over the tags, a tag, a branch (or the default branch), a commit. */
export type RefKind = 'semver' | 'tag' | 'branch' | 'commit';

export interface OutdatedEntry {
  id: string;
  /** The lock entry's source. */
  source: string;
  kind: LockSource['kind'];
  /** Where it comes from, as shown: `<url>#<ref>:<path>`, `registry`, `folder:<path>` … */
  from: string;
  /** The ref or range the lock keeps. */
  ref?: string;
  refKind?: RefKind;
  /** A git source's URL and the skill's folder inside the repository. */
  url?: string;
  path?: string;
  /** A registry source's folder (absolute). */
  registryDir?: string;
  current: Point;
  wanted?: Point;
  latest?: Point;
  /** wanted is another commit or a higher version than current. */
  wantedNewer: boolean;
  /** latest is a higher version than current (or, with no version tags, another commit). */
  latestNewer: boolean;
  outdated: boolean;
  /** Why wanted or latest is missing (no tag in the range, a branch gone). */
  note?: string;
  /**
   * The branch's head (40 hex) when the branch has moved there but the skill's folder is the same as at the commit
   * installed: wanted (and latest, when it is the branch) is then the commit installed, and nothing is newer.
   */
  unchangedAt?: string;
  /**
   * The skill's folder is not in its repository at wanted's commit (wanted.gone): removed or moved upstream. Not
   * outdated, and not up to date either: `update` leaves it and says so.
   */
  removed?: true;
  /** Folder, archive and URL sources: why there is nothing to look up. */
  unchecked?: string;
  /** The remote or registry could not be read. */
  error?: { code: string; message: string; hint?: string };
}

export interface OutdatedOptions {
  /** skills-lock.json (absolute). */
  lockfile: string;
  /** The registry in use: what a `registry` source is looked up in. */
  registry: string;
  cacheDir: string | undefined;
  env: Record<string, string | undefined>;
  /** Only these locked skills (default: every one). */
  ids?: string[];
  progress?: (text: string) => void;
  /** The most one git command may take (default: a minute: ls-remote is quick, or the remote is not there). */
  timeoutMs?: number;
}

export interface OutdatedReport {
  lockfile: string;
  /** False when there is no lockfile: nothing is installed. */
  locked: boolean;
  skills: OutdatedEntry[];
}

const HEX40 = /^[0-9a-f]{40}$/i;
const PLAIN_TAG = /^v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)$/;
const short = (commit: string) => commit.slice(0, 7);
/** A version with the commit it is at: `1.2.0 (1726b00)`. */
export const withCommit = (version: string, commit: string) => `${version} (${short(commit)})`;
const GIT_TIMEOUT_MS = 60_000;
const PARALLEL = 8;

/** The version a tag names for skill `id`: `{ version, prefixed }` (prefixed: `<id>@…` or `<id>-v…`), or undefined. */
export function parseVersionTag(tag: string, id: string): { version: string; prefixed: boolean } | undefined {
  const plain = PLAIN_TAG.exec(tag);
  if (plain) return validVersion(plain[1]!) === null ? undefined : { version: plain[1]!, prefixed: false };
  for (const prefix of [`${id}@`, `${id}-v`, `${id}/v`]) {
    if (!tag.startsWith(prefix)) continue;
    const rest = tag.slice(prefix.length);
    const m = PLAIN_TAG.exec(prefix.endsWith('v') ? `v${rest}` : rest);
    if (m && validVersion(m[1]!) !== null) return { version: m[1]!, prefixed: true };
  }
  return undefined;
}

/**
 * The version tags of a repository for skill `id`, highest first: its own (`<id>@1.2.3`, `<id>-v1.2.3`) when the
 * repository has any, else the plain ones (`v1.2.3`, `1.2.3`). Of two tags of one version, the `v` one comes first.
 */
export function versionTags(tags: { tag: string; commit: string }[], id: string): VersionTag[] {
  const parsed = tags.flatMap((t) => {
    const p = parseVersionTag(t.tag, id);
    return p ? [{ ...t, ...p }] : [];
  });
  const own = parsed.filter((t) => t.prefixed);
  return (own.length > 0 ? own : parsed)
    .map(({ tag, commit, version }) => ({ tag, commit, version }))
    .sort((a, b) => rcompare(a.version, b.version) || Number(b.tag.startsWith('v')) - Number(a.tag.startsWith('v')));
}

/**
 * The highest tag in `range` (prereleases only when the range names one); with no range, the highest release,
 * or the highest prerelease when there is nothing else. `tags` highest first (versionTags).
 */
export function highestTagIn(tags: VersionTag[], range?: string): VersionTag | undefined {
  if (range !== undefined) return tags.find((t) => satisfies(t.version, range));
  return tags.find((t) => prerelease(t.version) === null) ?? tags[0];
}

/** How a lock's git ref is followed, given the remote's tag names. */
export function refKindOf(ref: string | undefined, tagNames: Set<string>): RefKind {
  if (ref === undefined) return 'branch';
  if (ref.startsWith('semver:')) return 'semver';
  if (HEX40.test(ref)) return 'commit';
  if (ref.startsWith('refs/tags/') || tagNames.has(ref)) return 'tag';
  return 'branch';
}

/** A version with the tag it was taken at, when the tag says another: `0.3.0 (tag v1.0.0)`. */
export const taggedLabel = (version: string, tag: string): string => `${version} (tag ${tag})`;

/** A point from a version tag. */
const tagPoint = (t: VersionTag): Point => ({ label: t.version, version: t.version, commit: t.commit, tag: t.tag });

/** Is `p` ahead of `current`: another commit, and (when both versions are known) a higher version. */
function ahead(p: Point | undefined, current: Point): boolean {
  if (p === undefined || p.commit === undefined || p.commit === current.commit) return false;
  if (p.version === undefined || current.version === undefined || validVersion(current.version) === null) return true;
  return gt(p.version, current.version);
}

/**
 * Current, wanted and latest of a git skill, from the remote's tags and (for a branch, or a repository with no
 * version tags) the head `head` of the branch it follows, or of the default branch. Pure.
 */
export function judgeGit(
  id: string,
  entry: Pick<LockEntry, 'commit' | 'ref' | 'version'>,
  tags: { tag: string; commit: string }[],
  head: string | undefined,
): Pick<OutdatedEntry, 'refKind' | 'current' | 'wanted' | 'latest' | 'wantedNewer' | 'latestNewer' | 'note'> {
  const commit = entry.commit ?? '';
  const ref = entry.ref;
  const refKind = refKindOf(ref, new Set(tags.map((t) => t.tag)));
  const vt = versionTags(tags, id);
  const atTag = vt.find((t) => t.commit === commit);
  const current: Point = {
    label: atTag && refKind !== 'branch' ? atTag.version : withCommit(entry.version, commit),
    version: atTag?.version ?? entry.version,
    commit,
    ...(atTag ? { tag: atTag.tag } : {}),
  };
  const branch = refKind === 'branch' ? (ref ?? 'HEAD') : 'HEAD';
  const headPoint = (h: string): Point =>
    h === commit ? { ...current, branch } : { label: `${branch} (${short(h)})`, commit: h, branch };
  let wanted: Point | undefined;
  let note: string | undefined;
  if (refKind === 'semver') {
    const t = highestTagIn(vt, ref!.slice('semver:'.length));
    if (t) wanted = tagPoint(t);
    else note = `no tag in ${ref}`;
  } else if (refKind === 'tag') {
    const name = ref!.startsWith('refs/tags/') ? ref!.slice('refs/tags/'.length) : ref!;
    const t = tags.find((x) => x.tag === name);
    const v = parseVersionTag(name, id)?.version;
    if (!t) note = `the tag ${name} is no longer on the remote`;
    else if (v !== undefined) wanted = { label: v, version: v, commit: t.commit, tag: name };
    else
      wanted =
        t.commit === commit
          ? { ...current, tag: name }
          : { label: `${name} (${short(t.commit)})`, commit: t.commit, tag: name };
  } else if (refKind === 'commit') wanted = current;
  else if (head !== undefined) wanted = headPoint(head);
  else note = ref === undefined ? 'the remote has no default branch' : `the branch ${ref} is no longer on the remote`;
  const top = highestTagIn(vt);
  // A skill without a version that follows a branch cannot be placed among the tags (a tag may be behind the
  // branch): its latest is the branch's head, never an older tag offered as newer, nor the tag it sits at, whose
  // version is the repository's (v1.1.0 of a repository whose skill says none).
  const tracking = refKind !== 'semver' && refKind !== 'tag' && refKind !== 'commit';
  const unplaced = tracking && entry.version === '0.0.0' && atTag?.version !== entry.version;
  const latest =
    top && !unplaced ? tagPoint(top) : head !== undefined ? headPoint(head) : top ? tagPoint(top) : undefined;
  // The repository's tags do not say the skill's own version (tag v1.0.0 of a skill at 0.3.0): shown as update shows
  // them, the version the lock records and the tag as a tag, never a tag's version as the skill's.
  // On a branch too, where the current one is shown by its commit.
  const untold = atTag !== undefined && atTag.version !== entry.version;
  if (untold && current.label === atTag.version) current.label = taggedLabel(entry.version, atTag.tag);
  const shown = (p: Point | undefined): Point | undefined =>
    !untold || p?.tag === undefined || p.label !== p.version
      ? p
      : { ...p, label: p.commit === commit ? current.label : `tag ${p.tag}` };
  return {
    refKind,
    current,
    wanted: shown(wanted),
    latest: shown(latest),
    wantedNewer: ahead(wanted, current),
    latestNewer: ahead(latest, current),
    ...(note === undefined ? {} : { note }),
  };
}

/**
 * Current, wanted (highest in the lock's range, `*` when none; for an npm dist-tag, `next`, the version it points at
 * now, as `npm outdated` reads one) and latest of a registry skill. Pure.
 */
export function judgeRegistry(
  entry: Pick<LockEntry, 'ref' | 'version'>,
  versions: string[],
  distTags: Record<string, string> = {},
): Pick<OutdatedEntry, 'current' | 'wanted' | 'latest' | 'wantedNewer' | 'latestNewer' | 'note'> {
  const sorted = versions.filter((v) => validVersion(v) !== null).sort(rcompare);
  const range = entry.ref ?? '*';
  const pick = (v: string | undefined): Point | undefined => (v === undefined ? undefined : { label: v, version: v });
  // A dist-tag is no range (satisfies() finds nothing in `next`): install took the version it named; so does wanted.
  const distTag = validRange(range) === null;
  const tagged = distTag && Object.hasOwn(distTags, range) ? distTags[range] : undefined;
  // npm's `latest` tag is what a plain install takes (`npm install pkg`, and ours: resolve/from-npm.ts): wanted with
  // no range, and the latest, as `npm outdated` shows it. A version published under another tag (`next`), or one the
  // author moved `latest` back from (a bad release), is not offered; a registry with no tags has its highest release.
  const latestTag =
    Object.hasOwn(distTags, 'latest') && sorted.includes(distTags.latest!) ? distTags.latest : undefined;
  const wanted = pick(
    distTag
      ? sorted.find((v) => v === tagged)
      : ((entry.ref === undefined ? latestTag : undefined) ?? sorted.find((v) => satisfies(v, range))),
  );
  const latest = pick(latestTag ?? sorted.find((v) => prerelease(v) === null) ?? sorted[0]);
  const current: Point = { label: entry.version, version: entry.version };
  const newer = (p?: Point) => p !== undefined && validVersion(entry.version) !== null && gt(p.version!, entry.version);
  return {
    current,
    wanted,
    latest,
    wantedNewer: newer(wanted),
    latestNewer: newer(latest),
    ...(wanted !== undefined
      ? {}
      : { note: distTag && tagged === undefined ? `no dist-tag "${range}"` : `no version in ${range}` }),
  };
}

/** How a git source is shown: `<url>#<ref>:<path>`, parts left out when absent. */
export function gitFrom(url: string, ref: string | undefined, path: string | undefined): string {
  const frag = `${ref ?? ''}${path ? `:${path}` : ''}`;
  return `${redactUrl(url)}${frag === '' ? '' : `#${frag}`}`;
}

const UNCHECKED: Record<'folder' | 'archive' | 'url' | 'well-known' | 'mcp', string> = {
  folder: 'installed from a folder, as it is on disk: install it again to take its changes',
  archive: 'installed from an archive file, which has no versions to look up',
  url: 'installed from an archive by URL, which has no versions to look up',
  'well-known': "installed from a site's discovery index, which has no versions: install it again to take its changes",
  mcp: 'installed from an MCP server, which has no versions: install it again to take its changes',
};

/** Run `fn` over `items`, at most `n` at a time, results in order. */
async function mapLimit<T, R>(items: T[], n: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  return out;
}

/** `skills outdated`: every locked skill (or those of `ids`), checked against its remote or registry. */
export async function checkOutdated(options: OutdatedOptions): Promise<OutdatedReport> {
  const lock = readLockfile(options.lockfile);
  if (!lock) return { lockfile: options.lockfile, locked: false, skills: [] };
  const lockDir = dirname(options.lockfile);
  const git: GitOptions = {
    env: options.env,
    cacheDir: options.cacheDir,
    progress: options.progress,
    timeoutMs: options.timeoutMs ?? GIT_TIMEOUT_MS,
  };
  // One ls-remote per repository and ref, however many skills it holds.
  const asked = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, f: () => Promise<T>): Promise<T> => {
    if (!asked.has(key)) asked.set(key, f());
    return asked.get(key) as Promise<T>;
  };
  const ids = Object.keys(lock.skills)
    .sort()
    .filter((id) => options.ids === undefined || options.ids.includes(id));
  // Read once, before any skill is checked: a configuration that cannot be read (a bad SKILLS_REGISTRY_TIMEOUT) is
  // the command's error, not each npm skill's.
  const npmConfig = ids.some((id) => parseLockSource(lock.skills[id]!.source).kind === 'npm')
    ? loadNpmConfig({ cwd: lockDir, env: options.env })
    : undefined;
  const skills = await mapLimit(ids, PARALLEL, async (id): Promise<OutdatedEntry> => {
    const e = lock.skills[id]!;
    const src = parseLockSource(e.source);
    const base = {
      id,
      source: e.source,
      kind: src.kind,
      ...(e.ref === undefined ? {} : { ref: e.ref }),
      current: { label: e.version, version: e.version, ...(e.commit ? { commit: e.commit } : {}) },
      wantedNewer: false,
      latestNewer: false,
      outdated: false,
    };
    if (
      src.kind === 'folder' ||
      src.kind === 'archive' ||
      src.kind === 'url' ||
      src.kind === 'well-known' ||
      src.kind === 'mcp'
    )
      return { ...base, from: e.source, unchecked: UNCHECKED[src.kind] };
    try {
      if (src.kind === 'git') {
        const at = { url: src.url, ...(e.path ? { path: e.path } : {}) };
        const from = gitFrom(src.url, e.ref, e.path);
        if (e.commit === undefined)
          return { ...base, ...at, from, error: { code: 'E_CONFIG', message: 'the lock records no commit' } };
        options.progress?.(`checking ${redactUrl(src.url)}`);
        const tags = await once(`tags ${src.url}`, () => remoteTags(src.url, git));
        const kind = refKindOf(e.ref, new Set(tags.map((t) => t.tag)));
        const needHead = kind === 'branch' || versionTags(tags, id).length === 0;
        const branch = kind === 'branch' ? e.ref : undefined;
        const head = needHead
          ? await once(`head ${src.url} ${branch ?? ''}`, () => resolveRef(src.url, branch, git))
          : undefined;
        const judged = judgeGit(id, e, tags, head);
        return { ...base, ...at, from, ...judged, outdated: judged.wantedNewer || judged.latestNewer };
      }
      if (src.kind === 'npm') {
        options.progress?.(`checking ${src.name}`);
        const doc = await once(`npm ${src.name}`, () => fetchPackument(src.name, { config: npmConfig! }));
        const judged = judgeRegistry(e, Object.keys(doc.versions), doc['dist-tags']);
        return { ...base, from: e.source, ...judged, outdated: judged.wantedNewer || judged.latestNewer };
      }
      const dir = src.dir === undefined ? options.registry : resolve(lockDir, src.dir);
      const from = e.source;
      if (!readIndex(dir).skills.some((s) => s.id === id))
        return {
          ...base,
          from,
          registryDir: dir,
          error: { code: 'E_NOT_FOUND', message: `${id} is not in the registry ${dir}` },
        };
      const judged = judgeRegistry(e, Object.keys(readReleases(dir, id)));
      return { ...base, from, registryDir: dir, ...judged, outdated: judged.wantedNewer || judged.latestNewer };
    } catch (err) {
      if (!isSkillsError(err)) throw err;
      const from = src.kind === 'git' ? gitFrom(src.url, e.ref, e.path) : e.source;
      const error = { code: err.code, message: err.message, ...(err.hint ? { hint: err.hint } : {}) };
      return { ...base, from, ...(src.kind === 'git' ? { url: src.url } : {}), error };
    }
  });
  await sameFolders(skills, git);
  return { lockfile: options.lockfile, locked: true, skills };
}

/** What is said of a skill whose folder is gone from its repository at `at` (wanted, or latest with --latest). */
export function removedUpstream(s: OutdatedEntry, at: Point): { message: string; hint: string } {
  const pin = gitFrom(s.url ?? '', s.current.commit, s.path);
  return {
    message: `${s.id}: its folder "${s.path}" is not in ${redactUrl(s.url ?? '')} at ${at.label}: removed or moved upstream`,
    hint: `skills uninstall ${s.id}, or keep it at the commit it was installed from: skills install ${pin}`,
  };
}

/** Whether `p` is a branch's head that is another commit than the one installed. */
const movedHead = (p: Point | undefined, current: Point): p is Point & { commit: string } =>
  p?.branch !== undefined && p.commit !== undefined && p.commit !== current.commit;

/**
 * Skills in a folder of a repository with a newer commit to go to: where the folder is not in that commit's tree,
 * the skill was removed (or moved) upstream, and the commit is `gone` rather than newer; where a branch moved and the
 * folder's tree at its head is the one installed (another skill or a README changed), the head is not newer for this
 * skill. One fetch of trees per repository; when it cannot tell (the commit installed is gone from the remote, a
 * server that gives only heads, a transfer that fails), the skills stay as ls-remote judged them.
 */
async function sameFolders(skills: OutdatedEntry[], git: GitOptions): Promise<void> {
  const newerCommit = (p: Point | undefined, newer: boolean, current: Point) =>
    newer && p?.commit !== undefined && p.commit !== current.commit;
  const byUrl = new Map<string, OutdatedEntry[]>();
  for (const s of skills) {
    if (s.kind !== 'git' || s.error || !s.url || !s.path || !s.current.commit) continue;
    if (!newerCommit(s.wanted, s.wantedNewer, s.current) && !newerCommit(s.latest, s.latestNewer, s.current)) continue;
    byUrl.set(s.url, [...(byUrl.get(s.url) ?? []), s]);
  }
  await mapLimit([...byUrl], PARALLEL, async ([url, list]) => {
    const commits = list.flatMap((s) => [s.current.commit!, s.wanted?.commit ?? '', s.latest?.commit ?? '']);
    let trees: Map<string, string> | undefined;
    try {
      trees = await folderTrees(url, commits, [...new Set(list.map((s) => s.path!))], git);
    } catch (err) {
      if (!isSkillsError(err)) throw err;
    }
    if (trees === undefined) return;
    for (const s of list) {
      // As folderTrees keys it (it has already refused a path with `..`).
      const path = insidePath(url, s.path);
      const installed = trees.get(`${s.current.commit!}:${path}`);
      if (installed === undefined) continue;
      const gone = (p: Point | undefined): p is Point =>
        p?.commit !== undefined && p.commit !== s.current.commit && !trees.has(`${p.commit}:${path}`);
      if (gone(s.wanted)) [s.wanted, s.wantedNewer, s.removed] = [{ ...s.wanted, gone: true }, false, true];
      if (gone(s.latest)) [s.latest, s.latestNewer] = [{ ...s.latest, gone: true }, false];
      const same = (p: Point | undefined) => movedHead(p, s.current) && trees.get(`${p.commit}:${path}`) === installed;
      const head = same(s.wanted) ? s.wanted! : same(s.latest) ? s.latest! : undefined;
      if (head !== undefined) {
        s.unchangedAt = head.commit;
        if (same(s.wanted)) [s.wanted, s.wantedNewer] = [{ ...s.current, branch: s.wanted!.branch }, false];
        if (same(s.latest)) [s.latest, s.latestNewer] = [{ ...s.current, branch: s.latest!.branch }, false];
      }
      s.outdated = s.wantedNewer || s.latestNewer;
    }
  });
}
