// validate's hints for YAML errors that are no slip of one value (yaml-repair.ts finds those and shows the repaired
// line): what new authors and the world's skills get wrong, from the shapes a 1,018-skill ClawHub mirror and a
// first-hour adversary showed. Each says what went wrong on which line, in the author's words, not js-yaml's.

const GENERAL_HINT =
  'check the YAML syntax of the frontmatter; quote values that contain ": " or start with a special character';

// A line that starts as the closing dashes do but goes on (`---# Title`, `----`): not a closing line.
export const DASHES_AND_MORE = /^---[ \t]*\S/m;

/** A YAML line's plain key with its indent (`  name`), or undefined when the line is no `key: …`. */
function keyOf(line: string): string | undefined {
  return /^([ \t]*[^\s:#-][^:]*?)[ \t]*:(?:[ \t]|$)/.exec(line)?.[1];
}

/**
 * A quoted value that its own quote character ends early (`description: 'the user's forms'`, `"Fills "PDF" forms"`):
 * the hint, with the line written the other way round when that needs no escape.
 */
function quoteClosedEarly(line: string, lineNo: number): string | undefined {
  const m = /^([ \t]*[^\s:#-][^:]*?):[ \t]+(['"])(.*)$/.exec(line);
  if (!m) return undefined;
  const [, key, q, rest] = m as unknown as [string, string, string, string];
  const last = rest.trimEnd().endsWith(q) ? rest.trimEnd().slice(0, -1) : rest;
  // A single quote inside single quotes is written twice; a double quote inside double quotes, escaped.
  const inner = q === "'" ? last.replace(/''/g, '') : last.replace(/\\./g, '');
  if (!inner.includes(q)) return undefined;
  const other = q === "'" ? '"' : "'";
  const what =
    q === "'"
      ? `the ' inside the value of "${key.trim()}" on line ${lineNo} ends its quoted text early; inside single quotes an apostrophe is written twice ('')`
      : `the " inside the value of "${key.trim()}" on line ${lineNo} ends its quoted text early; inside double quotes write \\"`;
  return last.includes(other) || /[\\\n]/.test(last)
    ? what
    : `${what}, or quote it with ${other === '"' ? 'double' : 'single'} quotes: ${key}: ${other}${last}${other}`;
}

/**
 * validate's hint for a YAML error that is no slip of one value (slipNear): a key given twice, a tab in the indent,
 * a quote that ends its value early, a key without its space, a list under a key that has a value, a control
 * character, a line that was likely meant to close the frontmatter, Markdown where the keys belong; else the general
 * advice. `at` is the error's line in `lines` (0-based); `first`, the file's line of lines[0].
 */
export function syntaxHint(reason: string, lines: readonly string[], at: number | undefined, first: number): string {
  const line = at === undefined ? undefined : lines[at];
  if (reason.startsWith('duplicated mapping key') && line !== undefined) {
    const key = keyOf(line);
    const earlier = key ? lines.slice(0, at).findIndex((l) => keyOf(l) === key) : -1;
    if (earlier >= 0)
      return `"${key!.trim()}" is given twice (lines ${earlier + first} and ${at! + first}); a key may appear once: merge the two or drop one`;
  }
  if (reason.startsWith('tab characters must not be used in indentation') && at !== undefined)
    return `line ${at + first} is indented with a tab: YAML indents with spaces only (two per level)`;
  if (at !== undefined) {
    // The quote that ends a value early shows as an error on its line, or (a value's last line) on the next.
    for (const k of [at, at - 1]) {
      const early = k >= 0 && lines[k] !== undefined ? quoteClosedEarly(lines[k]!, k + first) : undefined;
      if (early) return early;
    }
    // `name:my-skill` is one plain text, not a key: the error comes a line or more later.
    for (let k = at; k >= 0; k--) {
      const m = /^([A-Za-z_][\w-]*):([^\s/:].*)$/.exec(lines[k]!);
      if (m)
        return `line ${k + first} has no space after "${m[1]}:", so YAML reads it as text, not a key: write ${m[1]}: ${m[2]}`;
    }
  }
  if (line !== undefined && /^[ \t]*- /.test(line)) {
    let k = at! - 1;
    while (k >= 0 && lines[k]!.trim() === '') k--;
    const owner = k >= 0 ? /^([^\s:#-][^:]*?):[ \t]+\S/.exec(lines[k]!) : null;
    if (owner)
      return `a list item follows "${owner[1]}", which already has a value on its line; make it one text (${owner[1]}: |, then the lines indented below it) or drop the "- "`;
  }
  if (reason.startsWith('the stream contains non-printable characters'))
    return 'remove the control character (shown as \\u…): YAML allows none but tab and line breaks';
  for (let i = 0; i < lines.length; i++) {
    if (DASHES_AND_MORE.test(lines[i]!))
      return `line ${i + first} starts with --- but goes on: if it was meant to end the frontmatter, the --- must be alone on its line, with the rest on the next`;
  }
  if (at === undefined || line === undefined) return GENERAL_HINT;
  // A value that goes on over indented lines, one of which holds ": " (read as a key there).
  if (reason.startsWith('bad indentation of a mapping entry') && /^[ \t]+\S/.test(line) && line.includes(': ')) {
    const owner = lines
      .slice(0, at)
      .reverse()
      .find((l) => /^\S/.test(l) && !l.startsWith('#'));
    const key = owner === undefined ? undefined : keyOf(owner);
    if (key !== undefined)
      return `the value of "${key}" goes on over the lines below it, and line ${at + first} holds ": ", which YAML reads as a key there; write it as a block: ${key}: |, then its lines indented below it`;
  }
  // Markdown where the keys belong (`**Name:** x`, `1. **Python**`, `## Usage` being a comment): the last text at the
  // margin before the error that is no key.
  for (let k = at; k >= 0; k--) {
    const l = lines[k]!;
    if (l.trim() === '' || /^[\s#]/.test(l) || l.startsWith('- ')) continue;
    if (keyOf(l) !== undefined || l.includes(': ')) break;
    return `line ${k + first} is no "key: value" line: the frontmatter holds only YAML keys (name: …, description: …); move the text below the closing ---`;
  }
  return GENERAL_HINT;
}
