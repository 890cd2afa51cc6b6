// The shapes of an install: what it is asked, what it plans, and what it reports.
import type { SkillsError } from '../errors.js';
import type { LockEntry, Lockfile } from '../formats/lockfile.js';
import type { Release } from '../formats/index-file.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Skill, SkillEntry } from '../model/skill.js';
import type { ArchiveLimits } from '../fs/archive.js';
import type { StoredFile } from '../registry/integrity.js';
import type { RegisterStatus } from '../registry/register.js';
import type { ResolvedSkill } from '../resolve/resolve.js';

export interface InstallOptions {
  /**
   * The registry (absolute): installed into when `useRegistry`; else only read, to resolve specs (`pdf@^1.2`) and
   * dependencies that no source given holds.
   */
  registry: string;
  /**
   * Register every skill installed into `registry` (asked for: --registry, SKILLS_REGISTRY, a `.skills/` in the
   * project, --for). False: a project install, which writes only the agent folders and the lock.
   */
  useRegistry: boolean;
  /**
   * The content-addressed cache of fetched trees and downloads (absolute, `~/.cache/skills`); none without a home
   * (cacheHomeIfAny), which a local folder or archive does not need and a download refuses (needCache).
   */
  cacheDir: string | undefined;
  home: string;
  env: Record<string, string | undefined>;
  /** skills-lock.json (absolute). */
  lockfile: string;
  /** As typed: folders, archives, specs. None: install what the lock says. */
  sources: string[];
  /** Another registry folder to resolve specs and dependencies from (absolute). */
  from?: string;
  /**
   * Also write flat `<into>/<id>/` folders here (absolute: --into and --agent's folders), besides the folders the lock
   * records (and record them).
   */
  into?: string[];
  /** Of `into`, the agent folders --agent named: like a default folder, they may not lead out of the project. */
  agentInto?: string[];
  /**
   * A project install with no folder given or recorded: the folders to place into (asked on a terminal); undefined
   * when nobody can be asked, and the project's agent folders or `.agents/skills` are used.
   */
  choosePlaces?: () => Promise<string[] | undefined>;
  /** The lock is the user's (--global): its folders are below the home folder, recorded as `~/…`. */
  global?: boolean;
  /** Of the skills a source holds, only these ids (--skill). */
  only?: string[];
  /** Refuse every skill when one that a source of several holds is invalid (else it is skipped, and reported). */
  strict?: boolean;
  /** Symlink `<into>/<id>` to the skill's folder instead of copying it (folder sources). */
  link?: boolean;
  /**
   * Asked, on a terminal, which of a source's several skills to install (all of them when undefined): the positions
   * of those chosen. `inside` is a namesake's folder in the source (another skill there has its name); `unticked`,
   * one that installing all would leave out (namesakes.ts); `foundAt`, the folders of a skill held twice file for
   * file (twins: one choice).
   */
  pick?: (
    typed: string,
    skills: {
      id: string;
      description: string;
      problem?: string;
      inside?: string;
      unticked?: boolean;
      foundAt?: string[];
    }[],
  ) => Promise<number[]>;
  /** Record this consumer in the usedBy of every skill installed. */
  consumer?: string;
  /** Fail (before writing) when skills-lock.json would change. */
  frozen?: boolean;
  /** Replace a registered version with other content, and an `<into>/<id>` that skills did not write. */
  force?: boolean;
  cwd: string;
  nodeVersion: string;
  limits?: ArchiveLimits;
  /** Name every skill a collapsed warning counts. */
  verbose?: boolean;
  /** Plan and check everything, and write nothing: the result says what would be done. */
  dryRun?: boolean;
  /** Told what is happening, for a spinner. */
  progress?: (text: string) => void;
}

export interface InstalledSkill {
  id: string;
  version: string;
  /** As the lock records it. */
  source: string;
  integrity: string;
  dependencies: Record<string, string>;
  /** What the install did to the project (from the lock): added, updated (another version or content), unchanged. */
  status: 'added' | 'updated' | 'unchanged';
  /** For an updated skill, what the lock recorded before: its version, and its source when that changed. */
  was?: { version: string; source?: string };
  /** What the registry did, when one is used: added, updated, replaced or unchanged. */
  registered?: RegisterStatus;
  /**
   * Where the skill's files are (absolute): the stored copy (a registry), the folder installed from (a folder
   * source), or, for a source unpacked or fetched into the run's temporary folder, the first folder placed into.
   */
  path: string;
  /** The first of `placed`: `<into>/<id>` (absolute), --into's when it is given. */
  into?: string;
  intoStatus?: 'written' | 'unchanged';
  /** Every `<into>/<id>` written or found identical: --into's first, then the lock's recorded folders. */
  placed?: Placed[];
  /** Named on the command line (or in the lock), as opposed to pulled in as a dependency. */
  requested: boolean;
}

