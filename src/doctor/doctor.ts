import { folderBlocked } from '../fs/blocked.js';
import { detectAgents, resolveAgents, type AgentDetection, type AgentReads } from '../skill/agents.js';
import { userTokenCache } from '../tokens/token-cache.js';
import { cachedTokenCounter, COUNTER_ID, tokenCounter } from '../tokens/tokens.js';
import {
  agentFolders,
  viewAgent,
  type AgentFolder,
  type AgentView,
  type BlockedFolder,
  type Collision,
  type LoadedInvalid,
  type SeenSkill,
  type SkippedSkill,
  type SkipReason,
} from './agent-view.js';
import { folderReader } from './folder-read.js';
import { measureListing, type CountTokens, type Listing } from './listing.js';
import { listingRule, type ListingRule } from './listing-rules.js';
import { nestedFolders, workingFolder } from './nested.js';
import { claudePlugins, type ClaudePlugins } from './plugins.js';
import { isInside } from '../fs/walk.js';
import type { FolderScope } from '../skill/folders.js';
import { dirname } from 'node:path';

// `skills doctor`: for each agent whose skill folders are here, what it will see. Returns data; never prints.

export interface DoctorOptions {
  cwd: string;
  home: string;
  env: Record<string, string | undefined>;
  /** Agent names as typed (`--agent claude-code,codex`); every agent with a skill folder here when none. */
  agents?: string[];
  /** The token counter; o200k with the user's token cache when none. */
  countTokens?: CountTokens;
}

export interface AgentReport extends AgentView {
  /** Its folders that something is in the way of (a link leading nowhere, a file, no permission); when any. */
  blocked?: BlockedFolder[];
  name: string;
  title: string;
  reads: AgentReads;
  /** The scope whose folder wins a name, and where that comes from. */
  first: FolderScope;
  basis: string;
  listing: Listing;
  /** The agent's project folders below the project's top (listing-rules.ts `nested`), each as it sees it there. */
  nested: NestedView[];
  /** Claude Code's enabled plugins and their skills (named `<plugin>:<skill>`, in the listing too); when any. */
  plugins?: PluginView[];
  /**
   * Skipped as invalid or unreadable, loaded though invalid, collisions, a listing over budget: each counts one,
   * at the top and in each nested folder.
   */
  problems: number;
}

/**
 * What the agent sees when it works in `workingIn`, a folder below the project's top that holds its project folder
 * `folder`: the skills of that folder, and what they change of the top's (a top skill shadowed, a collision), with
 * the whole listing there.
 */
export interface NestedView {
  workingIn: string;
  folder: string;
  loaded: SeenSkill[];
  skipped: SkippedSkill[];
  loadedInvalid: LoadedInvalid[];
  collisions: Collision[];
  /** The listing there: the top's skills and these. */
  listing: Listing;
  problems: number;
}

/** What the agent sees of one enabled plugin's skills (plugins.ts), named as it lists them: `<plugin>:<skill>`. */
export interface PluginView extends Pick<AgentView, 'loaded' | 'skipped' | 'loadedInvalid' | 'collisions'> {
  /** `<plugin>@<marketplace>`. */
  id: string;
  /** The install's folder. */
  dir: string;
  problems: number;
}

export interface DoctorReport {
  agents: AgentReport[];
  problems: number;
}

