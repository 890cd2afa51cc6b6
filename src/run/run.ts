import type { Readable } from 'node:stream';
import { homeOf } from '../context.js';
import { SkillsError, isSkillsError } from '../errors.js';
import { loadConfig } from '../config/config.js';
import { registryFor } from '../registry/locate.js';
import { forwardTerminationSignals } from '../proc/signals.js';
import { readHead } from '../skill/script-info.js';
import { checkArgumentSources, readArguments } from './args-input.js';
import type { Sink } from './capture.js';
import { scriptEnv } from './env.js';
import { executeScript } from './execute.js';
import { findSkillFor } from './find.js';
import { chooseInterpreter } from './interpreter.js';
import { scriptsDocument, type ScriptsDocument } from './listing.js';
import { maskText } from './mask.js';
import { runDocument, runNotices, type RunDocument } from './report.js';
import { pickScript } from './scripts.js';
import { parseTimeout } from './timeout.js';

// Run one script of a skill the way seed 000's agents do: JSON arguments in (first argument and stdin), a
// `{success, result | error}` line out, the exit code passed through; with seed 004's limits (60 s, 1 MB of
// output per stream, 100 arguments, 4,096 bytes of arguments, the skill's folder as working directory), a clean
// environment, and secret values masked in everything that comes back. The wing never prints: output goes to the
// sinks the caller hands in.

export interface RunScriptRequest {
  skill: string;
  script?: string;
  /** The words typed after the script: its command-line words (as a JSON list given to --args). */
  words?: string[];
  args?: string;
  argsFile?: string;
  secrets?: string;
  inheritEnv?: boolean;
  timeout?: string | number;
  list?: boolean;
  /** Keep the output for the document rather than pass it through (and leave out the hints about it). */
  json?: boolean;
  registry?: string;
  /** Ends the script; our own SIGINT and SIGTERM do too. */
  signal?: AbortSignal;
}

export interface RunScriptIO {
  cwd: string;
  env: Record<string, string | undefined>;
  stdin: Readable & { isTTY?: boolean };
  /** The script's output, live (not with `json`). */
  stdout: Sink;
  stderr: Sink;
  /** run-script's own warnings, errors and hints, one line each, masked. */
  notice(line: string): void;
}

export interface RunScriptResult {
  exitCode: number;
  run?: RunDocument;
  scripts?: ScriptsDocument;
}

/** run-script: list a skill's scripts, or run one with JSON arguments, a clean environment and limits. */
export async function runSkillScript(request: RunScriptRequest, io: RunScriptIO): Promise<RunScriptResult> {
  const home = homeOf(io);
  const timeoutSeconds = parseTimeout(request.timeout);
  if (!request.list && (request.script === undefined || request.script === '')) {
    throw new SkillsError('E_USAGE', 'name the script to run: skills run-script <skill> <script>', {
      hint: `skills run-script ${request.skill} --list shows its scripts`,
    });
  }
  checkArgumentSources(request);
  const { skill, source } = findSkillFor(request.skill, {
    cwd: io.cwd,
    home,
    env: io.env,
    registry: request.registry,
    configured: () => loadConfig(io.cwd, undefined, home).skillDirs,
    warn: (line) => io.notice(`warning: ${line}`),
  });
  if (request.list) return { exitCode: 0, scripts: scriptsDocument(skill, source) };

  const script = pickScript(skill, request.script!);
  const interpreter = chooseInterpreter(script.path, readHead(script.abs, 4096).split('\n', 1)[0] ?? '');
  const { json: argsJson, argv } = await readArguments(request, io, timeoutSeconds);
  const { plan, mask, warning } = await scriptEnv({
    skill,
    secrets: request.secrets,
    registry: registryFor(request, io),
    cwd: io.cwd,
    caller: io.env,
    inherit: request.inheritEnv,
    extra: interpreter.env,
    timeoutMs: timeoutSeconds * 1000,
  });
  // Nothing run-script says may show a secret.
  const say = (line: string) => io.notice(maskText(line, mask));
  if (warning) say(warning);

  const stop = new AbortController();
  if (request.signal?.aborted) stop.abort(request.signal.reason);
  else request.signal?.addEventListener('abort', () => stop.abort(request.signal?.reason), { once: true });
  const unforward = forwardTerminationSignals(stop);
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
      stdout: request.json ? undefined : io.stdout,
      stderr: request.json ? undefined : io.stderr,
      signal: stop.signal,
    });
  } catch (err) {
    // Its errors included.
    if (isSkillsError(err))
      throw new SkillsError(err.code, maskText(err.message, mask), {
        hint: err.hint && maskText(err.hint, mask),
        cause: err,
      });
    throw err;
  } finally {
    unforward();
  }

  const finished = {
    skillId: skill.id,
    script: script.path,
    outcome,
    timeoutSeconds,
    argsJson,
    argv: argv !== undefined,
    json: request.json === true,
    missing: plan.missing,
  };
  runNotices(finished).forEach(say);
  return { exitCode: outcome.exitCode, run: runDocument(finished) };
}
