import { constants } from 'node:os';
import { SkillsError } from '../errors.js';
import { runInGroup } from '../proc/process-group.js';
import { isErrno } from '../fs/errno.js';
import { execLimitError, spawnError } from './spawn-limits.js';
import { Capture, type ScriptResultLine, type Sink, type UnreadResult } from './capture.js';
import type { Interpreter } from './interpreter.js';
import { maskText, maskValue } from './mask.js';

export { lastResultLine, type ScriptResultLine } from './capture.js';

export interface RunRequest {
  /** Absolute path of the script. */
  script: string;
  /** The working directory: the skill's folder. */
  cwd: string;
  interpreter: Interpreter;
  /** The arguments as compact JSON: the first argument, and stdin (unless `argv` is given). */
  argsJson: string;
  /** Command-line words given instead of the JSON: the script's arguments, with nothing on stdin. */
  argv?: string[];
  env: Record<string, string>;
  /** Strings to mask (maskList). */
  mask: string[];
  timeoutMs: number;
  stdout?: Sink;
  stderr?: Sink;
  /** Aborting ends the script's process group, with the abort reason's signal when it is SIGINT or SIGTERM. */
  signal?: AbortSignal;
  /** Between SIGTERM and SIGKILL. */
  graceMs?: number;
}

export interface RunOutcome {
  /** The script's exit code; 124 on timeout; 128 + n when a signal n ended it. */
  exitCode: number;
  /** The signal that ended the script, if one did. */
  signal?: string;
  timedOut: boolean;
  durationMs: number;
  /** Masked, at most MAX_OUTPUT_BYTES of each stream (as UTF-8; what passed through live is the bytes). */
  stdout: string;
  stderr: string;
  truncated: { stdout: boolean; stderr: boolean };
  /** Bytes read past the cap and dropped. */
  dropped: { stdout: number; stderr: number };
  /** The last line of stdout that is a JSON object with a boolean `success`, its `result` and `error` masked. */
  resultLine?: ScriptResultLine;
  /** A line of stdout that may be the last result line was not read: too long, or nesting too deep. */
  resultLineUnread?: UnreadResult;
}

/**
 * Run the script in its own process group (runInGroup): the arguments as its first argument and on stdin (or the
 * command-line words as its arguments), output masked and then capped at MAX_OUTPUT_BYTES (capture.ts) per stream,
 * the result line read from all of stdout. On timeout or abort the whole group is ended; so is whatever the script
 * left running in its group when it exits.
 */
export async function executeScript(req: RunRequest): Promise<RunOutcome> {
  const out = new Capture(req.mask, req.stdout, { results: true });
  const err = new Capture(req.mask, req.stderr);
  const args = [...req.interpreter.args, req.script, ...(req.argv ?? [req.argsJson])];
  const tooLong = execLimitError(req.script, req.env, args);
  if (tooLong) throw tooLong;
  let exit;
  try {
    exit = await runInGroup({
      command: req.interpreter.command,
      args,
      cwd: req.cwd,
      env: req.env,
      input: req.argv ? '' : `${req.argsJson}\n`,
      timeoutMs: req.timeoutMs,
      ...(req.signal ? { signal: req.signal } : {}),
      ...(req.graceMs !== undefined ? { graceMs: req.graceMs } : {}),
      onStdout: (b, flow) => out.add(b, flow),
      onStderr: (b, flow) => err.add(b, flow),
    });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new SkillsError(
        'E_NOT_FOUND',
        `cannot run ${req.script}: its interpreter "${req.interpreter.command}" (by ${req.interpreter.via}) was not found`,
        {
          hint:
            req.interpreter.via === 'shebang'
              ? 'install it, or change the shebang'
              : `install ${req.interpreter.command} (the script's PATH is the caller's PATH)`,
        },
      );
    }
    if (isErrno(e)) throw masked(spawnError(req.script, req.interpreter.command, e), req.mask);
    throw refusedSpawn(req, e);
  }
  out.finish();
  err.finish();
  const signalNumber = exit.signal ? (constants.signals as Record<string, number>)[exit.signal] : undefined;
  const exitCode = exit.timedOut ? 124 : (exit.code ?? (signalNumber !== undefined ? 128 + signalNumber : 1));
  const outcome: RunOutcome = {
    exitCode,
    timedOut: exit.timedOut,
    durationMs: exit.durationMs,
    // Masked again as text: bytes that are not UTF-8 decode to U+FFFD, which a secret may hold.
    stdout: maskText(out.bytes.toString('utf8'), req.mask),
    stderr: maskText(err.bytes.toString('utf8'), req.mask),
    truncated: { stdout: out.dropped > 0, stderr: err.dropped > 0 },
    dropped: { stdout: out.dropped, stderr: err.dropped },
  };
  if (exit.signal) outcome.signal = exit.signal;
  // Read from the whole stdout, unmasked (masking could break its JSON), then masked value by value.
  const { last, unreadable } = out.results!;
  if (unreadable) outcome.resultLineUnread = unreadable;
  else if (last) outcome.resultLine = maskResultLine(last, req.mask);
  return outcome;
}

/** A SkillsError with its message and hint masked. */
function masked(err: SkillsError, mask: string[]): SkillsError {
  if (mask.length === 0) return err;
  return new SkillsError(err.code, maskText(err.message, mask), {
    ...(err.hint ? { hint: maskText(err.hint, mask) } : {}),
    cause: err.cause,
  });
}

/**
 * Node's refusal to spawn (not an errno). An invalid argument or environment value (ERR_INVALID_ARG_VALUE: a NUL in
 * it) is quoted by Node with its characters escaped (`'abc\x00def'`), a form the masker does not know: its message
 * is never passed on, only the variable or argument it names. Any other message is masked.
 */
function refusedSpawn(req: RunRequest, e: unknown): SkillsError {
  const code = (e as NodeJS.ErrnoException).code;
  if (typeof code === 'string' && code.startsWith('ERR_INVALID_ARG')) {
    const message = (e as Error).message;
    const variable = /options\.env\['([A-Za-z_][A-Za-z0-9_]*)'\]/.exec(message)?.[1];
    const what = variable
      ? `the environment variable ${variable}`
      : message.includes('options.env')
        ? 'an environment variable'
        : 'an argument';
    return new SkillsError(
      'E_CONFIG',
      `cannot run ${req.script}: Node refused ${what} (${code}); its value is not shown`,
      {
        hint: 'a value given to a program cannot hold a NUL character: give it without one',
      },
    );
  }
  return new SkillsError('E_IO', maskText(`cannot run ${req.script}: ${(e as Error).message}`, req.mask), { cause: e });
}

function maskResultLine(line: ScriptResultLine, mask: string[]): ScriptResultLine {
  if (mask.length === 0) return line;
  const masked: ScriptResultLine = { success: line.success };
  if (line.result !== undefined) masked.result = maskValue(line.result, mask);
  if (line.error !== undefined) masked.error = maskValue(line.error, mask);
  return masked;
}
