// New files written on the thread pool while the caller goes on (an archive's small files while it is still being
// unpacked): creating a file costs the kernel far more than the bytes do, and that cost then overlaps the caller's
// own work. At most a fixed number are in flight; the first failure stops the rest.
import { close, open, write } from 'node:fs';

interface Job {
  path: string;
  data: Buffer;
  mode: number;
  /** What the job stands for in a failure (an archive's entry name). */
  label: string;
}

/** A failure of one job: the error and the job's label. */
export interface WriteFailure {
  err: NodeJS.ErrnoException;
  label: string;
}

export class WriteQueue {
  /** Bytes queued or in flight: what the queue holds in memory. */
  pendingBytes = 0;
  failure: WriteFailure | undefined;
  private inFlight = 0;
  private readonly waiting: Job[] = [];
  private readonly idle: (() => void)[] = [];

  constructor(
    /** Most writes in flight at once. */
    private readonly concurrency = 64,
    /** Called once, on the first failure. */
    private readonly onFailure?: (f: WriteFailure) => void,
  ) {}

  /** Create `path` (it must not exist: `wx`) with `mode`, holding `data`. */
  add(path: string, data: Buffer, mode: number, label: string): void {
    if (this.failure) return;
    this.pendingBytes += data.length;
    this.waiting.push({ path, data, mode, label });
    this.pump();
  }

  /** Resolves when nothing is queued or in flight (after a failure: when what was in flight has ended). */
  settled(): Promise<void> {
    if (this.inFlight === 0 && (this.waiting.length === 0 || this.failure)) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private pump(): void {
    while (!this.failure && this.inFlight < this.concurrency && this.waiting.length > 0)
      this.start(this.waiting.shift()!);
    if (this.inFlight === 0 && (this.waiting.length === 0 || this.failure)) for (const f of this.idle.splice(0)) f();
  }

  private start(job: Job): void {
    this.inFlight++;
    const done = (err: NodeJS.ErrnoException | null) => {
      this.inFlight--;
      this.pendingBytes -= job.data.length;
      if (err && !this.failure) {
        this.failure = { err, label: job.label };
        for (const w of this.waiting.splice(0)) this.pendingBytes -= w.data.length;
        this.onFailure?.(this.failure);
      }
      this.pump();
    };
    open(job.path, 'wx', job.mode, (err, fd) => {
      if (err) return done(err);
      const rest = (off: number) => {
        if (off >= job.data.length) return close(fd, done);
        write(fd, job.data, off, job.data.length - off, null, (werr, n) => {
          if (werr) {
            // A write error names no path: the queue's caller names the job by its label.
            close(fd, () => done(werr));
            return;
          }
          rest(off + n);
        });
      };
      rest(0);
    });
  }
}
