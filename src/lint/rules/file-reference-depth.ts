import { at, referencesTo } from '../helpers/references.js';
import { isFolder } from '../references.js';
import type { Rule } from '../types.js';

// Files that are run rather than read (and, in scripts/, files without an extension).
const RUN = /\.(?:sh|bash|zsh|py|js|mjs|cjs|ts|mts|cts|rb|pl|ps1|bat|cmd)$/i;

export default {
  names: ['SK111', 'file-reference-depth'],
  description:
    'referenced files sit at most two folders below the skill root (python/api/README.md, not references/api/v2/auth.md); scripts, which are run rather than read, may sit deeper',
  tags: ['references', 'files', 'structure', 'best-practice'],
  layouts: ['skill-md', 'manifest'],
  severity: 'warning',
  sources: [
    'Anthropic, Skill authoring best practices: keep references one level deep from SKILL.md',
    'agentskills.io specification: file references',
    "Anthropic's claude-api skill: references two folders down (python/claude-api/README.md)",
  ],
  fixable: false,
  // Two, not one: Anthropic's own claude-api skill links {language}/claude-api/*.md from SKILL.md.
  options: { maxDepth: { default: 2, description: 'most folders between the skill root and a referenced file' } },
  check(skill, ctx) {
    const max = ctx.options.maxDepth as number;
    const scripts = new Set(skill.scripts.map((x) => x.path));
    for (const r of referencesTo(skill, ctx.readText, 'ok')) {
      const t = r.target;
      // Missing files are SK108's; once they exist, their depth is checked here. A bare name (`package.json`)
      // writes no folders: it may be a template's file deep in assets/, found by name only.
      if (t.path === '' || r.name) continue;
      // Scripts are run, not read: an agent never reads scripts/office/unpack.py in part (Anthropic's docx skill).
      if (!isFolder(t.entry) && (RUN.test(t.path) || (scripts.has(t.path) && !/\.[^/]*$/.test(t.path)))) continue;
      const segments = t.path.split('/').length;
      const folders = isFolder(t.entry) ? segments : segments - 1;
      if (folders <= max) continue;
      ctx.report({
        message: `"${t.path}" is ${folders} folders deep; keep referenced files at most ${max} folder${max === 1 ? '' : 's'} below the skill root`,
        ...at(r),
        hint: 'agents may read deeply nested files only in part; flatten the folders (references/api-v2-auth.md)',
      });
    }
  },
} satisfies Rule;
