// The integrity of an archive's skill, worked out while the archive is unpacked: each file's bytes go, as the
// extraction writes them, to a hash on a worker thread, so the main thread (which parses the tar and creates the
// files) does not hash them all again afterwards (35 MB of SHA-512 for a 10,000-file skill). Which folder of the
// archive is the skill is known only at the end: the first file's top folder is taken for it (or the archive's top,
// when that file sits there), and the digest is used only when the skill's files turn out to be exactly the ones
// hashed, in that order; else digest() works it out from the files as before. The bytes hashed are digest()'s.
import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { ALGORITHM, KeptFiles, fileHeader, type StoredFile } from './integrity.js';

/** The worker: hashes each piece it is sent (and sends it back to be filled again), and the digest when told. */
const WORKER_CODE = `
const { parentPort } = require('node:worker_threads');
const h = require('node:crypto').createHash(${JSON.stringify(ALGORITHM)});
parentPort.on('message', (m) => {
  if (m === null) return parentPort.postMessage(h.digest('base64'));
  h.update(new Uint8Array(m.buffer, 0, m.length));
  parentPort.postMessage(m.buffer, [m.buffer]);
});`;

/** Bytes sent to the worker at a time. */
const PIECE = 1024 * 1024;
/** Below this many bytes in all, the pieces are hashed here at the end: a thread costs more to start than that. */
const THREAD_FROM = 4 * PIECE;

export class StreamedDigest {
  /** The folder (with its slash) the skill is taken to be in: set by the first file. */
  private prefix: string | undefined;
  /** The files hashed, in order: their paths below `prefix`. */
  private readonly rels: string[] = [];
  private readonly kept = new KeptFiles();
  /** Set when what was hashed can no longer be trusted to be the files written (a length that did not match). */
  private broken = false;
  private worker: Worker | undefined;
  /** Filled pieces not sent yet: all of them until the worker starts. */
  private waiting: Buffer[] = [];
  private waitingBytes = 0;
  /** Pieces the worker sent back. */
  private readonly spare: ArrayBuffer[] = [];
  private piece: Buffer | undefined;
  private at = 0;
  /** Bytes of the last file hashed still to come. */
  private left = 0;
  private claimed: Promise<string | undefined> | undefined;

  /**
   * A file the extraction is about to write (`rel` below the archive's top, `mode` as written, `size` bytes): the
   * function its bytes are to be given to as they are written, or undefined when it is not hashed.
   */
  file(rel: string, mode: number, size: number): ((chunk: Buffer) => void) | undefined {
    if (this.left !== 0) this.broken = true;
    if (this.broken || this.claimed) return undefined;
    if (this.prefix === undefined) {
      const slash = rel.indexOf('/');
      this.prefix = slash < 0 ? '' : rel.slice(0, slash + 1);
    }
    if (!rel.startsWith(this.prefix)) return undefined;
    const below = rel.slice(this.prefix.length);
    if (!this.kept.keeps(below)) return undefined;
    this.rels.push(below);
    const header = fileHeader({ kind: 'file', rel: below, mode }, size);
    if (this.piece === undefined || PIECE - this.at < header.length * 3) this.next();
    this.at += this.piece!.write(header, this.at, 'utf8');
    this.left = size;
    return (chunk) => {
      this.left -= chunk.length;
      if (this.left < 0) this.broken = true;
      else this.add(chunk);
    };
  }

  /**
   * The integrity of the skill in the archive's folder `inner` ('' for its top), whose files are `files`: the one
   * worked out while unpacking when those are the files hashed, else undefined. Asked once per skill found; the
   * worker goes when `close` is called.
   */
  result(files: StoredFile[], inner: string): Promise<string | undefined> {
    const asKept = inner === '' ? '' : `${inner}/`;
    if (this.left !== 0) this.broken = true;
    if (this.broken || this.claimed || this.prefix !== asKept || files.length !== this.rels.length)
      return Promise.resolve(undefined);
    for (let i = 0; i < files.length; i++)
      if (files[i]!.kind !== 'file' || files[i]!.rel !== this.rels[i]) return Promise.resolve(undefined);
    this.claimed = this.finish();
    return this.claimed;
  }

  /** Stop the worker, unless a result still waits for it (then it stops when that arrives). */
  close(): void {
    if (!this.claimed) void this.worker?.terminate();
    this.worker = undefined;
  }

  private async finish(): Promise<string | undefined> {
    if (this.piece !== undefined && this.at > 0) this.send(this.piece, this.at);
    this.piece = undefined;
    const worker = this.worker;
    if (!worker) {
      const h = createHash(ALGORITHM);
      for (const p of this.waiting) h.update(p);
      this.waiting = [];
      return `${ALGORITHM}-${h.digest('base64')}`;
    }
    try {
      const base64 = await new Promise<string>((done, fail) => {
        worker.on('message', (m: unknown) => (typeof m === 'string' ? done(m) : undefined));
        worker.on('error', fail);
        worker.on('exit', () => fail(new Error('the hashing thread ended')));
        worker.postMessage(null);
      });
      return `${ALGORITHM}-${base64}`;
    } catch {
      return undefined;
    } finally {
      void worker.terminate();
    }
  }

  /** Copy bytes into the pieces. */
  private add(bytes: Buffer): void {
    for (let from = 0; from < bytes.length;) {
      if (this.piece === undefined || this.at === PIECE) this.next();
      const n = Math.min(bytes.length - from, PIECE - this.at);
      bytes.copy(this.piece!, this.at, from, from + n);
      this.at += n;
      from += n;
    }
  }

  /** Send the piece being filled (if any) and take a new one. */
  private next(): void {
    if (this.piece !== undefined && this.at > 0) this.send(this.piece, this.at);
    this.piece = Buffer.from(this.spare.pop() ?? new ArrayBuffer(PIECE));
    this.at = 0;
  }

  private send(piece: Buffer, length: number): void {
    if (!this.worker) {
      this.waiting.push(piece.subarray(0, length));
      this.waitingBytes += length;
      if (this.waitingBytes < THREAD_FROM) return;
      this.start();
      return;
    }
    const buffer = piece.buffer as ArrayBuffer;
    this.worker.postMessage({ buffer, length }, [buffer]);
  }

  private start(): void {
    const worker = new Worker(WORKER_CODE, { eval: true });
    // The run never waits for it: a result asked for waits, and everything else ends it.
    worker.unref();
    worker.on('message', (m: unknown) => {
      if (m instanceof ArrayBuffer) this.spare.push(m);
    });
    worker.on('error', () => {
      this.broken = true;
    });
    this.worker = worker;
    const waiting = this.waiting;
    this.waiting = [];
    for (const p of waiting) {
      const buffer = p.buffer as ArrayBuffer;
      worker.postMessage({ buffer, length: p.length }, [buffer]);
    }
  }
}
