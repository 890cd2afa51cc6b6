import { createHash } from 'node:crypto';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import satisfies from 'semver/functions/satisfies.js';
import compare from 'semver/functions/compare.js';
import validVersion from 'semver/functions/valid.js';
import { SkillsError, isSkillsError } from '../errors.js';
import { redactUrl } from '../formats/install-source.js';
import { DEFAULT_LIMITS, extractArchive } from '../fs/archive.js';
import { entryNameProblem, tooBig } from '../fs/archive-entries.js';
import { cleanStale, syncDir, tempName } from '../fs/atomic.js';
import { isInside } from '../fs/walk.js';
import { needCache } from './cache.js';
import { sealTree, treeHolds } from './tree-seal.js';
import { gitFailure, noRef, refMissing, runGit, type GitOptions } from './run-git.js';
import { plural } from '../formats/text.js';

export type { GitOptions } from './run-git.js';

// A skill from a git repository: the commit a ref names, asked of the remote without a clone, and that commit's
// tree, fetched alone (depth 1) into a throwaway bare repository, written out by `git archive`, read through the
// hardened extractor (nothing in a stranger's repository is trusted) and renamed into the cache whole. A tree is
// kept per URL and commit and never changes, so a cached one is used without the network. When a folder inside is
// named, only it is archived (a tiny skill in a huge repository stays under the extractor's limits) and kept per
// URL, commit and path; a whole tree in the cache serves any folder of it.

const HEX40 = /^[0-9a-f]{40}$/i;
const SHORT_HEX = /^[0-9a-f]{4,39}$/i;
const TEMP = '.tmp-';

/** The folder of the git cache, made (0700 for the skills folder, as the code cache) when missing. */
function gitCache(o: GitOptions): string {
  const cacheDir = needCache(o.cacheDir);
  mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
  const dir = join(cacheDir, 'git');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** ls-remote: name → object. Run where no repository can be found (its config would rewrite the URL). */
async function lsRemote(url: string, args: string[], o: GitOptions): Promise<Map<string, string>> {
  const cwd = gitCache(o);
  const env = { GIT_CEILING_DIRECTORIES: dirname(cwd) };
  const r = await runGit(['ls-remote', ...args], { cwd, url, o, env, reach: 'ask' });
  if (r.code !== 0) throw gitFailure(url, r.stderr);
  const refs = new Map<string, string>();
  for (const line of r.stdout.split('\n')) {
    const m = /^([0-9a-f]{40,64})\t(.+)$/.exec(line);
    if (m) refs.set(m[2]!, m[1]!);
  }
  return refs;
}

/** Every tag on the remote with the commit it points to (peeled), from `git ls-remote --tags`. */
export async function remoteTags(url: string, o: GitOptions): Promise<{ tag: string; commit: string }[]> {
  const refs = await lsRemote(url, ['--tags', '--', url], o);
  const tags: { tag: string; commit: string }[] = [];
  for (const [name, object] of refs) {
    if (!name.startsWith('refs/tags/') || name.endsWith('^{}')) continue;
    tags.push({ tag: name.slice('refs/tags/'.length), commit: refs.get(`${name}^{}`) ?? object });
  }
  return tags;
}

/** The highest tag `vX.Y.Z` or `X.Y.Z` in `range` (a `v` tag wins a tie), or undefined. */
export function highestTag<T extends { tag: string }>(tags: T[], range: string): T | undefined {
  let best: { t: T; v: string } | undefined;
  for (const t of tags) {
    if (!/^v?\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]*)?$/.test(t.tag)) continue;
    const v = validVersion(t.tag);
    if (v === null || !satisfies(v, range)) continue;
    const c = best ? compare(v, best.v) : 1;
    if (c > 0 || (c === 0 && t.tag.startsWith('v') && !best!.t.tag.startsWith('v'))) best = { t, v };
  }
  return best?.t;
}

/**
 * The commit a ref names on the remote, without a clone (`git ls-remote`): a tag (peeled `^{}` wins), a branch, HEAD
 * when ref is undefined; a 40-hex ref is returned as is; a short hex or unknown ref → undefined. `semver:<range>` →
 * the highest tag `v?X.Y.Z` satisfying it.
 */
