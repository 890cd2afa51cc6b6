// The version resolver: PubGrub (Weizenbaum 2018, as in Dart's pub and pubgrub-rs) over a finite catalog.
// Every skill has a known, finite list of versions, so a set of versions is a bitset over that list (bit i is
// versions[i], newest first) and the set algebra PubGrub needs is exact and cheap. Every conflict is learned as
// an incompatibility ("these versions cannot go together"), so no dead end is explored twice; a failure keeps
// its derivation, which is rendered cargo-style: who needs what, through which chain, which versions exist.
import type { DependencySpec } from '../model/spec.js';
import { SkillsError } from '../errors.js';
import type { Catalog, CatalogRelease } from './catalog.js';
import { explainFailure } from './explain.js';
import { orderByDependencies } from './order.js';
import { checkRootSpecs } from './roots.js';
import { Solver, StepBudgetExceeded } from './solver.js';
import type { Resolution, ResolveOptions } from './types.js';
import { bareSpecWarnings, platformWarnings } from './warnings.js';

export { catalogFromIndex, type Catalog, type CatalogRelease, type ReleaseLoader } from './catalog.js';
export type { Resolution, ResolvedSkill, ResolveFailureKind, ResolveOptions } from './types.js';
import type { ResolvedSkill } from './types.js';
export { needsSystemPackages, systemPackageWarnings } from './warnings.js';

/** For each skill the highest version that satisfies every constraint on it, dependencies first. */
export function resolveSpecs(specs: DependencySpec[], catalog: Catalog, opts: ResolveOptions): Resolution {
  const rootError = checkRootSpecs(specs, catalog);
  if (rootError) return { ok: false, ...rootError, warnings: [] };
  const leftOut = new Map<string, string[]>();
  catalog = withoutPackageNames(catalog, leftOut);
  const solver = new Solver(catalog, opts.maxSteps);
  let failure;
  try {
    failure = solver.solve(specs);
  } catch (e) {
    if (!(e instanceof StepBudgetExceeded)) throw e;
    const deciding = e.deciding.length > 0 ? `; it was deciding ${e.deciding.join(', ')}` : '';
    return {
      ok: false,
      kind: 'too-many-steps',
      error: new SkillsError(
        'E_INVALID',
        `resolve gave up after ${e.steps} steps (checks of a requirement, decisions, conflicts) without an answer${deciding}`,
        {
          hint:
            'pin the versions of these skills (id@1.2.3) so there is less to search, or report the registry: real ' +
            'registries resolve in far fewer steps. SKILLS_RESOLVE_MAX_STEPS raises the limit',
        },
      ),
      warnings: [],
    };
  }
  if (failure) {
    return {
      ok: false,
      kind: 'conflict',
      error: new SkillsError('E_INVALID', explainFailure(failure, catalog), {
        hint: 'no set of versions meets every requirement above: change the specs you gave, or register versions that agree',
      }),
      warnings: [],
    };
  }
  const chosen = solver.solution();
  const ordered = orderByDependencies(specs, chosen, catalog);
  if ('cycle' in ordered) {
    return {
      ok: false,
      kind: 'cycle',
      error: new SkillsError('E_INVALID', `dependency cycle: ${ordered.cycle.join(' → ')}`, {
        hint: 'skills load in dependency order, and a cycle has none: remove one of these dependencies',
      }),
      warnings: [],
    };
  }
  const warnings = [
    ...leftOutWarnings(ordered.resolved, leftOut),
    ...bareSpecWarnings(specs, chosen, catalog),
    ...platformWarnings(ordered.resolved, catalog, opts),
  ];
  const roots = [...new Set(specs.map((s) => `${s.id}@${chosen.get(s.id)}`))];
  return { ok: true, resolved: ordered.resolved, roots, warnings };
}

const NOT_PACKAGES = 'left out (skills installs skills, not Python or npm packages)';

/** What was left out of the skills resolved (withoutPackageNames): each said for a few skills, counted for many. */
function leftOutWarnings(resolved: ResolvedSkill[], leftOut: Map<string, string[]>): string[] {
  const said = resolved.flatMap((r) => {
    const names = leftOut.get(`${r.id}@${r.version}`);
    return names ? [{ skill: `${r.id}@${r.version}`, names }] : [];
  });
  if (said.length <= 3)
    return said.map(
      (x) =>
        `${x.skill} lists ${x.names.join(', ')} under dependencies, which no registry or source holds as another skill: ${NOT_PACKAGES}`,
    );
  const shown = said.slice(0, 3).map((x) => `${x.skill}: ${x.names.join(', ')}`);
  return [
    `${said.length} skills list under dependencies names that no registry or source holds as another skill (${shown.join('; ')}; and ${said.length - 3} more): ${NOT_PACKAGES}`,
  ];
}

/**
 * The catalog with each SKILL.md release's bare dependencies (`torch`, no `@range`) that name no other skill of the
 * catalog left out, their names kept in `leftOut` by `id@version`: SKILL.md's standard has no dependencies, and
 * public skills list their Python or npm packages there. A dependency with a range (`pdf-tools@^1`), and any of a
 * manifest.json skill, stays: missing, it fails the resolution as it should.
 */
function withoutPackageNames(catalog: Catalog, leftOut: Map<string, string[]>): Catalog {
  const made = new Map<CatalogRelease, CatalogRelease>();
  return {
    ids: () => catalog.ids(),
    versions: (id) => catalog.versions(id),
    release(id, version) {
      const r = catalog.release(id, version);
      if (!r || r.layout !== 'skill-md' || r.dependencies.length === 0) return r;
      let kept = made.get(r);
      if (kept) return kept;
      // Itself too: `instructor` lists the pip package instructor (a skill's own name, never a skill it needs).
      const unknown = r.dependencies.filter(
        (d) => d.range === undefined && (d.id === id || catalog.versions(d.id) === undefined),
      );
      kept = unknown.length === 0 ? r : { ...r, dependencies: r.dependencies.filter((d) => !unknown.includes(d)) };
      made.set(r, kept);
      if (unknown.length > 0)
        leftOut.set(
          `${id}@${version}`,
          unknown.map((d) => d.id),
        );
      return kept;
    },
  };
}
