import { isAbsolute, join, resolve } from 'node:path';
import { SkillsError } from '../errors.js';
import { isFolder, present, real } from '../fs/walk.js';
import { closest } from './names.js';

// The agents that read skills, and the folders each reads them from. Every agent here reads SKILL.md skills only;
// manifest.json skills are read by skills' own commands, and so belong only in our generic folder.

/** What layouts an agent reads: SKILL.md only, or manifest.json too. */
export type AgentReads = 'skill-md' | 'both';

/**
 * A variable that moves a folder below home: a home path that is `under` or below it is read below `$name`
 * instead (CLAUDE_CONFIG_DIR for `.claude`, XDG_CONFIG_HOME for `.config`).
 */
export interface HomeVariable {
  name: string;
  under: string;
}

export interface Agent {
  /** The id users type (`--agent claude-code`). */
  name: string;
  /** The name shown to people. */
  title: string;
  /** Other names people type for it. */
  aliases: readonly string[];
  /** Its skill folder, relative to the project root. */
  project: string;
  /** Its user skill folder, relative to the home folder; none when it reads no user folder. */
  user: string | undefined;
  /**
   * A user skill folder it still reads though its documentation moved it (relative to the home folder, moved by
   * `homeVariables` too), read after `user`: doctor checks it and says where its skills belong now.
   */
  legacyUser?: string;
  /**
   * A project skill folder it still reads though its documentation moved it (relative to the project root), read
   * after `project`: doctor checks it and says where its skills belong now.
   */
  legacyProject?: string;
  /** The variables that move its folders below home. */
  homeVariables: readonly HomeVariable[];
  /** What means the agent is used: files or folders in the project, and below home (its config folder). */
  detect: { project: readonly string[]; home: readonly string[] };
  reads: AgentReads;
}

const XDG: HomeVariable = { name: 'XDG_CONFIG_HOME', under: '.config' };

