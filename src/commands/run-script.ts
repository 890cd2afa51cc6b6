import { registryFor } from '../registry/locate.js';
import { readHead } from '../skill/script-info.js';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { homeOf, type Context } from '../context.js';
import { loadConfig } from '../config/config.js';
import {
  DEFAULT_TIMEOUT_SECONDS,
  MAX_OUTPUT_BYTES,
  buildEnv,
  declaredEnv,
  chooseInterpreter,
  describeScripts,
  executeScript,
  findSkillFor,
  maskList,
  maskText,
  parseScriptArgs,
  pickScript,
  type RunOutcome,
  type ScriptArgs,
  type ScriptListing,
  type SkillSource,
} from '../run/run-script.js';
import { locateSecrets, readSecrets, secretsFor } from '../run/secrets.js';
import { SkillsError, isSkillsError } from '../errors.js';
import type { Layout } from '../model/skill.js';
import { paint, useColor, type Paint } from '../ui/color.js';

export interface RunScriptOptions {
  skill: string;
  script?: string;
  args?: string;
  argsFile?: string;
  secrets?: string;
  inheritEnv?: boolean;
  timeout?: string | number;
  list?: boolean;
  json?: boolean;
  registry?: string;
  color?: boolean;
  /** Ends the script (the CLI wires SIGINT and SIGTERM to it); tests pass their own. */
  signal?: AbortSignal;
}

/** What `--json` prints for a run. */
export interface RunDocument {
  skill: string;
  script: string;
  exitCode: number;
  durationMs: number;
  success: boolean;
  result?: unknown;
  error?: unknown;
  stdout: string;
  stderr: string;
  truncated: { stdout: boolean; stderr: boolean };
  timedOut: boolean;
}

/** What `--list --json` prints. */
export interface ScriptsDocument {
  skill: string;
  path: string;
  layout: Layout;
  source: SkillSource;
  scripts: ScriptListing[];
}

export interface RunScriptResult {
  exitCode: number;
  run?: RunDocument;
  scripts?: ScriptsDocument;
}

/** Arguments read from a file or stdin beyond this are refused before parsing (the serialized limit is 4,096 bytes). */
const MAX_ARGS_INPUT_BYTES = 1024 * 1024;

