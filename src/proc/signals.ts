/** The signals that would end us and are passed on to a running program. */
const FORWARDED: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'];

/**
 * While a program runs in its own group, the terminal's Ctrl-C (and its hangup, and Ctrl-\) misses it, and our own
 * death by one of these signals would leave it running with no timeout: pass SIGINT, SIGTERM, SIGHUP and SIGQUIT
 * on, by aborting `stop` with the signal's name (runInGroup then ends the run with it). Returns the undo.
 */
export function forwardTerminationSignals(stop: AbortController): () => void {
  const onSignal = (sig: NodeJS.Signals) => stop.abort(sig);
  for (const sig of FORWARDED) {
    try {
      process.on(sig, onSignal);
    } catch {
      /* a signal this system does not have (Windows) */
    }
  }
  return () => {
    for (const sig of FORWARDED) process.off(sig, onSignal);
  };
}

/**
 * For a program whose run must not outlive us but whose end by a signal is not ours to report (a helper such as
 * --selector): forward the signals as forwardTerminationSignals does while `body` runs, and once the run is ended,
 * die of the signal that came, as we would have without the forwarding.
 */
export async function endingWithSignals<T>(stop: AbortController, body: () => Promise<T>): Promise<T> {
  let caught: NodeJS.Signals | undefined;
  const relay = new AbortController();
  relay.signal.addEventListener('abort', () => {
    caught ??= relay.signal.reason as NodeJS.Signals;
    stop.abort(caught);
  });
  const unforward = forwardTerminationSignals(relay);
  try {
    return await body();
  } finally {
    unforward();
    // With our listeners gone the signal's default action is back: it ends us as it would have.
    if (caught) process.kill(process.pid, caught);
  }
}

let fileSizeSignal = false;

/**
 * A file over the size limit (`ulimit -f`) is an EFBIG error to report (exit 2), not a death: Node ignores SIGXFSZ,
 * but signal-exit (loaded by proper-lockfile and execa) catches it and raises it again, killing the process, unless
 * another listener is there. Called where those are loaded, so a run that never writes pays nothing for it.
 */
export function keepFileSizeSignalIgnored(): void {
  if (fileSizeSignal || process.platform === 'win32') return;
  fileSizeSignal = true;
  process.on('SIGXFSZ', () => {});
}
