// What the rules about file references share: which references lead where, and where a finding about one goes.
import type { Skill } from '../../model/skill.js';
import { skillReferences, type LocatedRef, type Resolution } from '../references.js';
import type { Report, RuleContext } from '../types.js';

/** A reference whose target has the status `S`. */
export type ReferenceTo<S extends Resolution['status']> = LocatedRef & { target: Extract<Resolution, { status: S }> };

/** The skill's references (instructions and the Markdown files they reference) whose target has `status`. */
export function referencesTo<S extends Resolution['status']>(
  skill: Skill,
  readText: RuleContext['readText'],
  status: S,
): ReferenceTo<S>[] {
  return skillReferences(skill, readText).refs.filter((r): r is ReferenceTo<S> => r.target.status === status);
}

/** Where a finding about a reference goes: the file it is written in, at its line and column. */
export function at(r: LocatedRef): Required<Pick<Report, 'file' | 'line' | 'column'>> {
  return { file: r.doc.file, line: r.line, column: r.column };
}

/**
 * References grouped by the file they are written in and the file they lead to, in order of first mention: a rule
 * that speaks about the target says so once per file that refers to it, at its first mention, with how many more.
 */
export function byFileAndTarget<R extends LocatedRef>(refs: Iterable<R>): { first: R; count: number }[] {
  const groups = new Map<string, { first: R; count: number }>();
  for (const r of refs) {
    const key = `${r.doc.file}\n${r.target.path}`;
    const g = groups.get(key);
    if (g) g.count++;
    else groups.set(key, { first: r, count: 1 });
  }
  return [...groups.values()];
}

/** " (+N more references)" for a group of `count` references, or nothing for one. */
export function moreReferences(count: number): string {
  return count > 1 ? ` (+${count - 1} more reference${count > 2 ? 's' : ''})` : '';
}
