import validRange from 'semver/ranges/valid.js';
import { SkillsError } from '../errors.js';

/*
 * What a user may type to `skills install` to get skills from somewhere else than this disk or the registry:
 *
 *   owner/repo, owner/repo/path/to/skill     GitHub shorthand: https://github.com/owner/repo.git, path path/to/skill.
 *                                            Only when nothing is at that path on disk, and it does not start with
 *                                            `.`, `/` or `~`, holds no `\` and no scheme. Owner and repo use GitHub's
 *                                            letters ([A-Za-z0-9_.-], the owner not starting with `-`).
 *   github:owner/repo[/path]                 the same, said explicitly.
 *   gitlab:group/sub/repo                    https://gitlab.com/group/sub/repo.git. GitLab groups nest, so every
 *                                            segment is the repository's path: a folder inside it is given after `#…:`
 *                                            (`gitlab:group/repo#v1:skills/pdf`).
 *   …#v1.2.0  …#main  …#<40 hex>  …#<short hex>    a ref: tag, branch or commit (HEAD of the default branch if none)
 *   …#v1.2.0:skills/pdf  …#:skills/pdf       a ref and a folder inside the repository (`#:` the default branch)
 *   …#semver:^1.2[:path]                     npm's form: the highest tag v?X.Y.Z in the range (ref `semver:^1.2`)
 *   https://github.com/owner/repo/tree/<ref>/<path>       what a browser shows (the ref is one segment)
 *   https://gitlab.com/group/repo/-/tree/<ref>/<path>     the same for GitLab
 *   https://…, ssh://…, git://…, file://…    a git URL as is; git+https://, git+ssh://, git+file:// drop the `git+`
 *   http://…                                 only to 127.0.0.1, localhost or [::1] (anything else goes in the clear)
 *   git@host:owner/repo.git, user@host:path  scp-like ssh
 *   https://…/x.tgz (.tar.gz .tar .zip .skill)    an archive by URL ({ kind: 'url' }; no ref, no path)
 *   npm:@scope/name[@range|@tag], @scope/name[@range|@tag]   a package of an npm-compatible registry ({ kind: 'npm' })
 *   https://site/, https://site/.well-known/agent-skills/index.json   a site's skills (discovery RFC; 'well-known')
 *   mcp+stdio:<command line>, mcp+https://…/mcp   the skills an MCP server serves (SEP-2640; { kind: 'mcp' }): a
 *                                            command (split as `env -S` splits) that speaks MCP on stdio, or a
 *                                            Streamable HTTP endpoint (mcp+http:// only to loopback, as for git)
 *
 * Anything else (`pdf`, `pdf@^1.2`, `./x`, a path that exists) is not remote: undefined. Refused with E_USAGE: any
 * other scheme (`ext::`, `fd::`, `ftp://`: git would run or read what they name), a URL, user, host, ref or path
 * that starts with `-` (git would read it as an option), a path with `..`, a leading `/`, a backslash or NUL.
 */

export type RemoteSource =
  | { kind: 'git'; url: string; ref?: string; path?: string; typed: string }
  | { kind: 'url'; url: string; typed: string }
  | { kind: 'npm'; name: string; range?: string; typed: string }
  | { kind: 'well-known'; index: string; typed: string }
  /** `server`: `stdio:<command line>` or the http(s) URL of a Streamable HTTP endpoint. */
  | { kind: 'mcp'; server: string; typed: string };

/** Where the Agent Skills Discovery RFC puts a site's index. */
export const WELL_KNOWN_INDEX = '/.well-known/agent-skills/index.json';

/** An npm package name: `name` or `@scope/name`, lowercase, as the registry takes it. */
const NPM_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;
/** A dist-tag (`latest`, `next`, `beta`): what is not a range but names a version. */
const DIST_TAG = /^[A-Za-z][A-Za-z0-9._-]*$/;

