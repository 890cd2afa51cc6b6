// Publish a skill's package to an npm-compatible registry with npm's own libnpmpublish. The registry decides what
// is allowed (auth, a version published twice); its refusals are told plainly, naming the registry and what to do.
import type { NpmConfig } from '../fetch/npm-config.js';
import { registryOf } from '../fetch/npm-config.js';
import { registryError } from '../fetch/npm-errors.js';
import type { NpmPackage } from './npm-package.js';

export interface PublishNpmOptions {
  config: NpmConfig;
  tag: string;
  /** `public` or `restricted` (npm's default for a scoped package on npmjs.org is restricted). */
  access?: string;
}

export interface PublishNpmResult {
  name: string;
  version: string;
  tag: string;
  registry: string;
  integrity: string;
}

/** Where a package of `name` goes: its scope's registry. */
export function registryForPackage(config: NpmConfig, name: string): string {
  return registryOf(config, name.startsWith('@') ? name.split('/')[0] : undefined);
}

export async function publishNpm(pkg: NpmPackage, opts: PublishNpmOptions): Promise<PublishNpmResult> {
  const registry = registryForPackage(opts.config, pkg.name);
  const { publish } = await import('libnpmpublish');
  try {
    await publish(pkg.manifest, pkg.tarball, {
      ...opts.config.settings,
      registry,
      defaultTag: opts.tag,
      ...(opts.access ? { access: opts.access } : {}),
      timeout: opts.config.timeoutMs,
      fetchRetries: 0,
      // No npm banner or progress output of its own; nothing of the token in logs.
      log: { silly() {}, verbose() {}, http() {}, info() {}, notice() {}, warn() {}, error() {} },
    });
  } catch (err) {
    throw registryError(err, { registry, name: pkg.name, version: pkg.version, config: opts.config });
  }
  return { name: pkg.name, version: pkg.version, tag: opts.tag, registry, integrity: pkg.integrity };
}
