// The shapes of an install: what it is asked, what it plans, and what it reports.
import type { SkillsError } from '../errors.js';
import type { LockEntry, Lockfile } from '../formats/lockfile.js';
import type { Release } from '../formats/index-file.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Skill } from '../model/skill.js';
import type { ArchiveLimits } from '../fs/archive.js';
import type { RegisterStatus } from '../registry/register.js';
import type { ResolvedSkill } from '../resolve/resolve.js';

export interface InstallOptions {
  /** The registry installed into (absolute). */
  registry: string;
  /** skills-lock.json (absolute). */
  lockfile: string;
  /** As typed: folders, archives, specs. None: install what the lock says. */
  sources: string[];
  /** Another registry folder to resolve specs and dependencies from (absolute). */
  from?: string;
  /** Also write flat `<into>/<id>/` folders here (absolute), besides the folders the lock records (and record it). */
  into?: string;
  /** Record this consumer in the usedBy of every skill installed. */
  consumer?: string;
  /** Fail (before writing) when skills-lock.json would change. */
  frozen?: boolean;
  /** Replace a registered version with other content, and an `<into>/<id>` that skills did not write. */
  force?: boolean;
  cwd: string;
  nodeVersion: string;
  limits?: ArchiveLimits;
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
  /** What the registry did: added, updated, replaced or unchanged. */
  status: RegisterStatus;
  /** The stored copy (absolute). */
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
}

export interface InvalidSource {
  /** The folder or archive as typed. */
  source: string;
  id?: string;
  message: string;
  diagnostics: Diagnostic[];
}

export interface InstallResult {
  registry: string;
  lockfile: string;
  lockChanged: boolean;
  /** Dependencies first. */
  skills: InstalledSkill[];
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
      kind: 'invalid' | 'unresolved' | 'frozen';
      error: SkillsError;
      invalid?: InvalidSource[];
      changes?: string[];
      warnings: string[];
    };

/** A local skill read and checked: from a folder, or from an archive unpacked into the scratch. */
export interface Prepared {
  typed: string;
  source: string;
  skill: Skill;
  integrity: string;
  /** For a skill from an archive: names its scratch folder as `<archive>: <path inside>` in messages. */
  relabel?: Relabel;
}

export type Relabel = (text: string) => string;

/** A skill found in an unpacked archive, moved to a scratch folder named after it. */
export interface ArchivedSkill {
  /** `<registry>/.unpack-…/<id>`. */
  root: string;
  /** Its folder inside the archive; '' when the skill file sits at the archive's top. */
  inner: string;
  id: string;
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
  warnings: string[];
}
