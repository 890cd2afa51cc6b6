// Copies of many folders (a registry batch's staged skills) written by a thread of their own. Creating files and
// folders is most of what a copy costs, and it is all system calls: on a thread, they run while the main thread
// reads, checks and hashes the next folders, instead of after them. The main thread holds every byte to write
// (what it hashed), so the thread only creates, writes and sets modes. Copies go in messages of many (a message
// costs more than creating a small folder's files), their bytes in one buffer handed over without a copy. One
// thread makes every copy, so they never queue on a folder's lock against each other. The first failure stops the
// thread; finish() reports it, and after abort() nothing more is written.
import { Worker } from 'node:worker_threads';

/** One entry of a copy: a file (its bytes, and its mode set exactly, whatever the umask) or a symlink (its text). */
export interface TreeEntry {
  /** Path below the copy's folder, forward slashes. */
  rel: string;
  mode: number;
  content?: Uint8Array;
  link?: string;
}

/** A failure of the thread: the file system's error (code, syscall, path) as copyFiles would have thrown it. */
export type TreeWriteFailure = NodeJS.ErrnoException;

/**
 * The worker: each message holds copies (each a `dest`, its entries as [rel, mode, length] or [rel, -1, link text],
 * and the folders to seal, as JSON) and the bytes of their files one after another. The folders above each file are
 * made once; files are created new (`wx`, no write bit for others than the owner until the mode is set on the open
 * file), and the sealed folders lose their write bits last. The first failure is told, and nothing more is written.
 */
const WORKER_CODE = `
const fs = require('node:fs');
const path = require('node:path');
const { parentPort } = require('node:worker_threads');
let failed = false;
const copy = (m, b, at) => {
  let where = m.dest;
  try {
    fs.mkdirSync(m.dest, { recursive: true });
    const made = new Set([m.dest]);
    for (const [rel, mode, more] of m.entries) {
      const to = path.join(m.dest, rel);
      where = to;
      const parent = path.dirname(to);
      if (!made.has(parent)) { fs.mkdirSync(parent, { recursive: true }); made.add(parent); }
      if (mode < 0) { fs.symlinkSync(more, to); continue; }
      const fd = fs.openSync(to, 'wx', 0o600);
      try {
        for (const end = at + more; at < end; ) at += fs.writeSync(fd, b, at, end - at);
        fs.fchmodSync(fd, mode);
      } finally { fs.closeSync(fd); }
    }
    for (const rel of m.seal) {
      const abs = rel === '' ? m.dest : path.join(m.dest, rel);
      where = abs;
      fs.chmodSync(abs, fs.lstatSync(abs).mode & 0o7555);
    }
    return at;
  } catch (err) {
    failed = true;
    const e = err || {};
    parentPort.postMessage({ error: { message: String(e.message), code: e.code, errno: e.errno, syscall: e.syscall, path: e.path === undefined ? where : e.path } });
  }
};
parentPort.on('message', (m) => {
  const b = Buffer.from(m.buffer);
  let at = 0;
  const copies = JSON.parse(m.copies);
  for (const c of copies) {
    if (failed) return;
    at = copy(c, b, at);
  }
  if (!failed) parentPort.postMessage({ done: copies.length, size: m.size });
});`;

/** Bytes sent and not yet written past which the sender waits (drained): the copies' memory stays bounded. */
const MOST_IN_FLIGHT = 64 * 1024 * 1024;
/** What one entry weighs besides its bytes, for that bound and for when a message is sent. */
const ENTRY_WEIGHT = 256;
/** A message is sent once the copies gathered weigh this much. */
const MESSAGE_WEIGHT = 256 * 1024;

type Copy = { dest: string; entries: [string, number, number | string][]; seal: string[] };

/** Writes folder copies on a worker thread, in the order asked. */
export class TreeWriter {
  private readonly worker: Worker;
  private gathered: Copy[] = [];
  private chunks: Uint8Array[] = [];
  private gatheredBytes = 0;
  private gatheredWeight = 0;
  private inFlight = 0;
  private sent = 0;
  private done = 0;
  private failure: TreeWriteFailure | undefined;
  private exited = false;
  private wake: (() => void) | undefined;