/** `npm:<name>[@<range or dist-tag>]`, or `@scope/name[@…]` typed bare. */
function npmSource(typed: string, spec: string): RemoteSource {
  const at = spec.indexOf('@', 1);
  const name = at === -1 ? spec : spec.slice(0, at);
  const range = at === -1 ? undefined : spec.slice(at + 1).trim();
  if (!NPM_NAME.test(name))
    throw refuse(typed, `${q(name)} is not an npm package name`, 'e.g. npm:@acme/pdf@^1.2 or @acme/pdf@latest');
  if (range !== undefined && (range === '' || (validRange(range) === null && !DIST_TAG.test(range))))
    throw refuse(
      typed,
      `${q(range)} is neither a semver range nor a dist-tag`,
      'e.g. @acme/pdf@^1.2 or @acme/pdf@next',
    );
  return { kind: 'npm', name, ...(range === undefined ? {} : { range }), typed };
}

const ARCHIVE_EXT = /\.(?:tgz|tar\.gz|tar|zip|skill)$/i;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const GIT_SCHEMES = new Set(['https', 'http', 'ssh', 'git', 'file']);
const ALLOWED =
  'https://, ssh://, git://, file://, git+https://, git+ssh://, git+file://, git@host:owner/repo, github:owner/repo, gitlab:group/repo or owner/repo (http:// only to 127.0.0.1, localhost or [::1])';
/** A GitHub owner or repository name (and a GitLab group or project). */
const NAME = /^(?!-)(?!\.{1,2}$)[A-Za-z0-9_.-]+$/;

/** A URL written with its credentials taken out: all of them for http(s), the password for other schemes. */
export function redactUrl(text: string): string {
  return text.replace(/\b([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/@\s]*)@/g, (_m, scheme: string, user: string) =>
    /^(?:git\+)?https?:\/\/$/i.test(scheme) ? scheme : `${scheme}${user.split(':')[0]}@`,
  );
}

/** A value quoted for a message, its control characters escaped. */
const q = (s: string): string => JSON.stringify(s);

function refuse(typed: string, why: string, hint?: string): SkillsError {
  return new SkillsError('E_USAGE', `cannot install from ${q(redactUrl(typed))}: ${why}`, { hint });
}

/** The ref and the folder a `#…` fragment names; both undefined when it is empty. */
function parseFragment(typed: string, frag: string | undefined): { ref?: string; path?: string } {
  if (frag === undefined) return {};
  let ref: string;
  let path: string | undefined;
  if (frag.startsWith('semver:')) {
    const rest = frag.slice('semver:'.length);
    const colon = rest.indexOf(':');
    const range = colon === -1 ? rest : rest.slice(0, colon);
    path = colon === -1 ? undefined : rest.slice(colon + 1);
    if (range.trim() === '' || validRange(range) === null)
      throw refuse(typed, `${q(range)} is not a semver range`, 'e.g. owner/repo#semver:^1.2 (tags v1.2.0, v1.3.1 …)');
    ref = `semver:${range}`;
  } else {
    const colon = frag.indexOf(':');
    ref = colon === -1 ? frag : frag.slice(0, colon);
    path = colon === -1 ? undefined : frag.slice(colon + 1);
    if (ref !== '') checkRef(typed, ref);
  }
  // `#HEAD` is the remote's HEAD, the default branch, as `#` alone says (git ls-remote lists HEAD beside branches).
  return { ref: ref === '' || ref === 'HEAD' ? undefined : ref, path: checkPath(typed, path) };
}