export async function resolveRef(url: string, ref: string | undefined, o: GitOptions): Promise<string | undefined> {
  if (ref !== undefined && HEX40.test(ref)) return ref.toLowerCase();
  if (ref?.startsWith('semver:')) return highestTag(await remoteTags(url, o), ref.slice('semver:'.length))?.commit;
  o.progress?.(`resolving ${ref ?? 'HEAD'} of ${redactUrl(url)}`);
  if (ref === undefined) return (await lsRemote(url, ['--', url, 'HEAD'], o)).get('HEAD');
  if (ref.startsWith('refs/')) {
    const refs = await lsRemote(url, ['--', url, ref, `${ref}^{}`], o);
    return refs.get(`${ref}^{}`) ?? refs.get(ref);
  }
  // As git reads a name: a tag before a branch of the same name.
  const tag = `refs/tags/${ref}`;
  const refs = await lsRemote(url, ['--', url, tag, `${tag}^{}`, `refs/heads/${ref}`], o);
  return refs.get(`${tag}^{}`) ?? refs.get(tag) ?? refs.get(`refs/heads/${ref}`);
}

/** Where the tree of `commit` of `url` is cached: the whole tree, or only the folder `path` (under its own path). */
function treeDir(cache: string, url: string, commit: string, path?: string): string {
  // The NUL cannot be in a URL or a path: no whole tree and folder share a key.
  // "links-all": trees cached since every symlink of a commit is made (makeLinks); older ones lack those that lead
  // out of the tree, which the install plan then could not name.
  const key = `${path === undefined ? url + commit : `${url}${commit}\0${path}`}\0links-all`;
  return join(cache, createHash('sha256').update(key).digest('hex').slice(0, 32));
}

/** The cached tree that holds `path` (the whole tree first), or undefined; one changed since it was fetched is not. */
function cachedTree(cache: string, url: string, commit: string, path: string | undefined): string | undefined {
  for (const dir of [treeDir(cache, url, commit), ...(path === undefined ? [] : [treeDir(cache, url, commit, path)])])
    if (present(dir) && treeHolds(dir, TEMP)) return dir;
  return undefined;
}

/** A folder inside the repository with `.` and empty segments dropped, undefined for its top; `..` is refused. */
export function insidePath(url: string, path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  const parts = path.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..') || path.includes('\0'))
    throw new SkillsError(
      'E_USAGE',
      `refused: the path "${path}" inside ${redactUrl(url)} has a ".." segment or a NUL`,
      {
        hint: 'name a folder inside the repository, e.g. skills/pdf',
      },
    );
  return parts.length === 0 ? undefined : parts.join('/');
}

/**
 * The remote's HEAD names no commit: the repository is empty (no branch, no tag), or its HEAD names a branch that
 * does not exist while others do; only then is naming a branch the way out.
 */
async function noHead(url: string, o: GitOptions): Promise<SkillsError> {
  const shown = redactUrl(url);
  const refs = [...(await lsRemote(url, ['--heads', '--tags', '--', url], o)).keys()].filter((r) => !r.endsWith('^{}'));
  if (refs.length === 0)
    return new SkillsError('E_NOT_FOUND', `${shown} is an empty repository: it has no commits, no branch and no tag`, {
      hint: 'push a commit to it first, or install from another repository',
    });
  const names = refs.slice(0, 3).map((r) => `${shown}#${r.replace(/^refs\/(?:heads|tags)\//, '')}`);
  return new SkillsError(
    'E_NOT_FOUND',
    `${shown} has no commit at HEAD (its HEAD names a branch that does not exist)`,
    {
      hint: `name one of its branches or tags: ${names.join(', ')}`,
    },
  );
}

/** The folder is not in that commit. */
function noFolder(url: string, path: string, commit: string): SkillsError {
  return new SkillsError(
    'E_NOT_FOUND',
    `${redactUrl(url)}: the repository has no folder "${path}" at commit ${commit.slice(0, 12)}`,
    { hint: 'name a folder that holds a skill (or skills), e.g. owner/repo/skills/pdf or <url>#main:skills/pdf' },
  );
}