  constructor() {
    // Its own stdout and stderr (it prints nothing): piped to ours, they would build process.stdout and stderr here.
    this.worker = new Worker(WORKER_CODE, { eval: true, stdout: true, stderr: true });
    // Nothing waits for the thread but finish, drained and abort, which hold the process while they wait.
    this.worker.unref();
    this.worker.on('message', (m: { done?: number; size?: number; error?: TreeWriteFailure }) => {
      if (m.error) this.fail(Object.assign(new Error(m.error.message), m.error));
      else {
        this.inFlight -= m.size!;
        this.done += m.done!;
      }
      this.wake?.();
    });
    this.worker.on('error', (err: Error) => {
      this.fail(err as TreeWriteFailure);
      this.wake?.();
    });
    this.worker.on('exit', () => {
      this.exited = true;
      this.wake?.();
    });
  }

  /**
   * Copy `entries` into `dest` (created, with the folders above each entry), then take the write bits off the
   * folders `seal` names ('' for `dest` itself). Files without `content` are empty.
   */
  copy(dest: string, entries: TreeEntry[], seal: string[]): void {
    if (this.failure) return;
    const list: Copy['entries'] = [];
    for (const e of entries) {
      if (e.link !== undefined) {
        list.push([e.rel, -1, e.link]);
        continue;
      }
      const n = e.content?.length ?? 0;
      if (n > 0) this.chunks.push(e.content!);
      this.gatheredBytes += n;
      list.push([e.rel, e.mode, n]);
    }
    this.gathered.push({ dest, entries: list, seal });
    this.sent++;
    this.gatheredWeight += ENTRY_WEIGHT * (entries.length + 1);
    if (this.gatheredBytes + this.gatheredWeight >= MESSAGE_WEIGHT) this.send();
  }

  /** True when so much waits to be written that the sender should wait (drained) before sending more. */
  get backlog(): boolean {
    return this.inFlight > MOST_IN_FLIGHT && !this.failure && !this.exited;
  }

  /** Resolves once the backlog is gone (or the thread failed: finish tells it). */
  drained(): Promise<void> {
    return this.until(() => !this.backlog);
  }

  /** Every copy asked for is written; rejects with the first failure. The thread is ended either way. */
  async finish(): Promise<void> {
    this.send();
    await this.until(() => this.done === this.sent || this.failure !== undefined || this.exited);
    const ok = this.done === this.sent && !this.failure;
    await this.abort();
    if (this.failure) throw this.failure;
    if (!ok) throw new Error('the thread that wrote the copies ended before it was done');
  }

  /** Stop the thread: once this resolves, nothing more is written. */
  async abort(): Promise<void> {
    if (!this.exited) await this.worker.terminate();
    this.exited = true;
  }

  /** Send the copies gathered, their bytes in one buffer of its own (not one of Node's pools): handed over. */
  private send(): void {
    if (this.gathered.length === 0 || this.failure) return;
    const buffer = new ArrayBuffer(this.gatheredBytes);
    const all = new Uint8Array(buffer);
    let at = 0;
    for (const c of this.chunks) {
      all.set(c, at);
      at += c.length;
    }
    const size = this.gatheredBytes + this.gatheredWeight;
    this.inFlight += size;
    // As JSON text: one string is cloned faster than many small arrays.
    this.worker.postMessage({ copies: JSON.stringify(this.gathered), buffer, size }, [buffer]);
    this.gathered = [];
    this.chunks = [];
    this.gatheredBytes = 0;
    this.gatheredWeight = 0;
  }

  private until(ready: () => boolean): Promise<void> {
    if (ready()) return Promise.resolve();
    this.worker.ref();
    return new Promise((resolve) => {
      this.wake = () => {
        if (!ready()) return;
        this.wake = undefined;
        this.worker.unref();
        resolve();
      };
    });
  }

  private fail(err: TreeWriteFailure): void {
    this.failure ??= err;
  }
}
