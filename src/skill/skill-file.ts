import type { Layout } from '../model/skill.js';

/** Skill files larger than this are reported, not parsed. */
export const MAX_SKILL_FILE_BYTES = 4 * 1024 * 1024;

export const SKILL_FILES = ['SKILL.md', 'skill.md', 'manifest.json'] as const;

/** Which skill file a folder holds, from its listing; undefined when it is no skill. */
export function skillFileIn(names: Iterable<string>): { name: string; layout: Layout; also?: string } | undefined {
  const set = new Set(names);
  const md = set.has('SKILL.md') ? 'SKILL.md' : set.has('skill.md') ? 'skill.md' : undefined;
  if (md) return { name: md, layout: 'skill-md', ...(set.has('manifest.json') ? { also: 'manifest.json' } : {}) };
  if (set.has('manifest.json')) return { name: 'manifest.json', layout: 'manifest' };
  return undefined;
}
