import { join } from 'node:path';
import type { Rule, RuleContext } from '../types.js';

// `[TODO: …]` as one finding; bare TODO, FIXME and TBD in capitals as whole words; an unrendered {{name}} (not
// GitHub Actions' ${{ … }}). The note's length is bounded, so a line of unclosed "[TODO" stays linear; every other
// repetition is followed by a character it cannot match.
const PLACEHOLDER = /\[TODO\b[^\]\n]{0,200}\]|\b(?:TODO|FIXME|TBD)\b|(?<!\$)\{\{[#^/]?\s*[A-Za-z_][\w.-]*\s*\}\}/g;
const MAYBE = /TODO|FIXME|TBD|\{\{/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const INLINE_CODE = /`[^`\n]*`/g;
const MARKDOWN = /\.(?:md|markdown)$/i;

function scan(text: string, file: string, firstLine: number, ctx: RuleContext): void {
  if (!MAYBE.test(text)) return;
  const lines = text.split('\n');
  let fence: string | undefined;
  for (const [i, line] of lines.entries()) {
    const open = FENCE.exec(line);
    if (fence !== undefined) {
      // A fence closes with at least as many of the same character and nothing else on the line.
      if (open && open[1]![0] === fence[0] && open[1]!.length >= fence.length && line.slice(open[0].length).trim() === '') fence = undefined;
      continue;
    }
    if (open) {
      fence = open[1];
      continue;
    }
    if (!MAYBE.test(line)) continue;
    // Code spans show syntax (`{{name}}` in a templating guide); blank them out, keeping the columns.
    const prose = line.includes('`') ? line.replace(INLINE_CODE, (m) => ' '.repeat(m.length)) : line;
    for (const m of prose.matchAll(PLACEHOLDER)) {
      const what = m[0].startsWith('{{') ? `unrendered template placeholder ${m[0]}` : `placeholder "${m[0].length > 40 ? `${m[0].slice(0, 37)}…` : m[0]}"`;
      ctx.report({
        message: `${what} left in the text; expected finished content`,
        file,
        line: firstLine + i,
        column: m.index + 1,
        hint: m[0].startsWith('{{') ? 'fill in the value the template expected, or put template syntax in `code`' : 'write the missing content, or delete the note',
      });
    }
  }
}

export default {
  names: ['SK124', 'placeholder-left'],
  description: 'no template placeholders (TODO, FIXME, TBD, [TODO: …], {{name}}) are left in the Markdown of the skill',
  tags: ['instructions', 'content'],
  layouts: ['skill-md', 'manifest'],
  severity: 'warning',
  sources: ['seed 000 (BuzyBeez skills)', 'Anthropic, Skill authoring best practices'],
  fixable: false,
  check(skill, ctx) {
    const seen = new Set<string>();
    for (const part of skill.instructionParts) {
      seen.add(part.file);
      scan(part.text, part.file, part.line, ctx);
    }
    for (const e of skill.entries) {
      if (!e.path.startsWith('references/') || !MARKDOWN.test(e.path) || (e.kind !== 'file' && !(e.kind === 'symlink' && e.inside))) continue;
      const file = join(skill.root, e.path);
      if (seen.has(file)) continue;
      const text = ctx.readText(e.path);
      if (text !== undefined) scan(text, file, 1, ctx);
    }
  },
} satisfies Rule;
