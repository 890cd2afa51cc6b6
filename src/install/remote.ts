// Skills from where they live: a folder or a git repository's tree (fetched once per commit into the cache) that
// holds one skill or many, and an archive by URL (downloaded into the scratch, then read as any archive).
import { existsSync, mkdirSync, type Dirent } from 'node:fs';
import { readBounded } from '../fs/read.js';
import { isInside } from '../fs/walk.js';
import { parseGitmodules, type Submodule } from '../formats/gitmodules.js';
import { someOf } from './namesakes.js';
import { archivedToPrepare, skillsNestedIn } from './nested-skills.js';
import { linksLeftOutWarning } from './archive-links.js';
import { basename, join, relative, sep } from 'node:path';
import { SkillsError } from '../errors.js';
import { describeErrno, errnoIn } from '../fs/errno.js';
import { canonicalSource, redactUrl, type RemoteSource } from '../formats/install-source.js';
import { formatLockSource } from '../formats/lockfile.js';
import { downloadArchive, MAX_ARCHIVE_BYTES } from '../fetch/download.js';
import { needCache } from '../fetch/cache.js';
import { KEEP_BYTES } from '../fs/archive-entries.js';
import { fetchCommit, folderOfTree } from '../fetch/git.js';
import { CUT_ADVICE, discoveryBudget, isSkillFolder } from '../skill/discover.js';
import { splitTemplates } from '../skill/template-folders.js';
import {
  prepareLocal,
  prepareArchived,
  relabelError,
  relabeler,
  skillsBelow,
  unpackArchive,
  type Scratch,
} from './sources.js';
import type { InstallOptions, InvalidSource, Prepared, Relabel } from './types.js';
import type { KeepBudget } from '../registry/integrity.js';

/** What one source holds: its skills (prepared, or why not), and whether it is a collection of several. */
export interface Gathered {
  found: (Prepared | InvalidSource)[];
  /** What the source holds that is not installed and not a skill's fault (a git submodule): said on stderr. */
  warnings?: string[];
  /** A folder, repository or archive that holds skills rather than being one: an invalid one is skipped. */
  several: boolean;
  /** The search for its skills stopped at its limits, as said (also in warnings): skills may be left out. */
  cut?: string;
}

/**
 * The skills a folder holds: the folder itself when it is a skill, else every skill below it (a clone of a skills
 * repository, as sync reads it). `lockOf` gives a skill's lock source and git details from its absolute folder.
 */