/** The agents, in the order they are listed; folders as each agent documents them. */
export const AGENTS: readonly Agent[] = [
  {
    name: 'claude-code',
    title: 'Claude Code',
    aliases: ['claude', 'claudecode', 'claude-cli'],
    project: '.claude/skills',
    user: '.claude/skills',
    homeVariables: [{ name: 'CLAUDE_CONFIG_DIR', under: '.claude' }],
    detect: { project: ['.claude', 'CLAUDE.md'], home: ['.claude'] },
    reads: 'skill-md',
  },
  {
    name: 'codex',
    title: 'Codex',
    aliases: ['openai-codex', 'codex-cli'],
    project: '.agents/skills',
    user: '.agents/skills',
    // codex-rs/core-skills/src/loader.rs: "Deprecated user skills location (`$CODEX_HOME/skills`), kept for backward
    // compatibility."
    legacyUser: '.codex/skills',
    homeVariables: [{ name: 'CODEX_HOME', under: '.codex' }],
    detect: { project: ['.codex'], home: ['.codex'] },
    reads: 'skill-md',
  },
  {
    name: 'cursor',
    title: 'Cursor',
    aliases: ['cursor-agent', 'cursor-cli'],
    project: '.cursor/skills',
    user: '.cursor/skills',
    homeVariables: [],
    detect: { project: ['.cursor'], home: ['.cursor'] },
    reads: 'skill-md',
  },
  {
    name: 'github-copilot',
    title: 'GitHub Copilot',
    aliases: ['copilot', 'copilot-cli', 'gh-copilot', 'vscode', 'vs-code'],
    project: '.github/skills',
    user: '.copilot/skills',
    homeVariables: [{ name: 'COPILOT_HOME', under: '.copilot' }],
    detect: { project: ['.github/copilot-instructions.md'], home: ['.copilot'] },
    reads: 'skill-md',
  },
  {
    name: 'gemini-cli',
    title: 'Gemini CLI',
    aliases: ['gemini'],
    project: '.gemini/skills',
    user: '.gemini/skills',
    homeVariables: [],
    detect: { project: ['.gemini', 'GEMINI.md'], home: ['.gemini'] },
    reads: 'skill-md',
  },
  {
    name: 'opencode',
    title: 'OpenCode',
    aliases: ['open-code'],
    project: '.opencode/skills',
    user: '.config/opencode/skills',
    homeVariables: [XDG],
    detect: { project: ['.opencode', 'opencode.json', 'opencode.jsonc'], home: ['.config/opencode'] },
    reads: 'skill-md',
  },
  {
    name: 'goose',
    title: 'goose',
    aliases: ['block-goose'],
    project: '.goose/skills',
    user: '.config/goose/skills',
    homeVariables: [XDG],
    detect: { project: ['.goose', '.goosehints'], home: ['.config/goose'] },
    reads: 'skill-md',
  },
  {
    name: 'windsurf',
    title: 'Windsurf',
    aliases: ['codeium', 'cascade'],
    project: '.windsurf/skills',
    user: '.codeium/windsurf/skills',
    homeVariables: [],
    detect: { project: ['.windsurf'], home: ['.codeium/windsurf'] },
    reads: 'skill-md',
  },
  {
    name: 'amp',
    title: 'Amp',
    aliases: ['ampcode', 'amp-code'],
    project: '.agents/skills',
    user: '.config/agents/skills',
    homeVariables: [XDG],
    detect: { project: ['.amp'], home: ['.config/amp'] },
    reads: 'skill-md',
  },
  {
    name: 'antigravity',
    title: 'Google Antigravity',
    aliases: ['agy', 'google-antigravity', 'antigravity-cli', 'antigravity-ide'],
    // antigravity.google/docs/skills: workspace skills in <workspace-root>/.agents/skills, global ones in
    // ~/.gemini/config/skills; it "now uses .agents/skills by default and keeps backward compatibility with
    // .agent/skills", the folder its first documentation (and many skills' own READMEs) named.
    project: '.agents/skills',
    legacyProject: '.agent/skills',
    user: '.gemini/config/skills',
    homeVariables: [],
    // ~/.gemini/antigravity* hold its state (one per flavour: IDE, CLI); ~/.gemini/config its global settings.
    detect: {
      project: ['.agent'],
      home: ['.gemini/antigravity', '.gemini/antigravity-cli', '.gemini/antigravity-ide', '.gemini/config'],
    },
    reads: 'skill-md',
  },
  {
    name: 'agents',
    title: 'Agent Skills (generic)',
    aliases: ['generic', 'universal', 'agent-skills', 'agentskills', 'agents-md'],
    project: '.agents/skills',
    user: '.agents/skills',
    homeVariables: [],
    detect: { project: ['.agents'], home: ['.agents'] },
    reads: 'both',
  },
];

/** How a typed name is compared: case, spaces and underscores do not count (`Claude Code` is `claude-code`). */
const normal = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');

/** The agent of a name or alias, or undefined. */
export function findAgent(name: string, agents: readonly Agent[] = AGENTS): Agent | undefined {
  const n = normal(name);
  return agents.find((a) => a.name === n || a.aliases.includes(n));
}

/** The agents' ids, in table order. */
export function agentNames(agents: readonly Agent[] = AGENTS): string[] {
  return agents.map((a) => a.name);
}

/** Whether skills in this agent's folder may be manifest.json skills: only in folders every reader reads both. */
export function readsManifestSkills(target: Agent | { readers: readonly Agent[] }): boolean {
  const readers = 'readers' in target ? target.readers : [target];
  return readers.length > 0 && readers.every((a) => a.reads === 'both');
}

export interface AgentPlaceOptions {
  cwd: string;
  home: string;
  env: Record<string, string | undefined>;
}

/**
 * A path below home for an agent, absolute, as the agent finds it: below the variable that moves it when that is
 * set to an absolute path. A relative value (a quoted `~/.claude-work` is one) is not used, as the XDG specification
 * says of its variables: taken from the working folder, `agents`, `doctor` and `install --global` would each put it
 * somewhere else (homeVariableWarnings says so).
 */
