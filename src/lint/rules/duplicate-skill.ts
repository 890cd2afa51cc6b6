import type { Rule, TreeSkill } from '../types.js';

const key = (s: string) => s.normalize('NFKC').toLowerCase();

/** Skills grouped by a key, keeping only keys that more than one skill folder shares. */
function shared(skills: TreeSkill[], keyOf: (s: TreeSkill) => string): Map<string, TreeSkill[]> {
  const groups = new Map<string, TreeSkill[]>();
  for (const s of skills) {
    const k = keyOf(s);
    if (k === '') continue;
    const g = groups.get(k);
    if (!g) groups.set(k, [s]);
    // The same folder reached twice (two paths given on the command line) is one skill, not a duplicate.
    else if (!g.some((o) => o.root === s.root)) g.push(s);
  }
  for (const [k, g] of groups) if (g.length < 2) groups.delete(k);
  return groups;
}

export default {
  names: ['SK127', 'duplicate-skill'],
  description: 'no two skills in the linted tree share an id or a name (compared after NFKC and lowercasing)',
  tags: ['tree', 'name'],
  layouts: ['skill-md', 'manifest'],
  severity: 'error',
  sources: [
    'agentskills.io specification: a skill is found by its name',
    'seed 000 (BuzyBeez skills): the registry is keyed by id',
  ],
  fixable: false,
  checkTree(skills, ctx) {
    const byId = shared(skills, (s) => key(s.id));
    const byName = shared(skills, (s) => key(s.name));
    if (byId.size === 0 && byName.size === 0) return;
    for (const skill of skills) {
      const sameId = (byId.get(key(skill.id)) ?? []).filter((o) => o.root !== skill.root);
      // A SKILL.md's name is its id: say it once.
      const sameName = (byName.get(key(skill.name)) ?? []).filter((o) => o.root !== skill.root && !sameId.includes(o));
      const idField = skill.layout === 'manifest' ? 'id' : 'name';
      for (const [field, value, others] of [
        [idField, skill.id, sameId],
        ['name', skill.name, sameName],
      ] as const) {
        if (others.length === 0) continue;
        const pos = skill.positions[field];
        ctx.report(skill, {
          message: `${field} "${value}" is also used by ${others.map((o) => o.file).join(', ')}; expected each skill to have its own`,
          file: skill.file,
          line: pos?.line,
          column: pos?.column,
          // A repository that ships each skill again inside a plugin's package (yigitkonur/skills-by-yigitkonur:
          // skills/x and plugins/x/skills/x, the same files) keeps both on purpose: lint the one it edits.
          hint: 'rename one of them, or remove the copy; copies made on purpose (a plugin package built from skills/) are left out of lint with "ignores" in skills.config.json, e.g. ["plugins/**"]',
        });
      }
    }
  },
} satisfies Rule;
