import { runInGroup } from '../proc/process-group.js';
import { endingWithSignals } from '../proc/signals.js';

// --selector: an external command picks the skills (an LLM call, as seed 002's agent asks its model "Which
// skills are relevant?"). It reads {query, maxSkills, catalog} as JSON on stdin and prints the names it picks:
// a JSON array, or one per line (commas also separate; "none" means none). Any failure comes back as a reason,
// never thrown: the caller falls back to the built-in selection.

export interface SelectorRequest {
  query: string;
  maxSkills: number;
  catalog: { name: string; description: string; location: string }[];
}

export interface SelectorOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  timeoutMs: number;
}

export type SelectorResult = { names: string[] } | { error: string };

const MAX_OUTPUT = 1024 * 1024;

/** Run the selector command through the shell (so `python3 pick.py --model x` works as typed). */
export async function runSelector(
  command: string,
  request: SelectorRequest,
  opts: SelectorOptions,
): Promise<SelectorResult> {
  const stdout = new Collected();
  const stderr = new Collected();
  // Its own process group, so that a timeout kills what the shell started too, not just the shell (and on Linux what
  // left the group: runInGroup). Output past MAX_OUTPUT ends it, as a buffer limit would. SIGINT, SIGTERM, SIGHUP and
  // SIGQUIT end it before they end us.
  const stop = new AbortController();
  const collect = (into: Collected) => (b: Buffer) => {
    if (!into.add(b)) stop.abort();
  };
  let r;
  try {
    r = await endingWithSignals(stop, () =>
      runInGroup({
        command,
        shell: true,
        cwd: opts.cwd,
        env: opts.env,
        input: JSON.stringify(request),
        timeoutMs: opts.timeoutMs,
        timeoutSignal: 'SIGKILL',
        signal: stop.signal,
        onStdout: collect(stdout),
        onStderr: collect(stderr),
      }),
    );
  } catch (err) {
    return { error: `the selector "${command}" could not run (${(err as Error).message})` };
  }
  if (r.timedOut) return { error: `the selector "${command}" did not answer within ${opts.timeoutMs} ms` };
  // A selector that answers without reading its stdin may close the pipe early (EPIPE): its answer still counts.
  if (r.code !== 0) {
    const why = r.code === null ? `was killed by ${r.signal}` : `exited with code ${r.code}`;
    const err = stderr.text.trim().split('\n').slice(-3).join(' | ');
    return { error: `the selector "${command}" ${why}${err ? `: ${err}` : ''}` };
  }
  return parseSelectorOutput(stdout.text);
}

/** One stream of the selector's output, up to MAX_OUTPUT bytes. */
class Collected {
  private readonly parts: Buffer[] = [];
  private size = 0;
  /** False once the stream has gone past MAX_OUTPUT (the rest is dropped). */
  add(b: Buffer): boolean {
    const room = MAX_OUTPUT - this.size;
    if (room > 0) this.parts.push(b.length > room ? b.subarray(0, room) : b);
    this.size += b.length;
    return this.size <= MAX_OUTPUT;
  }
  get text(): string {
    return Buffer.concat(this.parts).toString('utf8');
  }
}

/** The names a selector printed: a JSON array of strings, or names one per line (or comma-separated). */
export function parseSelectorOutput(stdout: string): SelectorResult {
  const text = stdout.trim();
  if (text.startsWith('[')) {
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch (err) {
      return { error: `the selector printed a JSON array that does not parse (${(err as Error).message})` };
    }
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string'))
      return { error: 'the selector printed JSON that is not an array of names' };
    return { names: unique(v.map((x: string) => x.trim()).filter(Boolean)) };
  }
  const names = text
    .split(/[\n,]/)
    .map((s) => s.trim().replace(/^[-*•]\s+/, ''))
    .filter((s) => s !== '' && !/^none$/i.test(s));
  return { names: unique(names) };
}

const unique = (xs: string[]) => [...new Set(xs)];
