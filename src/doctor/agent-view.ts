import { basename, join, relative, sep } from 'node:path';
import type { Blocked } from '../fs/blocked.js';
import { jsonDiagnostic } from '../model/diagnostic.js';
import type { Skill } from '../model/skill.js';
import { contentComparer } from '../registry/integrity.js';
import { readsManifestSkills, type Agent, type AgentDetection } from '../skill/agents.js';
import { confusableGroups } from '../skill/confusable-names.js';
import { real } from '../fs/walk.js';
import { type FolderScope } from '../skill/folders.js';
import type { SkillReport } from '../skill/validate.js';
import type { FolderReader } from './folder-read.js';
import type { ListingRule } from './listing-rules.js';
import { firstParagraph } from '../formats/first-paragraph.js';

// What one agent sees of its folders: each folder's skills in the agent's precedence, sorted into the ones it
// loads and the ones it skips (and why), and the names that collide.

export interface AgentFolder {
  dir: string;
  scope: FolderScope;
  exists: boolean;
}

/** A folder of the agent's that is not there because something is in its way (fs/blocked.ts): a problem. */
export interface BlockedFolder {
  dir: string;
  scope: FolderScope;
  kind: Blocked['kind'];
  /** What is in the way, naming it. */
  message: string;
  hint: string;
}

export interface SeenSkill {
  name: string;
  description: string;
  /** The skill file, absolute. */
  file: string;
  root: string;
  scope: FolderScope;
}

export type SkipReason = 'invalid' | 'unreadable' | 'manifest' | 'shadowed' | 'disabled' | 'too-deep';

export interface SkippedSkill {
  /** Unknown when the skill could not be read. */
  name: string | null;
  root: string;
  scope: FolderScope;
  reason: SkipReason;
  /** Why, in a sentence. */
  message: string;
  /** For invalid skills: the errors validate found. */
  errors?: ReturnType<typeof jsonDiagnostic>[];
  /** For shadowed skills: the skill folder that wins, and whether it is the same skill (a copy). */
  by?: string;
  copy?: boolean;
  /** For skills too deep for the agent: the skill folder's place one folder below its skills folder. */
  moveTo?: string;
}

/** A skill the agent loads though validate finds errors in it (kinds the agent does not mind; others may). */
export interface LoadedInvalid {
  name: string;
  root: string;
  scope: FolderScope;
  /** The first error, in a sentence (and how many more). */
  message: string;
  errors: ReturnType<typeof jsonDiagnostic>[];
}

export interface Collision {
  kind: 'same-name' | 'look-alike';
  names: string[];
  /** The skill folders, the one the agent uses first. */
  roots: string[];
  message: string;
}

export interface AgentView {
  folders: AgentFolder[];
  /** The skills the agent lists, in precedence order. */
  loaded: SeenSkill[];
  skipped: SkippedSkill[];
  /** Of the skills loaded (or disabled, yet the agent's), those the standard calls invalid. */
  loadedInvalid: LoadedInvalid[];
  collisions: Collision[];
  warnings: string[];
}

/** The skill folders of an agent, in the order it reads them: the winning scope first; one folder once. */
export function agentFolders(found: AgentDetection, rule: ListingRule): AgentFolder[] {
  const both: AgentFolder[] = [{ dir: found.projectDir, scope: 'project', exists: found.projectExists }];
  // An older project folder it still reads (Antigravity's .agent/skills) comes after the documented one.
  if (found.legacyProjectDir !== undefined) both.push({ dir: found.legacyProjectDir, scope: 'project', exists: true });
  // An older user folder the agent still reads (Codex's $CODEX_HOME/skills) comes before the documented one, as the
  // agent's loader lists its roots.
  if (found.legacyDir !== undefined) both.push({ dir: found.legacyDir, scope: 'user', exists: true });
  if (found.userDir !== undefined) both.push({ dir: found.userDir, scope: 'user', exists: found.userExists });
  if (rule.first === 'user') both.reverse();
  const seen = new Set<string>();
  return both.filter((f) => {
    const key = real(f.dir);
    return !seen.has(key) && seen.add(key);
  });
}

/**
 * What the agent sees. A skill it cannot use (invalid, unreadable, a manifest.json skill in a SKILL.md-only agent)
 * does not take its name, so a usable one of the same name in a later folder is still seen; a disabled one does
 * (it is still the agent's skill, used when named). Invalid means errors the agent minds (`rule.loads`); a skill
 * whose errors it does not mind is used like a valid one, and listed in loadedInvalid besides.
 */
