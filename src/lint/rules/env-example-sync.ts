import { join } from 'node:path';
import type { Skill } from '../../model/skill.js';
import { dotenvAssignment } from '../../formats/dotenv.js';
import type { Fix, Rule } from '../types.js';

/**
 * The fix for validate's SK027 (env-example): append `NAME=` lines to .env.example for the envVars it does not
 * name, creating the file when there is none; undefined when nothing is missing.
 */
export function envExampleFix(skill: Skill): Fix | undefined {
  const have = new Set(skill.envExample ?? []);
  const missing = [...new Set(skill.envVars)].filter((v) => !have.has(v));
  if (missing.length === 0) return undefined;
  return {
    description: `add ${missing.join(', ')} to .env.example`,
    changes: [{ kind: 'append', file: join(skill.root, '.env.example'), text: missing.map((v) => `${v}=\n`).join('') }],
  };
}

export default {
  names: ['SK118', 'env-example-sync'],
  description: '.env.example names only variables that envVars declares',
  tags: ['env', 'manifest'],
  layouts: ['manifest'],
  severity: 'warning',
  sources: ['seed 000 (BuzyBeez): scripts, envVars, secrets'],
  fixable: false,
  check(skill, ctx) {
    if (skill.envExample === undefined) return;
    const text = ctx.readText('.env.example');
    if (text === undefined) return;
    const declared = new Set(skill.envVars);
    const seen = new Set<string>();
    text.split('\n').forEach((line, i) => {
      const a = dotenvAssignment(line);
      if (!a || declared.has(a.name) || seen.has(a.name)) return;
      seen.add(a.name);
      ctx.report({
        message: `.env.example names ${a.name}, which envVars does not declare`,
        file: join(skill.root, '.env.example'),
        line: i + 1,
        column: a.column,
        hint: `declare it in envVars in manifest.json, or remove the line if nothing reads ${a.name}`,
      });
    });
  },
} satisfies Rule;
