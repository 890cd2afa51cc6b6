/**
 * While a program runs in its own group, the terminal's Ctrl-C misses it: pass our own SIGINT and SIGTERM on, by
 * aborting `stop` with the signal's name (runInGroup then ends the group with it). Returns the undo.
 */
export function forwardTerminationSignals(stop: AbortController): () => void {
  const onSignal = (sig: NodeJS.Signals) => stop.abort(sig);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}
