import { existsSync, readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { dirname, join, parse, relative, resolve } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { SkillsError } from '../errors.js';
import { SKIP_DIRS } from '../fs/walk.js';
import { skillFileIn } from './skill-file.js';
import { readBounded } from '../fs/read.js';

export interface DiscoverOptions {
  cwd: string;
  /** How deep below a given folder to look for skills. */
  maxDepth?: number;
}

export interface Discovery {
  /** Skill folders, absolute, each once, in the order found. */
  roots: string[];
  /** Files given that belong to no skill (pre-commit passes every changed file). */
  outside: string[];
  /** The listing of each root read on the way, so load need not read it again. */
  listings: Map<string, Dirent[]>;
}

const DEFAULT_DEPTH = 6;

/**
 * Turn paths into skill folders: a skill folder is itself; a folder holding skills yields every skill below
 * it (skipping .git, node_modules and what .gitignore names); a file means the skill that contains it.
 */
export function discoverSkills(paths: string[], options: DiscoverOptions): Discovery {
  const roots: string[] = [];
  const seen = new Set<string>();
  const outside: string[] = [];
  const listings = new Map<string, Dirent[]>();
  // `real` is the folder's path with symlinks resolved, when the caller knows it (a walk below a resolved folder
  // follows no symlink, so it does); 10,000 realpath calls are a noticeable share of a large discovery.
  const add = (dir: string, listing?: Dirent[], real?: string) => {
    let key = real ?? dir;
    if (real === undefined) {
      try {
        key = realpathSync.native(dir);
      } catch {
        /* keep as given */
      }
    }
    if (seen.has(key)) return;
    seen.add(key);
    roots.push(dir);
    if (listing) listings.set(dir, listing);
  };
  for (const given of paths) {
    const abs = resolve(options.cwd, given);
    let st;
    try {
      st = statSync(abs);
    } catch {
      throw new SkillsError('E_NOT_FOUND', `${given}: no such file or folder`, {
        hint: 'check the path; run from the folder that holds your skills',
      });
    }
    if (st.isDirectory()) {
      const listing = readdirSync(abs, { withFileTypes: true });
      if (isSkillListing(listing)) {
        add(abs, listing);
        continue;
      }
      const before = roots.length;
      walkForSkills(abs, listing, options.maxDepth ?? DEFAULT_DEPTH, add);
      // A folder inside a skill (its scripts/, say) means that skill, as a file inside it does.
      const owner = roots.length === before ? skillRootOf(dirname(abs)) : undefined;
      if (owner) add(owner);
      else if (
        roots.length === before &&
        !paths.some((p) => p !== given && isInsideAny(resolve(options.cwd, p), abs))
      ) {
        // A skill file that is a folder (an unzip gone wrong, a typo in a script) is named, not passed over.
        const odd = listing.find((d) => !d.isFile() && !d.isSymbolicLink() && skillFileIn([d.name]));
        throw new SkillsError(
          'E_NOT_FOUND',
          `${given} is not a skill and holds none (no SKILL.md or manifest.json below it)${odd ? `: its ${odd.name} is ${odd.isDirectory() ? 'a folder' : 'not a regular file'}` : ''}`,
          {
            hint: odd
              ? `${odd.name} must be a file: move what is in ${join(given, odd.name)} out, and write the skill file there`
              : 'create one with `skills init <name>`, or give the path of a skill folder',
          },
        );
      }
    } else {
      const root = skillRootOf(dirname(abs));
      if (root) add(root);
      else outside.push(abs);
    }
  }
  return { roots, outside, listings };
}

function isInsideAny(p: string, dir: string): boolean {
  const rel = relative(dir, p);
  return rel !== '' && !rel.startsWith('..');
}

/** True when `dir` is a skill folder itself (holds SKILL.md, skill.md or manifest.json). */
export function isSkillFolder(dir: string): boolean {
  try {
    return isSkillListing(readdirSync(dir, { withFileTypes: true }));
  } catch {
    return false;
  }
}

function isSkillListing(listing: Dirent[]): boolean {
  return skillFileIn(listing.filter((d) => d.isFile() || d.isSymbolicLink()).map((d) => d.name)) !== undefined;
}

/** The nearest folder at or above `dir` that is a skill, stopping at a repository root. */
export function skillRootOf(dir: string): string | undefined {
  const top = parse(dir).root;
  for (let d = dir; ; d = dirname(d)) {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      names = [];
    }
    if (skillFileIn(names)) return d;
    if (names.includes('.git') || d === top) return undefined;
  }
}

/** Walk below `dir` for skill folders, honouring .gitignore files on the way (git's rules, via `ignore`). */
function walkForSkills(
  dir: string,
  listing: Dirent[],
  maxDepth: number,
  add: (d: string, listing: Dirent[], real?: string) => void,
): void {
  type Matcher = { base: string; ig: Ignore };
  const loadIgnore = (d: string, names: Dirent[], matchers: Matcher[]): Matcher[] => {
    if (!names.some((n) => n.name === '.gitignore' && n.isFile())) return matchers;
    try {
      const ig = ignore().add(readIgnoreFile(join(d, '.gitignore')));
      return [...matchers, { base: d, ig }];
    } catch {
      return matchers;
    }
  };
  const ignored = (path: string, isDir: boolean, matchers: Matcher[]) =>
    matchers.some((m) => {
      const rel = relative(m.base, path).split('\\').join('/');
      return rel !== '' && m.ig.ignores(isDir ? `${rel}/` : rel);
    });
  // A Dirent of a symlink is no directory, so the walk never follows one: below the resolved start, every real
  // path is the start's plus the same names.
  const visit = (d: string, realD: string | undefined, names: Dirent[], depth: number, matchers: Matcher[]) => {
    const here = loadIgnore(d, names, matchers);
    for (const n of names) {
      if (!n.isDirectory() || SKIP_DIRS.has(n.name)) continue;
      const child = join(d, n.name);
      const realChild = realD === undefined ? undefined : join(realD, n.name);
      if (ignored(child, true, here)) continue;
      let sub: Dirent[];
      try {
        sub = readdirSync(child, { withFileTypes: true });
      } catch {
        continue;
      }
      if (isSkillListing(sub)) add(child, sub, realChild);
      else if (depth < maxDepth) visit(child, realChild, sub, depth + 1, here);
    }
  };
  // .gitignore files above the starting folder (up to the repository root) apply too.
  const above: Matcher[] = [];
  for (let d = dirname(dir), prev = dir; d !== prev; prev = d, d = dirname(d)) {
    if (existsSync(join(d, '.gitignore'))) {
      try {
        above.unshift({ base: d, ig: ignore().add(readIgnoreFile(join(d, '.gitignore'))) });
      } catch {
        /* unreadable: ignore it */
      }
    }
    if (existsSync(join(d, '.git'))) break;
  }
  if (ignored(dir, true, above)) return;
  let realDir: string | undefined;
  try {
    realDir = realpathSync.native(dir);
  } catch {
    /* each root is resolved on its own */
  }
  visit(dir, realDir, listing, 1, above);
}

/** A .gitignore's text: a regular file of at most 1 MiB (a symlink to a FIFO must not hang discovery); else nothing. */
function readIgnoreFile(file: string): string {
  return readBounded(file, 1024 * 1024).text ?? '';
}
