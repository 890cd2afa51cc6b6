import { describe, expect, it } from 'vitest';
import { isSkillsError } from '../../../src/errors.js';
import { agentConfig } from '../../../src/serve/agent-config.js';
import { AGENTS } from '../../../src/skill/agents.js';

const args = ['-y', 'skillsmith', 'serve', '/a b/skills'];

describe('--print-config snippets', () => {
  it('has a snippet for every agent skills knows, naming where it goes', () => {
    for (const a of AGENTS) {
      const c = agentConfig(a.name, 'npx', args);
      expect(c.agent).toBe(a.name);
      expect(c.file).not.toBe('');
      if (c.format === 'json') expect(() => JSON.parse(c.text)).not.toThrow();
      expect(c.text).toContain('/a b/skills');
    }
  });

  it('takes aliases, and gives each agent its shape', () => {
    expect(JSON.parse(agentConfig('Claude Code', 'npx', args).text)).toEqual({
      mcpServers: { skills: { command: 'npx', args } },
    });
    expect(JSON.parse(agentConfig('vscode', 'npx', args).text)).toEqual({
      servers: { skills: { type: 'stdio', command: 'npx', args } },
    });
    expect(JSON.parse(agentConfig('opencode', 'npx', args).text).mcp.skills.command).toEqual(['npx', ...args]);
    expect(agentConfig('codex', 'npx', args).text).toBe(
      '[mcp_servers.skills]\ncommand = "npx"\nargs = ["-y", "skillsmith", "serve", "/a b/skills"]\n',
    );
    expect(agentConfig('goose', 'npx', args).text).toContain('    cmd: "npx"\n');
    const agy = agentConfig('agy', 'npx', args);
    expect([agy.agent, agy.file]).toEqual(['antigravity', '~/.gemini/config/mcp_config.json']);
    expect(JSON.parse(agy.text)).toEqual({ mcpServers: { skills: { command: 'npx', args } } });
  });

  it('refuses an agent it does not know, listing those it does', () => {
    try {
      agentConfig('emacs', 'npx', args);
      throw new Error('not refused');
    } catch (err) {
      expect(isSkillsError(err) && err.code).toBe('E_USAGE');
      expect((err as { hint: string }).hint).toContain('claude-code');
    }
  });
});
