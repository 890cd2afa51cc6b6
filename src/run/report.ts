import { MAX_OUTPUT_BYTES, MAX_RESULT_DEPTH, MAX_RESULT_LINE_BYTES, type UnreadResult } from './capture.js';
import type { RunOutcome } from './execute.js';

// What a finished run comes to: the document --json prints, and the lines run-script says on stderr about it.

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

export interface FinishedRun {
  skillId: string;
  /** The script's path in the skill. */
  script: string;
  outcome: RunOutcome;
  timeoutSeconds: number;
  /** The arguments as JSON, and whether they were command-line words. */
  argsJson: string;
  argv: boolean;
  /** --json: the output was not passed through, so the hints about it are not given. */
  json: boolean;
  /** Declared variables the script ran without. */
  missing?: string[];
}

// What command-line parsers print when they refuse their arguments: argparse's and click's `usage:`, getopt's.
const USAGE = /^usage: |\n(?:usage|Usage): |unrecognized arguments: \{|invalid option -- /;

/** The warnings, error and hint to show after a run (unmasked). */
export function runNotices(run: FinishedRun): string[] {
  const { outcome } = run;
  const label = `${run.script} of ${run.skillId}`;
  const lines: string[] = [];
  for (const stream of ['stdout', 'stderr'] as const) {
    if (outcome.truncated[stream]) {
      lines.push(
        `warning: ${label}: ${stream} was truncated at 1 MB (${MAX_OUTPUT_BYTES} bytes kept, ${outcome.dropped[stream]} more dropped)`,
      );
    }
  }
  if (outcome.resultLineUnread && outcome.exitCode === 0 && !outcome.timedOut)
    lines.push(`warning: ${label}: ${UNREAD[outcome.resultLineUnread]}; the run is not reported as a success`);
  if (outcome.timedOut)
    lines.push(`error: ${label} timed out after ${run.timeoutSeconds} s; its processes were ended (exit code 124)`);
  // A command-line program (argparse, click, getopt) handed the JSON object says how it is used, and fails.
  else if (!run.argv && outcome.exitCode !== 0 && !run.json && USAGE.test(outcome.stderr)) {
    lines.push(
      `hint: ${run.script} looks like a command-line program: it got the JSON ${run.argsJson.length > 40 ? 'object' : run.argsJson} as its first argument. Give it command-line words as a JSON list: --args '["--help"]'`,
    );
  } else if (outcome.signal && !run.json)
    lines.push(`error: ${label} was ended by ${outcome.signal} (exit code ${outcome.exitCode})`);
  // The script's own "not set" error comes after pages of output, perhaps: say again how to give the values.
  const failed = outcome.exitCode !== 0 || outcome.resultLine?.success === false;
  if (failed && !outcome.timedOut && !run.json && run.missing?.length) {
    const them = run.missing.length > 1 ? 'them' : 'it';
    lines.push(
      `hint: ${run.script} failed, and it ran without ${run.missing.join(', ')}: give ${them} with --secrets <file>, or set ${them} in your environment and pass --inherit-env`,
    );
  }
  return lines;
}

const UNREAD: Record<UnreadResult, string> = {
  long: `stdout has a line of more than ${MAX_RESULT_LINE_BYTES} bytes that may be its result line, and it was not read`,
  deep: `stdout has a line nested more than ${MAX_RESULT_DEPTH} levels deep that may be its result line, and it was not read (a result may nest ${MAX_RESULT_DEPTH} levels, as deep as Python's json reads)`,
};

/**
 * The document of a run: success when the result line (if any, and none was too long to read) says so, the exit
 * code is 0 and it did not time out.
 */
export function runDocument(run: FinishedRun): RunDocument {
  const { outcome } = run;
  const line = outcome.resultLine;
  const success = (line ? line.success : !outcome.resultLineUnread) && outcome.exitCode === 0 && !outcome.timedOut;
  return {
    skill: run.skillId,
    script: run.script,
    exitCode: outcome.exitCode,
    durationMs: outcome.durationMs,
    success,
    ...(success ? { result: line?.result ?? null } : { error: failureOf(outcome, run.timeoutSeconds) }),
    stdout: outcome.stdout,
    stderr: outcome.stderr,
    truncated: outcome.truncated,
    timedOut: outcome.timedOut,
  };
}

/** The `error` of a failed run: a timeout, else the result line's error, else what ended the script. */
function failureOf(outcome: RunOutcome, timeoutSeconds: number): unknown {
  const line = outcome.resultLine;
  if (outcome.timedOut) return `timed out after ${timeoutSeconds} s`;
  if (line && !line.success && line.error !== undefined) return line.error;
  if (outcome.signal) return `ended by ${outcome.signal}`;
  if (outcome.exitCode !== 0) return `exited with code ${outcome.exitCode}`;
  if (outcome.resultLineUnread) return UNREAD[outcome.resultLineUnread];
  return 'the script reported success: false';
}
