import { disableTexts, unusedDisables } from '../inline-disables.js';
import type { Rule } from '../types.js';

// `<!-- skills-lint-disable SK108 -->` left behind once the long file was split, or written for a finding another
// rule never makes, hides nothing now and will hide the next real one. ESLint reports such a comment ("Unused
// eslint-disable directive (no problems were reported from '…')") with --report-unused-disable-directives, and by
// default as a warning since ESLint 9 (linterOptions.reportUnusedDisableDirectives); here it is a rule, so the
// configuration turns it off or into an error as any other. Only our own comments are read: a markdownlint-disable
// or eslint-disable comment is another tool's.

export default {
  names: ['SK135', 'unused-disable'],
  description: 'every inline skills-lint-disable comment turns off a finding: one that turns nothing off is left over',
  tags: ['config'],
  layouts: ['skill-md', 'manifest'],
  severity: 'warning',
  sources: [
    'ESLint: --report-unused-disable-directives, linterOptions.reportUnusedDisableDirectives ("warn" since v9)',
  ],
  fixable: false,
  check(skill, ctx) {
    const texts = disableTexts(skill, ctx.readText);
    // What was reported is settled only for a skill that has a comment to judge.
    const reported = texts.length ? ctx.reported?.() : undefined;
    if (!reported) return;
    const { findings, later } = reported;
    for (const { file, text } of texts) {
      // The rules that compare skills report on the skill file after this one has run: what a comment there names
      // of theirs (or a bare comment there) is not judged, rather than called unused too soon.
      const skip = (id: string | undefined) =>
        file === skill.file && later.size > 0 && (id === undefined || later.has(id));
      const here = findings.filter((f) => f.file === file);
      for (const { line, column, ...u } of unusedDisables(text, ctx.ruleNames, here, skip)) {
        ctx.report({
          message: u.name
            ? `unused skills-lint-disable: nothing was reported by "${u.name}" where this comment reaches`
            : 'unused skills-lint-disable: nothing was reported where this comment reaches',
          file,
          line,
          column,
          hint: u.name ? `remove "${u.name}" from the comment` : 'remove the comment',
        });
      }
    }
  },
} satisfies Rule;
