// Whatever ends this process (process.exit after EPIPE on a closed output pipe, an uncaught error, a return from
// main while a run goes on) must not leave a run's processes behind: each running run registers how to end it
// synchronously, and the exit handler ends them all. Only SIGKILL of this process escapes it.

const running = new Set<() => void>();
let installed = false;

function endAll(): void {
  for (const end of running) {
    try {
      end();
    } catch {
      /* end the others still */
    }
  }
  running.clear();
}

/** Call `end` if this process exits before the returned function is called. */
export function atExit(end: () => void): () => void {
  if (!installed) {
    installed = true;
    process.on('exit', endAll);
  }
  running.add(end);
  return () => {
    running.delete(end);
  };
}
