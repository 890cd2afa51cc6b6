// Writing an archive's files once each entry has passed its checks. A small archive's files are written on the main
// thread as they stream (a thread costs more to start than they take). A big one's go to one worker thread, which
// creates and writes them in archive order while the main thread inflates, parses and checks the next entries: the
// system calls (and the waits of a busy disk) no longer hold up the parsing, as `tar xzf` lets gzip run beside tar.
// One thread creates every file, so they never queue on a folder's lock against each other. The main thread makes
// the folders (before the files in them are sent), and stops the thread before a failed extraction's target is
// removed, so nothing is written after that.
import { createHash, type Hash } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { writeAll } from './atomic.js';

/**
 * ExtractOptions.digest's hash, made as the files are written here (a small archive's, a zip's): each file's header
 * text (when it has one) and its bytes, which must be as many as its size (else there is no digest).
 */
export class Digester {
  private hash: Hash | undefined;
  private on = false;
  private left = 0;
  private broken = false;
  constructor(private readonly algorithm: string | undefined) {}
  file(header: string | undefined, size: number): void {
    if (this.left !== 0) this.broken = true;
    this.on = header !== undefined && this.algorithm !== undefined;
    this.left = this.on ? size : 0;
    if (this.on) (this.hash ??= createHash(this.algorithm!)).update(header!, 'utf8');
  }
  data(chunk: Buffer): void {
    if (!this.on) return;
    this.left -= chunk.length;
    this.hash!.update(chunk);
  }
  /** The base64 digest; undefined when none was asked for or a file's bytes were not its size. */
  result(): string | undefined {
    if (this.algorithm === undefined || this.broken || this.left !== 0) return undefined;
    return (this.hash ?? createHash(this.algorithm)).digest('base64');
  }
}

/** Where an extraction's file bytes go, file after file. */
export interface FileWriter {
  /**
   * Create the file `abs` (the archive's entry `name`) with `mode`; its `size` bytes follow through data(), then
   * end(). With a `header`, the header and the bytes go into the digest.
   */
  open(abs: string, name: string, mode: number, size: number, header: string | undefined): void;
  data(chunk: Buffer): void;
  end(): void;
  /** True when so much waits to be written that the extraction should wait (`drained`) before inflating more. */
  readonly backlog: boolean;
  /** Call `then` once the backlog is gone. */
  drained(then: () => void): void;
  /**
   * Every file written and closed: the digest of what had a header (base64; undefined when none was asked for, or
   * it cannot be trusted). Rejects with the first failure (an errno error, its entry's name in `entry`).
   */
  finish(): Promise<string | undefined>;
  /** Stop writing and close what is open: once it resolves, nothing more is written. */
  abort(): Promise<void>;
}

/** A failure of writing an entry: the file system's error, and the entry's name in the archive. */
export type WriteFailure = NodeJS.ErrnoException & { entry?: string };

/**
 * The writer thread itself failed (it could not start: a preload that throws in threads, a limit on memory; or it
 * ended before it was done), as opposed to a write it made: the archive is not at fault, and extractArchive unpacks
 * it again with its files written on the main thread.
 */
