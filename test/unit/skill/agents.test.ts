import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isSkillsError } from '../../../src/errors.js';
import {
  AGENTS,
  agentNames,
  detectAgents,
  findAgent,
  homeVariableWarnings,
  projectAgentFolders,
  readsManifestSkills,
  resolveAgents,
  type Agent,
} from '../../../src/skill/agents.js';
import { tempFolders } from '../../helpers/cli.js';
import { writeTree } from '../../helpers/tree.js';

const temp = tempFolders('skills-agents-');
afterAll(() => temp.cleanup());

const at = { cwd: '/p', home: '/h', env: {} };
const dirs = (names: string[], opts: Partial<Parameters<typeof resolveAgents>[1]> = {}) =>
  resolveAgents(names, { ...at, ...opts }).map((r) => r.dir);

/** The error a call throws, so its code, message and hint can be checked together. */
function thrown(fn: () => unknown): { code: string; message: string; hint?: string } {
  try {
    fn();
  } catch (err) {
    if (isSkillsError(err)) return { code: err.code, message: err.message, hint: err.hint };
    throw err;
  }
  throw new Error('expected a SkillsError');
}

describe('the agent table', () => {
  it('has the agents of the issue, unique names and aliases, and folders relative to their roots', () => {
    expect(agentNames()).toEqual(
      expect.arrayContaining([
        'claude-code',
        'codex',
        'cursor',
        'github-copilot',
        'gemini-cli',
        'opencode',
        'goose',
        'windsurf',
        'amp',
        'agents',
      ]),
    );
    const words = AGENTS.flatMap((a) => [a.name, ...a.aliases]);
    expect(new Set(words).size).toBe(words.length);
    for (const a of AGENTS) {
      expect(a.project).not.toMatch(/^[/~]/);
      if (a.user !== undefined) expect(a.user).not.toMatch(/^[/~]/);
    }
  });

  it('finds agents by name and by the aliases people type, whatever the case and spacing', () => {
    expect(findAgent('claude')?.name).toBe('claude-code');
    expect(findAgent('Claude Code')?.name).toBe('claude-code');
    expect(findAgent('copilot')?.name).toBe('github-copilot');
    expect(findAgent('gemini')?.name).toBe('gemini-cli');
    expect(findAgent('generic')?.name).toBe('agents');
    expect(findAgent('UNIVERSAL')?.name).toBe('agents');
    expect(findAgent('nope')).toBeUndefined();
  });

  it('says only the generic folder reads manifest.json skills', () => {
    expect(AGENTS.filter((a) => readsManifestSkills(a)).map((a) => a.name)).toEqual(['agents']);
    const [generic] = resolveAgents(['agents'], at);
    expect(readsManifestSkills(generic!)).toBe(true);
    // .agents/skills named for codex too: codex reads SKILL.md only, so a manifest skill there deserves a warning.
    const [shared] = resolveAgents(['agents,codex'], at);
    expect(readsManifestSkills(shared!)).toBe(false);
    expect(readsManifestSkills(resolveAgents(['claude'], at)[0]!)).toBe(false);
  });
});

