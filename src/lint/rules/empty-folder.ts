import { STANDARD_FOLDERS } from '../../formats/markdown-refs.js';
import type { Rule } from '../types.js';

// Files that only keep a folder in git, or that an OS leaves behind, do not make it hold anything.
const PLACEHOLDERS = new Set(['.gitkeep', '.keep', '.DS_Store', 'Thumbs.db']);

export default {
  names: ['SK121', 'empty-folder'],
  description: 'scripts/, references/ and assets/ hold at least one file when they exist',
  tags: ['files', 'structure'],
  layouts: ['skill-md', 'manifest'],
  severity: 'warning',
  sources: ['agentskills.io specification: optional directories scripts/, references/, assets/'],
  fixable: false,
  check(skill, ctx) {
    for (const folder of STANDARD_FOLDERS) {
      if (!skill.entries.some((e) => e.path === folder && e.kind === 'dir')) continue;
      const prefix = `${folder}/`;
      const holds = skill.entries.some(
        (e) =>
          e.kind !== 'dir' && e.path.startsWith(prefix) && !PLACEHOLDERS.has(e.path.slice(e.path.lastIndexOf('/') + 1)),
      );
      if (holds) continue;
      ctx.report({
        message: `${folder}/ is empty`,
        hint: `remove the folder, or add the ${folder === 'scripts' ? 'scripts' : folder === 'references' ? 'reference documents' : 'assets'} it was made for`,
      });
    }
  },
} satisfies Rule;
