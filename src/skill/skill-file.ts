import { lstatSync, readlinkSync, type Dirent } from 'node:fs';
import { basename, join } from 'node:path';
import type { Layout, SkillEntry } from '../model/skill.js';
import { LinkOutside } from '../fs/walk.js';
import { fileKind } from '../fs/file-kind.js';
import { isSkillsError, SkillsError } from '../errors.js';
import { diag, type Diagnostic } from '../model/diagnostic.js';

/** Skill files larger than this are reported, not parsed. */
export const MAX_SKILL_FILE_BYTES = 4 * 1024 * 1024;

export const SKILL_FILES = ['SKILL.md', 'skill.md', 'manifest.json'] as const;

/**
 * A folder of samples a skill ships (a skill-creator's template, a test's fixture, an example): a SKILL.md below one
 * is a file of the skill, not a skill nested in it (lint's SK133, install --skill).
 */
export const SAMPLE_FOLDER = /^(?:assets|templates?|examples?|fixtures?|__fixtures__|tests?|testdata|node_modules)$/i;

/** Whether a slash-separated path inside a skill passes through a folder of samples (`assets/template/SKILL.md`). */
export function inSampleFolder(path: string): boolean {
  return path.split('/').some((part) => SAMPLE_FOLDER.test(part));
}

/**
 * Whether a file of a skill is a template of a skill (a SKILL.md below a folder of samples): content, whose links are
 * those of the skill it will become, not of this one (lint's references), and no skill nested in it (SK133, install).
 */
export function isTemplateSkillMd(path: string): boolean {
  const slash = path.lastIndexOf('/');
  return slash > 0 && isSkillMdName(path.slice(slash + 1)) && inSampleFolder(path.slice(0, slash));
}

/**
 * Whether a file name is SKILL.md in any case (`skill.md`, `Skill.md`, `SKILL.MD`): agents on macOS and Windows, whose
 * file names ignore case, load any of them; one named otherwise than SKILL.md gets SK018.
 */
export function isSkillMdName(name: string): boolean {
  return name.length === 8 && name.toUpperCase() === 'SKILL.MD';
}

/**
 * Which skill file a folder holds, from its listing; undefined when it is no skill. SKILL.md comes first, then the
 * first other case of it by code point (the same whatever the order of the listing).
 */
export function skillFileIn(names: Iterable<string>): { name: string; layout: Layout; also?: string } | undefined {
  let md: string | undefined;
  let manifest = false;
  for (const name of names) {
    if (name === 'manifest.json') manifest = true;
    else if (md !== 'SKILL.md' && isSkillMdName(name) && (md === undefined || name === 'SKILL.md' || name < md))
      md = name;
  }
  if (md) return { name: md, layout: 'skill-md', ...(manifest ? { also: 'manifest.json' } : {}) };
  if (manifest) return { name: 'manifest.json', layout: 'manifest' };
  return undefined;
}

/** What to do about a skill file `name` that is a link leading out of the skill. */
export function linkOutsideHint(name: string): string {
  return `put the file itself in the skill folder (cp --remove-destination "$(readlink -f ${name})" ${name}), or point the link at a file inside it`;
}

/** What is wrong with a skill file `name` that is a link leading out of its skill, said the same by every command. */
export function linkOutsideMessage(name: string, err: LinkOutside): string {
  return `${name} is a symbolic link that leads out of the skill (to ${err.target}): expected a file inside the skill folder; no command reads it`;
}

/**
 * What is wrong with a skill file that could not be opened, and the hint, when it is the file's own fault: a symbolic
 * link whose target does not exist, that loops or that leads out of the skill, a folder by that name, a file without
 * read permission. Undefined
 * for any other failure (a failing disk, too many open files), which ends the run as an I/O error.
 */
