import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { homeOf, type Context } from '../context.js';
import { SkillsError } from '../errors.js';
import { loadConfig } from '../config/config.js';
import { buildCatalog } from '../prompt/catalog.js';
import { candidateOf, selectSkills } from '../prompt/select.js';
import { shownWarnings } from '../prompt/skill-warnings.js';
import { registryFor } from '../registry/locate.js';
import { runSkillScript } from '../run/run.js';
import { listScripts } from '../run/scripts.js';
import { agentConfig, type AgentConfig } from '../serve/agent-config.js';
import { isLoopback } from '../serve/http.js';
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MINUTES } from '../serve/sessions.js';
import { parseAllowScripts } from '../serve/script-tools.js';
import { serveSkills, type ServeResult } from '../serve/serve.js';
import type { ScriptRun, SkillSource, SourceSkill } from '../serve/source.js';
import type { CatalogEntry } from '../skill/light.js';
import { setDiscoveryLimits } from '../skill/discover.js';
import { skillFolders, userFolderWarnings } from '../skill/folders.js';
import { forTerminal } from '../ui/terminal-text.js';
import { isFolder } from '../fs/walk.js';

export interface ServeOptions {
  dirs: string[];
  /** A folder, or false for --no-registry. */
  registry?: string | false;
  config?: string;
  /** --http <port>: Streamable HTTP instead of stdio. */
  http?: string;
  host?: string;
  token?: string;
  allowHost?: string[];
  allowOrigin?: string[];
  /** --session-idle <minutes> (default SKILLS_SERVE_SESSION_IDLE, else 30). */
  sessionIdle?: string;
  /** --max-sessions <n> (default SKILLS_SERVE_MAX_SESSIONS, else 100). */
  maxSessions?: string;
  /** true: every script; a comma list of <skill>/<script>. */
  allowScripts?: string | boolean;
  secrets?: string;
  timeout?: string;
  /** false: --no-watch. */
  watch?: boolean;
  /** Every warning about single skills, not the first few. */
  verbose?: boolean;
  printConfig?: string;
  /** Ends the server; SIGINT and SIGTERM do too. */
  signal?: AbortSignal;
}

export type ServeCommandResult = { exitCode: number } & (Partial<ServeResult> | { config: AgentConfig });

