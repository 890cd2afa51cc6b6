// Where a path in fenced shell code stands: after a `cd` (relative to another folder than the skill's), or where a
// command writes it. Read by formats/markdown-refs for the references of a skill's Markdown.
import { FENCED, type MarkdownText } from './markdown-blocks.js';

/** movedAway's memo: by block (its first line), where its first `cd` away is ([line, column]), or null for none. */
export type MovedMemo = Map<number, [number, number] | null>;

// A shell command that changes the working folder: `cd x`, `pushd x`, first on the line or after `&&`, `;`, `||`,
// `|` or `(`; its folder is kept to tell the skill's own folder (a placeholder) from any other.
const CD_ALL = /(?:^|&&|\|\||[;|(])\s*(?:cd|pushd)\s+["']?([^\s"';&|)]+)/g;

/**
 * Whether fenced code before column `column` (0-based) of line `i` (0-based), in the same block, changes the working
 * folder to a folder that is not the skill's own (`cd yarn`; not `cd "${CLAUDE_SKILL_DIR}"` nor `cd {baseDir}`).
 * `memo` keeps, by block, where the first such command is (line and column; undefined: none), so each block is
 * read once.
 */
export function movedAway(
  md: MarkdownText,
  i: number,
  column: number,
  memo: MovedMemo,
  skillRoot: (word: string) => boolean,
): boolean {
  const kind = md.fences;
  let open = i;
  while (open > 0 && kind[open - 1] === FENCED) open--;
  let first = memo.get(open);
  if (first === undefined) {
    first = null;
    for (let j = open; j < kind.length && kind[j] === FENCED && first === null; j++) {
      const line = md.line(j)!;
      // Most lines hold no `cd` at all: a native search before the regex.
      if (!line.includes('cd') && !line.includes('pushd')) continue;
      for (const m of line.matchAll(CD_ALL)) {
        if (skillRoot(m[1]!) || m[1] === '.') continue;
        first = [j, m.index];
        break;
      }
    }
    memo.set(open, first);
  }
  return first !== null && (first[0] < i || (first[0] === i && first[1] < column));
}

// What stands before a path a shell command writes: a redirection (`>`, `>>`, `2>`, `&>`; not an arrow `->`, `=>`),
// or an output option (`-o`, `--output`, `--out`, `--output=`).
const WRITES = /(?:(?:^|[^-=>])>>?|(?:^|\s)(?:-o|--out(?:put)?))[ \t]*=?$/;

/** Whether the word at `index` of `s` (on the line starting at `lineStart`) is what a shell command writes. */
export function writtenAt(s: string, index: number, lineStart: number): boolean {
  let j = index;
  while (j > lineStart && (s[j - 1] === '"' || s[j - 1] === "'")) j--;
  return WRITES.test(s.slice(Math.max(lineStart, j - 12), j));
}