/** `skills run-script <skill> <script>`: run a skill's script with JSON arguments, a clean environment and limits. */
export async function runScript(options: RunScriptOptions, ctx: Context): Promise<RunScriptResult> {
  const home = homeOf(ctx);
  const timeoutSeconds = parseTimeout(options.timeout);
  if (!options.list && (options.script === undefined || options.script === '')) {
    throw new SkillsError('E_USAGE', 'name the script to run: skills run-script <skill> <script>', { hint: `skills run-script ${options.skill} --list shows its scripts` });
  }
  if (options.args !== undefined && options.argsFile !== undefined) {
    throw new SkillsError('E_USAGE', 'give the arguments once: --args or --args-file, not both');
  }
  const { skill, source } = findSkillFor(options.skill, {
    cwd: ctx.cwd,
    home,
    env: ctx.env,
    registry: options.registry,
    configured: () => loadConfig(ctx.cwd, undefined, home).skillDirs,
  });

  if (options.list) {
    const doc: ScriptsDocument = { skill: skill.id, path: skill.root, layout: skill.layout, source, scripts: describeScripts(skill) };
    ctx.stdout.write(options.json ? `${JSON.stringify(doc, null, 2)}\n` : formatScripts(doc, paint(useColor(options.color, ctx))));
    return { exitCode: 0, scripts: doc };
  }

  const script = pickScript(skill, options.script!);
  const interpreter = chooseInterpreter(script.path, readHead(script.abs, 4096).split('\n', 1)[0] ?? '');
  const { json: argsJson, argv } = await readArguments(options, ctx, timeoutSeconds);

  // Secrets are read only when the skill declares variables (or a file is named, so a mistake in it shows).
  const registry = registryFor(options, ctx);
  const location = locateSecrets({ secrets: options.secrets, cwd: ctx.cwd, env: ctx.env, registry });
  const envVars = declaredEnv(skill);
  const secrets = envVars.length > 0 || location.explicit ? readSecrets(location) : undefined;
  const declared = secretsFor(secrets, skill.id, envVars);
  const plan = buildEnv({ caller: ctx.env, skillDir: skill.root, declared: envVars, secrets: declared.values, inherit: options.inheritEnv, extra: interpreter.env });
  const mask = maskList(plan.secretValues);
  const say = (line: string) => ctx.stderr.write(`${maskText(line, mask)}\n`);
  if (plan.missing.length > 0) {
    const them = plan.missing.length > 1 ? 'them' : 'it';
    const why = secrets ? `which the secrets file ${location.file} does not hold` : `but there is no secrets file at ${location.file}`;
    say(`warning: ${skill.id} declares ${plan.missing.join(', ')}, ${why}: the script runs without ${them}`);
  }

  const stop = new AbortController();
  const onSignal = (sig: NodeJS.Signals) => stop.abort(sig);
  options.signal?.addEventListener('abort', () => stop.abort(options.signal?.reason), { once: true });
  // Our own SIGINT or SIGTERM ends the script's whole group (it has its own, so the terminal's Ctrl-C misses it).
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let outcome;
  try {
    outcome = await executeScript({
      script: script.abs,
      cwd: skill.root,
      interpreter,
      argsJson,
      ...(argv ? { argv } : {}),
      env: plan.env,
      mask,
      timeoutMs: timeoutSeconds * 1000,
      stdout: options.json ? undefined : ctx.stdout,
      stderr: options.json ? undefined : ctx.stderr,
      signal: stop.signal,
    });
  } catch (err) {
    // Nothing run-script prints may show a secret, its errors included.
    if (isSkillsError(err)) throw new SkillsError(err.code, maskText(err.message, mask), { hint: err.hint && maskText(err.hint, mask), cause: err });
    throw err;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }

  const label = `${script.path} of ${skill.id}`;
  for (const stream of ['stdout', 'stderr'] as const) {
    if (outcome.truncated[stream]) {
      say(`warning: ${label}: ${stream} was truncated at 1 MB (${MAX_OUTPUT_BYTES} bytes kept, ${outcome.dropped[stream]} more dropped)`);
    }
  }
  if (outcome.timedOut) say(`error: ${label} timed out after ${timeoutSeconds} s; its processes were ended (exit code 124)`);
  // A command-line program (argparse, click, getopt) handed the JSON object says how it is used, and fails.
  else if (!argv && outcome.exitCode !== 0 && !options.json && USAGE.test(outcome.stderr)) {
    say(`hint: ${script.path} looks like a command-line program: it got the JSON ${argsJson.length > 40 ? 'object' : argsJson} as its first argument. Give it command-line words as a JSON list: --args '["--help"]'`);
  }
  else if (outcome.signal && !options.json) say(`error: ${label} was ended by ${outcome.signal} (exit code ${outcome.exitCode})`);

  const line = outcome.resultLine;
  const success = (line ? line.success : true) && outcome.exitCode === 0 && !outcome.timedOut;
  const doc: RunDocument = {
    skill: skill.id,
    script: script.path,
    exitCode: outcome.exitCode,
    durationMs: outcome.durationMs,
    success,
    ...(success ? { result: line?.result ?? null } : { error: failureOf(outcome, timeoutSeconds) }),
    stdout: outcome.stdout,
    stderr: outcome.stderr,
    truncated: outcome.truncated,
    timedOut: outcome.timedOut,
  };
  if (options.json) ctx.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
  return { exitCode: outcome.exitCode, run: doc };
}