/** `skills serve [dirs…]`: the skills render-prompt would read, over MCP (stdio, or Streamable HTTP). */
export async function serve(options: ServeOptions, ctx: Context): Promise<ServeCommandResult> {
  setDiscoveryLimits(ctx.env);
  const given = options.dirs ?? [];
  for (const d of given) {
    if (!existsSync(resolve(ctx.cwd, d)))
      throw new SkillsError('E_NOT_FOUND', `${d}: no such folder`, {
        hint: 'give skill folders or folders that hold skills',
      });
  }
  // `--allow-scripts ./skills` reads the folder as the list: said, rather than serving other skills than meant.
  const list = options.allowScripts;
  if (typeof list === 'string' && !list.includes(',') && isFolder(resolve(ctx.cwd, list)))
    throw new SkillsError('E_USAGE', `--allow-scripts took the folder "${list}" as its list of scripts`, {
      hint: `give the folders first (skills serve ${list} --allow-scripts), or --allow-scripts all; a skill of that name: --allow-scripts ${list}/*`,
    });
  const allow = parseAllowScripts(list);
  const timeoutSeconds = options.timeout === undefined ? 60 : Number(options.timeout);
  if (!(timeoutSeconds > 0 && timeoutSeconds <= 2147483))
    throw new SkillsError('E_USAGE', `--timeout must be a number of seconds above 0, not "${options.timeout}"`);

  if (options.printConfig !== undefined) {
    const config = agentConfig(options.printConfig, 'npx', ['-y', 'skillsmith', 'serve', ...passOn(options, ctx)]);
    ctx.stderr.write(`# ${config.file} (merge into what it holds)\n`);
    ctx.stdout.write(config.text);
    return { exitCode: 0, config };
  }

  const http = options.http === undefined ? undefined : httpOptions(options, ctx, allow !== undefined);
  const source = skillSource(options, ctx);
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  options.signal?.addEventListener('abort', onSignal, { once: true });
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const say = (line: string) => ctx.stderr.write(`${forTerminal(line)}\n`);
  try {
    const result = await serveSkills(
      source.source,
      {
        name: 'skills',
        version: ctx.version,
        allow,
        timeoutSeconds,
        warn: say,
        http,
        watched: options.watch === false ? undefined : source.watched(),
        signal: stop.signal,
        ready: (url, n) =>
          say(
            `serving ${n} skill${n === 1 ? '' : 's'} over ${url ?? 'stdio'}${allow ? `; scripts run as tools (${allow.all ? 'all' : allow.rules.map((r) => (r.script ? `${r.skill}/${r.script}` : r.skill)).join(', ')})` : ''}${url ? '; Ctrl-C to stop' : ''}`,
          ),
      },
      { stdin: ctx.stdin, stdout: ctx.stdout },
    );
    return { exitCode: 0, ...result };
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** The options --print-config hands on to the server it registers, with paths made absolute. */
function passOn(options: ServeOptions, ctx: Context): string[] {
  const out = (options.dirs ?? []).map((d) => resolve(ctx.cwd, d));
  if (options.registry === false) out.push('--no-registry');
  else if (options.registry) out.push('--registry', resolve(ctx.cwd, options.registry));
  if (options.config) out.push('--config', resolve(ctx.cwd, options.config));
  if (options.allowScripts === true) out.push('--allow-scripts', 'all');
  else if (typeof options.allowScripts === 'string') out.push('--allow-scripts', options.allowScripts);
  if (options.secrets) out.push('--secrets', resolve(ctx.cwd, options.secrets));
  if (options.timeout !== undefined && options.timeout !== '60') out.push('--timeout', options.timeout);
  return out;
}

function httpOptions(options: ServeOptions, ctx: Context, scripts: boolean) {
  const port = Number(options.http);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new SkillsError('E_USAGE', `--http must be a port number from 0 to 65535, not "${options.http}"`, {
      hint: 'skills serve --http 8765 (0 picks a free port)',
    });
  const host = options.host ?? '127.0.0.1';
  const fromEnv = ctx.env.SKILLS_SERVE_TOKEN;
  const token = options.token ?? (fromEnv !== undefined && fromEnv !== '' ? fromEnv : undefined);
  if (token !== undefined && token.length < 16)
    throw new SkillsError('E_USAGE', 'the token (--token or SKILLS_SERVE_TOKEN) must be at least 16 characters', {
      hint: 'openssl rand -hex 24',
    });
  if (!isLoopback(host) && token === undefined) {
    if (scripts)
      throw new SkillsError(
        'E_USAGE',
        `--allow-scripts on --host ${host} needs a token: anyone who reaches the port could run them`,
        {
          hint: 'set SKILLS_SERVE_TOKEN (or --token) to a long random value',
        },
      );
    ctx.stderr.write(`warning: --host ${host} without a token: anyone who reaches the port can read the skills\n`);
  }
  const idle = numberSetting(options.sessionIdle, ctx.env.SKILLS_SERVE_SESSION_IDLE, DEFAULT_SESSION_IDLE_MINUTES, {
    flag: '--session-idle',
    env: 'SKILLS_SERVE_SESSION_IDLE',
    what: 'a number of minutes above 0',
    ok: (n) => n > 0 && n <= 35791,
    example: '--session-idle 10',
  });
  const maxSessions = numberSetting(options.maxSessions, ctx.env.SKILLS_SERVE_MAX_SESSIONS, DEFAULT_MAX_SESSIONS, {
    flag: '--max-sessions',
    env: 'SKILLS_SERVE_MAX_SESSIONS',
    what: 'a whole number from 1 to 100000',
    ok: (n) => Number.isInteger(n) && n >= 1 && n <= 100_000,
    example: '--max-sessions 20',
  });
  return {
    port,
    host,
    token,
    allowHosts: options.allowHost ?? [],
    allowOrigins: options.allowOrigin ?? [],
    sessionIdleMs: Math.round(idle * 60_000),
    maxSessions,
  };
}

/** A number from its flag, else its environment variable, else the default; refused when `ok` says no. */
function numberSetting(
  flag: string | undefined,
  env: string | undefined,
  fallback: number,
  rule: { flag: string; env: string; what: string; ok: (n: number) => boolean; example: string },
): number {
  const [given, from] =
    flag !== undefined ? [flag, rule.flag] : env !== undefined && env !== '' ? [env, rule.env] : [undefined, ''];
  if (given === undefined) return fallback;
  const n = given.trim() === '' ? NaN : Number(given);
  if (!rule.ok(n))
    throw new SkillsError('E_USAGE', `${from} must be ${rule.what}, not "${given}"`, {
      hint: `skills serve --http 8765 ${rule.example}`,
    });
  return n;
}

/** The skills render-prompt would read, as plain functions for the serve wing. */
function skillSource(
  options: ServeOptions,
  ctx: Context,
): { source: SkillSource; watched: () => { trees: string[]; flat: string[] } } {
  const home = homeOf(ctx);
  const config = loadConfig(ctx.cwd, options.config, home);
  const given = options.dirs ?? [];
  const folders = skillFolders({
    cwd: ctx.cwd,
    home,
    env: ctx.env,
    given,
    configured: given.length > 0 ? undefined : config.skillDirs,
  });
  // Said once, at the start, as list and render-prompt say it; the skills' own warnings go to the client.
  for (const w of userFolderWarnings(folders, ctx.env)) ctx.stderr.write(`warning: ${forTerminal(w)}\n`);
  const useRegistry = options.registry !== false && (given.length === 0 || typeof options.registry === 'string');
  const registry = useRegistry ? registryFor({ registry: options.registry || undefined }, ctx) : undefined;
  const source: SkillSource = {
    skills: () => {
      const c = buildCatalog({ folders, registry, disabled: config.disabledSkills });
      return {
        listed: c.entries.map(sourceOf),
        hidden: c.hidden.map(sourceOf),
        disabled: c.disabled,
        // Every catalog warning is about one skill: a mirror of public skills gave 6,910 lines (2 MB) before the
        // first answer, which a client that pipes stderr and never reads it would never get. The first few, and a
        // count; --verbose all.
        warnings: shownWarnings(c.warnings, c.warnings.length, options.verbose),
      };
    },
    watched: () => folders.map((f) => f.dir).filter(isFolder),
    select: (query, skills, max) =>
      selectSkills(query, skills.map(candidateOf), { max }).selected.map((s) => ({
        name: s.name,
        kind: s.kind,
        score: s.score,
        matched: s.matched,
      })),
    scripts: (skill) => listScripts(skill),
    runScript: async (call): Promise<ScriptRun> => {
      const notices: string[] = [];
      const result = await runSkillScript(
        {
          skill: call.root,
          script: call.script,
          ...(call.words ? { words: call.words } : { args: JSON.stringify(call.args ?? {}) }),
          secrets: options.secrets,
          timeout: options.timeout,
          json: true,
          ...(registry ? { registry } : {}),
          ...(call.signal ? { signal: call.signal } : {}),
        },
        {
          cwd: ctx.cwd,
          env: ctx.env,
          // Never stdin: over stdio it is the client's channel. The arguments always come with the call.
          stdin: Object.assign(Readable.from([]), { isTTY: true }),
          stdout: discard(),
          stderr: discard(),
          notice: (line) => notices.push(line),
        },
      );
      const run = result.run!;
      return { ...run, notices };
    },
  };
  return {
    source,
    watched: () => ({ trees: source.watched(), flat: registry && isFolder(registry) ? [registry] : [] }),
  };
}

function sourceOf(e: CatalogEntry): SourceSkill {
  return {
    name: e.name,
    description: e.description,
    ...(e.briefDescription ? { briefDescription: e.briefDescription } : {}),
    ...(e.version ? { version: e.version } : {}),
    ...(e.triggers ? { triggers: e.triggers } : {}),
    layout: e.layout,
    root: e.root,
    scope: e.scope,
  };
}

function discard(): Writable {
  return new Writable({ write: (_c, _e, done) => done() });
}
