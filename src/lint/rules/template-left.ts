import { join } from 'node:path';
import { defaultDescription, TEMPLATE_LINES } from '../../formats/template-marks.js';
import type { Rule, RuleContext } from '../types.js';

const MARKDOWN = /\.(?:md|markdown)$/i;

/**
 * The end of a template line that is looked for before the lines are split: from its first apostrophe, else from its
 * first capital letter. A text that holds the line holds this end of it, and a search stops at every place of its first
 * character: `1` (of `1. Restate …`) and `*` (of `**Agent:** …`) stand in every numbered list and bold word, `'` and
 * `A` less often, and not at all in the bench's 1 MB bodies, which number their sections: there `1. Restate …` took
 * 0.33 ms a MB to search, `'s goal …` 0.05; the four searches over the real skills' Markdown 0.6 ms a MB, now 0.45.
 */
export function searchedEnd(line: string): string {
  const quote = line.indexOf("'");
  return line.slice(quote >= 0 ? quote : Math.max(0, line.search(/[A-Z]/)));
}
const SEARCHED = TEMPLATE_LINES.map(searchedEnd);

/** The first line of `text` that is one of the template's lines (leading and trailing blanks aside), with its index. */
export function templateLine(text: string): { line: string; index: number } | undefined {
  // Most texts hold none: one search for each line's distinctive end before the lines are split.
  if (!SEARCHED.some((l) => text.includes(l))) return undefined;
  const lines = text.split('\n');
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (TEMPLATE_LINES.includes(line)) return { line, index };
  }
  return undefined;
}

function scan(text: string, file: string, firstLine: number, ctx: RuleContext): void {
  const found = templateLine(text);
  if (!found) return;
  ctx.report({
    message: `the text is still skills init's template ("${found.line}"); expected instructions for this skill's task`,
    file,
    line: firstLine + found.index,
    hint: 'replace the template with the steps, examples and rules of the task, or delete what it does not need',
  });
}

export default {
  names: ['SK130', 'template-left'],
  description:
    "the skill is more than skills init's template: its description is not the default one init wrote, and its Markdown holds none of the template's generic lines",
  tags: ['instructions', 'content', 'description'],
  layouts: ['skill-md', 'manifest'],
  severity: 'warning',
  sources: ['Anthropic, Skill authoring best practices: concise, specific instructions and descriptions'],
  fixable: false,
  check(skill, ctx) {
    for (const name of new Set([skill.name, skill.id])) {
      if (name === '' || skill.description !== defaultDescription(name)) continue;
      const pos = skill.positions['description'];
      ctx.report({
        message: `the description is the one skills init wrote ("${skill.description.length > 60 ? `${skill.description.slice(0, 57)}…` : skill.description}"); expected what this skill does and when to use it`,
        file: skill.file,
        line: pos?.line,
        column: pos?.column,
        hint: 'name the task, its inputs and the words a user would say, e.g. "Extract text and tables from PDF files. Use when the user mentions PDFs."',
      });
      break;
    }
    const seen = new Set<string>();
    for (const part of skill.instructionParts) {
      if (seen.has(part.file)) continue;
      seen.add(part.file);
      scan(part.text, part.file, part.line, ctx);
    }
    for (const e of skill.entries) {
      if (!MARKDOWN.test(e.path) || !e.path.startsWith('references/') || e.kind !== 'file') continue;
      const file = join(skill.root, e.path);
      if (seen.has(file)) continue;
      const text = ctx.readText(e.path);
      if (text !== undefined) scan(text, file, 1, ctx);
    }
  },
} satisfies Rule;