export async function gatherTree(
  root: string,
  typed: string,
  lockOf: (abs: string) => { source: string; origin?: Prepared['origin'] },
  relabel?: Relabel,
  unnamed?: string,
  skip?: (abs: string) => boolean,
  only?: readonly string[],
): Promise<Gathered> {
  // A skill folder is one skill; but `--skill` may name the skills nested in it (datadog-labs/agent-skills' README:
  // `npx skills add datadog-labs/agent-skills --skill dd-pup`), which are then read too, as are those nested in any
  // skill below the top (zoom's contact-center/ holds contact-center/android/). Nothing nested: as without --skill.
  const top = isSkillFolder(root);
  const below = top ? undefined : skillsBelow(root);
  const all = (below?.roots ?? [root]).filter(
    (abs) => abs === root || (!skip?.(abs) && !dataManifest(abs, below?.listings.get(abs))),
  );
  // The skeletons of a collection (templates/…) are read only when skills are named or listed (`only`), marked.
  const split = splitTemplates(all, (abs) => relative(root, abs).split(sep).join('/'));
  const templates = new Set(only === undefined ? [] : split.templates);
  const searched = only === undefined ? split.skills : all;
  // The skill folders nested in each one searched, at any depth; and each nested one's outer skill folder.
  const nestedOf = new Map<string, string[]>();
  const nestedIn = new Map<string, string>();
  let cut = below?.cut;
  if (only !== undefined) {
    const budget = discoveryBudget();
    for (const abs of searched) {
      const nested = skillsNestedIn(abs, budget);
      cut ??= nested.cut;
      const kept = nested.roots.filter((n) => !skip?.(n) && !dataManifest(n));
      if (kept.length > 0) nestedOf.set(abs, kept);
      for (const n of kept) nestedIn.set(n, abs);
    }
  }
  // A search cut at its limits (a repository of 60,000 skills) leaves skills out: said, never silently missed.
  const warnings = cut === undefined ? [] : [cutWarning(cut, root, typed)];
  // A skill folder the search could not read (its SKILL.md a FIFO, a folder it may not list) is said, as lint says it.
  // A path below the root as the source is typed (`<source>/<path>`), not the cache's folder a git source is read from.
  const typedAt = (abs: string): string =>
    abs === root ? typed : `${typed}${typed.endsWith('/') ? '' : '/'}${relative(root, abs).split(sep).join('/')}`;
  const unread = (below?.unread ?? []).map((u) => `${typedAt(u.path)}: ${u.message}`);
  const folders = top && nestedIn.size === 0 ? [] : searched.flatMap((abs) => [abs, ...(nestedOf.get(abs) ?? [])]);
  const told =
    warnings.length + unread.length > 0
      ? { warnings: [...warnings, ...unread], ...(warnings.length > 0 ? { cut: warnings[0] } : {}) }
      : {};
  if (folders.length === 0 && !top) return { found: [], several: false, ...told };
  const found: Gathered['found'] = [];
  const byFolder = new Map<string, Prepared | InvalidSource>();
  // The skills' bytes, read once to hash them, are kept for their copies (64 MiB in all, as an archive's).
  const keep: KeepBudget = { bytes: KEEP_BYTES };
  for (const abs of folders.length > 0 ? folders : [root]) {
    const { source, origin } = lockOf(abs);
    const shown = typedAt(abs);
    // A skill at the top of a fetched tree sits in the cache's folder, which its author did not name.
    const p = await prepareLocal(abs, shown, source, {
      ...(relabel ? { relabel } : {}),
      folderNotNamed: relabel !== undefined && abs === unnamed,
      keep,
      listing: below?.listings.get(abs),
    }).catch((err: unknown) => {
      // One skill of several whose files lie deeper than the system can name is skipped, as an invalid one is, and
      // the others installed (before anything of it is written); a source of one skill fails as it did.
      if (folders.length === 0 || errnoIn(err)?.code !== 'ENAMETOOLONG') throw err;
      return pathTooLong(err, shown, abs, relabel);
    });
    const outer = byFolder.get(nestedIn.get(abs) ?? '');
    const nested = 'diagnostics' in p || outer === undefined ? p : { ...p, nestedIn: nameOf(outer) };
    const marked = templates.has(abs) ? { ...nested, template: true as const } : nested;
    byFolder.set(abs, marked);
    found.push('diagnostics' in marked || origin === undefined ? marked : { ...marked, origin });
  }
  return { found, several: folders.length > 0, ...told };
}

/** A skill of a source skipped for a path too long: what could not be read, as the source is typed. */
function pathTooLong(err: unknown, shown: string, abs: string, relabel: Relabel | undefined): InvalidSource {
  const said = describeErrno(errnoIn(err)!).message;
  return {
    source: shown,
    id: basename(abs),
    message: `${relabel ? relabel(said) : said}; it was skipped`,
    diagnostics: [],
    tooLong: true,
  };
}

/** A skill's id, or for an invalid one the name it was found under. */
const nameOf = (p: Prepared | InvalidSource): string => ('diagnostics' in p ? (p.id ?? p.source) : p.skill.id);

/**
 * A cut search said of a source: as typed, not the cache's folder a git source is read from, with what to do when
 * installing (the search's own advice is a lint run's).
 */
function cutWarning(cut: string, root: string, typed: string): string {
  const said = (cut.endsWith(CUT_ADVICE) ? cut.slice(0, -CUT_ADVICE.length) : cut)
    .split(root)
    .join(typed.replace(/\/$/, ''));
  return `${said}: name the folder inside the source that holds the skill (owner/repo/path, <url>#<ref>:<path>, a folder's path)`;
}

/** The keys a manifest.json skill has (any one of them): without all of them, the file is someone's data. */
const MANIFEST_KEYS = ['id', 'name', 'description', 'context', 'scripts'];

/**
 * True when a folder found below a source holds only a manifest.json that is some other tool's data (a plugin's
 * `prompts/clusters/manifest.json`): not a skill, so not an invalid one either. A file that cannot be parsed is
 * left to the skill loader, which says what is wrong with it.
 */
