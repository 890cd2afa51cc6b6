// Reading an npm-compatible registry with npm's own libraries: a package's document (its packument: versions,
// dist-tags, each version's dependencies and dist), and a version's tarball, whose bytes pacote checks against the
// packument's integrity before handing them over.
import { SkillsError } from '../errors.js';
import { readCapped } from './capped-body.js';
import { MAX_ARCHIVE_BYTES } from './download.js';
import { registryOf, type NpmConfig } from './npm-config.js';
import { registryError, tooLarge } from './npm-errors.js';

/** The most a packument may be (the largest on npmjs.org, with thousands of versions, are some tens of MiB). */
export const MAX_PACKUMENT = 64 * 1024 * 1024;

export interface PackumentVersion {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  agentskills?: unknown;
  dist: { tarball: string; integrity?: string; shasum?: string };
}

export interface Packument {
  name: string;
  'dist-tags': Record<string, string>;
  versions: Record<string, PackumentVersion>;
}

export interface NpmFetchOptions {
  config: NpmConfig;
}

/** The registry a package name belongs to: its scope's, else the default. */
export function registryForName(config: NpmConfig, name: string): string {
  return registryOf(config, name.startsWith('@') ? name.split('/')[0] : undefined);
}

/**
 * `read`, given a signal that is pulled as soon as it fails: a body over its cap stops being read at once, and the
 * connection that brought it is closed.
 */
async function aborting<T>(read: (signal: AbortSignal, stop: () => void) => Promise<T>): Promise<T> {
  const stop = new AbortController();
  try {
    return await read(stop.signal, () => stop.abort());
  } catch (err) {
    stop.abort();
    throw err;
  }
}

/**
 * The JSON document at `path` of `opts.registry`, its body read under `maxBytes` (`what` names it in the error): a
 * registry that answers gigabytes is stopped at the cap, not buffered. The body must come within `opts.timeout` of
 * the headers, as npm's own `res.json()` has it, however steadily it trickles. It is asked of the registry every
 * time, never of npm's cache (`cache=`, npm_config_cache): when a request to revalidate a cached copy fails (no
 * answer in time, refused), make-fetch-happen hands back the old copy as if the registry had said it, and a packument
 * from before is newer versions unseen ("up to date") for a registry that did not answer.
 */
export async function fetchCappedJson(
  path: string,
  opts: Record<string, unknown> & { registry: string; timeout?: number },
  maxBytes: number,
  what: string,
): Promise<Record<string, unknown>> {
  const fetch = (await import('npm-registry-fetch')).default;
  const { cache: _npmCache, ...asked } = opts;
  let late = false;
  let deadline: NodeJS.Timeout | undefined;
  try {
    const bytes = await aborting(async (signal, stop) => {
      const res = await fetch(path, { ...asked, signal });
      if (opts.timeout)
        deadline = setTimeout(() => {
          late = true;
          stop();
        }, opts.timeout);
      return readCapped(res.body, {
        maxBytes,
        declared: res.headers.get('content-length'),
        over: (n) => tooLarge(opts.registry, what, maxBytes, n),
      });
    });
    return JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
  } catch (err) {
    // Told as minipass-fetch tells it, so the one "did not answer in time" (npm-errors.ts) is said.
    if (late && !(err instanceof SkillsError))
      throw Object.assign(new Error(`Response timeout while trying to fetch ${path} (over ${opts.timeout}ms)`), {
        type: 'body-timeout',
        cause: err,
      });
    throw err;
  } finally {
    clearTimeout(deadline);
  }
}

const options = (o: NpmFetchOptions, registry: string) => ({
  ...o.config.settings,
  registry,
  timeout: o.config.timeoutMs,
  fetchRetries: 0,
});

/** The packument of `name`; a refusal or a registry out of reach is a SkillsError that says what to do. */
export async function fetchPackument(name: string, o: NpmFetchOptions): Promise<Packument> {
  const registry = registryForName(o.config, name);
  let doc: Record<string, unknown>;
  try {
    doc = await fetchCappedJson(
      `/${name.replace('/', '%2f')}`,
      options(o, registry),
      MAX_PACKUMENT,
      `the package document of ${name}`,
    );
  } catch (err) {
    if (err instanceof SkillsError) throw err;
    throw registryError(err, { registry, name, config: o.config });
  }
  if (
    typeof doc !== 'object' ||
    doc === null ||
    typeof doc.versions !== 'object' ||
    doc.versions === null ||
    Array.isArray(doc.versions)
  )
    throw new SkillsError('E_INVALID', `${registry} answered for ${name} with no versions`, {
      hint: 'check that the registry for its scope (@scope:registry= in .npmrc) is an npm registry',
    });
  return { name, 'dist-tags': {}, ...(doc as object) } as Packument;
}

/**
 * The tarball of `name@version`, checked against `integrity` (the packument's) by pacote: a tarball whose bytes do
 * not match is refused before anything is unpacked.
 */
export async function fetchTarball(
  name: string,
  version: string,
  integrity: string | undefined,
  o: NpmFetchOptions,
): Promise<Buffer> {
  const registry = registryForName(o.config, name);
  const pacote = await import('pacote');
  const cap = {
    maxBytes: MAX_ARCHIVE_BYTES,
    over: (n: number) => tooLarge(registry, `the tarball of ${name}@${version}`, MAX_ARCHIVE_BYTES, n),
  };
  try {
    return await aborting((signal) =>
      pacote.tarball.stream(
        `${name}@${version}`,
        // The abort that stops the download is then told on the stream no one reads any more: heard, and dropped.
        (stream) => readCapped(stream, cap).finally(() => stream.on('error', () => {})),
        {
          ...options(o, registry),
          ...(integrity ? { integrity } : {}),
          preferOnline: true,
          signal,
        },
      ),
    );
  } catch (err) {
    if (err instanceof SkillsError) throw err;
    if ((err as { code?: string }).code === 'EINTEGRITY')
      throw new SkillsError(
        'E_INVALID',
        `the tarball of ${name}@${version} from ${registry} does not match its integrity (${integrity}); nothing was installed`,
        { hint: 'the registry serves other bytes than it recorded: tell its owner; do not install this version' },
      );
    throw registryError(err, { registry, name, version, config: o.config });
  }
}