export function unreadableSkillFile(file: string, name: string, err: unknown): [string, string] | undefined {
  if (err instanceof LinkOutside) return [linkOutsideMessage(name, err), linkOutsideHint(name)];
  const code = (err as NodeJS.ErrnoException).code;
  let target: string | undefined;
  try {
    target = readlinkSync(file);
  } catch {
    // Not a link (or gone): the message names the file alone.
  }
  const link = target === undefined ? '' : ` is a symbolic link to ${target}, which`;
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return target === undefined
        ? undefined
        : [`${name}${link} does not exist`, `restore what the link leads to, or replace ${name} with the file itself`];
    case 'ELOOP':
      return [
        `${name}${link || ' is a symbolic link that'} loops (too many links on the way)`,
        `replace ${name} with the file itself`,
      ];
    case 'EISDIR':
      return [`${name}${link || ' is'} a folder, not a file`, `make ${name} a file`];
    case 'EACCES':
    case 'EPERM':
      return [
        `${name} cannot be read: permission denied`,
        `check the owner and mode of ${name}${target === undefined ? '' : ` and of ${target}`} (ls -l)`,
      ];
    default:
      return undefined;
  }
}

/**
 * The finding on a skill file that could not be read for what it is; undefined for a failure that is not the file's
 * own (a failing disk), which ends the run.
 */
export function skillFileFinding(file: string, name: string, err: unknown): Diagnostic | undefined {
  if (err instanceof LinkOutside) {
    return diag('path-inside', 'error', linkOutsideMessage(name, err), file, undefined, linkOutsideHint(name));
  }
  // A symlink to a FIFO or a device.
  if (isSkillsError(err)) {
    return diag('file-too-large', 'error', err.message, file, undefined, 'make the skill file a regular file');
  }
  const unreadable = unreadableSkillFile(file, name, err);
  // A file this user may not read is not too large: said as what it is.
  const code = (err as NodeJS.ErrnoException).code;
  const check = code === 'EACCES' || code === 'EPERM' ? 'file-unreadable' : 'file-too-large';
  return unreadable && diag(check, 'error', unreadable[0], file, undefined, unreadable[1]);
}

/**
 * The skill file of a folder that is there but is no regular file nor a link (a FIFO, a folder, a device named
 * SKILL.md), among the names of its entries of another kind: its path and what it is, for the error that says so.
 */
export function oddSkillFile(
  dir: string,
  otherNames: string[],
): { name: string; path: string; kind: string } | undefined {
  const name = otherNames.find((n) => skillFileIn([n]));
  if (name === undefined) return undefined;
  const path = join(dir, name);
  let kind = 'not a regular file';
  try {
    kind = fileKind(lstatSync(path));
  } catch {
    /* gone since listed: said as not a regular file */
  }
  return { name, path, kind };
}

/** oddSkillFile over a folder's listing: among its entries that are neither a file nor a link. */
export const oddSkillFileIn = (dir: string, listing: Dirent[]): ReturnType<typeof oddSkillFile> =>
  oddSkillFile(
    dir,
    listing.filter((d) => !d.isFile() && !d.isSymbolicLink()).map((d) => d.name),
  );

/** What a search says of a folder whose skill file is not a regular file nor a link, or undefined. */
export function oddSkillFileWarning(dir: string, listing: Dirent[]): { path: string; message: string } | undefined {
  const odd = oddSkillFileIn(dir, listing);
  return (
    odd && { path: odd.path, message: `${odd.kind}, not a regular file: ${basename(dir)}/ is not read as a skill` }
  );
}

/**
 * Why a folder that `load` was given is not a skill, from its listing or its walk's entries: its skill file is
 * something else than a file or a link (what, and where), or there is none.
 */
export function noSkillFile(dir: string, entries: Dirent[] | SkillEntry[]): SkillsError {
  const others = (entries as (Dirent | SkillEntry)[]).flatMap((e) =>
    'kind' in e
      ? (e.kind === 'dir' || e.kind === 'other') && !e.path.includes('/')
        ? [e.path]
        : []
      : e.isFile() || e.isSymbolicLink()
        ? []
        : [e.name],
  );
  const odd = oddSkillFile(dir, others);
  if (odd)
    return new SkillsError('E_NOT_FOUND', `${dir} is not a skill: ${odd.path} is ${odd.kind}, not a regular file`, {
      hint: `${odd.name} must be a regular file: move ${odd.path} out of the way, and write the skill file there`,
    });
  return new SkillsError('E_NOT_FOUND', `${dir} is not a skill: it holds no SKILL.md or manifest.json`, {
    hint: 'create one with `skills init <name>`',
  });
}