/** Refuse what git would not take as a branch, tag or commit name (check-ref-format), or would read as an option. */
function checkRef(typed: string, ref: string): void {
  if (ref.startsWith('-')) throw refuse(typed, `the ref ${q(ref)} starts with "-"`);
  const bad =
    // eslint-disable-next-line no-control-regex
    /[\x00-\x20\x7f~^:?*[\\]/.test(ref) ||
    ref.includes('..') ||
    ref.includes('@{') ||
    ref.includes('//') ||
    ref === '@' ||
    /^\/|[/.]$|\.lock$/.test(ref);
  if (bad) throw refuse(typed, `${q(ref)} is not a branch, tag or commit name`, 'e.g. #v1.2.0, #main or #3f2c1ab');
}

/** A folder inside the repository, with `.` and empty segments dropped; undefined for its top. */
function checkPath(typed: string, path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  const why = path.includes('\0')
    ? 'has a NUL byte'
    : path.includes('\\')
      ? 'has a backslash (paths inside a repository use "/")'
      : path.startsWith('/')
        ? 'starts with "/" (it is a folder inside the repository)'
        : path.startsWith('-')
          ? 'starts with "-"'
          : path.split('/').includes('..')
            ? 'has a ".." segment'
            : undefined;
  if (why) throw refuse(typed, `the path ${q(path)} ${why}`, 'e.g. owner/repo#v1.2.0:skills/pdf');
  const clean = path
    .split('/')
    .filter((s) => s !== '' && s !== '.')
    .join('/');
  return clean === '' ? undefined : clean;
}

/** A path given twice (in the shorthand or a browser URL, and again after `#…:`) is refused. */
function onePath(typed: string, a: string | undefined, b: string | undefined): string | undefined {
  if (a !== undefined && b !== undefined) throw refuse(typed, `it names the folder twice (${q(a)} and ${q(b)})`);
  return a ?? b;
}

function gitSource(typed: string, url: string, ref: string | undefined, path: string | undefined): RemoteSource {
  const s: RemoteSource = { kind: 'git', url, typed };
  if (ref !== undefined) s.ref = ref;
  if (path !== undefined) s.path = path;
  return s;
}

/** `owner/repo[/path]` after `github:` or bare; undefined when it is not that shape. */
function github(typed: string, rest: string, frag: string | undefined): RemoteSource | undefined {
  const m = /^([^/]+)\/([^/]+)(?:\/(.*))?$/.exec(rest);
  if (!m || !NAME.test(m[1]!) || !NAME.test(m[2]!)) return undefined;
  const repo = m[2]!.replace(/\.git$/, '');
  if (!NAME.test(repo)) return undefined;
  const { ref, path } = parseFragment(typed, frag);
  const inner = checkPath(typed, m[3]);
  return gitSource(typed, `https://github.com/${m[1]}/${repo}.git`, ref, onePath(typed, inner, path));
}

function gitlab(typed: string, rest: string, frag: string | undefined): RemoteSource {
  const parts = rest.replace(/\/+$/, '').split('/');
  if (parts[parts.length - 1]?.endsWith('.git')) parts[parts.length - 1] = parts.at(-1)!.slice(0, -'.git'.length);
  if (parts.length < 2 || !parts.every((p) => NAME.test(p)))
    throw refuse(
      typed,
      'expected gitlab:group/repo (groups may nest: gitlab:group/sub/repo)',
      'a folder inside goes after "#": gitlab:group/repo#main:skills/pdf',
    );
  const { ref, path } = parseFragment(typed, frag);
  return gitSource(typed, `https://gitlab.com/${parts.join('/')}.git`, ref, path);
}

/** A URL with a scheme git speaks (the `git+` already dropped), or an archive by http(s). */
function fromUrl(typed: string, text: string, frag: string | undefined, forceGit: boolean): RemoteSource {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw refuse(typed, 'it is not a valid URL', `expected one of ${ALLOWED}`);
  }
  // URL parsing resolves `..` (and `%2E%2E`) away: a path that has one was meant to lead somewhere else.
  const typedPath = /^[^:]+:\/\/[^/?#]*([^?#]*)/.exec(text)?.[1] ?? '';
  if (typedPath.split('/').some((seg) => /^(?:\.|%2e){2}$/i.test(seg)))
    throw refuse(typed, `the path ${q(typedPath)} has a ".." segment`);
  const scheme = u.protocol.slice(0, -1).toLowerCase();
  if (scheme === 'http' && !LOOPBACK.has(u.hostname.toLowerCase()))
    throw refuse(
      typed,
      'http:// is refused: the download and any credentials would travel unencrypted (http:// is kept for 127.0.0.1, localhost and [::1])',
      'use https://',
    );
  if (u.hostname.startsWith('-') || u.username.startsWith('-')) throw refuse(typed, 'its host or user starts with "-"');
  const web = scheme === 'https' || scheme === 'http';
  // A site (nothing after the host) or its discovery index: the skills the site publishes (the discovery RFC).
  const wellKnown = /^\/(?:\.well-known\/agent-skills(?:\/(?:index\.json)?)?)?$/.test(u.pathname);
  if (web && !forceGit && wellKnown && frag === undefined && u.search === '')
    return { kind: 'well-known', index: `${u.origin}${WELL_KNOWN_INDEX}`, typed };
  if (web && !forceGit && ARCHIVE_EXT.test(u.pathname)) {
    if (frag !== undefined)
      throw refuse(typed, 'an archive by URL takes no "#ref" or "#:path"', 'give the URL of the archive alone');
    return { kind: 'url', url: text, typed };
  }
  const host = u.hostname.toLowerCase();
  if (web && (host === 'github.com' || host === 'www.github.com')) {
    const m = /^\/([^/]+)\/([^/]+?)(?:\.git)?(?:\/tree\/([^/]+)(?:\/(.*))?)?\/?$/.exec(u.pathname);
    if (m && NAME.test(m[1]!) && NAME.test(m[2]!))
      return hosted(typed, `https://github.com/${m[1]}/${m[2]}.git`, m, frag);
  }
  if (web && host === 'gitlab.com') {
    const m = /^\/((?:[^/]+\/)+?[^/]+?)(?:\.git)?(?:\/-\/tree\/([^/]+)(?:\/(.*))?)?\/?$/.exec(u.pathname);
    if (m && m[1]!.split('/').every((p) => NAME.test(p)))
      return hosted(typed, `https://gitlab.com/${m[1]}.git`, [m[0], '', '', m[2], m[3]], frag);
  }
  const { ref, path } = parseFragment(typed, frag);
  return gitSource(typed, text, ref, path);
}

function decode(typed: string, part: string | undefined): string | undefined {
  if (part === undefined) return undefined;
  try {
    return decodeURIComponent(part);
  } catch {
    throw refuse(typed, `${q(part)} is not a valid URL path (a stray "%")`);
  }
}

/** A github.com or gitlab.com URL: its ref and folder from `/tree/<ref>/<path>` or from `#…`, not both. */
function hosted(typed: string, url: string, m: ArrayLike<string | undefined>, frag: string | undefined): RemoteSource {
  const { ref, path } = parseFragment(typed, frag);
  const treeRef = decode(typed, m[3]);
  if (treeRef !== undefined) {
    if (ref !== undefined) throw refuse(typed, `it names the ref twice (${q(treeRef)} and ${q(ref)})`);
    checkRef(typed, treeRef);
  }
  const inner = checkPath(typed, decode(typed, m[4]));
  return gitSource(typed, url, treeRef ?? ref, onePath(typed, inner, path));
}

/**
 * The remote source a user typed, or undefined when it is not one (a local path, or a registry spec like
 * `pdf@^1.2`). `isLocalPath(p)` says whether p exists on disk. Throws E_USAGE for a source refused (see above).
 */
export function parseRemoteSource(raw: string, isLocalPath: (p: string) => boolean): RemoteSource | undefined {
  if (raw === '') return undefined;
  if (/^npm:/i.test(raw)) return npmSource(raw, raw.slice('npm:'.length));
  if (/^mcp\+/i.test(raw)) return mcpSource(raw);
  if (/^@[^/\\]+\/[^/\\]+$/.test(raw) && !isLocalPath(raw)) return npmSource(raw, raw);
  const hash = raw.indexOf('#');
  const main = hash === -1 ? raw : raw.slice(0, hash);
  const frag = hash === -1 ? undefined : raw.slice(hash + 1);
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(main)?.[1];
  // One letter is a Windows drive (C:\skills), not a scheme.
  if (scheme !== undefined && scheme.length > 1) {
    const lower = scheme.toLowerCase();
    const rest = main.slice(scheme.length + 1);
    if (lower === 'github') {
      const s = github(raw, rest, frag);
      if (!s) throw refuse(raw, 'expected github:owner/repo or github:owner/repo/path/to/skill');
      return s;
    }
    if (lower === 'gitlab') return gitlab(raw, rest, frag);
    if (lower.startsWith('git+') && GIT_SCHEMES.has(lower.slice(4)))
      return fromUrl(raw, main.slice('git+'.length), frag, true);
    if (GIT_SCHEMES.has(lower)) return fromUrl(raw, main, frag, false);
    if (isLocalPath(raw)) return undefined;
    throw refuse(raw, `the scheme ${q(`${scheme}:`)} is not one skills fetches from`, `use ${ALLOWED}`);
  }
  if (main.startsWith('-')) {
    if (isLocalPath(raw)) return undefined;
    throw refuse(raw, 'it starts with "-" (git would read it as an option)');
  }
  const scp = /^([^@/:\s]+)@([^/:\s[\]]+|\[[0-9A-Fa-f:.]+\]):(.*)$/.exec(main);
  if (scp && !isLocalPath(raw)) {
    if (scp[1]!.startsWith('-') || scp[2]!.startsWith('-')) throw refuse(raw, 'its user or host starts with "-"');
    if (scp[3] === '' || scp[3]!.startsWith('-'))
      throw refuse(raw, 'expected a repository path after the ":" (e.g. git@github.com:owner/repo.git)');
    const { ref, path } = parseFragment(raw, frag);
    return gitSource(raw, main, ref, path);
  }
  if (/^[./~]/.test(main) || main.includes('\\') || isLocalPath(raw)) return undefined;
  return github(raw, main, frag);
}

/** `mcp+stdio:<command line>` or `mcp+http(s)://…`: an MCP server that serves skills. */
function mcpSource(typed: string): RemoteSource {
  const rest = typed.slice('mcp+'.length);
  if (/^stdio:/i.test(rest)) {
    const command = rest.slice('stdio:'.length).trim();
    if (command === '' || command.startsWith('-'))
      throw refuse(
        typed,
        'expected the command that starts the server after mcp+stdio:',
        'e.g. mcp+stdio:"npx -y skillsmith serve ./skills"',
      );
    return { kind: 'mcp', server: `stdio:${command}`, typed };
  }
  let u: URL;
  try {
    u = new URL(rest);
  } catch {
    throw refuse(typed, 'expected mcp+stdio:<command> or mcp+https://<host>/<path>');
  }
  const scheme = u.protocol.slice(0, -1).toLowerCase();
  if (scheme !== 'https' && scheme !== 'http')
    throw refuse(typed, 'expected mcp+stdio:<command> or mcp+https://<host>/<path>');
  if (scheme === 'http' && !LOOPBACK.has(u.hostname.toLowerCase()))
    throw refuse(
      typed,
      'mcp+http:// is kept for 127.0.0.1, localhost and [::1] (a token would travel unencrypted)',
      'use mcp+https://',
    );
  if (u.username !== '' || u.password !== '')
    throw refuse(typed, 'credentials do not go in the URL', 'set SKILLS_MCP_TOKEN: it is sent as the bearer token');
  return { kind: 'mcp', server: u.href, typed };
}

/**
 * The same source written back, canonical: what the lockfile's `source` field keeps after `git:` / `url:`
 * (`https://github.com/o/r.git` for every way of typing a GitHub repository). Credentials in an http(s) URL are
 * left out: a lockfile is committed, and git's credential helper supplies them again.
 */
export function canonicalSource(s: RemoteSource): string {
  return s.kind === 'npm' ? s.name : s.kind === 'well-known' ? s.index : s.kind === 'mcp' ? s.server : redactUrl(s.url);
}
