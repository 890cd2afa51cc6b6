// Different skills of one name in a source of many, which one agent folder cannot hold side by side: a plugin
// marketplace's `discord/skills/access` and `telegram/skills/access`, or a course's `.agents/skills/x` and its
// translations' `translations/ar/.agents/skills/x`. The shallowest one is taken when it is alone at its depth (as
// the other installers take a repository's own skills folder first); at a tie, none is, and each is said.
import { redactUrl } from '../formats/install-source.js';
import type { InvalidSource, Prepared } from './types.js';

export interface Namesakes {
  /** Skills of a name whose shallowest folder another of that name shares (with other content): all left out. */
  tied: Map<string, Prepared[]>;
  /** Skills deeper than the one namesake alone at its name's shallowest depth, which is taken: left out. */
  outranked: Map<Prepared, Prepared>;
}

/** Where a skill is inside its source: the path in the repository, else its folder under the source as typed. */
export function insideOf(raw: string, p: Prepared): string {
  if (p.origin?.path !== undefined) return p.origin.path;
  // A folder's skills are typed `<folder>/<path>`, an archive's `<archive>: <path>`.
  const typed = redactUrl(raw).replace(/\/+$/, '');
  for (const base of [`${typed}/`, `${typed}: `]) if (p.typed.startsWith(base)) return p.typed.slice(base.length);
  return p.typed;
}

// Depth compares folders of one source, whose typed paths share its prefix.
const depthOf = (p: Prepared): number => (p.origin?.path ?? p.typed).split('/').filter(Boolean).length;

/** The namesakes among the valid skills of one source (the same content at two paths is one skill, not one). */
export function namesakesOf(found: readonly (Prepared | InvalidSource)[]): Namesakes {
  const byId = new Map<string, Prepared[]>();
  for (const p of found) if (!('diagnostics' in p)) byId.set(p.skill.id, [...(byId.get(p.skill.id) ?? []), p]);
  const result: Namesakes = { tied: new Map(), outranked: new Map() };
  for (const [id, all] of byId) {
    if (new Set(all.map((p) => p.integrity)).size < 2) continue;
    const top = Math.min(...all.map(depthOf));
    const shallowest = all.filter((p) => depthOf(p) === top);
    if (new Set(shallowest.map((p) => p.integrity)).size > 1) {
      result.tied.set(id, all);
      continue;
    }
    const kept = shallowest[0]!;
    for (const p of all) if (p.integrity !== kept.integrity) result.outranked.set(p, kept);
  }
  return result;
}

/** A few of many paths, and how many more. */
export function someOf(paths: readonly string[], shown = 3): string {
  return paths.length <= shown
    ? paths.join(', ')
    : `${paths.slice(0, shown).join(', ')} and ${paths.length - shown} more`;
}

/** A tied skill, left out as an invalid one is (the run exits 1), with the source that installs it alone. */
export function tiedSkipped(raw: string, p: Prepared, tie: readonly Prepared[], alone: string): InvalidSource {
  const others = tie.filter((q) => q !== p).map((q) => insideOf(raw, q));
  return {
    source: p.typed,
    id: p.skill.id,
    message: `${others.length === 1 ? 'another skill' : `${others.length} other skills`} of ${redactUrl(raw)} ${others.length === 1 ? 'is' : 'are'} named ${p.skill.id} too (${someOf(others)}), and one agent folder holds one ${p.skill.id}; none was installed. This one alone: ${alone}`,
    diagnostics: [],
    namesake: { of: redactUrl(raw), inside: insideOf(raw, p), alone },
  };
}

/** The one warning for a source's outranked namesakes. */
export function outrankedWarning(raw: string, outranked: ReadonlyMap<Prepared, Prepared>): string {
  const n = outranked.size;
  const paths = [...outranked.keys()].map((p) => insideOf(raw, p));
  return `${n} deeper skill${n === 1 ? '' : 's'} of ${redactUrl(raw)} named as a shallower one ${n === 1 ? 'was' : 'were'} left out (${someOf(paths)}): the shallowest of each name is installed; --list names the source that installs each other alone`;
}
