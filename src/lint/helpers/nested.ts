import type { Skill } from '../../model/skill.js';
import { inSampleFolder, isSkillMdName } from '../../skill/skill-file.js';

/**
 * The folders below a skill that hold a SKILL.md of their own (skills nested in it), relative to the skill root and
 * sorted: only the topmost of a nest, and none below a folder of samples. SK133 reports them; SK120 leaves their files
 * to them.
 */
export function nestedSkillFolders(skill: Pick<Skill, 'entries'>): string[] {
  const folders = skill.entries
    .filter(
      (e) => e.kind === 'file' && e.path.includes('/') && isSkillMdName(e.path.slice(e.path.lastIndexOf('/') + 1)),
    )
    .map((e) => e.path.slice(0, e.path.lastIndexOf('/')))
    .filter((dir) => !inSampleFolder(dir))
    .sort();
  return folders.filter((dir, i) => !folders.slice(0, i).some((above) => dir.startsWith(`${above}/`)));
}