describe('resolveAgents', () => {
  it('gives each agent its project folder, absolute, accepting aliases and comma-separated lists', () => {
    expect(dirs(['claude'])).toEqual(['/p/.claude/skills']);
    expect(dirs(['cursor, copilot', 'gemini'])).toEqual([
      '/p/.cursor/skills',
      '/p/.github/skills',
      '/p/.gemini/skills',
    ]);
    expect(dirs(['opencode,goose,windsurf'])).toEqual([
      '/p/.opencode/skills',
      '/p/.goose/skills',
      '/p/.windsurf/skills',
    ]);
    expect(dirs([])).toEqual([]);
    // Google Antigravity: .agents/skills in the workspace (shared), ~/.gemini/config/skills for the user.
    expect(dirs(['agy'])).toEqual(['/p/.agents/skills']);
    expect(dirs(['Antigravity'], { global: true })).toEqual(['/h/.gemini/config/skills']);
    expect(resolveAgents(['codex,antigravity'], at)[0]!.readers.map((a) => a.name)).toEqual(['codex', 'antigravity']);
  });

  it('collapses repeated names and agents that share a folder into one folder, with every reader', () => {
    expect(dirs(['claude', 'claude-code,claude'])).toEqual(['/p/.claude/skills']);
    const shared = resolveAgents(['codex,amp', 'generic', 'cursor'], at);
    expect(shared.map((r) => [r.dir, r.agent.name, r.readers.map((a) => a.name)])).toEqual([
      ['/p/.agents/skills', 'codex', ['codex', 'amp', 'agents']],
      ['/p/.cursor/skills', 'cursor', ['cursor']],
    ]);
  });

  it('picks the user folders with global, below home or where the agent’s variable moves them', () => {
    expect(dirs(['claude', 'codex', 'copilot', 'opencode', 'windsurf', 'amp'], { global: true })).toEqual([
      '/h/.claude/skills',
      '/h/.agents/skills',
      '/h/.copilot/skills',
      '/h/.config/opencode/skills',
      '/h/.codeium/windsurf/skills',
      '/h/.config/agents/skills',
    ]);
    const env = { CLAUDE_CONFIG_DIR: '/cc', XDG_CONFIG_HOME: '/xdg', COPILOT_HOME: '/gh', CODEX_HOME: '/cx' };
    expect(dirs(['claude', 'opencode', 'goose', 'amp', 'copilot', 'codex', 'cursor'], { global: true, env })).toEqual([
      '/cc/skills',
      '/xdg/opencode/skills',
      '/xdg/goose/skills',
      '/xdg/agents/skills',
      '/gh/skills',
      // CODEX_HOME moves Codex's config, not ~/.agents/skills.
      '/h/.agents/skills',
      '/h/.cursor/skills',
    ]);
    // A relative XDG_CONFIG_HOME is ignored, as the XDG specification says.
    expect(dirs(['opencode'], { global: true, env: { XDG_CONFIG_HOME: 'rel' } })).toEqual([
      '/h/.config/opencode/skills',
    ]);
    // Without global the variables change nothing.
    expect(dirs(['claude'], { env })).toEqual(['/p/.claude/skills']);
  });

  it('does not use a relative agent variable (a quoted ~ is one): the folder below home is read, and a warning says so', () => {
    const env = {
      CLAUDE_CONFIG_DIR: '~/.claude-work',
      CODEX_HOME: 'codex',
      XDG_CONFIG_HOME: 'rel',
      COPILOT_HOME: '/gh',
    };
    expect(dirs(['claude', 'opencode', 'copilot'], { global: true, env })).toEqual([
      '/h/.claude/skills',
      '/h/.config/opencode/skills',
      '/gh/skills',
    ]);
    const warnings = homeVariableWarnings(env);
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toBe(
      'CLAUDE_CONFIG_DIR is "~/.claude-work", which is not an absolute path, so it is not used: ~/.claude is read in its place. It must be an absolute path, e.g. CLAUDE_CONFIG_DIR="$HOME/.claude-work" (a ~ in quotes is not expanded by the shell)',
    );
    expect(warnings[1]).toMatch(/^CODEX_HOME is "codex", .* ~\/\.codex is read in its place/);
    expect(warnings[2]).toMatch(/^XDG_CONFIG_HOME is "rel", .* ~\/\.config is read in its place/);
    expect(homeVariableWarnings({ CLAUDE_CONFIG_DIR: '/cc', CODEX_HOME: '' })).toEqual([]);
  });

  it('refuses an unknown name with the nearest one and the list of agents', () => {
    const e = thrown(() => resolveAgents(['cursor,claud'], at));
    expect(e.code).toBe('E_USAGE');
    expect(e.message).toContain('unknown agent "claud"; did you mean "claude"?');
    expect(e.message).toContain(agentNames().join(', '));
    expect(e.hint).toContain('skills agents');
    const far = thrown(() => resolveAgents(['zzzzzz'], at));
    expect(far.message).not.toContain('did you mean');
    expect(far.message).toContain('claude-code');
  });

  it('refuses a list that names no agent', () => {
    expect(thrown(() => resolveAgents([' , '], at))).toMatchObject({ code: 'E_USAGE' });
  });

  it('refuses global for an agent that reads no user folder, naming it', () => {
    const table: Agent[] = [{ ...AGENTS[0]!, name: 'local-only', aliases: [], user: undefined }];
    const e = thrown(() => resolveAgents(['local-only'], { ...at, global: true, agents: table }));
    expect(e.code).toBe('E_USAGE');
    expect(e.message).toContain('local-only');
    expect(e.message).toContain('--global');
    expect(resolveAgents(['local-only'], { ...at, agents: table }).map((r) => r.dir)).toEqual(['/p/.claude/skills']);
  });
});

