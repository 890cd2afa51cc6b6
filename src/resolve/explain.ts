// The explanation of a failure, rendered cargo-style: the external facts the proof rests on (root specs,
// dependencies), grouped by the skill whose requirements cannot all be met, each requirement with the chain
// that led to it.
import type { DependencySpec } from '../model/spec.js';
import { closest } from '../skill/names.js';
import type { Catalog } from './catalog.js';
import { and, has, isEmpty, or, type Incompat, type Pkg, type VSet } from './terms.js';

/** How many versions a failure lists: the highest, so that a skill of 10,000 versions does not fill the screen. */
const AVAILABLE_SHOWN = 10;

/** `available a: 1.0.0, 1.1.0`, oldest first (versions is newest first); past ten, the highest ten and a count. */
export const available = (id: string, versions: readonly string[]) => {
  if (versions.length === 0) return `available ${id}: none`;
  const shown = versions.slice(0, AVAILABLE_SHOWN).reverse().join(', ');
  const more = versions.length - AVAILABLE_SHOWN;
  return `available ${id}: ${more > 0 ? `${shown} and ${more} more` : shown}`;
};

interface Requirement {
  from?: { pkg: Pkg; version: string };
  spec: DependencySpec;
  /** Undefined for an id the registry does not have. */
  target?: Pkg;
  set: VSet;
  /** Which requirer this is: one per root spec, one per skill (its versions are alternatives). */
  who: string;
  /** For a root spec: its place among the specs. */
  order?: number;
}

/** Requirements shown for one skill; a registry-wide failure can rest on hundreds. */
const MAX_CLAUSES = 12;

/** Why no set of versions meets the specs, one line per skill whose requirements cannot all be met. */
export function explainFailure(failure: Incompat, catalog: Catalog): string {
  const reqs: Requirement[] = [];
  const seen = new Set<Incompat>();
  const stack = [failure];
  while (stack.length > 0) {
    const inc = stack.pop()!;
    if (seen.has(inc)) continue;
    seen.add(inc);
    const c = inc.cause;
    if (c.kind === 'derived') stack.push(c.right, c.left);
    else if (c.kind === 'root')
      reqs.push({ spec: c.spec, target: c.pkg, set: c.set, who: `root ${c.spec.raw}`, order: c.order });
    else if (c.kind === 'dependency')
      reqs.push({ from: { pkg: c.from, version: c.version }, spec: c.spec, target: c.pkg, set: c.set, who: c.from.id });
    else if (c.kind === 'unknown')
      reqs.push({ from: { pkg: c.from, version: c.version }, spec: c.spec, set: 0, who: c.from.id });
  }
  const chains = chainsTo(reqs);
  const link = (r: Requirement, installed = false) =>
    r.from
      ? `${r.from.pkg.id}@${r.from.version}${installed ? ' (installed)' : ''} needs ${specText(r.spec)}`
      : r.spec.installed
        ? `${specText(r.spec)} is installed`
        : `root needs ${specText(r.spec)}`;
  const pathTo = (r: Requirement) => (r.from ? [...(chains.get(`${r.from.pkg.id}@${r.from.version}`) ?? []), r] : [r]);
  const withChain = (r: Requirement) => {
    const path = pathTo(r);
    // `root needs a@1.0.0 → a@1.0.0 needs …` says a@1.0.0 twice; a version the lock holds is said to be installed.
    const installed = path.length > 1 && !path[0]!.from && path[0]!.spec.exact && path.shift()!.spec.installed;
    return path.map((p, i) => link(p, i === 0 && installed === true)).join(' → ');
  };
  // Requirements in the order of the specs they come from, as the user typed them.
  const bySpecOrder = (list: Requirement[]) =>
    list
      .map((r, i) => ({ r, i, order: pathTo(r)[0]!.order ?? Infinity }))
      .sort((x, y) => x.order - y.order || x.i - y.i)
      .map((x) => x.r);

  const lines: string[] = [];
  const shown = new Set<Requirement>();
  for (const r of reqs) {
    if (r.target || !r.from) continue;
    const near = closest(r.spec.id, catalog.ids());
    lines.push(`${withChain(r)}, which is not in the registry${near ? ` (did you mean "${near}"?)` : ''}`);
    shown.add(r);
  }
  const targets = [...new Set(reqs.map((r) => r.target).filter((t): t is Pkg => !!t))];
  for (const target of targets) {
    const on = reqs.filter((r) => r.target === target);
    let conflicting = on.filter((r) => isEmpty(r.set) || on.some((o) => o.who !== r.who && isEmpty(and(o.set, r.set))));
    if (conflicting.length === 0) {
      // No two requirements exclude each other, yet together they leave nothing: show them all.
      const byWho = new Map<string, VSet>();
      for (const r of on) byWho.set(r.who, or(byWho.get(r.who) ?? target.none, r.set));
      const all = [...byWho.values()].reduce(and);
      if (byWho.size > 1 && isEmpty(all)) conflicting = on;
    }
    if (conflicting.length === 0) continue;
    for (const r of conflicting) shown.add(r);
    const clauses = bySpecOrder(conflicting).map(withChain);
    if (clauses.length > MAX_CLAUSES)
      clauses.splice(MAX_CLAUSES - 1, Infinity, `and ${clauses.length - MAX_CLAUSES + 1} more requirements`);
    lines.push(`${clauses.join('; ')}; ${available(target.id, target.versions)}`);
  }
  if (lines.length === 0) {
    // A proof whose requirements each look satisfiable on their own: list what it rests on.
    lines.push(
      reqs
        .filter((r) => !shown.has(r))
        .map(withChain)
        .join('; ') || 'no versions satisfy the specs',
    );
  }
  return lines.join('\n');
}

const specText = (spec: DependencySpec) => (spec.range === undefined ? spec.id : `${spec.id}@${spec.range}`);

/** For each requirer `id@version`, the shortest chain of requirements from a root spec to it. */
function chainsTo(reqs: Requirement[]): Map<string, Requirement[]> {
  const chains = new Map<string, Requirement[]>();
  // Requirers (id@version) by id, and requirements by requirer.
  const nodes = new Map<string, { key: string; version: string }[]>();
  const from = new Map<string, Requirement[]>();
  for (const r of reqs) {
    if (!r.from) continue;
    const key = `${r.from.pkg.id}@${r.from.version}`;
    if (!from.has(key)) {
      from.set(key, []);
      nodes.set(r.from.pkg.id, [...(nodes.get(r.from.pkg.id) ?? []), { key, version: r.from.version }]);
    }
    from.get(key)!.push(r);
  }
  // Breadth-first from the root specs, so each chain is a shortest one.
  let frontier: string[] = [];
  const reach = (r: Requirement, before: Requirement[]) => {
    for (const node of (r.target && nodes.get(r.target.id)) ?? []) {
      const i = r.target!.versions.indexOf(node.version);
      if (chains.has(node.key) || i < 0 || !has(r.set, i)) continue;
      chains.set(node.key, [...before, r]);
      frontier.push(node.key);
    }
  };
  for (const r of reqs) if (!r.from) reach(r, []);
  while (frontier.length > 0) {
    const current = frontier;
    frontier = [];
    for (const key of current) for (const r of from.get(key)!) reach(r, chains.get(key)!);
  }
  return chains;
}
