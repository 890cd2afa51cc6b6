// The links of an archive, left out as it is unpacked (ExtractOptions.onLink): said once, for those inside a skill.
import { someOf } from '../skill/namesakes.js';

/**
 * The warning for the links `names` (as the archive `typed` spells them; an extraction started again tells one again)
 * left out of its skill folders (`inners`, '' for a skill at its top), or none. A link elsewhere in a repository's
 * "Download ZIP" (CLAUDE.md -> AGENTS.md) is no skill's file, and not said.
 */
export function linksLeftOutWarning(typed: string, names: readonly string[], inners: readonly string[]): string[] {
  const clean = (n: string) => n.replace(/^(?:\.\/)+/, '');
  // Sorted: zip and tar list them in the order they were added.
  const links = [...new Set(names.map(clean))]
    .filter((n) => inners.some((i) => i === '' || n.startsWith(`${i}/`)))
    .sort();
  if (links.length === 0) return [];
  const what = links.length === 1 ? 'a link' : `${links.length} links`;
  return [
    `${typed}: ${what} left out of its skills: ${someOf([...links])} (an archive's links are not unpacked, so none can lead out of a skill; to keep one that leads inside its skill, unpack the archive and install the folder)`,
  ];
}