export async function viewAgent(
  agent: Agent,
  folders: AgentFolder[],
  read: FolderReader,
  rule: Pick<ListingRule, 'loads' | 'depth'> = {},
): Promise<AgentView> {
  const view: AgentView = { folders, loaded: [], skipped: [], loadedInvalid: [], collisions: [], warnings: [] };
  const refuses = rule.loads?.refuses ?? (() => true);
  const taken = new Map<string, SeenSkill>();
  const sameContent = contentComparer();
  const readsManifest = readsManifestSkills(agent);
  for (const folder of folders) {
    if (!folder.exists) continue;
    const { skills, reports, unreadable, cut } = await read(folder.dir, folder.scope);
    const { scope } = folder;
    if (cut) view.warnings.push(cut);
    for (const s of unreadable)
      view.skipped.push({ name: null, root: s.path, scope, reason: 'unreadable', message: s.message });
    for (const skill of validFirst(skills, reports)) {
      const seen = seenSkill(skill, scope, rule.loads?.describesFromBody === true);
      const depth = relative(folder.dir, skill.root).split(sep).length;
      if (rule.depth && depth > rule.depth.max) {
        view.skipped.push({
          name: seen.name,
          root: skill.root,
          scope,
          reason: 'too-deep',
          message: `${depth} folders below its skills folder: ${agent.title} finds only <skills folder>/<name>/SKILL.md`,
          moveTo: join(folder.dir, basename(skill.root)),
        });
        continue;
      }
      if (skill.layout === 'manifest' && !readsManifest) {
        view.skipped.push({
          name: seen.name,
          root: skill.root,
          scope,
          reason: 'manifest',
          message: `a manifest.json skill: ${agent.title} reads SKILL.md skills only`,
        });
        continue;
      }
      const report = reports.get(skill.root);
      // A SKILL.md named in another case (Skill.md, SKILL.MD) is read here as on macOS and Windows; not on Linux.
      for (const d of report?.diagnostics ?? [])
        if (d.rule === 'skill-file-name') view.warnings.push(`${d.file}: ${d.message}`);
      const errors = (report?.diagnostics ?? []).filter((d) => d.severity === 'error');
      const refused = errors.filter(refuses);
      if (refused.length > 0) {
        view.skipped.push({
          name: seen.name,
          root: skill.root,
          scope,
          reason: 'invalid',
          message: refused[0]!.message + more(errors.length),
          errors: errors.map(jsonDiagnostic),
        });
        continue;
      }
      const winner = taken.get(seen.name);
      if (winner) {
        const copy = sameContent(skill.root, winner.root);
        view.skipped.push(shadowed(seen.name, skill.root, scope, winner.root, copy));
        if (!copy) view.collisions.push(sameName(seen.name, winner.root, skill.root));
        continue;
      }
      taken.set(seen.name, seen);
      if (errors.length > 0)
        view.loadedInvalid.push({
          name: seen.name,
          root: skill.root,
          scope,
          message: errors[0]!.message + more(errors.length),
          errors: errors.map(jsonDiagnostic),
        });
      if (isHidden(skill)) {
        view.skipped.push({
          name: seen.name,
          root: skill.root,
          scope,
          reason: 'disabled',
          message: skill.disableModelInvocation
            ? 'disable-model-invocation is true: left out of the listing, used only when named'
            : 'default_enabled is false: left out of the listing, used only when named',
        });
        continue;
      }
      view.loaded.push(seen);
    }
  }
  for (const names of confusableGroups([...taken.keys()])) {
    view.collisions.push({
      kind: 'look-alike',
      names,
      roots: names.map((n) => taken.get(n)!.root),
      message: `${names.map((n) => `"${n}"`).join(' and ')} look alike: a request for one can reach the other`,
    });
  }
  return view;
}

/**
 * Hidden from the listing, as the catalog (skill/light.ts, CatalogEntry.hidden) and the registry read it: the
 * fields load already parsed, `disable-model-invocation: true` or `default_enabled: false`.
 */
function isHidden(skill: Skill): boolean {
  return skill.disableModelInvocation || !skill.defaultEnabled;
}

const hasErrors = (skill: Skill, reports: Map<string, SkillReport>) =>
  (reports.get(skill.root)?.diagnostics ?? []).some((d) => d.severity === 'error');

/**
 * A folder's skills in the order found, except that a skill with errors comes after a valid one of its name: which of
 * two skills of one name in one folder an agent takes is documented nowhere, and the one the standard accepts is
 * the likelier (and the collision is reported either way).
 */
function validFirst(skills: Skill[], reports: Map<string, SkillReport>): Skill[] {
  const valid = new Set(skills.filter((s) => !hasErrors(s, reports)).map((s) => s.id));
  const later = skills.filter((s) => valid.has(s.id) && hasErrors(s, reports));
  return later.length === 0 ? skills : [...skills.filter((s) => !later.includes(s)), ...later];
}

const more = (errors: number) => (errors > 1 ? ` (and ${errors - 1} more)` : '');

/** The skill as the agent lists it; with `fromBody`, a missing description is the instructions' first paragraph. */
function seenSkill(skill: Skill, scope: FolderScope, fromBody: boolean): SeenSkill {
  const description =
    fromBody && skill.description.trim() === '' ? firstParagraph(skill.instructions) : skill.description;
  return { name: skill.id, description, file: skill.file, root: skill.root, scope };
}

function shadowed(name: string, root: string, scope: FolderScope, by: string, copy: boolean): SkippedSkill {
  return {
    name,
    root,
    scope,
    reason: 'shadowed',
    message: copy ? `the same skill as ${by}, which is read first` : `shadowed by ${by}, which is read first`,
    by,
    copy,
  };
}

function sameName(name: string, winner: string, loser: string): Collision {
  return {
    kind: 'same-name',
    names: [name],
    roots: [winner, loser],
    message: `two different skills are named "${name}": ${winner} is used, ${loser} is not`,
  };
}