// What command-line parsers print when they refuse their arguments: argparse's and click's `usage:`, getopt's.
const USAGE = /^usage: |\n(?:usage|Usage): |unrecognized arguments: \{|invalid option -- /;

/** The `error` of a failed run: a timeout, else the result line's error, else what ended the script. */
function failureOf(outcome: RunOutcome, timeoutSeconds: number): unknown {
  const line = outcome.resultLine;
  if (outcome.timedOut) return `timed out after ${timeoutSeconds} s`;
  if (line && !line.success && line.error !== undefined) return line.error;
  if (outcome.signal) return `ended by ${outcome.signal}`;
  if (outcome.exitCode !== 0) return `exited with code ${outcome.exitCode}`;
  return 'the script reported success: false';
}

const MAX_TIMER_MS = 2 ** 31 - 1;

function parseTimeout(v: string | number | undefined): number {
  if (v === undefined) return DEFAULT_TIMEOUT_SECONDS;
  const n = typeof v === 'number' ? v : Number(v.trim() === '' ? NaN : v);
  // Node's timers hold at most 2^31-1 ms (about 24.8 days); a longer one would fire at once.
  if (!Number.isFinite(n) || n <= 0 || n * 1000 > MAX_TIMER_MS) {
    throw new SkillsError('E_USAGE', `--timeout must be a number of seconds greater than 0 and at most ${Math.floor(MAX_TIMER_MS / 1000)}, not "${v}"`, { hint: 'e.g. --timeout 30 (the default is 60)' });
  }
  return n;
}

/** The arguments: --args, else --args-file (- for stdin), else stdin when it is not a terminal, else {}. */
async function readArguments(options: RunScriptOptions, ctx: Context, timeoutSeconds: number): Promise<ScriptArgs> {
  if (options.args !== undefined) return parseScriptArgs(options.args, '--args');
  if (options.argsFile !== undefined && options.argsFile !== '-') {
    const file = resolve(ctx.cwd, options.argsFile);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
      throw new SkillsError(missing ? 'E_NOT_FOUND' : 'E_IO', `--args-file ${options.argsFile}: ${missing ? 'no such file' : (err as Error).message}`, { cause: err });
    }
    if (Buffer.byteLength(text) > MAX_ARGS_INPUT_BYTES) throw new SkillsError('E_USAGE', `${file}: the arguments file is larger than ${MAX_ARGS_INPUT_BYTES} bytes`);
    return parseScriptArgs(text, file);
  }
  if (options.argsFile === '-' || ctx.stdin.isTTY !== true) return parseScriptArgs(await readStdin(ctx.stdin, timeoutSeconds), 'stdin');
  return { json: '{}' };
}

/** All of stdin, bounded in size and in time (a caller that leaves stdin open would otherwise hang us). */
function readStdin(stdin: Readable, timeoutSeconds: number): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    const done = (fn: () => void) => {
      clearTimeout(timer);
      stdin.off('data', onData).off('end', onEnd).off('error', onError);
      fn();
    };
    const onData = (b: Buffer | string) => {
      const buf = typeof b === 'string' ? Buffer.from(b) : b;
      size += buf.length;
      if (size > MAX_ARGS_INPUT_BYTES) {
        stdin.pause();
        done(() => reject(new SkillsError('E_USAGE', `stdin: the arguments are larger than ${MAX_ARGS_INPUT_BYTES} bytes`)));
        return;
      }
      parts.push(buf);
    };
    const onEnd = () => done(() => resolvePromise(Buffer.concat(parts).toString('utf8')));
    const onError = (err: Error) => done(() => reject(new SkillsError('E_IO', `cannot read the arguments from stdin: ${err.message}`, { cause: err })));
    const timer = setTimeout(() => {
      stdin.pause();
      done(() =>
        reject(
          new SkillsError('E_USAGE', `stdin did not end within ${timeoutSeconds} s: run-script reads the JSON arguments from stdin when it is not a terminal`, {
            hint: "pass the arguments with --args '{…}' (or --args '{}'), or close stdin (< /dev/null)",
          }),
        ),
      );
    }, timeoutSeconds * 1000);
    stdin.on('data', onData).on('end', onEnd).on('error', onError);
    stdin.resume();
  });
}

/** --list: the skill, then one line per script: path, interpreter, description (or why it is refused). */
export function formatScripts(doc: ScriptsDocument, c: Paint): string {
  const lines = [`${c.bold(doc.skill)}  ${c.dim(`${doc.layout}  ${doc.path}`)}`];
  if (doc.scripts.length === 0) return `${lines[0]}\n${c.dim('  no scripts (files below scripts/, or declared in "scripts")')}\n`;
  const pathWidth = Math.max(...doc.scripts.map((s) => s.path.length));
  const interpWidth = Math.max(...doc.scripts.map((s) => (s.interpreter ?? '-').length));
  for (const s of doc.scripts) {
    const note = s.refused ? c.red(`refused: ${s.refused}`) : s.problem ? c.yellow(s.problem) : c.dim(s.description ?? '');
    lines.push(`  ${s.path.padEnd(pathWidth)}  ${(s.interpreter ?? '-').padEnd(interpWidth)}  ${note}`.trimEnd());
  }
  return `${lines.join('\n')}\n`;
}
