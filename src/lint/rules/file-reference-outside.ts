import { at, byFileAndTarget, moreReferences, referencesTo } from '../helpers/references.js';
import type { Rule } from '../types.js';

export default {
  names: ['SK109', 'file-reference-outside'],
  description:
    'file references stay inside the skill: no absolute paths, no ../ out of the folder, no symlinks leading out',
  tags: ['references', 'files', 'portability'],
  layouts: ['skill-md', 'manifest'],
  severity: 'warning',
  sources: [
    'agentskills.io specification: file references, relative to the skill root',
    'Anthropic, Skill authoring best practices: progressive disclosure patterns',
  ],
  fixable: false,
  check(skill, ctx) {
    // Once per file that refers to a place outside, at its first mention, as SK108 and SK111 say theirs: a guide that
    // names ../../shared/schema.md in every step has one thing to fix (thoughtspot-agent-skills: 318 findings, 227
    // places).
    for (const { first: r, count } of byFileAndTarget(referencesTo(skill, ctx.readText, 'outside'))) {
      const t = r.target;
      const message =
        (t.why === 'absolute'
          ? `"${r.path}" is an absolute path, outside the skill`
          : t.why === 'parent'
            ? `"${r.path}" leads out of the skill folder`
            : `"${r.path}" goes through ${t.via}, a symlink that leads out of the skill`) + moreReferences(count);
      ctx.report({
        message,
        ...at(r),
        hint: 'a skill is installed and packed on its own: copy the file into the skill (references/ or assets/) and refer to it by a path relative to the skill folder',
      });
    }
  },
} satisfies Rule;
