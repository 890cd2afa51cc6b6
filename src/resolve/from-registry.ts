// The resolve wing's entry for a command: specs as the user typed them, resolved against a registry folder.
import { join, sep } from 'node:path';
import { SkillsError } from '../errors.js';
import { STORE_PATH } from '../formats/index-file.js';
import { parseSpec, type DependencySpec } from '../model/spec.js';
import { openResolveIndex } from '../registry/resolve-index.js';
import { catalogOf } from './catalog.js';
import { resolveSpecs } from './resolve.js';
import type { Resolution } from './types.js';
import { needsSystemPackages, systemPackageWarnings } from './warnings.js';

export interface RegistryResolveOptions {
  /** The running Node's version, for the skills' nodeVersion. */
  nodeVersion: string;
  /** The platform whose package manager says which system packages are installed. */
  platform: NodeJS.Platform;
  /** How many steps the search may take (SKILLS_RESOLVE_MAX_STEPS). */
  maxSteps?: number;
}

/**
 * Resolve `specs` against the registry at `registry`; paths in the resolution are absolute. An unreadable
 * registry throws; a resolution that fails is data (`ok: false`).
 */
export async function resolveFromRegistry(
  specs: DependencySpec[],
  registry: string,
  options: RegistryResolveOptions,
): Promise<Resolution> {
  // The registry's resolve index where it holds, index.json and the releases files where it does not; what had to be
  // read from the files is written to it for the next run.
  const registryIndex = openResolveIndex(registry);
  const catalog = catalogOf(registryIndex, (id) => registryIndex.releases(id));
  const resolution = resolveSpecs(specs, catalog, { nodeVersion: options.nodeVersion, maxSteps: options.maxSteps });
  registryIndex.save();
  if (resolution.ok) {
    // Asking the package manager costs a process per package: load the checker only when a skill lists any.
    if (needsSystemPackages(resolution.resolved, catalog)) {
      const { systemPackageChecker } = await import('./system-packages.js');
      resolution.warnings.push(
        ...systemPackageWarnings(resolution.resolved, catalog, systemPackageChecker(options.platform)),
      );
    }
    // join(registry, path), for a store path (two plain names) without normalizing the whole of it each time.
    const prefix = join(registry, 'x').slice(0, -1);
    for (const skill of resolution.resolved)
      skill.path = STORE_PATH.test(skill.path)
        ? prefix + (sep === '/' ? skill.path : skill.path.replace('/', sep))
        : join(registry, skill.path);
  }
  return resolution;
}

/** Specs as the user typed them (`id`, `id@1.2.3`, `id@^1.2`); every bad one is named in one E_USAGE error. */
export function parseSpecs(raw: string[]): DependencySpec[] {
  const specs: DependencySpec[] = [];
  const errors: string[] = [];
  for (const r of raw) {
    const s = parseSpec(r);
    if ('error' in s) errors.push(s.error);
    else specs.push(s);
  }
  if (errors.length > 0) {
    throw new SkillsError('E_USAGE', errors.join('\n'), {
      hint: 'a spec is an id (latest version), id@1.2.3 (exact) or id@<semver range>, e.g. basic-tools@^1.0.0',
    });
  }
  return specs;
}
