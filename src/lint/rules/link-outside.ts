import { join } from 'node:path';
import type { Rule } from '../types.js';

// A link that leads out of the skill works on its author's machine and nowhere else: `pack` refuses it (an archive
// never holds links), and install and registry sync copy the skill without it. One that leads nowhere (or loops)
// is lost the same way. Lint says so before the pre-commit hook passes a skill that `pack` will then refuse.

export default {
  names: ['SK131', 'link-outside'],
  description:
    'every symbolic link in the skill leads to a file or folder inside it: pack refuses one that leads out, nowhere or in a loop, and install and registry sync leave it out',
  tags: ['files', 'structure', 'portability'],
  layouts: ['skill-md', 'manifest'],
  severity: 'warning',
  sources: ['skills pack: archives hold no links (README, "Symlinks")'],
  fixable: false,
  check(skill, ctx) {
    for (const e of skill.entries) {
      if (e.kind !== 'symlink' || e.inside) continue;
      const file = join(skill.root, e.path);
      // The skill file itself: load reads no link that leads out, and validate says so (SK025, or SK019 for nowhere).
      if (file === skill.file) continue;
      ctx.report({
        message:
          e.target === undefined
            ? `${e.path} is a symbolic link that leads nowhere (or loops): pack refuses it, install and registry sync leave it out`
            : `${e.path} is a symbolic link that leads out of the skill (to ${e.target}): pack refuses it, install and registry sync leave it out`,
        file,
        hint: 'put a copy of what it leads to inside the skill, or point the link at a file inside it',
      });
    }
  },
} satisfies Rule;