function dataManifest(dir: string, listing?: Dirent[]): boolean {
  // The names the search read: a folder with no manifest.json at all (most) needs no lookup.
  if (listing && !listing.some((d) => d.name.toLowerCase() === 'manifest.json')) return false;
  const has = (name: string) => existsIn(dir, name, listing);
  if (!has('manifest.json') || has('SKILL.md') || has('skill.md')) return false;
  try {
    // A file too large for a manifest is the loader's to refuse, with its own message.
    const { text } = readBounded(join(dir, 'manifest.json'), 1024 * 1024);
    if (text === undefined) return false;
    const doc: unknown = JSON.parse(text);
    return typeof doc === 'object' && doc !== null && !Array.isArray(doc) && !MANIFEST_KEYS.some((k) => k in doc);
  } catch {
    return false;
  }
}

const NON_ASCII = /[^ -~]/;

/**
 * existsSync(join(dir, name)), answered from the folder's listing where it can be: a regular file listed by that name
 * is there, and a name no entry has in any case is not (a file system that ignores case finds only those); a link, or
 * a name listed in another case, is looked up.
 */
export function existsIn(dir: string, name: string, listing?: Dirent[]): boolean {
  if (listing) {
    const lower = name.toLowerCase();
    // A name not all printable ASCII may fold to `name` where case is ignored (ſ to s, the Kelvin sign to k).
    const same = listing.filter((d) => d.name.toLowerCase() === lower || NON_ASCII.test(d.name));
    if (same.length === 0) return false;
    if (same.some((d) => d.name === name && d.isFile())) return true;
  }
  return existsSync(join(dir, name));
}

/** A commit's tree (from the cache, or fetched), and the folder `path` names inside it. */
export async function gitTree(
  url: string,
  ref: string | undefined,
  path: string | undefined,
  options: InstallOptions,
  typed: string,
): Promise<{ commit: string; dir: string; root: string }> {
  options.progress?.(`fetching ${typed}`);
  const { commit, dir } = await fetchCommit(
    url,
    ref,
    { env: options.env, cacheDir: options.cacheDir, progress: options.progress },
    path,
  );
  const { folder: root, outside } = folderOfTree(dir, path);
  if (outside !== undefined)
    throw new SkillsError(
      'E_INVALID',
      `${typed}: "${path}" at commit ${commit.slice(0, 12)} is a symbolic link that leads out of the repository (to ${outside}); it is not read, and nothing was installed`,
      { hint: 'name the folder that holds the skill itself, not a link to one' },
    );
  if (root === undefined) {
    throw new SkillsError(
      'E_NOT_FOUND',
      `${typed}: the repository has no folder "${path}" at commit ${commit.slice(0, 12)}; nothing was installed`,
      { hint: 'name a folder that holds a skill (or skills), e.g. owner/repo/skills/pdf or <url>#main:skills/pdf' },
    );
  }
  return { commit, dir, root };
}

/** Every skill of a git source: its tree fetched once, then read as a folder; each locked with the commit. */
export async function gatherGit(
  remote: Extract<RemoteSource, { kind: 'git' }>,
  raw: string,
  options: InstallOptions,
): Promise<Gathered> {
  // A URL's user:token@ never reaches a message or the lock.
  const typed = redactUrl(raw);
  const { commit, dir, root } = await gitTree(remote.url, remote.ref, remote.path, options, typed);
  // Findings name the source as typed and the path inside the repository, never the cache's folder.
  const gathered = await gatherTree(
    root,
    typed,
    (abs) => ({
      source: formatLockSource({ kind: 'git', url: canonicalSource(remote) }),
      origin: {
        commit,
        path: relative(dir, abs).split(sep).join('/'),
        ...(remote.ref === undefined ? {} : { ref: remote.ref }),
      },
    }),
    relabeler(dir, typed, ''),
    dir,
    undefined,
    options.only,
  );
  // Submodules are empty folders in the tree: a skill in one is not there to install (said, never silently missed).
  const inRoot = submodulesOf(dir).filter(
    (m) => isInside(root, join(dir, ...m.path.split('/'))) || isInside(join(dir, ...m.path.split('/')), root),
  );
  // A URL's user:token@ never reaches a message.
  const shown = (m: Submodule) => `${m.path}${m.url ? ` (${redactUrl(m.url)})` : ''}`;
  if (gathered.found.length === 0 && inRoot.length > 0) {
    const alone = inRoot.length === 1 && inRoot[0]!.url ? redactUrl(inRoot[0]!.url) : undefined;
    throw new SkillsError(
      'E_NOT_FOUND',
      `${typed}: no skill at commit ${commit.slice(0, 12)}: ${inRoot.length === 1 ? `${shown(inRoot[0]!)} is a git submodule` : `${someOf(inRoot.map(shown))} are git submodules`}, which skills does not fetch; nothing was installed`,
      {
        hint: alone
          ? `install it from its own repository: skills install ${alone}`
          : 'install each from its own repository (its URL is in .gitmodules)',
      },
    );
  }
  if (gathered.found.length === 0) throw noSkill(typed, `commit ${commit.slice(0, 12)}`, gathered.cut);
  // Said of a submodule where skills are: named as one, or beside a skill found (a library's is no news).
  const parents = new Set(
    gathered.found.map((p) => ('diagnostics' in p ? p.source : p.typed).split('/').slice(0, -1).join('/')),
  );
  const told = inRoot.filter(
    (m) =>
      /skill/i.test(m.path) || parents.has(`${typed}/${m.path.split('/').slice(0, -1).join('/')}`.replace(/\/$/, '')),
  );
  if (told.length > 0)
    (gathered.warnings ??= []).push(
      `${typed}: ${told.length === 1 ? `the git submodule ${shown(told[0]!)} is` : `${told.length} git submodules are`} not fetched, and no skill in ${told.length === 1 ? 'it' : 'them'} is installed${told.length === 1 ? '' : ` (${someOf(told.map(shown))})`}: install ${told.length === 1 ? 'it' : 'each'} from its own repository`,
    );
  return gathered;
}