export function agentHomePath(agent: Agent, rel: string, opts: AgentPlaceOptions): string {
  for (const v of agent.homeVariables) {
    const value = opts.env[v.name];
    if (!value || !isAbsolute(value)) continue;
    if (rel === v.under || rel.startsWith(`${v.under}/`)) return join(value, rel.slice(v.under.length));
  }
  return join(opts.home, rel);
}

/**
 * A user folder below home (`.claude/skills`) where the agents read it: moved as agentHomePath moves it by the first
 * agent whose variable covers it (CLAUDE_CONFIG_DIR for `.claude`), else below home. Every command that reads or
 * writes the user folders goes through here or agentHomePath, so `list` and `install --global` cannot disagree.
 */
export function userHomePath(rel: string, opts: AgentPlaceOptions, agents: readonly Agent[] = AGENTS): string {
  const below = join(opts.home, rel);
  for (const a of agents) {
    const moved = agentHomePath(a, rel, opts);
    if (moved !== below) return moved;
  }
  return below;
}

/**
 * One warning for each variable that moves the agents' folders and is set to a path that is not absolute: it is not
 * used (agentHomePath), and the folder below home is read instead.
 */
export function homeVariableWarnings(env: Record<string, string | undefined>, agents = AGENTS): string[] {
  const variables = [...new Map(agents.flatMap((a) => a.homeVariables).map((v) => [v.name, v])).values()];
  return variables.flatMap((v) => {
    const value = env[v.name];
    if (!value || isAbsolute(value)) return [];
    const example = value === '~' || value.startsWith('~/') ? `"$HOME${value.slice(1)}"` : '"/home/me/…"';
    return [
      `${v.name} is ${JSON.stringify(value)}, which is not an absolute path, so it is not used: ~/${v.under} is read in its place. It must be an absolute path, e.g. ${v.name}=${example} (a ~ in quotes is not expanded by the shell)`,
    ];
  });
}

/** The agent's user skill folder, absolute; undefined when it reads none. */
export function userFolder(agent: Agent, opts: AgentPlaceOptions): string | undefined {
  return agent.user === undefined ? undefined : agentHomePath(agent, agent.user, opts);
}

export interface ResolvedAgent {
  /** The first agent named that reads this folder. */
  agent: Agent;
  /** The folder, absolute. */
  dir: string;
  /** Every agent named that reads this folder (two agents may share one, as .agents/skills). */
  readers: Agent[];
}

export interface ResolveAgentsOptions extends AgentPlaceOptions {
  /** The user folders instead of the project's. */
  global?: boolean;
  /** The table to look in (tests); AGENTS by default. */
  agents?: readonly Agent[];
}

/**
 * The folders of the agents named: names may be comma-separated and repeated, and aliases are accepted. Each
 * folder comes once, with every agent that reads it. An unknown name, or `global` for an agent with no user
 * folder, is a usage error.
 */
export function resolveAgents(names: string[], opts: ResolveAgentsOptions): ResolvedAgent[] {
  const table = opts.agents ?? AGENTS;
  const typed = names.flatMap((n) => n.split(',')).map((n) => n.trim());
  const wanted = typed.filter(Boolean);
  if (names.length > 0 && wanted.length === 0)
    throw new SkillsError('E_USAGE', `no agent named in ${JSON.stringify(names.join(','))}`, {
      hint: `name one or more agents, comma-separated, e.g. claude-code,cursor; known agents: ${agentNames(table).join(', ')}`,
    });
  const out: ResolvedAgent[] = [];
  for (const name of wanted) {
    const agent = findAgent(name, table);
    if (!agent) throw unknownAgent(name, table);
    const dir = opts.global ? userFolder(agent, opts) : resolve(opts.cwd, agent.project);
    if (dir === undefined)
      throw new SkillsError(
        'E_USAGE',
        `${agent.name} (${agent.title}) reads no user skill folder, so it cannot be used with --global`,
        {
          hint: `install into its project folder (${agent.project}) instead: leave out --global`,
        },
      );
    const same = out.find((r) => r.dir === dir);
    if (!same) out.push({ agent, dir, readers: [agent] });
    else if (!same.readers.includes(agent)) same.readers.push(agent);
  }
  return out;
}

