// Root specs: what the user typed is checked before solving, so its mistakes get their own messages.
import type { DependencySpec } from '../model/spec.js';
import { SkillsError } from '../errors.js';
import { closest } from '../skill/names.js';
import type { Catalog } from './catalog.js';
import { available } from './explain.js';
import type { ResolveFailureKind } from './types.js';
import { matches } from './versions.js';

/** The first problem with the specs given (unknown id, missing version, no match), all of them in its message. */
export function checkRootSpecs(
  specs: DependencySpec[],
  catalog: Catalog,
): { kind: ResolveFailureKind; error: SkillsError } | undefined {
  const problems: { kind: ResolveFailureKind; message: string; hint: string }[] = [];
  for (const spec of specs) {
    const versions = catalog.versions(spec.id);
    if (!versions) {
      const near = closest(spec.id, catalog.ids());
      problems.push({
        kind: 'unknown-id',
        message: `no skill "${spec.id}" in the registry${near ? `; did you mean "${near}"?` : ''}`,
        hint: near ? `resolve ${near}${spec.range ? `@${spec.range}` : ''}` : 'skills list shows the registered skills',
      });
      continue;
    }
    if (versions.length === 0) {
      problems.push({
        kind: 'no-match',
        message: `${spec.id} has no usable version in the registry`,
        hint: `register a version of ${spec.id}`,
      });
      continue;
    }
    if (spec.range === undefined || versions.some((v) => matches(v, spec.range!))) continue;
    const example = versions[0] ? `, e.g. ${spec.id}@${versions[0]}` : '';
    problems.push(
      spec.exact
        ? {
            kind: 'missing-version',
            message: `${spec.id}@${spec.range} is not in the registry; ${available(spec.id, versions)}`,
            hint: `pin one of the available versions${example}`,
          }
        : {
            kind: 'no-match',
            message: `no version of ${spec.id} matches ${spec.range}; ${available(spec.id, versions)}`,
            hint: `widen the range, or pin one of the available versions${example}`,
          },
    );
  }
  if (problems.length === 0) return undefined;
  const first = problems[0]!;
  return {
    kind: first.kind,
    error: new SkillsError('E_NOT_FOUND', problems.map((p) => p.message).join('\n'), { hint: first.hint }),
  };
}
