import { detectAgents, resolveAgents, type AgentReads } from '../skill/agents.js';
import { userTokenCache } from '../tokens/token-cache.js';
import { cachedTokenCounter, COUNTER_ID, tokenCounter } from '../tokens/tokens.js';
import { agentFolders, viewAgent, type AgentView } from './agent-view.js';
import { folderReader } from './folder-read.js';
import { measureListing, type CountTokens, type Listing } from './listing.js';
import { listingRule } from './listing-rules.js';
import type { FolderScope } from '../skill/folders.js';

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
  name: string;
  title: string;
  reads: AgentReads;
  /** The scope whose folder wins a name, and where that comes from. */
  first: FolderScope;
  basis: string;
  listing: Listing;
  /** Skipped as invalid or unreadable, loaded though invalid, collisions, a listing over budget: each counts one. */
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
  const detected = detectAgents(place).filter((d) =>
    named ? named.has(d.agent.name) : d.projectExists || d.userExists,
  );
  const cache = options.countTokens ? undefined : userTokenCache(options.env, options.home, COUNTER_ID);
  const count: CountTokens =
    options.countTokens ?? (cache ? cachedTokenCounter(cache) : async (t) => (await tokenCounter())(t));
  const read = folderReader();
  const agents: AgentReport[] = [];
  for (const d of detected) {
    const rule = listingRule(d.agent.name, options.env);
    const view = await viewAgent(d.agent, agentFolders(d, rule), read, rule);
    const listing = await measureListing(view.loaded, rule, count);
    const problems =
      view.skipped.filter((s) => s.reason === 'invalid' || s.reason === 'unreadable').length +
      view.loadedInvalid.length +
      view.collisions.length +
      (listing.over > 0 ? 1 : 0);
    agents.push({
      name: d.agent.name,
      title: d.agent.title,
      reads: d.agent.reads,
      first: rule.first,
      basis: rule.basis,
      ...view,
      listing,
      problems,
    });
  }
  cache?.save();
  return { agents, problems: agents.reduce((n, a) => n + a.problems, 0) };
}
