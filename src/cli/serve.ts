// `skills serve`: the skills over MCP (the io.modelcontextprotocol/skills extension, SEP-2640, and tools for
// clients without it), over stdio or Streamable HTTP.
import { Option, type Command } from 'commander';
import type { Kit } from './kit.js';

export function defineServe(program: Command, { act, examples, collectList }: Kit): void {
  program
    .command('serve')
    .description(
      'serve the skills render-prompt would read over MCP (stdio, or Streamable HTTP with --http): the skills extension, and list_skills, load_skill and read_skill_file tools',
    )
    .argument(
      '[dirs...]',
      'skill folders, or folders that hold skills (default: skillDirs, else the project and user folders)',
    )
    .option('--http <port>', 'serve Streamable HTTP on this port (0: a free one) at /mcp instead of stdio')
    .option('--host <host>', 'the address --http binds to', '127.0.0.1')
    .option('--token <token>', 'require Authorization: Bearer <token> over HTTP (default: SKILLS_SERVE_TOKEN)')
    .option('--allow-host <name>', 'also accept this Host header over HTTP (repeatable)', collectList)
    .option(
      '--allow-origin <origin>',
      'also accept requests from this browser Origin over HTTP (repeatable)',
      collectList,
    )
    .option(
      '--session-idle <minutes>',
      'close an HTTP session no request has used for this long (default: SKILLS_SERVE_SESSION_IDLE, else 30)',
    )
    .option(
      '--max-sessions <n>',
      'at most this many open HTTP sessions; past it the least recently used is closed (default: SKILLS_SERVE_MAX_SESSIONS, else 100)',
    )
    .option(
      '--allow-scripts [list]',
      "run skills' scripts as tools: all of them (alone, or `all`), or a comma list of <skill>/<script> or <skill>",
    )
    .option(
      '--secrets <file>',
      'the secrets file for scripts (default: SKILLS_SECRETS, else secrets/env.json beside the registry)',
    )
    .option('--timeout <seconds>', 'end a script tool after this many seconds', '60')
    .option('--no-watch', 'do not watch the folders (no live updates)')
    .option('--verbose', 'print every warning about single skills, not the first 10 and a count')
    .addOption(
      new Option('--registry <dir>', 'also serve this registry (default: the usual registry when no dirs are given)'),
    )
    .option('--no-registry', 'serve no registry skills')
    .option('-c, --config <file>', 'the skills.config.json to use (skillDirs, disabledSkills)')
    .option(
      '--print-config <agent>',
      "print the snippet that registers this server in the agent's MCP configuration, and exit",
    )
    .addHelpText(
      'after',
      '\nstdout is the MCP channel over stdio; messages go to stderr. Exit code 0 when the client goes (stdio) or on Ctrl-C (HTTP); 2 on a usage error.\n' +
        examples([
          'skills serve examples/skills',
          'skills serve --print-config claude-code examples/skills > .mcp.json',
          'skills serve --http 8765 --allow-scripts web-scraping/scraper',
        ]),
    )
    .action(act(async () => (await import('../commands/serve.js')).serve, ['dirs']));
}
