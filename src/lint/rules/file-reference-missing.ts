import { basename } from 'node:path';
import type { Skill } from '../../model/skill.js';
import { at, byFileAndTarget, moreReferences, referencesTo } from '../helpers/references.js';
import { isRelevant, type LocatedRef } from '../references.js';
import type { Rule } from '../types.js';

/**
 * A near miss for a path the skill lacks: the same path in another case, or the same file name elsewhere, but never
 * the file `from` that holds the reference (`skills/hallmark/SKILL.md` in a SKILL.md copied from a repository's
 * README names that repository's skill, not this file).
 */
function nearMiss(skill: Skill, path: string, from: string): string | undefined {
  const lower = path.toLowerCase();
  const name = basename(path);
  let sameName: string | undefined;
  for (const e of skill.entries) {
    if (e.path === from) continue;
    if (e.path.toLowerCase() === lower)
      return `did you mean "${e.path}"? Paths are case-sensitive on Linux and in archives`;
    if (!sameName && e.kind !== 'dir' && basename(e.path) === name) sameName = e.path;
  }
  return sameName ? `did you mean "${sameName}"?` : undefined;
}

// A link to a web page written without its scheme (`[overview](docs.claude.com/en/docs/…)`, NeoLabHQ's
// context-engineering-kit) is a path to a file the skill lacks: the hint says what it was meant to be.
const HOST = /^(?:[a-z0-9-]+\.)+(?:com|org|net|io|dev|ai|app|co|edu|gov)\//i;

function where(r: LocatedRef): string {
  const target = r.target.path;
  return target === r.path.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/$/, '')
    ? `"${r.path}"`
    : `"${r.path}" (${target})`;
}

export default {
  names: ['SK108', 'file-reference-missing'],
  description: 'files that the instructions (and the Markdown files they reference) point to exist in the skill',
  tags: ['references', 'files', 'best-practice'],
  layouts: ['skill-md', 'manifest'],
  severity: 'warning',
  sources: [
    'agentskills.io specification: file references, relative to the skill root',
    'Anthropic, Skill authoring best practices: progressive disclosure patterns',
  ],
  fixable: false,
  check(skill, ctx) {
    // Each missing file once per file that refers to it, at its first mention. A bare path into a folder the skill
    // does not have (`output/report.md`) names the user's file, not the skill's; one in an illustration (`e.g.
    // references/finance.md`) names some other skill's.
    const missing = referencesTo(skill, ctx.readText, 'missing').filter(isRelevant);
    for (const { first: r, count } of byFileAndTarget(missing)) {
      const t = r.target;
      const more = moreReferences(count);
      ctx.report({
        message: t.actual
          ? `${r.path} does not exist; ${basename(t.actual)} differs only in case — paths are case-sensitive on Linux${more}`
          : `${where(r)} does not exist in the skill${more}`,
        ...at(r),
        hint:
          nearMiss(skill, t.path, r.doc.rel) ??
          (HOST.test(r.path)
            ? `a link to a web page needs its scheme: https://${r.path}`
            : 'add the file, or fix the path: paths are relative to the skill folder'),
      });
    }
  },
} satisfies Rule;
