import { join } from 'node:path';
import type { Rule } from '../types.js';
import { shebangProgram as interpreter, scriptLanguage } from '../../formats/shebang.js';
import { byPath, importedBySibling, scriptUses } from './script-shebang.js';

/** Whether a shell script turns on errexit: `set -e`, `set -euo pipefail`, `set -o errexit`, or `#!/bin/sh -e`. */
export function hasErrexit(text: string): boolean {
  const lines = text.split('\n');
  if (lines[0]!.startsWith('#!') && /\s-[a-zA-Z]*e/.test(lines[0]!)) return true;
  for (const line of lines) {
    if (!line.includes('set')) continue;
    // Commands on the line, comments cut off: `cd x && set -e; run  # set -e` gives ['cd x', 'set -e', 'run'].
    const code = line.replace(/(^|\s)#.*$/, '');
    for (const command of code.split(/;|&&|\|\|/)) {
      const words = command.trim().split(/\s+/);
      if (words[0] !== 'set') continue;
      for (let i = 1; i < words.length; i++) {
        const w = words[i]!;
        if (w === '--' || w === '-') break;
        if (/^-[a-zA-Z]*e/.test(w) || (w === '-o' && words[i + 1] === 'errexit')) return true;
      }
    }
  }
  return false;
}

// A comment that says errexit is left out on purpose: `set -uo pipefail  # deliberately NOT -e: run every check`,
// "`set -e` is deliberately NOT used: grep exits 1 on no match", "we do NOT toggle `set -e` (this file is sourced)"
// (daymade/claude-code-skills: 3 of its 11 findings). Not a commented-out `# set -e`, nor a usage line's `-e`.
// `-e`, not `-E` (errtrace): the option in its case, the words around it in any.
const ERREXIT_NAMED = /\bset [-+][a-zA-Z]*e\b|\berrexit\b|(?:^|\s)`?-e\b/;
const LEFT_OUT = /\b(?:not|no|never|without|don't|instead of)\b/i;

/** Whether a comment of the script (from its first `#` on each line) says errexit is left out on purpose. */
function errexitDeclined(text: string): boolean {
  for (const line of text.split('\n')) {
    const hash = line.indexOf('#');
    if (hash === -1) continue;
    const comment = line.slice(hash);
    if (ERREXIT_NAMED.test(comment) && LEFT_OUT.test(comment)) return true;
  }
  return false;
}

export default {
  names: ['SK115', 'shell-set-e'],
  description: 'shell scripts stop at the first failing command (set -e, or set -euo pipefail)',
  tags: ['scripts', 'shell', 'robustness', 'best-practice'],
  layouts: ['skill-md', 'manifest'],
  severity: 'warning',
  sources: [
    'seed 000 (BuzyBeez): scripts, envVars, secrets',
    "Anthropic, Skill authoring best practices: solve, don't punt (scripts handle errors)",
  ],
  fixable: false,
  check(skill, ctx) {
    const uses = scriptUses(skill, ctx.readText);
    for (const script of byPath(skill.scripts)) {
      if (!script.exists) continue;
      // A library loaded with `.` or `source` (by the instructions, or by a script beside it) runs in its caller's
      // shell: set -e there would change the caller, so it is the caller's to set.
      if (
        uses.sourced.has(script.path) ||
        (!uses.mentioned.has(script.path) && importedBySibling(skill, script.path, ctx.readText))
      )
        continue;
      const text = ctx.readText(script.path);
      if (text === undefined || scriptLanguage(script.path, text) !== 'shell') continue;
      // Nothing but a shebang and comments: nothing can fail.
      if (!/^[ \t]*[^#\s]/m.test(text) || hasErrexit(text) || errexitDeclined(text)) continue;
      const bash = /bash|zsh/.test(interpreter(text) ?? script.path.replace(/^.*\./, ''));
      ctx.report({
        message: `${script.path} does not set -e, so it carries on after a command fails`,
        file: join(skill.root, script.path),
        line: 1,
        column: 1,
        hint: `add ${bash ? 'set -euo pipefail' : 'set -eu'} near the top (it changes behaviour: check commands that may fail on purpose, and add || true to them)`,
      });
    }
  },
} satisfies Rule;
