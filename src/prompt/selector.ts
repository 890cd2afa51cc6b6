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
export async function runSelector(command: string, request: SelectorRequest, opts: SelectorOptions): Promise<SelectorResult> {
  const { execa } = await import('execa');
  // Its own process group (detached), so that a timeout kills what the shell started too, not just the shell.
  const sub = execa(command, {
    shell: true,
    detached: true,
    cwd: opts.cwd,
    env: opts.env,
    extendEnv: false,
    input: JSON.stringify(request),
    maxBuffer: MAX_OUTPUT,
    reject: false,
    stripFinalNewline: true,
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      process.kill(-sub.pid!, 'SIGKILL');
    } catch {
      sub.kill('SIGKILL');
    }
  }, opts.timeoutMs);
  const r = await sub;
  clearTimeout(timer);
  if (timedOut) return { error: `the selector "${command}" did not answer within ${opts.timeoutMs} ms` };
  // A selector that answers without reading its stdin may close the pipe early (EPIPE): its answer still counts.
  if (r.exitCode !== 0) {
    const why = r.exitCode === undefined ? (r.signal ? `was killed by ${r.signal}` : `could not run (${r.shortMessage ?? r.message})`) : `exited with code ${r.exitCode}`;
    const err = String(r.stderr ?? '').trim().split('\n').slice(-3).join(' | ');
    return { error: `the selector "${command}" ${why}${err ? `: ${err}` : ''}` };
  }
  return parseSelectorOutput(String(r.stdout ?? ''));
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
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) return { error: 'the selector printed JSON that is not an array of names' };
    return { names: unique(v.map((x: string) => x.trim()).filter(Boolean)) };
  }
  const names = text
    .split(/[\n,]/)
    .map((s) => s.trim().replace(/^[-*•]\s+/, ''))
    .filter((s) => s !== '' && !/^none$/i.test(s));
  return { names: unique(names) };
}

const unique = (xs: string[]) => [...new Set(xs)];
