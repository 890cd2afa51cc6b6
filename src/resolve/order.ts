// The result in dependency order: dependencies first, else the order the specs and dependency lists give.
import type { DependencySpec } from '../model/spec.js';
import type { Catalog } from './catalog.js';
import type { ResolvedSkill } from './types.js';

/** The chosen versions as resolved skills, dependencies first; the first cycle found instead, if any. */
export function orderByDependencies(
  specs: DependencySpec[],
  chosen: Map<string, string>,
  catalog: Catalog,
): { resolved: ResolvedSkill[] } | { cycle: string[] } {
  const resolved: ResolvedSkill[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const make = (id: string): { skill: ResolvedSkill; deps: string[] } => {
    const version = chosen.get(id)!;
    const release = catalog.release(id, version)!;
    // Each id once, in the order listed (a skill lists a few: no Set).
    const deps: string[] = [];
    for (let i = 0; i < release.dependencies.length; i++) {
      const d = release.dependencies[i]!;
      if (!deps.includes(d.id)) deps.push(d.id);
    }
    return {
      skill: {
        id,
        version,
        layout: release.layout,
        path: release.path,
        dependencies: deps.map((d) => `${d}@${chosen.get(d)}`),
      },
      deps,
    };
  };
  for (const spec of specs) {
    if (state.has(spec.id)) continue;
    // Iterative depth-first search: a long chain must not overflow the stack.
    const stack: { id: string; skill: ResolvedSkill; deps: string[]; next: number }[] = [];
    const open = (id: string) => {
      state.set(id, 'open');
      const { skill, deps } = make(id);
      stack.push({ id, skill, deps, next: 0 });
    };
    open(spec.id);
    while (stack.length > 0) {
      const top = stack.at(-1)!;
      if (top.next < top.deps.length) {
        const dep = top.deps[top.next++]!;
        const s = state.get(dep);
        if (s === 'open') {
          const from = stack.findIndex((f) => f.id === dep);
          return {
            cycle: [...stack.slice(from).map((f) => `${f.id}@${f.skill.version}`), `${dep}@${chosen.get(dep)}`],
          };
        }
        if (s === undefined) open(dep);
        continue;
      }
      stack.pop();
      state.set(top.id, 'done');
      resolved.push(top.skill);
    }
  }
  return { resolved };
}