/** What each agent will load, skip and list, from its project and user skill folders. */
export async function doctor(options: DoctorOptions): Promise<DoctorReport> {
  const place = { cwd: options.cwd, home: options.home, env: options.env };
  // Names are checked (unknown ones are usage errors, with did-you-mean) before anything is read.
  const named =
    options.agents && options.agents.length > 0
      ? new Set(resolveAgents(options.agents, place).flatMap((r) => r.readers.map((a) => a.name)))
      : undefined;
  const all = detectAgents(place);
  // One walk finds the nested folders of every agent that reads them.
  const nestedProjects = [
    ...new Set(all.filter((d) => listingRule(d.agent.name, options.env).nested).map((d) => d.agent.project)),
  ];
  const below = nestedProjects.length > 0 ? nestedFolders(options.cwd, nestedProjects) : undefined;
  const nestedOf = (d: (typeof all)[number]) =>
    listingRule(d.agent.name, options.env).nested ? (below?.found.get(d.agent.project) ?? []) : [];
  const blockedOf = new Map(all.map((d) => [d, blockedFolders(d)]));
  const pluginsOf = new Map(all.map((d) => [d, pluginsFor(d, options.cwd)]));
  const detected = all.filter((d) =>
    named
      ? named.has(d.agent.name)
      : d.projectExists ||
        d.userExists ||
        d.legacyDir !== undefined ||
        d.legacyProjectDir !== undefined ||
        nestedOf(d).length > 0 ||
        blockedOf.get(d)!.length > 0 ||
        (pluginsOf.get(d)?.plugins.length ?? 0) > 0,
  );
  const cache = options.countTokens ? undefined : userTokenCache(options.env, options.home, COUNTER_ID);
  const count: CountTokens =
    options.countTokens ?? (cache ? cachedTokenCounter(cache) : async (t) => (await tokenCounter())(t));
  const read = folderReader();
  const agents: AgentReport[] = [];
  for (const d of detected) {
    const rule = listingRule(d.agent.name, options.env);
    const folders = agentFolders(d, rule);
    const view = await viewAgent(d.agent, folders, read, rule);
    const found = pluginsOf.get(d);
    const plugins: PluginView[] = [];
    for (const p of found?.plugins ?? []) {
      const v = await viewAgent(
        d.agent,
        p.skillDirs.map((dir) => ({ dir, scope: 'user' as const, exists: true })),
        read,
        rule,
      );
      const named = <T extends { name: string | null }>(s: T): T => ({ ...s, name: `${p.name}:${s.name ?? '?'}` });
      const part = {
        loaded: v.loaded.map(named),
        skipped: v.skipped.map(named),
        loadedInvalid: v.loadedInvalid.map(named),
        collisions: v.collisions.map((k) => ({ ...k, names: k.names.map((x) => `${p.name}:${x}`) })),
      };
      view.warnings.push(...v.warnings);
      plugins.push({ id: p.id, dir: p.dir, ...part, problems: problemsOf(part) });
    }
    view.warnings.push(...(found?.warnings ?? []));
    const listing = await measureListing([...view.loaded, ...plugins.flatMap((p) => p.loaded)], rule, count);
    const nested: NestedView[] = [];
    for (const dir of nestedOf(d))
      nested.push(await nestedView(d.agent, dir, folders, rule, listing.over > 0, read, count));
    if (below?.cut && nestedOf(d).length > 0) view.warnings.push(below.cut);
    // An older folder the agent still reads (Codex's ~/.codex/skills, Antigravity's .agent/skills), with skills in it.
    const seen = [...view.loaded, ...view.skipped];
    const older = [
      [d.legacyDir, 'user', d.userDir, ' --global', 'deprecated, kept for backward compatibility'],
      [d.legacyProjectDir, 'project', d.projectDir, '', 'kept for backward compatibility'],
    ] as const;
    for (const [old, scope, now, flag, why] of older)
      if (old !== undefined && seen.some((s) => isInside(old, s.root)))
        view.warnings.push(
          `${old} is ${d.agent.title}'s old ${scope} skill folder: it still reads it (${why}), but ${scope} skills now belong in ${now}; move them there (skills install <folder>${flag} --agent ${d.agent.name} puts one there)`,
        );
    const blocked = blockedOf.get(d)!;
    const problems =
      problemsOf(view) +
      (listing.over > 0 ? 1 : 0) +
      nested.reduce((n, v) => n + v.problems, 0) +
      blocked.length +
      plugins.reduce((n, p) => n + p.problems, 0);
    agents.push({
      name: d.agent.name,
      title: d.agent.title,
      reads: d.agent.reads,
      first: rule.first,
      basis: rule.basis,
      ...view,
      listing,
      nested,
      problems,
      ...(blocked.length > 0 ? { blocked } : {}),
      ...(plugins.length > 0 ? { plugins } : {}),
    });
  }
  cache?.save();
  return { agents, problems: agents.reduce((n, a) => n + a.problems, 0) };
}

/** Claude Code's enabled plugins (its config folder is its user skill folder's parent); none for other agents. */
function pluginsFor(d: AgentDetection, project: string): ClaudePlugins | undefined {
  if (d.agent.name !== 'claude-code' || d.userDir === undefined) return undefined;
  return claudePlugins(dirname(d.userDir), project);
}

/** The agent's project and user folders that are not there because something is in their way. */
function blockedFolders(d: AgentDetection): BlockedFolder[] {
  const out: BlockedFolder[] = [];
  const check = (dir: string | undefined, exists: boolean, scope: FolderScope) => {
    const b = dir === undefined || exists ? undefined : folderBlocked(dir);
    if (b && dir !== undefined) out.push({ dir, scope, kind: b.kind, message: b.message, hint: b.hint });
  };
  check(d.projectDir, d.projectExists, 'project');
  check(d.userDir, d.userExists, 'user');
  return out;
}

/** Skipped as invalid, unreadable or too deep, loaded though invalid, collisions: each counts one. */
const problemsOf = (v: Pick<AgentView, 'skipped' | 'loadedInvalid' | 'collisions'>) =>
  v.skipped.filter((s) => PROBLEMS.includes(s.reason)).length + v.loadedInvalid.length + v.collisions.length;

/** The reasons to skip a skill that are problems: the skill is meant for the agent, and it will not use it. */
export const PROBLEMS: readonly SkipReason[] = ['invalid', 'unreadable', 'too-deep'];

/**
 * The agent working in the folder of nested project folder `dir`: that folder read first of the project's (it is
 * the nearest), then the agent's folders as at the top; what is reported is what that folder brings. The listing
 * over its budget there counts as a problem only when the top's is not over already.
 */
async function nestedView(
  agent: Parameters<typeof viewAgent>[0],
  dir: string,
  folders: AgentFolder[],
  rule: ListingRule,
  topOver: boolean,
  read: ReturnType<typeof folderReader>,
  count: CountTokens,
): Promise<NestedView> {
  const here: AgentFolder = { dir, scope: 'project', exists: true };
  const at = folders.findIndex((f) => f.scope === 'project');
  const order = at < 0 ? [...folders, here] : [...folders.slice(0, at), here, ...folders.slice(at)];
  const v = await viewAgent(agent, order, read, rule);
  const mine = (p: string) => isInside(dir, p);
  const part = {
    loaded: v.loaded.filter((s) => mine(s.root)),
    skipped: v.skipped.filter((s) => mine(s.root) || (s.by !== undefined && mine(s.by))),
    loadedInvalid: v.loadedInvalid.filter((s) => mine(s.root)),
    collisions: v.collisions.filter((k) => k.roots.some(mine)),
  };
  const listing = await measureListing(v.loaded, rule, count);
  return {
    workingIn: workingFolder(dir, agent.project),
    folder: dir,
    ...part,
    listing,
    problems: problemsOf(part) + (listing.over > 0 && !topOver ? 1 : 0),
  };
}
