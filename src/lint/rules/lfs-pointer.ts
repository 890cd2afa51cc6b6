import { join } from 'node:path';
import { MAX_POINTER_BYTES, lfsPointerSize } from '../../formats/lfs-pointer.js';
import type { Rule } from '../types.js';

// A repository that keeps a skill's files in Git LFS gives a clone without `git lfs` (and skills' git install) the
// pointer files alone: a script that is three lines of "version … oid … size …", an image that is no image. The skill
// validates, and fails when an agent runs or reads the file.

export default {
  names: ['SK132', 'lfs-pointer'],
  description:
    'no file of the skill is a Git LFS pointer in place of its content: a clone without git lfs, and skills install from git, get the pointer alone',
  tags: ['files', 'portability'],
  layouts: ['skill-md', 'manifest'],
  severity: 'warning',
  sources: ['Git LFS pointer file specification (git-lfs/git-lfs docs/spec.md)'],
  fixable: false,
  check(skill, ctx) {
    for (const e of skill.entries) {
      if (e.kind !== 'file') continue;
      const file = join(skill.root, e.path);
      // The skill file's text is held already (a pointer's length is checked with it): no stat to size it.
      const size = file === skill.file ? 0 : ctx.stat(e.path)?.size;
      if (size === undefined || size > MAX_POINTER_BYTES) continue;
      const text = ctx.readText(e.path);
      const stands = text === undefined ? undefined : lfsPointerSize(text);
      if (stands === undefined) continue;
      ctx.report({
        message: `${e.path} is a Git LFS pointer (to a file of ${stands} bytes), not the file: its content was never fetched`,
        file,
        line: 1,
        hint: 'run git lfs pull where the skill comes from, or commit the file itself (skills install does not fetch LFS content)',
      });
    }
  },
} satisfies Rule;
