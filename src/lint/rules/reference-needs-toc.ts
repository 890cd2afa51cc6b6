import { join } from 'node:path';
import { isFolder, isMarkdown, skillReferences } from '../references.js';
import type { Rule } from '../types.js';

const TOC_HEADING =
  /^#{1,6}[ \t]+(?:table of contents|contents|toc|on this page|in this (?:file|document|reference))\b/i;
const TOC_MARKER = /^[ \t]*(?:\[\[_?toc_?\]\]|\[toc\]|<!--[ \t]*toc\b|\{:toc\}|\$\{toc\})/i;
const ANCHOR_ITEM = /^[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t].*\]\(#/;

/** A table of contents near the top: a Contents heading, a TOC marker, or a list of three links to #anchors. */
export function hasToc(text: string, within: number): boolean {
  let anchors = 0;
  let start = 0;
  for (let n = 0; n < within && start <= text.length; n++) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    if (TOC_HEADING.test(line) || TOC_MARKER.test(line)) return true;
    if (ANCHOR_ITEM.test(line) && ++anchors >= 3) return true;
    start = end + 1;
  }
  return false;
}

/** Lines of a text, a last one ended by a newline counted once. */
export function lineCount(text: string): number {
  let lines = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < text.length - 1; i = text.indexOf('\n', i + 1)) lines++;
  return lines;
}

export default {
  names: ['SK112', 'reference-needs-toc'],
  description: 'long Markdown files that the instructions reference start with a table of contents',
  tags: ['references', 'size', 'best-practice'],
  layouts: ['skill-md', 'manifest'],
  severity: 'warning',
  sources: [
    'Anthropic, Skill authoring best practices: structure longer reference files with a table of contents (it says over 100 lines)',
  ],
  fixable: false,
  options: {
    maxLines: {
      default: 300,
      description: 'most lines a referenced Markdown file may have without a table of contents',
    },
    tocWithin: { default: 50, description: 'lines from the top in which the table of contents must start' },
  },
  check(skill, ctx) {
    const max = ctx.options.maxLines as number;
    const within = ctx.options.tocWithin as number;
    const { refs, docs } = skillReferences(skill, ctx.readText);
    const instructions = new Set(docs.filter((d) => d.level === 0).map((d) => d.rel));
    // The referenced files were read, and their lines found, for their own references.
    const read = new Map(docs.map((d) => [d.rel, d]));
    const seen = new Set<string>();
    for (const r of refs) {
      const t = r.target;
      if (
        r.doc.level !== 0 ||
        t.status !== 'ok' ||
        !isMarkdown(t.path) ||
        isFolder(t.entry) ||
        instructions.has(t.path) ||
        seen.has(t.path)
      )
        continue;
      seen.add(t.path);
      const text = ctx.readText(t.path);
      if (text === undefined || text === '') continue;
      const doc = read.get(t.path);
      const lines = doc?.text === text ? doc.md.lineCount - (text.endsWith('\n') ? 1 : 0) : lineCount(text);
      if (lines <= max || hasToc(text, within)) continue;
      ctx.report({
        message: `${t.path} is ${lines} lines long and has no table of contents near the top`,
        file: join(skill.root, t.path),
        line: 1,
        column: 1,
        hint: `agents often preview only the start of a file: add a "## Contents" list of links to its sections within the first ${within} lines`,
      });
    }
  },
} satisfies Rule;
