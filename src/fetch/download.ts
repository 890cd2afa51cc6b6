import { closeSync, fsyncSync, openSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SkillsError } from '../errors.js';
import { redactUrl } from '../formats/install-source.js';
import { tempName, writeAll } from '../fs/atomic.js';
import { cappedChunks, mib } from './capped-body.js';
import { registryTimeoutMs } from './npm-config.js';

// An archive by URL: Node's fetch, redirects followed by hand (at most 5, never from https down to http, the token
// kept for the URL's own origin), the body streamed to a temp file under a byte cap, renamed to the URL's file name
// once whole. What the archive holds is the extractor's business (src/fs/archive.ts), not this file's.

export interface DownloadOptions {
  /** The user's environment (Node's fetch reads no proxy from it). */
  env: Record<string, string | undefined>;
  /**
   * Sent as `Authorization: Bearer <token>` to the URL's origin only, never to where it redirects elsewhere (as are
   * a `user:password@` of the URL, as Basic, when there is no token).
   */
  token?: string;
  /** The most bytes the download may have; more is refused. */
  maxBytes: number;
  progress?: (text: string) => void;
  /**
   * The most the download may take, however steadily bytes come: DEADLINE_TIMES × `idleMs` unless given (5 minutes
   * by default), so a server that trickles a byte a second cannot hold an install for long.
   */
  timeoutMs?: number;
  /**
   * The longest the server may go without sending a byte (the answer's headers, then each part of the body):
   * SKILLS_REGISTRY_TIMEOUT of `env` (60 s by default) unless given.
   */
  idleMs?: number;
}

/** The most an archive (a .tar.gz, a .zip, an npm tarball, a well-known artifact) may be, downloaded: 512 MiB. */
export const MAX_ARCHIVE_BYTES = 512 * 1024 * 1024;

/**
 * A download's whole time, in SKILLS_REGISTRY_TIMEOUTs: npm's fetch (minipass-fetch's `timeout`) likewise bounds the
 * reading of a whole body, where cargo's low-speed limit would let a server just above its rate go on for ever.
 */
export const DEADLINE_TIMES = 5;

