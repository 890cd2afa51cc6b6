import { relative } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { FileEdit } from '../fix.js';

/**
 * A unified diff of planned edits, and their mode changes, as `git diff` shows them (paths relative to cwd).
 * Loaded only for --fix-dry-run: it brings in the diff package.
 */
export function formatDiff(edits: FileEdit[], options: { cwd: string }): string {
  return edits.map((e) => diffOf(e, relative(options.cwd, e.file) || '.')).join('');
}

function diffOf(e: FileEdit, name: string): string {
  let out = `diff --git a/${name} b/${name}\n`;
  if (e.mode !== undefined && e.mode !== e.modeBefore) {
    out += `old mode ${(0o100000 | (e.modeBefore ?? 0)).toString(8)}\nnew mode ${(0o100000 | e.mode).toString(8)}\n`;
  }
  if (e.after !== (e.before ?? '')) {
    if (e.before === undefined) out += 'new file mode 100644\n';
    const patch = createTwoFilesPatch(
      e.before === undefined ? '/dev/null' : `a/${name}`,
      `b/${name}`,
      e.before ?? '',
      e.after,
      undefined,
      undefined,
      { context: 3 },
    );
    // jsdiff starts with an "Index:" banner and a ==== rule; git's format has neither.
    out += patch.replace(/^(?:Index: [^\n]*\n)?=+\n/, '');
  }
  return out;
}
