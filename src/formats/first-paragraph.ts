// The first paragraph of a Markdown text: what an agent takes as a skill's description when its frontmatter gives
// none (Claude Code does). Headings, fenced code, thematic breaks and HTML comments are not paragraphs.

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const NOT_PARAGRAPH = /^ {0,3}(?:#{1,6}(?:\s|$)|(?:[-*_] *){3,}$|<!--)/;

/** The first paragraph's text on one line (runs of white space made one space); '' when there is none. */
export function firstParagraph(markdown: string): string {
  const lines = markdown.split(/\r\n?|\n/);
  let fence: string | undefined;
  const words: string[] = [];
  for (const line of lines) {
    const open = FENCE.exec(line);
    if (fence !== undefined) {
      if (open && open[1]![0] === fence[0] && open[1]!.length >= fence.length && line.trim() === open[1])
        fence = undefined;
      continue;
    }
    const blank = line.trim() === '';
    if (words.length > 0 && (blank || open || NOT_PARAGRAPH.test(line))) break;
    if (open) {
      fence = open[1]!;
      continue;
    }
    if (blank || NOT_PARAGRAPH.test(line)) continue;
    words.push(line.trim());
  }
  return words.join(' ').replace(/\s+/g, ' ');
}
