import { at, byFileAndTarget, moreReferences, referencesTo, type ReferenceTo } from '../helpers/references.js';
import { isFolder } from '../references.js';
import type { Rule } from '../types.js';

/** Folders between the skill root and a reference's target (the target itself counted when it is a folder). */
function foldersTo(r: ReferenceTo<'ok'>): number {
  const segments = r.target.path.split('/').length;
  return isFolder(r.target.entry) ? segments : segments - 1;
}

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
    const deep = referencesTo(skill, ctx.readText, 'ok').filter((r) => {
      const t = r.target;
      // Missing files are SK108's; once they exist, their depth is checked here. A bare name (`package.json`)
      // writes no folders: it may be a template's file deep in assets/, found by name only.
      if (t.path === '' || r.name) return false;
      // Scripts are run, not read: an agent never reads scripts/office/unpack.py in part (Anthropic's docx skill).
      if (!isFolder(t.entry) && (RUN.test(t.path) || (scripts.has(t.path) && !/\.[^/]*$/.test(t.path)))) return false;
      return foldersTo(r) > max;
    });
    // Each deep file once per file that refers to it, at its first mention (as SK108 does for missing ones): the
    // finding is about where the file lies, and a guide that links it on every line would bury the rest.
    for (const { first: r, count } of byFileAndTarget(deep)) {
      const folders = foldersTo(r);
      ctx.report({
        message: `"${r.target.path}" is ${folders} folders deep; keep referenced files at most ${max} folder${max === 1 ? '' : 's'} below the skill root${moreReferences(count)}`,
        ...at(r),
        hint: 'agents may read deeply nested files only in part; flatten the folders (references/api-v2-auth.md)',
      });
    }
  },
} satisfies Rule;
