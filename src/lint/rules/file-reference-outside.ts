import { existsSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { inSkillsFolder, pluginCache, pluginOf } from '../../skill/plugin.js';
import { at, byFileAndTarget, moreReferences, referencesTo, type ReferenceTo } from '../helpers/references.js';
import type { Rule } from '../types.js';

/**
 * Whether a `../` reference stays inside the plugin the skill ships in (`../hook-development/SKILL.md` between two
 * skills of `plugins/plugin-dev/skills/`): Claude Code, Codex and Cursor install a plugin whole, so its other files
 * are there beside the skill. Only a file or folder that is there: `../testing-handbook` in a plugin without one is
 * still somewhere else.
 */
function insidePlugin(r: ReferenceTo<'outside'>, plugin: string | undefined): boolean {
  if (plugin === undefined || r.target.why !== 'parent') return false;
  const target = resolve(dirname(r.doc.file), r.path.replace(/\\/g, '/'));
  return target.startsWith(plugin + sep) && existsSync(target);
}

/**
 * Whether an absolute link is a web site's path, as a page copied from the web keeps (zoom's OAuth scopes:
 * `[Get plan usage](/docs/api/rest/reference/billing/ma/#operation/GetPlanUsage)`): a Markdown link to a folder-like
 * path (no extension, or a trailing /) that is nowhere on this machine. It names no file to copy in: the fix is the
 * full URL.
 */
function siteLink(r: ReferenceTo<'outside'>): boolean {
  if (r.kind !== 'link' || r.target.why !== 'absolute' || !r.path.startsWith('/') || r.path.startsWith('//'))
    return false;
  const last = r.path.replace(/\/+$/, '').split('/').pop() ?? '';
  return (r.path.endsWith('/') || !last.includes('.')) && !existsSync(r.path);
}

export default {
  names: ['SK109', 'file-reference-outside'],
  description:
    'file references stay inside the skill: no absolute paths, no ../ out of the folder (but into the plugin the skill ships in, which is installed whole), no symlinks leading out',
  tags: ['references', 'files', 'portability'],
  layouts: ['skill-md', 'manifest'],
  severity: 'warning',
  sources: [
    'agentskills.io specification: file references, relative to the skill root',
    'Anthropic, Skill authoring best practices: progressive disclosure patterns',
  ],
  fixable: false,
  check(skill, ctx) {
    const outside = referencesTo(skill, ctx.readText, 'outside');
    if (outside.length === 0) return;
    // Which plugin the skill is in is read outside its folder: the result is then not for the lint cache.
    let plugin: string | undefined;
    if (inSkillsFolder(skill.root) && outside.some((r) => r.target.why === 'parent')) {
      ctx.readsOutside?.();
      plugin = pluginOf(skill.root, ctx.runCache?.('plugins', pluginCache) ?? pluginCache());
    }
    // Once per file that refers to a place outside, at its first mention, as SK108 and SK111 say theirs: a guide that
    // names ../../shared/schema.md in every step has one thing to fix (thoughtspot-agent-skills: 318 findings, 227
    // places).
    const kept = outside.filter((r) => !insidePlugin(r, plugin));
    for (const { first: r, count } of byFileAndTarget(kept)) {
      const t = r.target;
      const site = siteLink(r);
      const message =
        (site
          ? `"${r.path}" is a link from a web site's root (copied from a web page?), which leads nowhere in the skill`
          : t.why === 'absolute'
            ? `"${r.path}" is an absolute path, outside the skill`
            : t.why === 'parent'
              ? `"${r.path}" leads out of the skill folder`
              : `"${r.path}" goes through ${t.via}, a symlink that leads out of the skill`) + moreReferences(count);
      ctx.report({
        message,
        ...at(r),
        hint: site
          ? 'write the full address (https://…) of the page it links to, or leave the link out'
          : 'a skill is installed and packed on its own: copy the file into the skill (references/ or assets/) and refer to it by a path relative to the skill folder',
      });
    }
  },
} satisfies Rule;