export class ThreadFailure extends Error {
  constructor(cause: unknown) {
    super(`the thread that writes the files failed: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
  }
}

/** Writes on the calling thread: open, write and close as the bytes come; a failure throws at once. */
export class SyncWriter implements FileWriter {
  readonly backlog = false;
  private fd: number | undefined;
  private abs = '';
  private readonly digester: Digester;
  constructor(algorithm: string | undefined) {
    this.digester = new Digester(algorithm);
  }
  open(abs: string, _name: string, mode: number, size: number, header: string | undefined): void {
    this.fd = openSync(abs, 'wx', mode);
    this.abs = abs;
    this.digester.file(header, size);
  }
  data(chunk: Buffer): void {
    writeAll(this.fd!, chunk, this.abs);
    this.digester.data(chunk);
  }
  end(): void {
    const fd = this.fd!;
    this.fd = undefined;
    closeSync(fd);
  }
  drained(then: () => void): void {
    then();
  }
  finish(): Promise<string | undefined> {
    return Promise.resolve(this.digester.result());
  }
  abort(): Promise<void> {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    return Promise.resolve();
  }
}

/**
 * The worker: each message is a piece of bytes and the operations on it, in order (0: open the next path of `names`
 * with the next mode of `ops`; 1: write bytes [start, end) of the piece to the open file; 2: close it). Bytes of the
 * piece no operation names (the digest's file headers) are not written. The piece goes back to be filled again. The
 * first failure is told, and nothing more is written. The digest is made on the main thread, a piece at a time, as it
 * is sent: the thread's system calls are what an extraction waits for (the main thread idles a third of a big one
 * on a disk), so it does nothing else.
 */
const WORKER_CODE = `
const fs = require('node:fs');
const { parentPort } = require('node:worker_threads');
let fd, name, failed = false;
const shut = () => { if (fd !== undefined) try { fs.closeSync(fd); } catch {} fd = undefined; };
parentPort.on('message', (m) => {
  if (m === 'finish') return parentPort.postMessage({ finished: !failed });
  if (m === 'abort') { failed = true; shut(); return parentPort.postMessage('aborted'); }
  if (!failed) {
    const b = Buffer.from(m.buffer, 0, m.length), ops = m.ops, names = m.names;
    try {
      for (let i = 0, n = 0; i < ops.length; ) {
        const op = ops[i++];
        if (op === 0) {
          const path = names[n++], mode = ops[i++]; name = names[n++];
          fd = fs.openSync(path, 'wx', mode);
        } else if (op === 1) {
          let at = ops[i++]; const end = ops[i++];
          while (at < end) at += fs.writeSync(fd, b, at, end - at);
        } else { const f = fd; fd = undefined; fs.closeSync(f); }
      }
    } catch (err) {
      failed = true;
      shut();
      const e = err || {};
      parentPort.postMessage({ error: { message: String(e.message), code: e.code, errno: e.errno, syscall: e.syscall, path: e.path, entry: name } });
    }
  }
  parentPort.postMessage(m.buffer, [m.buffer]);
});`;

/** A writer thread started ahead (prepareWriterThread) for the next ThreadWriter, and what became of it meanwhile. */
let prepared: { worker: Worker; failure: unknown; exited: boolean } | undefined;

function startWorker(): Worker {
  // Its stdout and stderr are its own (it prints nothing): piped to ours, they would build process.stdout and
  // process.stderr here, which for a pipe loads net.
  const worker = new Worker(WORKER_CODE, { eval: true, stdout: true, stderr: true });
  // The run never waits for the thread: finish and abort do, and it is ended then.
  worker.unref();
  return worker;
}

/**
 * Start the next ThreadWriter's thread now: a thread takes tens of milliseconds to start, which an extraction no
 * longer waits for when the caller has other work first (an install: its lock, its plan). A thread never used ends
 * with the run; one that fails meanwhile is the ThreadWriter's failure.
 */
export function prepareWriterThread(): void {
  if (prepared) return;
  try {
    const p = { worker: startWorker(), failure: undefined as unknown, exited: false };
    p.worker.on('error', (err) => (p.failure ??= err));
    p.worker.on('exit', () => (p.exited = true));
    prepared = p;
  } catch {
    // A thread that cannot be started: the ThreadWriter finds out for itself.
  }
}

/** Bytes sent to the thread at a time. */
const PIECE = 1024 * 1024;
/** Pieces sent and not yet written past which the extraction waits: 16 MiB. */
const MOST_WAITING = 16;

/**
 * Writes on a worker thread; a failure is told through `onFailure` (and by finish). What is hashed (each file's
 * header, then its bytes) goes into the piece in that order, so the digest takes a piece in one update or a few,
 * not two for each file.
 */
export class ThreadWriter implements FileWriter {
  private readonly worker: Worker;
  private piece: Buffer | undefined;
  private at = 0;
  /** Numbers only (operation codes, modes, offsets), so that the array stays one of small integers. */
  private ops: number[] = [];
  /** The paths and entry names the open operations take, two for each. */
  private names: string[] = [];
  private readonly spare: ArrayBuffer[] = [];
  private waiting = 0;
  private onDrained: (() => void) | undefined;
  private failure: WriteFailure | ThreadFailure | undefined;
  private settle: ((reply: unknown) => void) | undefined;
  private ended = false;
  private exited = false;
  private readonly algorithm: string | undefined;
  private hash: Hash | undefined;
  /** Whether the file being written is hashed; the bytes it still declares; whether one fell short or over. */
  private hashing = false;
  private left = 0;
  private broken = false;
  /** Where the piece's bytes still to be hashed begin (-1: none are). */
  private hashFrom = -1;

  constructor(
    private readonly onFailure: (err: WriteFailure | ThreadFailure) => void,
    algorithm: string | undefined,
  ) {
    this.algorithm = algorithm;
    const ahead = prepared;
    prepared = undefined;
    this.worker = ahead?.worker ?? startWorker();
    this.worker.on('message', (m: unknown) => this.reply(m));
    this.worker.on('error', (err: Error) => this.fail(new ThreadFailure(err)));
    this.worker.on('exit', () => {
      this.exited = true;
      this.settle?.('exited');
    });
    // A thread started ahead that failed, or ended, before it was given any work: told once the caller holds this.
    if (ahead && (ahead.failure !== undefined || ahead.exited)) {
      this.exited = ahead.exited;
      const cause = ahead.failure ?? new Error('it ended before it was given any work');
      queueMicrotask(() => this.fail(new ThreadFailure(cause)));
    }
  }

  get backlog(): boolean {
    return this.waiting >= MOST_WAITING;
  }

  open(abs: string, name: string, mode: number, size: number, header: string | undefined): void {
    if (this.left !== 0) this.broken = true;
    this.hashing = header !== undefined && this.algorithm !== undefined;
    this.left = this.hashing ? size : 0;
    this.ops.push(0, mode);
    this.names.push(abs, name);
    if (!this.hashing) return this.hashed();
    if (this.piece === undefined || this.at + header!.length * 3 > PIECE) this.send();
    if (header!.length * 3 > PIECE) {
      // A header longer than a piece (a name of megabytes, which pax allows): hashed on its own.
      this.hashed();
      (this.hash ??= createHash(this.algorithm!)).update(header!, 'utf8');
      this.hashFrom = this.at;
      return;
    }
    if (this.hashFrom === -1) this.hashFrom = this.at;
    this.at += this.piece!.write(header!, this.at, 'utf8');
  }

  data(chunk: Buffer): void {
    if (this.hashing) this.left -= chunk.length;
    for (let from = 0; from < chunk.length;) {
      if (this.piece === undefined || this.at === PIECE) this.send();
      const n = Math.min(chunk.length - from, PIECE - this.at);
      chunk.copy(this.piece!, this.at, from, from + n);
      this.ops.push(1, this.at, this.at + n);
      this.at += n;
      from += n;
    }
  }

  end(): void {
    this.ops.push(2);
  }

  drained(then: () => void): void {
    if (this.backlog) this.onDrained = then;
    else then();
  }

  async finish(): Promise<string | undefined> {
    this.send();
    const reply = (await this.ask('finish')) as { finished?: boolean } | string;
    this.stop();
    if (this.failure) throw this.failure;
    if (typeof reply !== 'object' || !reply.finished) throw new ThreadFailure('it ended before it was done');
    if (this.algorithm === undefined || this.broken || this.left !== 0) return undefined;
    return (this.hash ?? createHash(this.algorithm)).digest('base64');
  }

  /** Hash the piece's bytes from hashFrom on: what the files hashed so far put in it. */
  private hashed(): void {
    if (this.hashFrom === -1) return;
    if (this.at > this.hashFrom)
      (this.hash ??= createHash(this.algorithm!)).update(this.piece!.subarray(this.hashFrom, this.at));
    this.hashFrom = -1;
  }

  async abort(): Promise<void> {
    if (!this.ended) await this.ask('abort');
    this.stop();
  }

  /** Send what was gathered (the piece and its operations) and start a new piece. */
  private send(): void {
    const hashing = this.hashFrom !== -1;
    this.hashed();
    if (this.piece !== undefined && (this.at > 0 || this.ops.length > 0)) {
      const buffer = this.piece.buffer as ArrayBuffer;
      this.worker.postMessage({ buffer, length: this.at, ops: this.ops, names: this.names }, [buffer]);
      this.waiting++;
    } else if (this.ops.length > 0) {
      // Operations with no bytes (files opened and closed empty): a piece of nothing carries them.
      const buffer = new ArrayBuffer(0);
      this.worker.postMessage({ buffer, length: 0, ops: this.ops, names: this.names }, [buffer]);
      this.waiting++;
    }
    this.ops = [];
    this.names = [];
    this.piece = Buffer.from(this.spare.pop() ?? new ArrayBuffer(PIECE));
    this.at = 0;
    // The file being hashed goes on in the new piece.
    if (hashing) this.hashFrom = 0;
  }

  private ask(what: 'finish' | 'abort'): Promise<unknown> {
    return new Promise((resolve) => {
      if (this.exited || this.failure instanceof ThreadFailure) return resolve('exited');
      this.settle = resolve;
      // Waited for: the thread holds the run open until it answers, fails or exits (unreferenced, a thread that
      // died would let the run end with this promise never settled).
      this.worker.ref();
      this.worker.postMessage(what);
    });
  }

  private reply(m: unknown): void {
    if (m instanceof ArrayBuffer) {
      if (m.byteLength === PIECE) this.spare.push(m);
      this.waiting--;
      if (this.onDrained && !this.backlog) {
        const then = this.onDrained;
        this.onDrained = undefined;
        then();
      }
    } else if (m && typeof m === 'object' && 'error' in m) {
      const e = (m as { error: WriteFailure }).error;
      this.fail(Object.assign(new Error(e.message), e) as WriteFailure);
    } else this.settle?.(m);
  }

  private fail(err: WriteFailure | ThreadFailure): void {
    if (this.failure) return;
    this.failure = err;
    this.onFailure(err);
    // A thread that failed answers nothing more.
    if (err instanceof ThreadFailure) this.settle?.('failed');
  }

  private stop(): void {
    this.ended = true;
    void this.worker.terminate();
  }
}
