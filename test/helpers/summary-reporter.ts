import type { Reporter, File, Task } from 'vitest';

/** Ends the run with the plain line "N passed, N failed[, N skipped]" that any CI log reader understands. */
export default class SummaryReporter implements Reporter {
  onFinished(files: File[] = []): void {
    const count = { pass: 0, fail: 0, skip: 0 };
    const walk = (t: Task) => {
      if (t.type === 'test') {
        const s = t.result?.state;
        if (s === 'pass') count.pass++;
        else if (s === 'fail') count.fail++;
        else count.skip++;
      } else for (const c of t.tasks) walk(c);
    };
    for (const f of files) {
      walk(f);
      // A file that failed to load has no tests to count but must still count as a failure.
      if (f.result?.state === 'fail' && f.tasks.length === 0) count.fail++;
    }
    process.stdout.write(
      `\n${count.pass} passed, ${count.fail} failed${count.skip ? `, ${count.skip} skipped` : ''}\n`,
    );
  }
}
