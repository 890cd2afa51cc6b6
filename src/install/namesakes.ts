// Different skills of one name in a source of many, which one agent folder cannot hold side by side: the rule is
// skill/namesakes.ts's (registry sync's too); here what install says of them.
import { redactUrl } from '../formats/install-source.js';
import { depthOfPath, settleNamesakes, someOf } from '../skill/namesakes.js';
import type { InvalidSource, Prepared } from './types.js';

export { someOf };

export interface Namesakes {
  /** Skills of a name whose shallowest folder another of that name shares (with other content): all left out. */
  tied: Map<string, Prepared[]>;
  /**
   * Skills deeper than the one namesake alone at its name's shallowest depth, which is taken: left out, the invalid
   * ones too (a translation missing its description is not a finding of the skill asked for).
   */
  outranked: Map<Prepared | InvalidSource, Prepared>;
}

/** Where a skill is inside its source: the path in the repository, else its folder under the source as typed. */
export function insideOf(raw: string, p: Prepared | InvalidSource): string {
  if ('diagnostics' in p) return under(raw, p.source);
  if (p.origin?.path !== undefined) return p.origin.path;
  return under(raw, p.typed);
}

function under(raw: string, typedPath: string): string {
  // A folder's skills are typed `<folder>/<path>`, an archive's `<archive>: <path>`.
  const typed = redactUrl(raw).replace(/\/+$/, '');
  for (const base of [`${typed}/`, `${typed}: `]) if (typedPath.startsWith(base)) return typedPath.slice(base.length);
  return typedPath;
}

/**
 * The namesakes among the skills of one source (the same content at two paths is one skill, not two). Depth is
 * measured on the paths as typed (`<source>/<path>`), which valid and invalid skills of a source share.
 */
export function namesakesOf(found: readonly (Prepared | InvalidSource)[]): Namesakes {
  const named = found.filter((p) => !('diagnostics' in p) || p.id !== undefined);
  const settled = settleNamesakes(named, (p) =>
    'diagnostics' in p
      ? { key: p.id!, depth: depthOfPath(p.source), content: `invalid:${p.source}`, valid: false }
      : { key: p.skill.id, depth: depthOfPath(p.typed), content: p.integrity, valid: true },
  );
  return settled as Namesakes;
}

/** A tied skill, left out as an invalid one is (the run exits 1), with the source that installs it alone. */
export function tiedSkipped(raw: string, p: Prepared, tie: readonly Prepared[], alone: string): InvalidSource {
  const others = tie.filter((q) => q !== p).map((q) => insideOf(raw, q));
  return {
    source: p.typed,
    id: p.skill.id,
    message: `${others.length === 1 ? 'another skill' : `${others.length} other skills`} of ${redactUrl(raw)} ${others.length === 1 ? 'is' : 'are'} named ${p.skill.id} too (${someOf(others)}), : a folder an agent reads holds one skill of a name, so none was installed. This one alone: ${alone}`,
    diagnostics: [],
    namesake: { of: redactUrl(raw), inside: insideOf(raw, p), alone },
  };
}

/** The one warning for a source's outranked namesakes. */
export function outrankedWarning(raw: string, outranked: ReadonlyMap<Prepared | InvalidSource, Prepared>): string {
  const n = outranked.size;
  const paths = [...outranked.keys()].map((p) => insideOf(raw, p));
  return `${n} deeper skill${n === 1 ? '' : 's'} of ${redactUrl(raw)} named as a shallower one ${n === 1 ? 'was' : 'were'} left out (${someOf(paths)}): the shallowest of each name is installed; --list names the source that installs each other alone`;
}

/**
 * Namesakes tied in the agent folders of a repository that ships one copy per agent (`.claude/skills/x` beside
 * `.agents/skills/x`): the copy in the folder skills are placed into is taken (the first such folder that holds
 * exactly one of them), and the others are left out for it. `placed`: the folders placed into, relative to the
 * project, forward slashes, in order. Changes `settled`; returns what was left out this way, for one warning.
 */
export function preferPlaced(
  raw: string,
  settled: Namesakes,
  placed: readonly string[],
): Map<Prepared | InvalidSource, Prepared> {
  const left = new Map<Prepared | InvalidSource, Prepared>();
  if (placed.length === 0) return left;
  const folderOf = (p: Prepared) => insideOf(raw, p).split('/').slice(0, -1).join('/');
  for (const [id, tie] of settled.tied) {
    for (const folder of placed) {
      const here = tie.filter((p) => folderOf(p) === folder);
      if (here.length !== 1) continue;
      const kept = here[0]!;
      const depth = depthOfPath(insideOf(raw, kept));
      // The other agents' copies beside it; deeper ones (translations) are left out as deeper ones always are.
      for (const p of tie)
        if (p !== kept)
          if (depthOfPath(insideOf(raw, p)) === depth) left.set(p, kept);
          else settled.outranked.set(p, kept);
      settled.tied.delete(id);
      break;
    }
  }
  return left;
}

/** The one warning for the copies left out for the one in the agent folder placed into. */
export function placedWarning(raw: string, left: ReadonlyMap<Prepared | InvalidSource, Prepared>): string {
  const paths = [...left.keys()].map((p) => insideOf(raw, p));
  const folders = [...new Set([...left.values()].map((p) => insideOf(raw, p).split('/').slice(0, -1).join('/')))];
  const n = paths.length;
  return `${n === 1 ? 'a copy' : `${n} copies`} of ${redactUrl(raw)} for another agent's folder ${n === 1 ? 'was' : 'were'} left out (${someOf(paths)}): ${n === 1 ? 'the one' : 'those'} in ${folders.join(', ')}, where ${n === 1 ? 'it is' : 'they are'} placed, ${n === 1 ? 'is' : 'are'} installed`;
}

/**
 * The skills found, twins once: a valid skill whose name and files (its integrity) another found earlier shares is
 * that one at another path, which install places once; the first stands for both, with every path it is at
 * (`foundAt`) and the others (`twins`). --list and the picker show them so.
 */
export function withoutTwins(
  raw: string,
  found: readonly (Prepared | InvalidSource)[],
): { p: Prepared | InvalidSource; foundAt?: string[]; twins?: Prepared[] }[] {
  const out: { p: Prepared | InvalidSource; foundAt?: string[]; twins?: Prepared[] }[] = [];
  const first = new Map<string, { p: Prepared; foundAt?: string[]; twins?: Prepared[] }>();
  for (const p of found) {
    if ('diagnostics' in p) {
      out.push({ p });
      continue;
    }
    const key = `${p.skill.id}\0${p.integrity}`;
    const twin = first.get(key);
    if (twin) {
      (twin.foundAt ??= [insideOf(raw, twin.p)]).push(insideOf(raw, p));
      (twin.twins ??= []).push(p);
    } else {
      const entry = { p };
      first.set(key, entry);
      out.push(entry);
    }
  }
  return out;
}
