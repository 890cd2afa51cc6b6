// A run whose every chosen skill was left out installs nothing, and says why as one error: exit 1 when the skills
// are at fault (invalid, or left out for another of their name), as validate's; exit 2 (E_IO) when every one lies
// deeper than the system can name, as one such skill named on its own refuses the run: the system, not the skills.
import { SkillsError } from '../errors.js';
import type { InstallOutcome, InvalidSource } from './types.js';

/** The refusal of a run that has no skill left to install; `skipped` are those left out (none: none was chosen). */
export function nothingToInstall(skipped: InvalidSource[]): Extract<InstallOutcome, { ok: false }> {
  const namesakes = skipped.length > 0 && skipped.every((i) => i.namesake);
  const tooDeep = skipped.length > 0 && skipped.every((i) => i.tooLong);
  const why = namesakes
    ? 'is left out for another of its name'
    : tooDeep
      ? 'lies deeper than the system can name (PATH_MAX)'
      : skipped.some((i) => i.namesake)
        ? 'is invalid or left out for another of its name'
        : skipped.some((i) => i.tooLong)
          ? 'is invalid or lies deeper than the system can name (PATH_MAX)'
          : 'is invalid';
  const error = new SkillsError(
    tooDeep ? 'E_IO' : 'E_INVALID',
    skipped.length > 0
      ? `no skill to install: every skill chosen ${why}; nothing was installed`
      : 'no skill chosen; nothing was installed',
    {
      hint: namesakes
        ? 'install one of each name alone, as the lines above say'
        : tooDeep
          ? 'install into a folder with a shorter path (--into), or shorten the folders inside the skills'
          : skipped.length > 0
            ? 'run skills validate on them to see every finding'
            : 'choose at least one skill',
    },
  );
  return { ok: false, kind: 'none', error, invalid: skipped, warnings: [] };
}
