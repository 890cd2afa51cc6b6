import { existsSync, readdirSync, readlinkSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { basename, dirname, join, parse, relative, resolve } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { SkillsError, wholeNumber } from '../errors.js';
import { LinkOutside, isNeverKept } from '../fs/walk.js';
import { explainErrno, isErrno } from '../fs/errno.js';
import { MAX_SKILL_FILE_BYTES, isSkillMdName, oddSkillFileIn, oddSkillFileWarning, skillFileIn } from './skill-file.js';
import { readBounded } from '../fs/read.js';
import { NOT_UTF8, notUtf8Failure, notUtf8Names, shownBytePath } from '../fs/byte-names.js';
import { childPath, mayBeSkillAt, placeOf, relativeBelow, type Place } from './search-paths.js';
import { counted } from '../formats/text.js';

export { childPath, relativeBelow };

export interface DiscoverOptions {
  cwd: string;
  /** How deep below a given folder to look for skills. */
  maxDepth?: number;
  /** What the search may still spend; shared by the calls of one command (see discoveryBudget). */
  budget?: DiscoveryBudget;
  /**
   * Follow a symlink that is itself a skill folder (what `install --link` places), as agents do; never one to any
   * other folder, so a link cannot make the search loop. What reads skills as an agent would sets it (list,
   * render-prompt, doctor, run-script); what checks or fixes skills at their real place does not (validate, lint).
   */
  followLinks?: boolean;
  /**
   * Asked, for each folder met below a given one (with its real path when known), before its listing is read: true
   * when the caller has already made sure it is a skill folder (and read what it needs from it), so that no listing
   * is read. The catalog's light reader opens SKILL.md here: one open instead of a folder listing and an open.
   */
  probe?: (dir: string, real: string | undefined) => boolean;
}

/**
 * How many folders a search for skills may read, and until when: a configuration that names `/` must not walk
 * the whole file system. The first folder that goes over is reported in `cut`; every later search with the same
 * budget finds nothing more.
 */
export interface DiscoveryBudget {
  foldersLeft: number;
  skillsLeft: number;
  deadline: number;
  /** The limits it started with, for the message. */
  limits: { folders: number; skills: number; seconds: number };
  /** Why the search was cut, once it was. */
  cut?: string;
}

/** The most folders one command's search for skills reads, unless SKILLS_MAX_FOLDERS says otherwise. */
export const MAX_DISCOVERY_FOLDERS = 50_000;
/** The most skills one command's search finds, unless SKILLS_MAX_SKILLS says otherwise. */
export const MAX_DISCOVERY_SKILLS = 20_000;
/** The longest one command's search for skills runs, in seconds, unless SKILLS_MAX_SEARCH_SECONDS says otherwise. */
export const MAX_DISCOVERY_SECONDS = 10;

const limits = { folders: MAX_DISCOVERY_FOLDERS, skills: MAX_DISCOVERY_SKILLS, seconds: MAX_DISCOVERY_SECONDS };

/**
 * Set the limits of every later search from the environment (SKILLS_MAX_FOLDERS, SKILLS_MAX_SKILLS,
 * SKILLS_MAX_SEARCH_SECONDS); a
 * command calls this once with its ctx.env. A value that is not a whole number of at least 1 (0 for the seconds)
 * is a usage error.
 */
export function setDiscoveryLimits(env: Record<string, string | undefined>): void {
  const read = (name: string, fallback: number, min: number) => {
    const v = env[name];
    if (v === undefined || v.trim() === '') return fallback;
    return wholeNumber(name, v, min);
  };
  limits.folders = read('SKILLS_MAX_FOLDERS', MAX_DISCOVERY_FOLDERS, 1);
  limits.skills = read('SKILLS_MAX_SKILLS', MAX_DISCOVERY_SKILLS, 1);
  limits.seconds = read('SKILLS_MAX_SEARCH_SECONDS', MAX_DISCOVERY_SECONDS, 0);
}

/** A fresh budget for one command's search for skills. */
export function discoveryBudget(now = Date.now()): DiscoveryBudget {
  return {
    foldersLeft: limits.folders,
    skillsLeft: limits.skills,
    deadline: now + limits.seconds * 1000,
    limits: { ...limits },
  };
}

export interface Discovery {
  /** Skill folders, absolute, each once, in the order found. */
  roots: string[];
  /** Files given that belong to no skill (pre-commit passes every changed file). */
  outside: string[];
  /** The listing of each root read on the way, so load need not read it again (none for a root `probe` took). */
  listings: Map<string, Dirent[]>;
  /** The real path of each root (symlinks resolved; as given when it cannot be resolved). */
  reals: Map<string, string>;
  /**
   * Links met on the way that could not be followed (dangling, unreadable) and folders the search may not read, with
   * why: reported, not fatal (validate and lint exit 1 for them, as for a finding).
   */
  links: { path: string; message: string }[];
  /**
   * Links to skill folders left out because the search does not follow links (no followLinks), each with a message
   * saying how to check it: warned of, never fatal, as the skill is checked where it lives.
   */
  notFollowed: { path: string; message: string }[];
  /** Set when the search stopped at its limits (see DiscoveryBudget): what was cut, for a warning. */
  cut?: string;
}

/**
 * How deep a search goes below a folder it is given. Collections of collections put skills 7 folders down
 * (`skills/<repo>/plugins/<group>/<plugin>/skills/<skill>`, as thereisnotime/skills-collection does; 6 left 3,100 of
 * its 8,900 skills unfound, without a word); the folder, skill and time limits bound what a deeper walk costs.
 */
const DEFAULT_DEPTH = 10;

/**
 * Turn paths into skill folders: a skill folder is itself; a folder holding skills yields every skill below
 * it (skipping .git, node_modules and what .gitignore names); a file means the skill that contains it.
 */
export function discoverSkills(paths: string[], options: DiscoverOptions): Discovery {
  const roots: string[] = [];
  const seen = new Set<string>();
  const outside: string[] = [];
  const listings = new Map<string, Dirent[]>();
  const reals = new Map<string, string>();
  const links: Discovery['links'] = [];
  const notFollowed: Discovery['notFollowed'] = [];
  const budget = options.budget ?? discoveryBudget();
  const wasCut = budget.cut !== undefined;
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
    reals.set(dir, key);
    if (listing) listings.set(dir, listing);
  };
  // A path given twice is searched once (a second search would find only skills already taken, and say it holds none).
  const searched = new Set<string>();
  for (const given of paths) {
    const abs = resolve(options.cwd, given);
    if (searched.has(abs)) continue;
    searched.add(abs);
    let st;
    try {
      st = statSync(abs);
    } catch (err) {
      throw (
        notUtf8Failure(abs, 'it is not read', err) ??
        new SkillsError('E_NOT_FOUND', `${given}: no such file or folder`, {
          hint: 'check the path; run from the folder that holds your skills',
        })
      );
    }
    if (st.isDirectory()) {
      const listing = readdirSync(abs, { withFileTypes: true });
      if (isSkillListing(listing)) {
        add(abs, listing);
        continue;
      }
      const before = roots.length;
      walkForSkills(
        abs,
        listing,
        { ...options, maxDepth: options.maxDepth ?? DEFAULT_DEPTH, budget, links, notFollowed },
        add,
      );
      // A folder inside a skill (its scripts/, say) means that skill, as a file inside it does.
      const owner = roots.length === before ? skillRootOf(dirname(abs)) : undefined;
      if (owner) add(owner);
      else if (
        roots.length === before &&
        // A search cut short says so (`cut`), rather than that the folder holds no skill.
        budget.cut === undefined &&
        !paths.some((p) => p !== given && isInsideAny(resolve(options.cwd, p), abs))
      ) {
        // A skill file that is a folder (an unzip gone wrong, a typo in a script) is named, not passed over.
        const odd = oddSkillFileIn(abs, listing);
        // Links to skill folders (install --link) are not followed here: say where the skills are.
        const linked = odd ? [] : listing.filter((d) => d.isSymbolicLink() && isSkillFolder(join(abs, d.name)));
        throw new SkillsError(
          'E_NOT_FOUND',
          `${given} is not a skill and holds none (no SKILL.md or manifest.json below it)${odd ? `: ${join(given, odd.name)} is ${odd.kind}, not a regular file` : linked.length > 0 ? `: ${linked.map((d) => d.name).join(', ')} ${linked.length === 1 ? 'is a link to a skill folder, which is' : 'are links to skill folders, which are'} not followed here` : ''}`,
          {
            hint: odd
              ? `${odd.name} must be a file: move what is in ${join(given, odd.name)} out, and write the skill file there`
              : linked.length > 0
                ? `give the folder a link leads to (${join(given, linked[0]!.name)} -> ${readlinkSync(join(abs, linked[0]!.name))}), or the link itself`
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
  // A budget already spent by an earlier call was reported by it.
  return { roots, outside, listings, reals, links, notFollowed, ...(budget.cut && !wasCut ? { cut: budget.cut } : {}) };
}

/** Why a folder whose name is not UTF-8 is not searched, and what to do. */
const NOT_UTF8_FOLDER = `cannot read the folder: ${NOT_UTF8}; a skill's name must be lowercase ASCII letters, digits and hyphens anyway: rename the folder`;

/** What a cut search advises at the end of its `cut` (a lint run's advice: install says its own instead). */
export const CUT_ADVICE = ' (give a narrower folder, or list the skill folders in skillDirs)';

/** Take one folder read from the budget; false (and `cut` set) once the count or the time is spent. */
function spend(budget: DiscoveryBudget, dir: string): boolean {
  if (budget.cut) return false;
  const over =
    budget.foldersLeft <= 0
      ? `it read ${counted(budget.limits.folders, 'folder')}, the most one search reads (SKILLS_MAX_FOLDERS raises it)`
      : // The clock is read every 64 folders: cheap, and often enough to stop within a few milliseconds.
        (budget.foldersLeft & 63) === 0 && Date.now() > budget.deadline
        ? `it ran for ${counted(budget.limits.seconds, 'second')}, the longest one search runs (SKILLS_MAX_SEARCH_SECONDS raises it)`
        : undefined;
  if (over) {
    budget.cut = `the search for skills stopped at ${dir}: ${over}; skills in folders not yet read are left out${CUT_ADVICE}`;
    return false;
  }
  budget.foldersLeft--;
  return true;
}

function isInsideAny(p: string, dir: string): boolean {
  const rel = relative(dir, p);
  return rel !== '' && !rel.startsWith('..');
}

/**
 * Fields only a manifest.json skill has: its `id` and `owner` (SK021), and the content fields of that layout. A
 * manifest with any of them is a skill's, to be checked, unless another format's marker says otherwise (below).
 */
const MANIFEST_SIGNS = ['id', 'owner', 'context', 'envVars', 'mcpServers'];

/**
 * Fields of other programs' manifest.json files: a browser extension's or an MCP bundle's `manifest_version`, a
 * Claude Desktop extension's `dxt_version`, an Obsidian plugin's `minAppVersion`, a web app manifest's `start_url`
 * and `short_name`. With one of them and no `owner`, the file is that program's, even with an `id`, `name` and
 * `description` of its own.
 */
const FOREIGN_MARKERS = ['manifest_version', 'dxt_version', 'minAppVersion', 'start_url', 'short_name'];

/**
 * True when the only skill file of a folder met in a search is a manifest.json of another program: no `context/`
 * beside it, and JSON that is not a skill's manifest: an array or a plain value (a test's fixture list), an object
 * with another format's marker and no `owner` (a browser extension, an MCP bundle), or an object with none of a
 * manifest skill's own fields and not both `name` and `description` (a build's `prompts/clusters/manifest.json`). Such
 * a folder is walked as any other, not taken for a broken skill. A manifest that does not parse, an empty object, or
 * one that looks like a skill's is checked; so is any folder named as a skill itself.
 */
function foreignManifest(dir: string, listing: Dirent[] | string[]): boolean {
  // Asked of every skill folder a search meets: most hold SKILL.md, answered without building anything.
  let manifest = false;
  for (const d of listing) {
    const name = typeof d === 'string' ? d : d.name;
    if (name === 'context' || isSkillMdName(name)) return false;
    if (name === 'manifest.json') manifest = true;
  }
  if (!manifest) return false;
  let text: string | undefined;
  try {
    ({ text } = readBounded(join(dir, 'manifest.json'), MAX_SKILL_FILE_BYTES, dir));
  } catch (err) {
    // A link leading out of the folder is not read: taken for a skill, whose load says what is wrong with it.
    if (err instanceof LinkOutside) return false;
    throw err;
  }
  if (text === undefined) return false;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return false;
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return true;
  const has = (k: string) => Object.hasOwn(data, k);
  if (Object.keys(data).length === 0) return false;
  if (FOREIGN_MARKERS.some(has) && !has('owner')) return true;
  return !MANIFEST_SIGNS.some(has) && !(has('name') && has('description'));
}

/** True when `dir` is a skill folder itself (holds SKILL.md, in any case, or manifest.json). */
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
    if (skillFileIn(names) && !foreignManifest(d, names)) return d;
    if (names.includes('.git') || d === top) return undefined;
  }
}

interface WalkOptions extends Pick<DiscoverOptions, 'followLinks' | 'probe'> {
  maxDepth: number;
  budget: DiscoveryBudget;
  links: Discovery['links'];
  notFollowed: Discovery['notFollowed'];
}

/** Walk below `dir` for skill folders, honouring .gitignore files on the way (git's rules, via `ignore`). */
function walkForSkills(
  dir: string,
  listing: Dirent[],
  opts: WalkOptions,
  add: (d: string, listing: Dirent[] | undefined, real?: string) => void,
): void {
  const { maxDepth, budget, probe } = opts;
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
      const rel = relativeBelow(m.base, path);
      return rel !== '' && m.ig.ignores(isDir ? `${rel}/` : rel);
    });
  /** Count one more skill; false (and `cut` set) once the most one search finds are found. */
  const oneMore = (child: string) => {
    if (budget.skillsLeft-- > 0) return true;
    budget.cut ??= `the search for skills stopped at ${child}: it found ${counted(budget.limits.skills, 'skill')}, the most one search finds (SKILLS_MAX_SKILLS raises it); skills not yet found are left out${CUT_ADVICE}`;
    return false;
  };
  // A Dirent of a symlink is no directory, so the walk never goes through one: below the resolved start, every real
  // path is the start's plus the same names. A link is taken only when it is a skill folder itself (followLink).
  const visit = (
    d: string,
    realD: string | undefined,
    names: Dirent[],
    depth: number,
    matchers: Matcher[],
    place: Place = 'open',
  ) => {
    const here = loadIgnore(d, names, matchers);
    for (const n of names) {
      if (isNeverKept(n.name, true)) continue;
      const link = n.isSymbolicLink();
      if (!link && !n.isDirectory()) continue;
      const child = childPath(d, n.name);
      if (here.length > 0 && ignored(child, true, here)) continue;
      if (!spend(budget, child)) return;
      const at = placeOf(place, n.name);
      // Below a hidden folder no skills/ folder leads to, only a folder holding SKILL.md itself is a skill (a Codex
      // collection's .system/skill-creator/SKILL.md), not another case of it (a wiki's page .wiki/wiki/skill.md).
      if (at === 'hidden' && link) continue;
      if (link && !opts.followLinks) {
        // Left out (validate and lint check a skill where it lives), but said: an agent follows the link.
        if (isSkillFolder(child)) {
          opts.notFollowed.push({
            path: child,
            message: `a link to the skill folder ${linkTarget(child)}, not checked: a search does not follow links; name the link itself to check it`,
          });
        }
        continue;
      }
      if (link) {
        const sub = followLink(child, opts.links);
        if (sub && !oneMore(child)) return;
        if (sub) add(child, sub);
        continue;
      }
      const realChild = realD === undefined ? undefined : childPath(realD, n.name);
      if (at !== 'hidden' && probe?.(child, realChild)) {
        if (!oneMore(child)) return;
        add(child, undefined, realChild);
        continue;
      }
      let sub: Dirent[];
      try {
        sub = readdirSync(child, { withFileTypes: true });
      } catch (err) {
        // A folder the search may not read may hold skills: it is named, not passed over in silence.
        if (isErrno(err) && err.code !== 'ENOENT' && err.code !== 'ENOTDIR') {
          opts.links.push({ path: child, message: `cannot read the folder: ${explainErrno(err).reason}` });
        } else if (isErrno(err) && err.code === 'ENOENT') {
          // So may one whose name is not UTF-8 (listed with U+FFFD, so the path names nothing); two such names
          // that read alike are both listed, and each is said once.
          for (const escaped of notUtf8Names(d, n.name)) {
            const path = shownBytePath(d, escaped);
            if (!opts.links.some((l) => l.path === path)) opts.links.push({ path, message: NOT_UTF8_FOLDER });
          }
        }
        continue;
      }
      if (mayBeSkillAt(at, sub) && isSkillListing(sub) && !foreignManifest(child, sub)) {
        if (!oneMore(child)) return;
        add(child, sub, realChild);
        continue;
      }
      // A skill file that is a FIFO, a device or a folder is named, not passed over in silence (as a path given is).
      const odd = mayBeSkillAt(at, sub) ? oddSkillFileWarning(child, sub) : undefined;
      if (odd) opts.links.push(odd);
      if (depth < maxDepth) visit(child, realChild, sub, depth + 1, here, at);
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

/**
 * The listing of the skill folder a symlink leads to; undefined for a link to a file or to a folder that is no
 * skill (not followed, so no loop), and for one that cannot be followed, which is recorded in `problems`.
 */
function followLink(link: string, problems: Discovery['links']): Dirent[] | undefined {
  const target = () => linkTarget(link);
  let sub: Dirent[];
  try {
    if (!statSync(link).isDirectory()) return undefined;
    sub = readdirSync(link, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // A broken link to a file (`CLAUDE.md -> AGENTS.md` in a copy without its target) is no skill's: no warning.
    if (code === 'ENOENT' && (fileName(basename(link)) || fileName(basename(target())))) return undefined;
    const why =
      code === 'ENOENT'
        ? `a link to ${target()}, which does not exist`
        : code === 'ELOOP'
          ? `a link to ${target()}, which leads round in a loop`
          : `a link to ${target()}, which cannot be read (${code ?? (err as Error).message})`;
    problems.push({ path: link, message: why });
    return undefined;
  }
  return isSkillListing(sub) ? sub : undefined;
}

/** Where a symlink leads, as written in it; `?` when it cannot be read. */
function linkTarget(link: string): string {
  try {
    return readlinkSync(link);
  } catch {
    return '?';
  }
}

/**
 * Whether a name is a file's rather than a skill folder's: with an extension (`AGENTS.md`, `rules.json`) or hidden
 * (`.cursorrules`). A skill's folder is named as the skill, in letters, digits and hyphens.
 */
function fileName(name: string): boolean {
  return name.startsWith('.') || /\.[A-Za-z0-9]{1,10}$/.test(name);
}

/** A .gitignore's text: a regular file of at most 1 MiB (a symlink to a FIFO must not hang discovery); else nothing. */
function readIgnoreFile(file: string): string {
  return readBounded(file, 1024 * 1024).text ?? '';
}