export interface Placed {
  /** `<folder>/<id>` (absolute). */
  into: string;
  status: 'written' | 'unchanged';
  /** A symlink to the skill's folder (--link). */
  link?: boolean;
}

export interface InvalidSource {
  /** The folder or archive as typed. */
  source: string;
  id?: string;
  message: string;
  diagnostics: Diagnostic[];
  /**
   * Left out for another skill of its name in the same source, not for a finding of its own: the source (as
   * typed, with no secret), the skill's folder in it, and the source that installs it alone.
   */
  namesake?: { of: string; inside: string; alone: string };
  /** Left out of a source of several skills: a path in it is longer than the system can name (ENAMETOOLONG). */
  tooLong?: true;
  /** A skeleton below a `template(s)/` folder of a source of several: read only when named (--skill) or listed. */
  template?: true;
}

export interface InstallResult {
  /** The registry installed into; undefined for a project install. */
  registry?: string;
  lockfile: string;
  lockChanged: boolean;
  /** --dry-run: nothing was written; statuses say what would have been. */
  dryRun?: boolean;
  /** Dependencies first. */
  skills: InstalledSkill[];
  /** Skills of a source of several that are invalid, left out (the install exits 1 all the same). */
  skipped: InvalidSource[];
  warnings: string[];
}

/**
 * ok, or a refusal that is a finding about the skills (exit 1): invalid, no resolution, a frozen lock that would
 * change.
 */
export type InstallOutcome =
  | ({ ok: true } & InstallResult)
  | {
      ok: false;
      kind: 'invalid' | 'unresolved' | 'frozen' | 'none';
      error: SkillsError;
      invalid?: InvalidSource[];
      changes?: string[];
      warnings: string[];
    };

/** A local skill read and checked: from a folder, an archive unpacked into the scratch, or a fetched git tree. */
export interface Prepared {
  typed: string;
  source: string;
  /** The lock entry's git or URL details: the commit, the path inside, the ref asked. */
  origin?: { commit?: string; path?: string; ref?: string; tarball?: string; tarballIntegrity?: string };
  skill: Skill;
  integrity: string;
  /**
   * Its files, when known: an archive's as unpacked, or a folder's as listed to hash them; with their bytes where the
   * run kept them (the integrity's, not read again).
   */
  files?: StoredFile[];
  /** `files` are all its folder holds (an archive's own unpacked copy): moved as it is, with no pruning walk. */
  only?: boolean;
  /** For a skill from an archive: names its scratch folder as `<archive>: <path inside>` in messages. */
  relabel?: Relabel;
  /** The name of its folder in the source, when that is not the skill's (the copies are named by the skill's). */
  folderName?: string;
  /** The id of the skill whose folder holds it, for a skill nested in another: installed only when named. */
  nestedIn?: string;
  /** A skeleton below a `template(s)/` folder of a source of several (skill/template-folders.ts): only when named. */
  template?: true;
}

export type Relabel = (text: string) => string;

/** A skill found in an unpacked archive, moved to a scratch folder named after it. */
export interface ArchivedSkill {
  /** `<base>/.unpack-…/<id>`: base the registry, the last agent folder placed into, or the cache (Scratch). */
  root: string;
  /** Its folder inside the archive; '' when the skill file sits at the archive's top. */
  inner: string;
  id: string;
  /** Its files as unpacked (what skillFiles would find there), with their bytes where the extraction kept them. */
  files: StoredFile[];
  /** The skill, loaded from `root` already (so it is not loaded again). */
  skill?: Skill;
  /** Its entries as a walk would find them, known from what was unpacked (so it is loaded again without a walk). */
  entries?: SkillEntry[];
  /** `root` holds `files` and the folders above them, nothing else: moving it needs no pruning walk. */
  only?: boolean;
  /** For a skill nested in another of the archive (copied out of it): the other's id. Installed only when named. */
  nestedIn?: string;
  /** A skeleton below a `template(s)/` folder of the archive: installed only when named. */
  template?: true;
}

/** Where one resolved skill comes from. */
export type Plan =
  | { kind: 'local'; prepared: Prepared }
  | { kind: 'from'; root: string; release: Release; owner: string; registry: string }
  | { kind: 'present'; release: Release };

/** What an install will do, decided before the first write. */
export interface Planned {
  ok: true;
  /** `intoActions`: one per place, in order. */
  items: {
    resolved: ResolvedSkill;
    plan: Plan;
    entry: LockEntry;
    requested: boolean;
    intoActions?: ('write' | 'unchanged')[];
  }[];
  next: Lockfile;
  skipped: InvalidSource[];
  warnings: string[];
  /**
   * The ids of the skills chosen from a source of several (without --strict): one that fails a check before the first
   * write (its files too deep where they go) is left out, as an invalid one is, and the others installed.
   */
  ofSeveral?: ReadonlySet<string>;
}
