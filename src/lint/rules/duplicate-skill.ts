import { dirname, relative, sep } from 'node:path';
import { AGENTS } from '../../skill/agents.js';
import { pluginCache, pluginOf, type PluginCache } from '../../skill/plugin.js';
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

/** Every folder an agent reads skills from (`.claude/skills`, `.agents/skills`, `.config/opencode/skills`, …). */
const AGENT_FOLDERS = [
  ...new Set(
    AGENTS.flatMap((a) =>
      [a.project, a.legacyProject, a.user, a.legacyUser].filter((f): f is string => f !== undefined),
    ),
  ),
].map((f) => `/${f}/`);

/**
 * The agent's folder a skill was placed in (`/repo/.claude/skills`), from the last such folder in its path, or
 * undefined for a skill outside every agent's folder (a repository's own `skills/x`).
 */
function placeOf(skill: TreeSkill): string | undefined {
  const path = skill.root.split(sep).join('/');
  let at = -1;
  let folder = '';
  for (const f of AGENT_FOLDERS) {
    const i = path.lastIndexOf(f);
    if (i > at) [at, folder] = [i, f];
  }
  return at < 0 ? undefined : path.slice(0, at + folder.length - 1);
}

/**
 * The folder that holds the plugin copies among a skill and its namesakes, as "ignores" names it: the first folder
 * below the one the two share (`providers` for `skills/x` beside `providers/codex/plugin/skills/x`); undefined when
 * no namesake is in a plugin.
 */
function copiesFolder(skill: TreeSkill, others: readonly TreeSkill[], plugins: PluginCache): string | undefined {
  for (const s of [skill, ...others]) {
    if (pluginOf(s.root, plugins) === undefined) continue;
    const other = s === skill ? others[0]! : skill;
    let shared = dirname(other.root);
    while (relative(shared, s.root).startsWith('..') && dirname(shared) !== shared) shared = dirname(shared);
    const first = relative(shared, s.root).split(sep)[0];
    if (first) return first;
  }
  return undefined;
}

export default {
  names: ['SK127', 'duplicate-skill'],
  description:
    "no two skills in the linted tree share an id or a name (compared after NFKC and lowercasing), unless they ship in two plugins (Claude Code, Codex, Cursor, … name them plugin:name), or one of them is placed in an agent's skill folder (.claude/skills, .agents/skills, …) and the other is not in that same folder",
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
    // Agents name a plugin's skills `plugin:name`: two plugins of a marketplace may each have a "setup", and one skill
    // may ship in each agent's plugin of a repository (stripe/ai: providers/{claude,codex,cursor}/plugin). A skill
    // outside any plugin and one inside (`skills/x` and `plugins/p/skills/x`) are still compared.
    const plugins = pluginCache();
    const places = new Map<TreeSkill, string | undefined>();
    const placed = (s: TreeSkill) => {
      if (!places.has(s)) places.set(s, placeOf(s));
      return places.get(s);
    };
    const clash = (a: TreeSkill, b: TreeSkill) => {
      if (a.root === b.root) return false;
      // A skill placed in an agent's folder is a copy each agent reads from its own folder: `install --agent
      // claude-code --agent codex` places skills/x as .claude/skills/x and .agents/skills/x. It clashes only with
      // a skill in that same folder.
      const [wa, wb] = [placed(a), placed(b)];
      if (wa !== undefined || wb !== undefined) return wa === wb;
      const pa = pluginOf(a.root, plugins);
      const pb = pluginOf(b.root, plugins);
      return pa === undefined || pb === undefined || pa === pb;
    };
    for (const skill of skills) {
      const sameId = (byId.get(key(skill.id)) ?? []).filter((o) => clash(skill, o));
      // A SKILL.md's name is its id: say it once.
      const sameName = (byName.get(key(skill.name)) ?? []).filter((o) => clash(skill, o) && !sameId.includes(o));
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
          hint: `rename one of them, or remove the copy; copies made on purpose (a plugin package built from skills/) are left out of lint with "ignores" in skills.config.json, e.g. ["${copiesFolder(skill, others, plugins) ?? 'plugins'}/**"]`,
        });
      }
    }
  },
} satisfies Rule;
