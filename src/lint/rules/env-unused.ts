import { isEnvName } from '../helpers/env.js';
import type { Rule } from '../types.js';

// Files that name variables without reading them: the declaration itself and the files that give values.
const NOT_READERS = /^(?:manifest\.json|\.env|\.env\..*)$/;

export default {
  names: ['SK117', 'env-unused'],
  description: 'every variable in envVars is read by some file of the skill',
  tags: ['env', 'manifest'],
  layouts: ['manifest'],
  severity: 'warning',
  sources: ['seed 000 (BuzyBeez): scripts, envVars, secrets'],
  fixable: false,
  check(skill, ctx) {
    const raw = skill.raw.envVars;
    if (!Array.isArray(raw) || raw.length === 0) return;
    const wanted = new Map<string, number>();
    raw.forEach((v, i) => {
      if (isEnvName(v) && !wanted.has(v)) wanted.set(v, i);
    });
    // MCP servers are started by the host with the skill's environment; their settings may name a variable.
    const texts: string[] = skill.mcpServers.length > 0 ? [JSON.stringify(skill.raw.mcpServers)] : [];
    const unread = new Set(wanted.keys());
    const scan = (text: string) => {
      for (const name of unread) {
        let i = text.indexOf(name);
        while (i !== -1) {
          const before = text[i - 1];
          const after = text[i + name.length];
          if (!(before && /\w/.test(before)) && !(after && /\w/.test(after))) {
            unread.delete(name);
            break;
          }
          i = text.indexOf(name, i + 1);
        }
      }
    };
    for (const t of texts) scan(t);
    for (const e of skill.entries) {
      if (unread.size === 0) break;
      if (e.kind === 'dir' || NOT_READERS.test(e.path)) continue;
      const text = ctx.readText(e.path);
      if (text !== undefined) scan(text);
    }
    for (const name of unread) {
      const i = wanted.get(name)!;
      const pos = skill.positions[`envVars[${i}]`] ?? skill.positions.envVars;
      ctx.report({
        message: `envVars declares ${name}, but no file of the skill reads it`,
        line: pos?.line,
        column: pos?.column,
        hint: `remove "${name}" from envVars (and .env.example), or read it where it is needed`,
      });
    }
  },
} satisfies Rule;
