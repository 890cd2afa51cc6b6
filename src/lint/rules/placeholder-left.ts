import { join } from 'node:path';
import type { Rule, RuleContext } from '../types.js';

// `[TODO: …]` and `<TODO: …>` as one finding; TODO, FIXME and TBD in capitals as whole words (judged by `isMarker`);
// an unrendered {{name}} (not GitHub Actions' ${{ … }}). The notes' length is bounded, so a line of unclosed "[TODO"
// stays linear; every other repetition is followed by a character it cannot match.
const PLACEHOLDER =
  /\[(?:TODO|FIXME|TBD)\b[^\]\n]{0,200}\]|<(?:TODO|FIXME|TBD)\b[^>\n]{0,200}>|\b(?:TODO|FIXME|TBD)\b|(?<!\$)\{\{[#^/]?\s*[A-Za-z_][\w.-]*\s*\}\}/g;
// What may come before a marker at the start of a line: indentation and list, quote, heading, emphasis and task-box
// markers ("- ", "> ", "## ", "**", "1. ", "- [ ] ").
const LEAD = /^[\s>#*+-]*(?:\d{1,9}[.)]\s*)?(?:\[[ xX]\]\s*)?[*_]{0,3}/;
// What makes a bare word a marker wherever it stands: "TODO:", "FIXME(alice)", "[see TODO]", "TBD!", or the end of
// the line ("Owner: TBD", "Price: TBD."). Closing emphasis may come first ("**TBD**").
const MARKER_AFTER = /[*_]{0,3}\s*(?:[:(\]!]|$|\.\s*$)/y;
// An ordinary word follows: "TODO placeholders", "TODO list", "FIXME comments" are prose about the markers.
const WORD_AFTER = /[*_]{0,3}\s+[\p{L}\p{N}]/uy;

// Markers named together are the markers spoken of: "TODO/FIXME comments", "TODO, FIXME or XXX".
const JOINED_AFTER = /\s*[/,]\s*(?:TODO|FIXME|TBD|XXX|HACK)\b/y;
const JOINED_BEFORE = /\b(?:TODO|FIXME|TBD|XXX|HACK)\s*[/,]\s*$/;
// A marker after an article, with at most one word between, is a noun in a sentence: "leave an explicit TODO.",
// "resolve the TODO". Not after a colon ("Owner: TBD.").
const ARTICLE_BEFORE =
  /(?:^|[^\p{L}])(?:a|an|the|any|each|every|no|this|that|its|their|your|our)\s+(?:[\p{L}-]+\s+)?$/iu;

/** Whether the bare TODO, FIXME or TBD at `index` in `line` is a leftover marker rather than a word in a sentence. */
function isMarker(line: string, index: number, end: number, leadEnd: number): boolean {
  JOINED_AFTER.lastIndex = end;
  if (JOINED_AFTER.test(line)) return false;
  const before = line.slice(Math.max(0, index - 40), index);
  if (JOINED_BEFORE.test(before) || ARTICLE_BEFORE.test(before)) return false;
  MARKER_AFTER.lastIndex = end;
  if (MARKER_AFTER.test(line)) return true;
  // At the start of a line or list item, anything but a following word ("TODO - write this", "# TODO").
  if (index !== leadEnd) return false;
  WORD_AFTER.lastIndex = end;
  return !WORD_AFTER.test(line);
}

/** Whether the text holds TODO, FIXME, TBD or {{: each looked for alone, many times faster than one regex of them. */
function maybe(text: string): boolean {
  return text.includes('TODO') || text.includes('FIXME') || text.includes('TBD') || text.includes('{{');
}
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const INLINE_CODE = /`[^`\n]*`/g;
const MARKDOWN = /\.(?:md|markdown)$/i;

// A slot the agent is asked to fill, described in words: `{{one line on when to switch to it}}`, `{{Yes / No}}`. A text
// that holds one is a template for the agent's answer, and its `{{NAME}}`s are slots too (microsoft/cat-agent-skills:
// "Format the final response exactly like this template", then `{{PROJECT_NAME}}`, `{{X}}/2 — {{one line}}`). Not a
// template language's own tags (`{{#each items}}`, `{{> partial}}`), whose words follow a sign.
const BRACES = /\{\{([^{}\n]{1,200})\}\}/g;
const WORDS_APART = /[\p{L}\p{N}]\s+[\p{L}\p{N}/]/u;
const TAG_SIGN = /^\s*[#^/>!&]/;

/** Whether the text holds a `{{…}}` of words apart that is no template language's tag. */
function hasProseSlot(text: string): boolean {
  for (const m of text.matchAll(BRACES)) if (WORDS_APART.test(m[1]!) && !TAG_SIGN.test(m[1]!)) return true;
  return false;
}

// A model's special token (`<|eot|>`, `<|im_start|>`, `<|header_start|>`): a line that holds one quotes a chat
// template, whose `{{content}}` is the template's own slot (davila7's fine-tuning-llama-factory: LLaMA-4's, in prose).
const CHAT_TOKEN = /<\|[\w.-]{1,40}\|>/;

// A reference that is a template or a prompt by its name (`references/proposal-template.md`, `prompt-draft.md`,
// `templates/`): its `{{name}}`s are the variables it is filled with, on purpose.
const TEMPLATE_FILE = /(?:^|[/_.-])(?:templates?|prompts?)(?:[/_.-]|$)/i;

// A token the text talks about rather than one left unfilled (a skill that teaches mail merge names `{{FirstName}}`):
// alone in the first cell of a table row (`| {{FirstName}} | the recipient's first name |`, a table of tokens); named
// as a token (`the {{FirstName}} merge field`, `tokens such as {{FirstName}}`; not `Key: {{KEY}}`, a form's blank);
// or put to a use (`use {{FirstName}} for the first name`, `insert {{Date}} where …`). "Dear {{FirstName}}," and
// "Use {{tool}}." are still leftovers.
const TOKEN_NOUN = String.raw`(?:placeholders?|tokens?|variables?|(?:merge\s+)?fields?|slots?)`;
const TABLE_FIRST_CELL = /^\s*\|\s*[*_`]{0,3}$/;
const CELL_END = /[*_`]{0,3}\s*\|/y;
const NAMED_BEFORE = new RegExp(
  String.raw`(?:\b${TOKEN_NOUN}\s*(?:such\s+as|like|e\.g\.,?|including)?|such\s+as|e\.g\.,?)\s*(?:\{\{[^{}\n]{1,80}\}\}\s*(?:,|or|and)\s*)*[*_"'“]?$`,
  'i',
);
const NAMED_AFTER = new RegExp(String.raw`[*_"'”]?\s+${TOKEN_NOUN}\b`, 'iy');
const USE_BEFORE = /\b(?:use|insert|type|add|write|put|include|enter|paste)\s+[*_"'“]?$/i;
const USE_AFTER =
  /[*_"'”]?\s+(?:for|to|as|where|when|in\s+place\s+of|stands\s+for|(?:is|are|will\s+be|gets?)\s+replaced)\b/iy;

// A table whose header names a column of tokens (`| Merge Field | Example | Description |`, `| Variable | Value |`,
// `| Button | Inserts | Shows |`, German `Platzhalter`): its rows list tokens, in whichever column.
const TABLE_ROW = /^\s*\|/;
const TABLE_RULE = /^\s*\|?\s*:?-{3,}/;
const TOKEN_HEADER =
  /\|\s*[*_]{0,2}(?:(?:merge\s+)?fields?|tokens?|variables?|placeholders?|platzhalter|inserts?|tags?)[*_]{0,2}\s*\|/i;

/** For each line of `lines`, whether it is a row of a table of tokens (its header names such a column). */
function tokenTableRows(lines: readonly string[]): boolean[] {
  const rows = lines.map(() => false);
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!TABLE_ROW.test(lines[i]!) || !TABLE_RULE.test(lines[i + 1]!) || !TOKEN_HEADER.test(`${lines[i]!.trimEnd()}|`))
      continue;
    for (let j = i + 2; j < lines.length && TABLE_ROW.test(lines[j]!); j++) rows[j] = true;
  }
  return rows;
}

/** Whether the `{{…}}` from `index` to `end` of `line` is a token the text names or explains, not one left unfilled. */
function talkedAbout(line: string, index: number, end: number): boolean {
  if (TABLE_FIRST_CELL.test(line.slice(0, index))) {
    CELL_END.lastIndex = end;
    if (CELL_END.test(line)) return true;
  }
  const before = line.slice(Math.max(0, index - 120), index);
  if (NAMED_BEFORE.test(before)) return true;
  NAMED_AFTER.lastIndex = end;
  if (NAMED_AFTER.test(line)) return true;
  USE_AFTER.lastIndex = end;
  return USE_BEFORE.test(before) && USE_AFTER.test(line);
}

function scan(text: string, file: string, firstLine: number, ctx: RuleContext, slotsMeant = false): void {
  if (!maybe(text)) return;
  const slots = slotsMeant || (text.includes('{{') && hasProseSlot(text));
  const lines = text.split('\n');
  const tokenRows = text.includes('{{') && text.includes('|') ? tokenTableRows(lines) : undefined;
  let fence: string | undefined;
  for (const [i, line] of lines.entries()) {
    const open = FENCE.exec(line);
    if (fence !== undefined) {
      // A fence closes with at least as many of the same character and nothing else on the line.
      if (
        open &&
        open[1]![0] === fence[0] &&
        open[1]!.length >= fence.length &&
        line.slice(open[0].length).trim() === ''
      )
        fence = undefined;
      continue;
    }
    if (open) {
      fence = open[1];
      continue;
    }
    if (!maybe(line)) continue;
    // Code spans show syntax (`{{name}}` in a templating guide); blank them out, keeping the columns.
    const prose = line.includes('`') ? line.replace(INLINE_CODE, (m) => ' '.repeat(m.length)) : line;
    const leadEnd = LEAD.exec(prose)![0].length;
    const chatTemplate = prose.includes('<|') && CHAT_TOKEN.test(prose);
    for (const m of prose.matchAll(PLACEHOLDER)) {
      const token = m[0].startsWith('{{');
      if (token && (slots || chatTemplate || tokenRows?.[i] || talkedAbout(prose, m.index, m.index + m[0].length)))
        continue;
      // `[TODO LIST](https://…)`: the text of a link, a page's name.
      if (m[0].startsWith('[') && prose[m.index + m[0].length] === '(') continue;
      const bare = m[0] === 'TODO' || m[0] === 'FIXME' || m[0] === 'TBD';
      if (bare && !isMarker(prose, m.index, m.index + m[0].length, leadEnd)) continue;
      const what = token
        ? `unrendered template placeholder ${m[0]}`
        : `placeholder "${m[0].length > 40 ? `${m[0].slice(0, 37)}…` : m[0]}"`;
      ctx.report({
        message: `${what} left in the text; expected finished content`,
        file,
        line: firstLine + i,
        column: m.index + 1,
        hint: token
          ? 'fill in the value the template expected, or put template syntax in `code`'
          : 'write the missing content, or delete the note',
      });
    }
  }
}

export default {
  names: ['SK124', 'placeholder-left'],
  description:
    'no template placeholders are left in the Markdown of the skill: TODO, FIXME or TBD as a marker ("TODO: …", "FIXME(…)", at the start of a line or list item, or ending one; not "TODO placeholders", "TODO/FIXME comments" or "leave a TODO" in a sentence), [TODO: …] (not as the text of a link), <TODO>, {{name}} (except in a template for an answer, whose slots are described in words, on a line of a chat template that holds special tokens such as <|eot|>, in a reference named as a template or a prompt, and as a token the text talks about: in a table of tokens, "use {{FirstName}} for …", "the {{FirstName}} merge field")',
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
      if (
        !e.path.startsWith('references/') ||
        !MARKDOWN.test(e.path) ||
        (e.kind !== 'file' && !(e.kind === 'symlink' && e.inside))
      )
        continue;
      const file = join(skill.root, e.path);
      if (seen.has(file)) continue;
      const text = ctx.readText(e.path);
      if (text !== undefined) scan(text, file, 1, ctx, TEMPLATE_FILE.test(e.path.slice('references/'.length)));
    }
  },
} satisfies Rule;
