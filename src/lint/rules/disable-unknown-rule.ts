import { closest } from '../../skill/names.js';
import { positionFinder } from '../../formats/text.js';
import { disableComments, disableTexts } from '../inline-disables.js';
import type { Rule } from '../types.js';

// `<!-- skills-lint-disable SK1O8 -->` with a slip in the id turns nothing off, and said nothing: the finding it was
// meant to hide stays, or (worse) a later rename leaves the comment behind. ESLint reports such a comment as
// "Definition for rule '…' was not found"; so does this rule, at the name, with the nearest known one.

export default {
  names: ['SK134', 'disable-unknown-rule'],
  description:
    'every rule an inline skills-lint-disable comment names is a rule or check id or alias: an unknown one turns nothing off',
  tags: ['config'],
  layouts: ['skill-md', 'manifest'],
  severity: 'warning',
  sources: ['ESLint: "Definition for rule … was not found" for a directive comment naming an unknown rule'],
  fixable: false,
  check(skill, ctx) {
    for (const { file, text } of disableTexts(skill, ctx.readText)) {
      const at = positionFinder(text);
      for (const c of disableComments(text))
        for (const n of c.names) {
          if (ctx.ruleNames.has(n.name)) continue;
          const near = closest(n.name, [...ctx.ruleNames.keys()]);
          const { line, column } = at(n.index);
          ctx.report({
            message: `unknown rule "${n.name}" in a skills-lint-disable comment: it turns nothing off${near ? `; did you mean "${near}"?` : ''}`,
            file,
            line,
            column,
            hint: 'name a rule by its id or alias (skills lint --list-rules lists them), or remove the name',
          });
        }
    }
  },
} satisfies Rule;
