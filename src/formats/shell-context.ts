// Where a path in fenced shell code stands: after a `cd` (relative to another folder than the skill's), or where a
// command writes it. Read by formats/markdown-refs for the references of a skill's Markdown.
import { blockAt } from './markdown-blocks.js';

/** movedAway's memo: by block (where its code starts), the offset of its first `cd` away, or -1 for none. */
export type MovedMemo = Map<number, number>;

// A shell command that changes the working folder: `cd x`, `pushd x`, first on the line or after `&&`, `;`, `||`,
// `|` or `(`; its folder is kept to tell the skill's own folder (a placeholder) from any other.
const CD_ALL = /(?:^|&&|\|\||[;|(])\s*(?:cd|pushd)\s+["']?([^\s"';&|)]+)/g;

/**
 * Whether fenced code before offset `at` of text `t` (whose fenced blocks are `b`, fenceBlocks), in the same block,
 * changes the working folder to a folder that is not the skill's own (`cd yarn`; not `cd "${CLAUDE_SKILL_DIR}"` nor
 * `cd {baseDir}`). `memo` keeps, by block, where the first such command is, so each block is read once.
 */
export function movedAway(
  t: string,
  b: Int32Array,
  at: number,
  memo: MovedMemo,
  skillRoot: (word: string) => boolean,
): boolean {
  const k = blockAt(b, at);
  const code = b[k + 1]!;
  let first = memo.get(code);
  if (first === undefined) {
    first = -1;
    const end = Math.min(b[k + 2]!, t.length + 1);
    for (let start = code; start < end && first < 0;) {
      let nl = t.indexOf('\n', start);
      if (nl < 0) nl = t.length;
      const line = t.slice(start, nl);
      // Most lines hold no `cd` at all: a native search before the regex.
      if (line.includes('cd') || line.includes('pushd')) {
        for (const m of line.matchAll(CD_ALL)) {
          if (skillRoot(m[1]!) || m[1] === '.') continue;
          first = start + m.index;
          break;
        }
      }
      start = nl + 1;
    }
    memo.set(code, first);
  }
  return first >= 0 && first < at;
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