function present(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * A gitattributes pattern that matches exactly `path` from the top: wildcards escaped, then C-quoted when it holds
 * a space, a quote or a control character.
 */
export function literalPattern(path: string): string {
  const glob = `/${path.replace(/[*?[\]\\]/g, '\\$&')}`;
  // eslint-disable-next-line no-control-regex
  if (!/[\s"\x00-\x1f\x7f]/.test(glob)) return glob;
  const quoted = glob.replace(
    // eslint-disable-next-line no-control-regex
    /[\\"\x00-\x1f\x7f]/g,
    (c) => (c === '\\' || c === '"' ? `\\${c}` : `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`),
  );
  return `"${quoted}"`;
}

/** Files read-only (a cached tree is never written); folders stay writable, so the cache can be removed with rm. */
function makeReadOnly(dir: string): void {
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, d.name);
    if (d.isDirectory()) makeReadOnly(p);
    // Not through a symlink: chmod follows it, and 777 & 555 would give the file it leads to execute bits.
    else if (d.isFile()) chmodSync(p, lstatSync(p).mode & 0o555);
  }
}

/**
 * Fetch `what` (a commit or refspecs) into the bare repository; its failure as git said it. `treesOnly`: commits and
 * trees without file contents (`--filter=blob:none`; a server that does not filter sends them all, as git warns).
 */
function fetchInto(bare: string, url: string, what: string[], o: GitOptions, shallow: boolean, treesOnly = false) {
  // --progress: what it prints while objects arrive is how a stalled transfer is told from a slow one.
  const args = ['fetch', '--progress', '--no-tags', '--no-write-fetch-head', ...(shallow ? ['--depth', '1'] : [])];
  if (treesOnly) args.push('--filter=blob:none');
  return runGit([...args, '--', url, ...what], { cwd: bare, url, o, env: { GIT_DIR: bare }, reach: 'transfer' });
}

/** The full commit a name of the bare repository gives, or undefined. */
async function revParse(bare: string, url: string, name: string, o: GitOptions): Promise<string | undefined> {
  const r = await runGit(['rev-parse', '--verify', '--quiet', '--end-of-options', `${name}^{commit}`], {
    cwd: bare,
    url,
    o,
    env: { GIT_DIR: bare },
  });
  const out = r.stdout.trim();
  return r.code === 0 && HEX40.test(out) ? out : undefined;
}

/** Bring `commit` (or, when undefined, the commit the short hex `short` names) into the bare repository. */
async function fetchObjects(
  bare: string,
  url: string,
  commit: string | undefined,
  short: string,
  o: GitOptions,
): Promise<string> {
  if (commit !== undefined) {
    const r = await fetchInto(bare, url, [commit], o, true);
    const found = r.code === 0 ? await revParse(bare, url, commit, o) : undefined;
    if (found !== undefined) return found;
    // A server may refuse a commit no branch or tag points at (uploadpack.allowReachableSHA1InWant): fetch them all.
    if (r.code !== 0 && !refMissing(r.stderr)) throw gitFailure(url, r.stderr, short);
  }
  o.progress?.(`fetching every branch and tag of ${redactUrl(url)} to find ${short}`);
  const all = ['+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'];
  const r = await fetchInto(bare, url, all, o, false);
  if (r.code !== 0) throw gitFailure(url, r.stderr);
  const found = await revParse(bare, url, commit ?? short, o);
  if (found === undefined) throw noRef(url, short);
  return found;
}

/**
 * The tree of `commit` in the bare repository (only the folder `path` in it, when given), extracted into `dest`
 * through the hardened extractor.
 */
async function writeTree(
  bare: string,
  url: string,
  commit: string,
  dest: string,
  o: GitOptions,
  path: string | undefined,
): Promise<void> {
  const at = { cwd: bare, url, o, env: { GIT_DIR: bare } };
  // Paths after `--`, read literally (GIT_LITERAL_PATHSPECS): `:(glob)*` or `-x` in a path is just a name.
  const only = path === undefined ? [] : ['--', path];
  // Links are refused by the extractor, and one anywhere in the repository (CLAUDE.md -> AGENTS.md) would refuse
  // every skill in it: they are left out of the archive, and made again after it (makeLinks). The repository's own
  // export-ignore and export-subst are overridden, so the tree is the commit's, byte for byte ($GIT_DIR/info/attributes
  // wins over .gitattributes).
  const list = await runGit(['ls-tree', '-r', '-z', '--full-tree', commit, ...only], at);
  if (list.code !== 0) throw gitFailure(url, list.stderr);
  const entries = list.stdout.split('\0').filter((l) => l !== '');
  if (path !== undefined && entries.length === 0) throw noFolder(url, path, commit);
  const links = entries.filter((l) => l.startsWith('120000 ')).map((l) => l.slice(l.indexOf('\t') + 1));
  mkdirSync(join(bare, 'info'), { recursive: true });
  const rules = ['* -export-ignore -export-subst', ...links.map((p) => `${literalPattern(p)} export-ignore`)];
  writeFileSync(join(bare, 'info', 'attributes'), `${rules.join('\n')}\n`);
  const tar = join(dirname(bare), 'tree.tar');
  // The extractor's refusal, told of the repository and the commit rather than of its temp tar.
  const refused = (err: SkillsError): SkillsError => {
    const message = err.message.startsWith(`${tar}: `) ? err.message.slice(tar.length + 2) : err.message;
    const where = `${redactUrl(url)} at ${commit.slice(0, 12)}${path === undefined ? '' : `: ${path}`}`;
    // A whole repository over the limits may still hold a small skill: only its folder need be fetched.
    const hint =
      path === undefined && message.includes('; the limits are ')
        ? 'a repository this large is fetched a folder at a time: name the folder of the skill inside it, e.g. owner/repo/skills/pdf or <url>#main:skills/pdf'
        : err.hint;
    return new SkillsError(err.code, `${where}: ${message}`, { cause: err, hint });
  };
  // A tree with more files and folders than the extractor takes is refused from its listing, before 150 MB of tar
  // are written and 20,000 entries extracted only to be removed (elmochilyas/laraskills: 19,260 files, 50 s).
  const { files, folders } = treeEntries(entries);
  if (files + folders > DEFAULT_LIMITS.maxEntries) {
    const what = `it holds more than ${DEFAULT_LIMITS.maxEntries} entries (${files} ${plural(files, 'file')} in ${folders} ${plural(folders, 'folder')})`;
    throw refused(tooBig(tar, what, DEFAULT_LIMITS));
  }
  const r = await runGit(['archive', '--format=tar', `--output=${tar}`, commit, ...only], at);
  if (r.code !== 0) {
    if (path !== undefined && /did not match any files/.test(r.stderr)) throw noFolder(url, path, commit);
    throw gitFailure(url, r.stderr);
  }
  try {
    await extractArchive(tar, dest, DEFAULT_LIMITS);
  } catch (err) {
    if (!isSkillsError(err)) throw err;
    throw refused(err);
  }
  await makeLinks(entries, dest, at);
  makeReadOnly(dest);
}

/**
 * The files of an `ls-tree -r` listing that `git archive` writes (links are left out of it), and the folders that
 * hold them: the archive has an entry for each, so the extractor counts at least as many.
 */
export function treeEntries(entries: readonly string[]): { files: number; folders: number } {
  let files = 0;
  const folders = new Set<string>();
  for (const l of entries) {
    if (!l.startsWith('100644 blob ') && !l.startsWith('100755 blob ')) continue;
    files++;
    const p = l.slice(l.indexOf('\t') + 1);
    for (let i = p.lastIndexOf('/'); i > 0 && !folders.has(p.slice(0, i)); i = p.lastIndexOf('/', i - 1))
      folders.add(p.slice(0, i));
  }
  return { files, folders: folders.size };
}

/**
 * The commit's symlinks, made in the tree written at `dest` as they are in a clone: a skill from git then holds what
 * its folder holds, and each copy takes a link inside the skill as the file or folder it leads to (skillFiles), as
 * pack does. A link that leads out of the skill (absolute, or out of the repository) is made too, never followed
 * (skillFiles and every read of a skill's file refuse it), so the install plan names it as it names a folder's
 * (outwardLinks) rather than dropping it unsaid. Not on Windows, where making a link needs a privilege.
 */
async function makeLinks(entries: string[], dest: string, at: Parameters<typeof runGit>[1]): Promise<void> {
  if (process.platform === 'win32') return;
  const links = entries
    .filter((l) => l.startsWith('120000 '))
    .map((l) => ({ oid: l.slice('120000 blob '.length, l.indexOf('\t')), path: l.slice(l.indexOf('\t') + 1) }))
    .filter((l) => /^[0-9a-f]+$/.test(l.oid) && entryNameProblem(l.path, dest) === undefined);
  if (links.length === 0) return;
  const r = await runGit(['cat-file', '--batch'], { ...at, input: links.map((l) => `${l.oid}\n`).join('') });
  if (r.code !== 0) throw gitFailure(at.url, r.stderr);
  // Each object: "<oid> blob <size>\n", its bytes, "\n".
  const out = Buffer.from(r.stdout, 'utf8');
  let i = 0;
  for (const link of links) {
    const eol = out.indexOf(0x0a, i);
    if (eol < 0) return;
    const size = Number(/ blob (\d+)$/.exec(out.toString('utf8', i, eol))?.[1] ?? NaN);
    if (!Number.isInteger(size)) return;
    const text = out.toString('utf8', eol + 1, eol + 1 + size);
    i = eol + 1 + size + 1;
    if (text === '' || text.includes('\0')) continue;
    const abs = join(dest, link.path);
    if (present(abs)) continue;
    mkdirSync(dirname(abs), { recursive: true });
    symlinkSync(text, abs);
  }
}

/** A throwaway bare repository in the cache for `f`, removed after it (a killed run's is swept by the next). */
async function inTempRepo<T>(url: string, o: GitOptions, label: string, f: (bare: string) => Promise<T>): Promise<T> {
  const cache = gitCache(o);
  sweep(cache);
  const tmp = join(cache, tempName(TEMP, label));
  mkdirSync(tmp);
  try {
    const bare = join(tmp, 'repo.git');
    const init = await runGit(['init', '--bare', '--quiet', '--template=', '--', bare], { cwd: tmp, url, o });
    if (init.code !== 0) throw gitFailure(url, init.stderr);
    return await f(bare);
  } finally {
    rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
  }
}

/**
 * The git tree id of each folder `paths` names at each of `commits` (40 hex, as the remote has them), keyed
 * `<commit>:<path>`; a folder not in a commit has no key. Commits and trees only are fetched (depth 1, no file
 * contents), all in one fetch, into a throwaway repository. Undefined when the remote would not give every commit
 * (a commit no longer on it, or a server that gives only branch and tag heads): then nothing is known.
 */
export async function folderTrees(
  url: string,
  commits: readonly string[],
  paths: readonly string[],
  o: GitOptions,
): Promise<Map<string, string> | undefined> {
  if (url.startsWith('-'))
    throw new SkillsError('E_USAGE', `refused: a git URL may not start with "-" ("${redactUrl(url)}")`);
  const wanted = [...new Set(commits.map((c) => c.toLowerCase()))].filter((c) => HEX40.test(c));
  const inside = [...new Set(paths.map((p) => insidePath(url, p)).filter((p) => p !== undefined))];
  if (wanted.length === 0 || inside.length === 0) return new Map();
  return inTempRepo(url, o, 'trees', async (bare) => {
    o.progress?.(`reading which folders changed in ${redactUrl(url)}`);
    const r = await fetchInto(bare, url, wanted, o, true, true);
    if (r.code !== 0) {
      if (refMissing(r.stderr) || /did not send all necessary objects/i.test(r.stderr)) return undefined;
      throw gitFailure(url, r.stderr);
    }
    const at = { cwd: bare, url, o, env: { GIT_DIR: bare } };
    const out = new Map<string, string>();
    for (const commit of wanted) {
      const list = await runGit(['ls-tree', '-z', '--full-tree', commit, '--', ...inside], at);
      if (list.code !== 0) return undefined;
      for (const line of list.stdout.split('\0')) {
        const m = /^\d+ tree ([0-9a-f]{40,64})\t(.+)$/s.exec(line);
        if (m) out.set(`${commit}:${m[2]!}`, m[1]!);
      }
    }
    return out;
  });
}

/** Remove what killed runs left in the cache; a file git is still writing can make that fail: next time, then. */
function sweep(cache: string): void {
  try {
    cleanStale(cache, [TEMP]);
  } catch {
    /* a killed run's git may still be writing there */
  }
}

/**
 * The folder `path` names in the tree `dir` fetchCommit gave: `folder` when it is one whose real path is inside the
 * tree, `outside` (where it leads) when it or a folder above it is a symbolic link out of the tree, which is never
 * read (the tree holds the commit's links as a clone does, absolute ones too), neither when it is not a folder there.
 */
export function folderOfTree(dir: string, path: string | undefined): { folder?: string; outside?: string } {
  const abs = path ? join(dir, ...path.split('/')) : dir;
  let real: string;
  try {
    real = realpathSync.native(abs);
  } catch {
    return {};
  }
  if (!isInside(realpathSync.native(dir), real)) return { outside: real };
  try {
    return statSync(real).isDirectory() ? { folder: abs } : {};
  } catch {
    return {};
  }
}

/**
 * The tree of one commit, extracted into the cache, read-only: `<cacheDir>/git/<sha256(url + commit) first 32
 * hex>/`. With `path` (a folder inside the repository), only that folder, at its path under a folder keyed by url,
 * commit and path, unless the whole tree is cached already; a path not in the commit is refused (E_NOT_FOUND).
 * Fetches only that commit; a short SHA fetches branches and tags. Atomic: a killed run leaves no half tree under
 * the final name. Returns the 40-hex commit and the folder the path is inside of; a cached tree is reused without
 * the network.
 */
export async function fetchCommit(
  url: string,
  ref: string | undefined,
  o: GitOptions,
  path?: string,
): Promise<{ commit: string; dir: string }> {
  if (url.startsWith('-') || ref?.startsWith('-'))
    throw new SkillsError('E_USAGE', `refused: a git URL or ref may not start with "-" ("${redactUrl(url)}")`);
  const inside = insidePath(url, path);
  const cache = gitCache(o);
  const commit = await resolveRef(url, ref, o);
  if (commit === undefined) {
    if (ref === undefined) throw await noHead(url, o);
    if (ref.startsWith('semver:'))
      throw new SkillsError('E_NOT_FOUND', `${redactUrl(url)} has no tag vX.Y.Z in the range "${ref.slice(7)}"`, {
        hint: `list its tags with: git ls-remote --tags ${redactUrl(url)}`,
      });
    if (!SHORT_HEX.test(ref)) throw noRef(url, ref);
  } else {
    const cached = cachedTree(cache, url, commit, inside);
    if (cached !== undefined) return { commit, dir: cached };
  }
  return inTempRepo(url, o, commit ?? 'short', async (bare) => {
    o.progress?.(`fetching ${redactUrl(url)} at ${(commit ?? ref!).slice(0, 12)}`);
    const found = await fetchObjects(bare, url, commit, ref ?? commit!, o);
    const cached = cachedTree(cache, url, found, inside);
    if (cached !== undefined) return { commit: found, dir: cached };
    const dir = treeDir(cache, url, found, inside);
    const staged = join(dirname(bare), 'tree');
    await writeTree(bare, url, found, staged, o, inside);
    try {
      renameSync(staged, dir);
      sealTree(dir);
    } catch (err) {
      // Another run put the same tree there first: it is the same tree.
      if (!present(dir)) throw err;
    }
    syncDir(cache);
    return { commit: found, dir };
  });
}
