// The error pack gives for the symlinks that lead out of a skill: every one named, so one run tells all to fix.
import { SkillsError } from '../errors.js';

/** The symlinks that lead out of a skill, in the order met: the first in full, the others by their paths. */
export function linksOut(out: { abs: string; path: string; real: string }[]): SkillsError {
  const [first, ...rest] = out;
  const others = rest.map((o) => o.path);
  const also =
    others.length === 0
      ? ''
      : `, and so ${others.length === 1 ? 'does' : 'do'} ${others.length <= 5 ? others.join(', ') : `${others.slice(0, 5).join(', ')} and ${others.length - 5} more`}`;
  return new SkillsError(
    'E_INVALID',
    `${first!.abs} is a symlink that leads out of the skill (to ${first!.real})${also}; nothing was packed`,
    {
      hint:
        others.length === 0
          ? 'copy the file into the skill instead, or list the link in .skillignore'
          : 'copy the files into the skill instead, or list the links in .skillignore',
    },
  );
}