describe('detectAgents', () => {
  const byName = (d: ReturnType<typeof detectAgents>) => Object.fromEntries(d.map((x) => [x.agent.name, x]));

  it('marks an agent here by its skill folder or its config in the project, and user by its folders below home', () => {
    const cwd = temp.fresh('project');
    const home = temp.fresh('home');
    mkdirSync(join(cwd, '.claude/skills'), { recursive: true });
    writeTree(cwd, { 'GEMINI.md': '# Gemini\n' });
    mkdirSync(join(home, '.cursor'), { recursive: true });
    mkdirSync(join(home, '.config/opencode/skills'), { recursive: true });
    const d = byName(detectAgents({ cwd, home, env: {} }));
    expect(d['claude-code']).toMatchObject({
      here: true,
      projectExists: true,
      projectDir: join(cwd, '.claude/skills'),
      user: false,
      userDir: join(home, '.claude/skills'),
    });
    expect(d['gemini-cli']).toMatchObject({ here: true, projectExists: false, found: [join(cwd, 'GEMINI.md')] });
    expect(d.cursor).toMatchObject({ here: false, user: true, userExists: false, found: [join(home, '.cursor')] });
    expect(d.opencode).toMatchObject({ here: false, user: true, userExists: true });
    expect(
      Object.values(d)
        .filter((x) => x.here)
        .map((x) => x.agent.name),
    ).toEqual(['claude-code', 'gemini-cli']);
    expect(
      Object.values(d)
        .filter((x) => x.user)
        .map((x) => x.agent.name),
    ).toEqual(['cursor', 'opencode']);
  });

  it('looks below CLAUDE_CONFIG_DIR and XDG_CONFIG_HOME when they are set', () => {
    const cwd = temp.fresh('project');
    const home = temp.fresh('home');
    const claude = temp.fresh('claude-config');
    const xdg = temp.fresh('xdg');
    mkdirSync(join(xdg, 'goose'));
    mkdirSync(join(home, '.claude'));
    const d = byName(detectAgents({ cwd, home, env: { CLAUDE_CONFIG_DIR: claude, XDG_CONFIG_HOME: xdg } }));
    expect(d['claude-code']).toMatchObject({ user: true, userDir: join(claude, 'skills'), found: [claude] });
    expect(d.goose).toMatchObject({ user: true, found: [join(xdg, 'goose')] });
    expect(byName(detectAgents({ cwd, home, env: {} })).goose!.user).toBe(false);
  });
});

describe('projectAgentFolders', () => {
  it('lists the agent folders in the project, once each, absolute, in table order', () => {
    const cwd = temp.fresh('project');
    expect(projectAgentFolders(cwd)).toEqual([]);
    for (const d of ['.cursor/skills', '.claude/skills', '.agents/skills', '.windsurf'])
      mkdirSync(join(cwd, d), { recursive: true });
    writeTree(cwd, { '.gemini/skills': 'a file, not a folder' });
    expect(projectAgentFolders(cwd)).toEqual([
      join(cwd, '.claude/skills'),
      join(cwd, '.agents/skills'),
      join(cwd, '.cursor/skills'),
    ]);
  });

  it('counts a folder linked to another agent’s folder once', () => {
    const cwd = temp.fresh('project');
    mkdirSync(join(cwd, '.agents/skills'), { recursive: true });
    mkdirSync(join(cwd, '.claude'));
    symlinkSync('../.agents/skills', join(cwd, '.claude/skills'));
    expect(projectAgentFolders(cwd)).toEqual([join(cwd, '.claude/skills')]);
  });
});
