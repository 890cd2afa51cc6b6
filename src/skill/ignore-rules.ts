// Which files of a skill the ignore files inside it keep out of its archive, as npm-packlist reads .npmignore and
// .gitignore: in each folder, its .skillignore when it has one, else its .gitignore; a folder's rules apply to what
// is below it, and a deeper folder's rules win over the ones above (a `!name` there takes a file back).
import type { Dirent } from 'node:fs';
import { isAbsolute, join, posix, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { SkillsError } from '../errors.js';
import { readBounded } from '../fs/read.js';
import { mib } from '../fs/archive-entries.js';
import type { Skill } from '../model/skill.js';

/** The ignore file of a skill's folder that replaces its .gitignore for pack: gitignore syntax. */
export const IGNORE_FILE = '.skillignore';
const GIT_IGNORE = '.gitignore';
/** The largest ignore file read: one larger stops the pack (E_CONFIG) rather than be read in part or not at all. */
const MAX_IGNORE_FILE = 1024 * 1024;

/** The rules of one folder of the skill. */
export interface IgnoreLevel {
  /** The folder, relative to the skill's root ('' for the root), forward slashes. */
  base: string;
  /** The ignore file, relative to the skill's root (`.gitignore`, `scripts/.skillignore`). */
  file: string;
  ig: Ignore;
}

/** A rule that leaves a path out: its file (relative to the skill's root), line and pattern. */
export interface IgnoreRuleAt {
  file: string;
  line: number;
  pattern: string;
}

/**
 * The rules of the folder `dir` (`rel` below the skill's root), from the listing `names`: its .skillignore, else its
 * .gitignore, else none. An ignore file that cannot be read (E_IO) or is over 1 MiB (E_CONFIG) stops the pack: a rule
 * unread could let a secret in.
 */
export function ignoreLevel(dir: string, rel: string, names: Dirent[]): IgnoreLevel | undefined {
  const has = (n: string) => names.some((d) => d.name === n && (d.isFile() || d.isSymbolicLink()));
  const name = has(IGNORE_FILE) ? IGNORE_FILE : has(GIT_IGNORE) ? GIT_IGNORE : undefined;
  if (name === undefined) return undefined;
  const abs = join(dir, name);
  let read;
  try {
    read = readBounded(abs, MAX_IGNORE_FILE);
  } catch (err) {
    throw new SkillsError('E_IO', `cannot read ${abs}: ${(err as Error).message}; nothing was packed`, {
      cause: err,
      hint: `make it a readable file of rules, or remove it`,
    });
  }
  const { text } = read;
  if (text === undefined)
    throw new SkillsError(
      'E_CONFIG',
      `${abs} is ${read.tooLarge} bytes, over the ${mib(MAX_IGNORE_FILE)} an ignore file is read to; nothing was packed`,
      {
        hint: 'a rule unread could let a secret in: shorten it (a rule for a folder covers all below it), or remove it',
      },
    );
  const ig = ignore().add(text.split(/\r?\n/).map((pattern, i) => ({ pattern, mark: String(i + 1) })));
  return { base: rel, file: rel === '' ? name : `${rel}/${name}`, ig };
}

/**
 * The rule that leaves `path` (relative to the skill's root) out, or undefined when it is kept: each folder's rules
 * from the root down, the last one with a say deciding.
 */
export function ignoredBy(levels: readonly IgnoreLevel[], path: string, isDir: boolean): IgnoreRuleAt | undefined {
  let verdict: IgnoreRuleAt | undefined;
  for (const level of levels) {
    const rel = level.base === '' ? path : path.slice(level.base.length + 1);
    const r = level.ig.test(isDir ? `${rel}/` : rel);
    if (r.ignored && r.rule) verdict = { file: level.file, line: Number(r.rule.mark ?? 0), pattern: r.rule.pattern };
    else if (r.unignored) verdict = undefined;
  }
  return verdict;
}

/** What a skill cannot do without, below its root: its SKILL.md or manifest.json, context files, declared scripts. */
export function requiredFiles(skill: Pick<Skill, 'root' | 'file' | 'scripts' | 'instructionParts'>): string[] {
  const inRoot = (p: string) => posix.normalize((isAbsolute(p) ? relative(skill.root, p) : p).split(sep).join('/'));
  const all = [
    inRoot(skill.file),
    ...skill.instructionParts.map((p) => inRoot(p.file)),
    ...skill.scripts.filter((s) => s.declared && s.exists).map((s) => inRoot(s.path)),
  ];
  return [...new Set(all)].filter((p) => p !== '.' && !p.startsWith('../'));
}