/** The submodules `.gitmodules` names at the top of a checked-out tree; none when it has none or it cannot be read. */
function submodulesOf(dir: string): Submodule[] {
  try {
    const { text } = readBounded(join(dir, '.gitmodules'), 256 * 1024, dir);
    return text === undefined ? [] : parseGitmodules(text);
  } catch {
    return [];
  }
}

/**
 * No skill in a source: none there, or (`cut`, the warning of a search cut at its limits) none in the part of it
 * read, which is said rather than that it holds none.
 */
export function noSkill(typed: string, where: string, cut?: string): SkillsError {
  return new SkillsError(
    'E_NOT_FOUND',
    cut === undefined
      ? `${typed}: no skill at ${where} (no folder with a SKILL.md or manifest.json); nothing was installed`
      : `${typed}: no skill found at ${where}, but not all of it was searched: ${cut}; nothing was installed`,
    { hint: 'name the repository that holds the skills, or a folder inside it: owner/repo/path/to/skill' },
  );
}

/** Download an archive once a run, into the scratch; the file keeps the URL's name, so its format is known. */
export function downloadOnce(url: string, typed: string, scratch: Scratch, options: InstallOptions): Promise<string> {
  const known = scratch.downloads.get(url);
  if (known) return known;
  needCache(options.cacheDir);
  options.progress?.(`downloading ${typed}`);
  const dir = scratch.folder('download');
  mkdirSync(dir);
  const file = downloadArchive(url, dir, { env: options.env, maxBytes: MAX_ARCHIVE_BYTES, progress: options.progress });
  scratch.downloads.set(url, file);
  return file;
}

/** Every skill of an archive by URL: downloaded, unpacked, each locked as `url:<url>` with its path inside. */
export async function gatherUrl(
  remote: Extract<RemoteSource, { kind: 'url' }>,
  raw: string,
  options: InstallOptions,
  scratch: Scratch,
): Promise<Gathered> {
  const typed = redactUrl(raw);
  const file = await downloadOnce(remote.url, typed, scratch, options);
  // Told by its URL: the scratch file it was downloaded to is gone by the time an error is read.
  const unpacked = await unpackArchive(file, typed, scratch, options).catch((err: unknown) => {
    throw relabelError(err, relabeler(file, typed, ''));
  });
  const { found: inArchive, several } = archivedToPrepare(unpacked, scratch, options.only);
  const found: Gathered['found'] = [];
  for (const a of inArchive) {
    const p = await prepareArchived(a, typed, '', several);
    const source = formatLockSource({ kind: 'url', url: canonicalSource(remote) });
    found.push('diagnostics' in p ? p : { ...p, source, origin: { path: a.inner } });
  }
  if (found.length === 0) throw noSkill(typed, 'its top or in any folder');
  const inners = unpacked.map((a) => a.inner);
  const warnings = linksLeftOutWarning(typed, scratch.linksLeftOut.get(file) ?? [], inners);
  return { found, several, ...(warnings.length ? { warnings } : {}) };
}
