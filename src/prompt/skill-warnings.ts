// A big collection of other people's skills gives a warning for each skill an agent would not load (shadowed by
// another of its name, skipped for a missing description, a name that does not match its folder): 7,000 lines on
// stderr for a mirror of 15,000 public skills, with the warnings about the run itself (the tier chosen, the budget)
// lost at the end. A run shows the first few of them and how many more; --verbose shows them all, --json holds them.

/** Warnings about single skills that a run shows unless --verbose. */
export const SHOWN_SKILL_WARNINGS = 10;

const COUNT = Symbol('skill warnings');

/** Mark how many of a result's warnings, from the first, are about single skills (not in its JSON). */
export function markSkillWarnings<T extends object>(result: T, count: number): T {
  Object.defineProperty(result, COUNT, { value: count, enumerable: false });
  return result;
}

/** How many of a result's warnings, from the first, are about single skills (0 when not marked). */
export function skillWarningsOf(result: object): number {
  return (result as { [COUNT]?: number })[COUNT] ?? 0;
}

/**
 * The warnings to show: all with `verbose` or when few; else the first SHOWN_SKILL_WARNINGS about single skills, a
 * line that says how many more there are, and every warning about the run.
 */
export function shownWarnings(warnings: string[], perSkill: number, verbose = false): string[] {
  if (verbose || perSkill <= SHOWN_SKILL_WARNINGS + 1) return warnings;
  const more = perSkill - SHOWN_SKILL_WARNINGS;
  return [
    ...warnings.slice(0, SHOWN_SKILL_WARNINGS),
    `… and ${more.toLocaleString('en-US')} more warnings about single skills; --verbose shows them all`,
    ...warnings.slice(perSkill),
  ];
}
