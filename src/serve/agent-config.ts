// `skills serve --print-config <agent>`: the snippet that registers this server in an agent's MCP configuration,
// in the file and shape that agent reads.
import { SkillsError } from '../errors.js';
import { agentNames, findAgent } from '../skill/agents.js';

export interface AgentConfig {
  agent: string;
  /** Where the snippet goes (merged into what the file holds). */
  file: string;
  format: 'json' | 'toml' | 'yaml';
  text: string;
}

/** The server's name in every configuration. */
export const SERVER_NAME = 'skills';

/** The snippet for an agent; `command` and `args` start the server (`npx -y skillsmith serve …`). */
export function agentConfig(agentName: string, command: string, args: string[]): AgentConfig {
  const agent = findAgent(agentName);
  if (!agent)
    throw new SkillsError('E_USAGE', `--print-config: no agent "${agentName}"`, {
      hint: `the agents: ${agentNames().join(', ')}`,
    });
  const stdio = { command, args };
  const mcpServers = (extra: Record<string, unknown> = {}) => ({
    mcpServers: { [SERVER_NAME]: { ...stdio, ...extra } },
  });
  const json = (file: string, data: unknown): AgentConfig => ({
    agent: agent.name,
    file,
    format: 'json',
    text: `${JSON.stringify(data, null, 2)}\n`,
  });
  switch (agent.name) {
    case 'claude-code':
      return json('.mcp.json', mcpServers());
    case 'cursor':
      return json('.cursor/mcp.json', mcpServers());
    case 'github-copilot':
      return json('.vscode/mcp.json', { servers: { [SERVER_NAME]: { type: 'stdio', ...stdio } } });
    case 'gemini-cli':
      return json('.gemini/settings.json', mcpServers());
    case 'windsurf':
      return json('~/.codeium/windsurf/mcp_config.json', mcpServers());
    case 'antigravity':
      // Antigravity 2's global customization folder (its 1.x releases read ~/.gemini/antigravity/mcp_config.json).
      return json('~/.gemini/config/mcp_config.json', mcpServers());
    case 'amp':
      return json('.amp/settings.json', { 'amp.mcpServers': { [SERVER_NAME]: stdio } });
    case 'opencode':
      return json('opencode.json', {
        $schema: 'https://opencode.ai/config.json',
        mcp: { [SERVER_NAME]: { type: 'local', command: [command, ...args], enabled: true } },
      });
    case 'codex':
      return {
        agent: agent.name,
        file: '~/.codex/config.toml',
        format: 'toml',
        text: `[mcp_servers.${SERVER_NAME}]\ncommand = ${tomlString(command)}\nargs = [${args.map(tomlString).join(', ')}]\n`,
      };
    case 'goose':
      return {
        agent: agent.name,
        file: '~/.config/goose/config.yaml',
        format: 'yaml',
        text: `extensions:\n  ${SERVER_NAME}:\n    name: ${SERVER_NAME}\n    type: stdio\n    enabled: true\n    cmd: ${JSON.stringify(command)}\n    args: [${args.map((a) => JSON.stringify(a)).join(', ')}]\n    timeout: 300\n`,
      };
    default:
      // The generic agent (and any agent added later): the mcpServers shape most clients read.
      return json('.mcp.json', mcpServers());
  }
}

/** A TOML basic string (JSON's escapes are TOML's for these characters). */
function tomlString(s: string): string {
  return JSON.stringify(s);
}