const MAX_REDIRECTS = 5;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A URL for a message: no credentials, no query (a signed URL's query is a credential too). */
const shown = (u: URL): string => redactUrl(`${u.origin === 'null' ? `${u.protocol}//` : u.origin}${u.pathname}`);

/** The file name the download is kept under: the URL's last segment, with only safe characters. */
export function downloadName(url: URL): string {
  let last = url.pathname.split('/').at(-1) ?? '';
  try {
    last = decodeURIComponent(last);
  } catch {
    /* kept encoded */
  }
  const safe = last.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^[.-]+/, '');
  return safe === '' ? 'archive' : safe.slice(-200);
}

function allowed(u: URL, from?: URL): string | undefined {
  if (u.protocol === 'https:') return undefined;
  if (u.protocol !== 'http:') return `${u.protocol} is not a download skills makes (https:// only)`;
  if (from?.protocol === 'https:') return 'it redirects from https:// to http://, which would send it in the clear';
  if (!LOOPBACK.has(u.hostname)) return 'http:// is refused (only https://, or http:// to 127.0.0.1, localhost, [::1])';
  return undefined;
}

/** The response of `url` after redirects; refuses those that leave https, loop, or go on too long. */
async function follow(start: URL, o: DownloadOptions, signal: AbortSignal): Promise<{ res: Response; at: URL }> {
  // fetch refuses a URL with credentials in it: they go in a header, to the URL's own origin only.
  const basic =
    start.username || start.password
      ? `Basic ${Buffer.from(`${decodeURIComponent(start.username)}:${decodeURIComponent(start.password)}`).toString('base64')}`
      : undefined;
  const auth = o.token !== undefined ? `Bearer ${o.token}` : basic;
  let at = new URL(start);
  at.username = '';
  at.password = '';
  for (let hops = 0; ; hops++) {
    const headers: Record<string, string> = { 'user-agent': 'skills (https://agentskills.io)' };
    if (at.origin === start.origin && auth !== undefined) headers.authorization = auth;
    let res: Response;
    try {
      res = await fetch(at, { redirect: 'manual', headers, signal });
    } catch (err) {
      if (signal.aborted) throw err;
      const cause = (err as Error).cause as NodeJS.ErrnoException | undefined;
      throw new SkillsError(
        'E_IO',
        `${shown(at)}: cannot download it: ${redactUrl(cause?.code ?? cause?.message ?? (err as Error).message)}`,
        { cause: err, hint: 'check the network connection and the URL' },
      );
    }
    if (![301, 302, 303, 307, 308].includes(res.status)) return { res, at };
    await res.body?.cancel();
    const location = res.headers.get('location');
    if (location === null)
      throw new SkillsError('E_IO', `${shown(at)}: the server answered HTTP ${res.status} with no Location`);
    const next = new URL(location, at);
    const why = allowed(next, at);
    if (why) throw new SkillsError('E_USAGE', `${shown(start)}: refused: ${why} (to ${shown(next)})`);
    if (hops + 1 > MAX_REDIRECTS)
      throw new SkillsError('E_IO', `${shown(start)}: more than ${MAX_REDIRECTS} redirects; stopped at ${shown(next)}`);
    at = next;
  }
}

function statusError(start: URL, at: URL, res: Response, tokened: boolean): SkillsError {
  const where = shown(at) === shown(start) ? shown(start) : `${shown(start)} (redirected to ${shown(at)})`;
  if (res.status === 401 || res.status === 403)
    return new SkillsError('E_NOT_FOUND', `${where}: access refused (HTTP ${res.status})`, {
      hint: tokened
        ? 'the token was refused: check that it may read this file'
        : 'the file needs a sign-in: download it yourself, then give its path',
    });
  if (res.status === 404 || res.status === 410)
    return new SkillsError('E_NOT_FOUND', `${where}: no such file (HTTP ${res.status})`, { hint: 'check the URL' });
  return new SkillsError('E_IO', `${where}: the server answered HTTP ${res.status} ${res.statusText}`.trimEnd(), {
    hint: res.status >= 500 ? 'the server failed: try again later' : 'check the URL',
  });
}

function tooBig(start: URL, maxBytes: number): SkillsError {
  return new SkillsError('E_INVALID', `${shown(start)}: refused: the download is larger than ${mib(maxBytes)}`, {
    hint: 'a skill is instructions and small scripts: an archive this big is not one',
  });
}

/**
 * Download an archive into `dir`, named after the URL's last segment (so its format shows); returns the file's path.
 * Streams to a temp file under a byte cap, renamed into place once whole. Refuses http:// (but to a loopback host),
 * a redirect from https to http, more than 5 redirects, and a body over `maxBytes`; 401, 403 and 404 name the URL.
 */
export async function downloadArchive(url: string, dir: string, o: DownloadOptions): Promise<string> {
  let start: URL;
  try {
    start = new URL(url);
  } catch {
    throw new SkillsError('E_USAGE', `"${redactUrl(url)}" is not a valid URL`);
  }
  const why = allowed(start);
  if (why) throw new SkillsError('E_USAGE', `${shown(start)}: refused: ${why}`);
  const idleMs = o.idleMs ?? registryTimeoutMs(o.env);
  const timeoutMs = o.timeoutMs ?? DEADLINE_TIMES * idleMs;
  // One signal, aborted by whichever comes first: the total cap, or a server that sends nothing for idleMs.
  const stop = new AbortController();
  const signal = stop.signal;
  let idled = false;
  const total = setTimeout(() => stop.abort(), timeoutMs);
  let idle = setTimeout(() => {}, 0);
  const progressed = () => {
    clearTimeout(idle);
    idle = setTimeout(() => {
      idled = true;
      stop.abort();
    }, idleMs);
  };
  progressed();
  const name = downloadName(start);
  const file = join(dir, name);
  const tmp = join(dir, tempName('.download-', name));
  o.progress?.(`downloading ${shown(start)}`);
  try {
    const { res, at } = await follow(start, o, signal);
    progressed();
    if (res.status !== 200) {
      await res.body?.cancel();
      throw statusError(start, at, res, o.token !== undefined);
    }
    const cap = {
      maxBytes: o.maxBytes,
      over: () => tooBig(start, o.maxBytes),
      declared: res.headers.get('content-length'),
    };
    const fd = openSync(tmp, 'wx', 0o644);
    try {
      let bytes = 0;
      let told = 0;
      for await (const value of cappedChunks(res.body!, cap)) {
        progressed();
        bytes += value.length;
        writeAll(fd, value, tmp);
        if (bytes - told >= 4 * 1024 * 1024) {
          told = bytes;
          o.progress?.(`downloading ${shown(start)}: ${mib(bytes)}`);
        }
      }
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
    return file;
  } catch (err) {
    rmSync(tmp, { force: true });
    if (signal.aborted && idled && !(err instanceof SkillsError))
      throw new SkillsError(
        'E_IO',
        `${shown(start)} did not answer in time (nothing came for ${+(idleMs / 1000).toFixed(1)} s); nothing was installed`,
        {
          cause: err,
          hint: `try again, check the URL, or give it longer than ${+(idleMs / 1000).toFixed(1)} s with SKILLS_REGISTRY_TIMEOUT=<seconds>`,
        },
      );
    if (signal.aborted && !(err instanceof SkillsError))
      throw new SkillsError(
        'E_IO',
        `${shown(start)}: the download took longer than ${+(timeoutMs / 1000).toFixed(1)} s and was stopped`,
        {
          cause: err,
          hint: `a download may take ${DEADLINE_TIMES} × SKILLS_REGISTRY_TIMEOUT (${+(idleMs / 1000).toFixed(1)} s): check the network connection, or give it longer with SKILLS_REGISTRY_TIMEOUT=<seconds>`,
        },
      );
    if (err instanceof TypeError && !(err instanceof SkillsError))
      throw new SkillsError('E_IO', `${shown(start)}: the download broke off: ${redactUrl(err.message)}`, {
        cause: err,
      });
    throw err;
  } finally {
    clearTimeout(total);
    clearTimeout(idle);
  }
}
