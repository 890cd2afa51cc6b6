// `--skill` naming a skill its source does not hold: the error, which says what the source holds, and which
// `update` tells apart (a skill renamed upstream) from other failures.
import { SkillsError } from '../errors.js';
import { closest } from '../skill/names.js';
import { redactUrl } from '../formats/install-source.js';

/** `--skill` named skills the sources do not hold: `missing`, and the ids each source holds (`held`, by source). */
export class MissingSkills extends SkillsError {
  constructor(
    readonly missing: string[],
    readonly held: ReadonlyMap<string, string[]>,
    sources: readonly string[],
    cuts: ReadonlyMap<string, string> = new Map(),
  ) {
    // A search cut at its limits may have stopped before the skill: "no such skill" alone would be untrue.
    const cut = sources.map((s) => cuts.get(s)).find((c) => c !== undefined);
    super(
      'E_NOT_FOUND',
      `--skill ${missing.join(', ')}: no such skill in ${sources.map(redactUrl).join(', ')}${sources.length === 1 && held.has(sources[0]!) ? heldText(held.get(sources[0]!)!) : ''}${cut === undefined ? '' : `, but not all of it was searched: ${cut}`}; nothing was installed`,
      {
        hint: `${nearText(missing, [...held.values()].flat())}run skills install <source> --list to see the skills it holds`,
      },
    );
  }
}

/** ` (it holds a, b, c and 4 more)`: what a source holds, where a skill asked for is not among it. */
export function heldText(held: readonly string[]): string {
  if (held.length === 0) return ' (it holds no skill)';
  const shown = held.slice(0, 5).join(', ');
  return ` (it holds ${shown}${held.length > 5 ? ` and ${held.length - 5} more` : ''})`;
}

/** `did you mean --skill brainstorming? ` for the names asked for that are near one a source holds; else nothing. */
function nearText(missing: readonly string[], held: readonly string[]): string {
  const near = [...new Set(missing.flatMap((m) => closest(m, held) ?? []))];
  return near.length ? `did you mean ${near.map((n) => `--skill ${n}`).join(', ')}? Else ` : '';
}