function unknownAgent(name: string, table: readonly Agent[]): SkillsError {
  const words = table.flatMap((a) => [a.name, ...a.aliases]);
  const near = closest(normal(name), words);
  return new SkillsError(
    'E_USAGE',
    `unknown agent "${name}"${near ? `; did you mean "${near}"?` : ''} Known agents: ${agentNames(table).join(', ')}`,
    { hint: 'skills agents lists every agent with the folders it reads skills from' },
  );
}

export interface AgentDetection {
  agent: Agent;
  /** Its project skill folder, absolute, and whether it is there. */
  projectDir: string;
  projectExists: boolean;
  /** Its user skill folder, absolute (none when it reads none), and whether it is there. */
  userDir: string | undefined;
  userExists: boolean;
  /** The older user folder it still reads (Agent.legacyUser), absolute, when it is there. */
  legacyDir?: string;
  /** The older project folder it still reads (Agent.legacyProject), absolute, when it is there. */
  legacyProjectDir?: string;
  /** Used in this project: its skill folder, or one of `detect.project`, is there. */
  here: boolean;
  /** Used by this user: its user skill folder, or its config folder below home, is there. */
  user: boolean;
  /** The paths that were found, absolute: why `here` and `user` are what they are. */
  found: string[];
}

/** For each agent: whether its folders, and the files that mean it is used, are in the project and below home. */
export function detectAgents(opts: AgentPlaceOptions & { agents?: readonly Agent[] }): AgentDetection[] {
  return (opts.agents ?? AGENTS).map((agent) => {
    const projectDir = resolve(opts.cwd, agent.project);
    const userDir = userFolder(agent, opts);
    const projectExists = isFolder(projectDir);
    const userExists = userDir !== undefined && isFolder(userDir);
    const legacy = agent.legacyUser === undefined ? undefined : agentHomePath(agent, agent.legacyUser, opts);
    const legacyDir = legacy !== undefined && isFolder(legacy) ? legacy : undefined;
    const legacyProject = agent.legacyProject === undefined ? undefined : resolve(opts.cwd, agent.legacyProject);
    const legacyProjectDir = legacyProject !== undefined && isFolder(legacyProject) ? legacyProject : undefined;
    const inProject = agent.detect.project.map((p) => resolve(opts.cwd, p)).filter(present);
    const inHome = agent.detect.home.map((p) => agentHomePath(agent, p, opts)).filter(present);
    const found = [
      ...(projectExists ? [projectDir] : []),
      ...(legacyProjectDir !== undefined ? [legacyProjectDir] : []),
      ...inProject,
    ];
    const foundHome = [...(userExists ? [userDir] : []), ...inHome];
    return {
      agent,
      projectDir,
      projectExists,
      userDir,
      userExists,
      ...(legacyDir !== undefined ? { legacyDir } : {}),
      ...(legacyProjectDir !== undefined ? { legacyProjectDir } : {}),
      here: found.length > 0,
      user: foundHome.length > 0,
      found: [...new Set([...found, ...foundHome])],
    };
  });
}

/**
 * The agents used here, each with the skill folder it reads: in the project, those whose files are there (a .claude
 * folder, CLAUDE.md, .cursor, …) and their project folder; with `global`, those found below home and their user
 * folder.
 */
export function agentsInUse(
  opts: AgentPlaceOptions & { agents?: readonly Agent[] },
  global: boolean,
): { found: AgentDetection; dir: string }[] {
  return detectAgents(opts).flatMap((d) =>
    global
      ? d.user && d.userDir !== undefined
        ? [{ found: d, dir: d.userDir }]
        : []
      : d.here
        ? [{ found: d, dir: d.projectDir }]
        : [],
  );
}

/**
 * The agents' project skill folders that are there in the project, absolute, in table order; a folder reached
 * twice (shared, or a symlink to another) comes once.
 */
export function projectAgentFolders(cwd: string, agents: readonly Agent[] = AGENTS): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const agent of agents) {
    const dir = resolve(cwd, agent.project);
    if (!isFolder(dir)) continue;
    const key = real(dir);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(dir);
  }
  return out;
}
