// A skill installed without the skills beside it that its instructions link to: `--skill brainstorming` from a plugin
// whose brainstorming links ../writing-plans/SKILL.md. The plugin is installed whole by the agents' own installers,
// so lint takes such a link as fine (SK109); a copy of one skill leaves it dangling, and install says so.
import { existsSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { findReferences } from '../formats/markdown-refs.js';
import type { Prepared } from './types.js';

/**
 * One warning for each skill installed (`installed`) and skill of its source left out (`leftOut`) that its
 * instructions link to by a `../` path: names the skill, the file and line, the link, and how to take both.
 */
export function siblingLinkWarnings(installed: readonly Prepared[], leftOut: readonly Prepared[]): string[] {
  if (leftOut.length === 0) return [];
  // The skills left out, by their folders: a link's target is looked up by its folder and the folders above it, not
  // against each skill in turn (a source of 3,000 skills and a skill of 20,000 links took 124 s of CPU).
  const key = (p: string) => (process.platform === 'win32' ? p.toLowerCase() : p);
  const byRoot = new Map<string, number>();
  leftOut.forEach((o, k) => {
    const root = key(resolve(o.skill.root));
    if (!byRoot.has(root)) byRoot.set(root, k);
  });
  // The first skill left out whose folder holds `target`.
  const holder = (target: string): Prepared | undefined => {
    let first = -1;
    for (let d = target; ; d = dirname(d)) {
      const k = byRoot.get(key(d));
      if (k !== undefined && (first < 0 || k < first)) first = k;
      if (dirname(d) === d) break;
    }
    return first < 0 ? undefined : leftOut[first];
  };
  const out: string[] = [];
  for (const p of installed) {
    const said = new Set<string>();
    for (const part of p.skill.instructionParts) {
      for (const ref of findReferences(part.text, part.line)) {
        if (ref.example || !/^\.\.[/\\]/.test(ref.path)) continue;
        const target = resolve(dirname(part.file), ref.path.replace(/\\/g, '/'));
        const other = holder(target);
        if (!other || said.has(other.skill.id) || !existsSync(target)) continue;
        said.add(other.skill.id);
        const where = `${relative(p.skill.root, part.file).split(sep).join('/')}:${ref.line}`;
        out.push(
          `${p.skill.id}: ${where} links ${ref.path}, in the skill ${other.skill.id}, which was not installed with it: add --skill ${other.skill.id}, or install the source whole`,
        );
      }
    }
  }
  return out;
}
