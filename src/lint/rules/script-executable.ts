import { join } from 'node:path';
import type { Skill } from '../../model/skill.js';
import type { Fix, Rule } from '../types.js';
import { byPath, importedBySibling, scriptUses } from './script-shebang.js';

/** The fix that sets the execute bit of a script wherever it can be read (644 → 755, 640 → 750, 600 → 700). */
export function chmodFix(skill: Skill, relPath: string, mode: number): Fix {
  const bits = mode & 0o7777;
  const x = (bits & 0o444) >> 2;
  return {
    description: `make ${relPath} executable`,
    changes: [{ kind: 'chmod', file: join(skill.root, relPath), mode: bits | (x === 0 ? 0o100 : x) }],
  };
}

export default {
  names: ['SK114', 'script-executable'],
  description: 'scripts that start with a shebang have the execute bit, so they can be run by path',
  tags: ['scripts', 'permissions', 'best-practice'],
  layouts: ['skill-md', 'manifest'],
  severity: 'warning',
  sources: [
    'seed 000 (BuzyBeez): scripts, envVars, secrets',
    'Anthropic, Skill authoring best practices: utility scripts',
  ],
  fixable: true,
  check(skill, ctx) {
    // Windows has no execute bit to set.
    if (process.platform === 'win32') return;
    // Scripts, and files outside scripts/ that the instructions run by path (`./find-polluter.sh`).
    const uses = scriptUses(skill, ctx.readText);
    for (const script of byPath([...skill.scripts, ...uses.runByPath])) {
      // validate's SK026 reports declared manifest scripts; the linter gives it this same fix.
      if (!script.exists || script.executable === true || (script.declared && skill.layout === 'manifest')) continue;
      // Mentioned, and never run by path (`uv run scripts/x.py`, `. scripts/log.sh`): the execute bit is not used.
      if (!script.declared && uses.mentioned.get(script.path) === false) continue;
      // Never mentioned, and imported by a script beside it: a module, whatever its first line says.
      if (!script.declared && !uses.mentioned.has(script.path) && importedBySibling(skill, script.path, ctx.readText))
        continue;
      const text = ctx.readText(script.path);
      if (text === undefined || !text.startsWith('#!')) continue;
      const st = ctx.stat(script.path);
      if (!st || (st.mode & 0o111) !== 0) continue;
      ctx.report({
        message: `${script.path} starts with a shebang but is not executable`,
        file: join(skill.root, script.path),
        line: 1,
        column: 1,
        hint: `chmod +x ${script.path}`,
        fix: chmodFix(skill, script.path, st.mode),
      });
    }
  },
} satisfies Rule;
