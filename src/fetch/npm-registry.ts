// Reading an npm-compatible registry with npm's own libraries: a package's document (its packument: versions,
// dist-tags, each version's dependencies and dist), and a version's tarball, whose bytes pacote checks against the
// packument's integrity before handing them over.
import { SkillsError } from '../errors.js';
import { registryOf, type NpmConfig } from './npm-config.js';
import { registryError } from './npm-errors.js';

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

const options = (o: NpmFetchOptions, registry: string) => ({
  ...o.config.settings,
  registry,
  timeout: o.config.timeoutMs,
  fetchRetries: 0,
});

/** The packument of `name`; a refusal or a registry out of reach is a SkillsError that says what to do. */
export async function fetchPackument(name: string, o: NpmFetchOptions): Promise<Packument> {
  const registry = registryForName(o.config, name);
  const fetch = (await import('npm-registry-fetch')).default;
  let doc: Record<string, unknown>;
  try {
    doc = await fetch.json(`/${name.replace('/', '%2f')}`, options(o, registry));
  } catch (err) {
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
  try {
    return await pacote.tarball(`${name}@${version}`, {
      ...options(o, registry),
      ...(integrity ? { integrity } : {}),
      preferOnline: true,
    });
  } catch (err) {
    if ((err as { code?: string }).code === 'EINTEGRITY')
      throw new SkillsError(
        'E_INVALID',
        `the tarball of ${name}@${version} from ${registry} does not match its integrity (${integrity}); nothing was installed`,
        { hint: 'the registry serves other bytes than it recorded: tell its owner; do not install this version' },
      );
    throw registryError(err, { registry, name, version, config: o.config });
  }
}
