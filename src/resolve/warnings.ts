// Warnings about a resolution: versions picked for bare ids, and what the platform lacks.
import satisfies from 'semver/functions/satisfies.js';
import validRange from 'semver/ranges/valid.js';
import type { DependencySpec } from '../model/spec.js';
import type { Catalog } from './catalog.js';
import type { ResolvedSkill, ResolveOptions } from './types.js';

/** For each id given without a version: which version was used, and a nudge to pin it. */
export function bareSpecWarnings(specs: DependencySpec[], chosen: Map<string, string>, catalog: Catalog): string[] {
  const out: string[] = [];
  // Once, not a scan of every spec for each id: an install of a thousand skills asks for a thousand ids.
  const ranged = new Set(specs.filter((s) => s.range !== undefined).map((s) => s.id));
  for (const id of new Set(specs.map((s) => s.id))) {
    if (ranged.has(id)) continue;
    const version = chosen.get(id)!;
    const latest = catalog.versions(id)![0];
    out.push(
      version === latest
        ? `${id}: no version given, latest ${version} used; pin a version (${id}@${version})`
        : `${id}: no version given; ${version} used, as the latest (${latest}) does not fit the other requirements; pin a version (${id}@${version})`,
    );
  }
  return out;
}

/** Skills that need a newer Node, or system packages `hasPackage` says are missing. */
export function platformWarnings(resolved: ResolvedSkill[], catalog: Catalog, opts: ResolveOptions): string[] {
  const out: string[] = [];
  const node = opts.nodeVersion.replace(/^v/, '');
  // Skills repeat a handful of nodeVersions: each is judged once (undefined: not a version nor a range).
  const fits = new Map<string, boolean | undefined>();
  const judge = (wanted: string): boolean | undefined => {
    // seed 000: nodeVersion is a minimum, so a bare version means ">=" it.
    const range = /^v?\d+(\.\d+){0,2}$/.test(wanted)
      ? `>=${wanted.replace(/^v/, '')}`
      : validRange(wanted)
        ? wanted
        : undefined;
    return range === undefined ? undefined : satisfies(node, range);
  };
  for (let i = 0; i < resolved.length; i++) {
    const r = resolved[i]!;
    const wanted = catalog.release(r.id, r.version)?.nodeVersion?.trim();
    if (!wanted) continue;
    if (!fits.has(wanted)) fits.set(wanted, judge(wanted));
    const fit = fits.get(wanted);
    if (fit === undefined)
      out.push(`${r.id}@${r.version} has a nodeVersion that is neither a version nor a range: "${wanted}"`);
    else if (!fit) out.push(`${r.id}@${r.version} needs Node ${wanted}; this is Node ${node}`);
  }
  if (opts.hasPackage) out.push(...systemPackageWarnings(resolved, catalog, opts.hasPackage));
  return out;
}

/** Warnings for resolved skills whose systemPackages `hasPackage` says are missing (unknown answers are silent). */
export function systemPackageWarnings(
  resolved: readonly ResolvedSkill[],
  catalog: Catalog,
  hasPackage: (name: string) => boolean | undefined,
): string[] {
  const out: string[] = [];
  for (const r of resolved) {
    for (const name of new Set(catalog.release(r.id, r.version)?.systemPackages ?? [])) {
      if (hasPackage(name) === false)
        out.push(`${r.id}@${r.version} needs the system package "${name}", which is not installed`);
    }
  }
  return out;
}

/** True when a resolved skill lists any systemPackages, so a caller knows whether a checker is worth loading. */
export function needsSystemPackages(resolved: readonly ResolvedSkill[], catalog: Catalog): boolean {
  return resolved.some((r) => (catalog.release(r.id, r.version)?.systemPackages?.length ?? 0) > 0);
}
