import { Transform } from 'node:stream';

// What pack's streamed .tgz goes through on its way to gzip and out of it (pack.ts).

/**
 * What gzip is handed at a time: a tar's pieces (a 512-byte header, a small file, its padding) gathered up to this
 * size. gzip works on the thread pool, one hand-over a write: a skill of 1,000 small files given piece by piece took
 * twice as long, the main thread waiting on 3,000 hand-overs.
 */
export const GATHER = 256 * 1024;

/** The buffers of `pieces`, joined into buffers of at least `size` bytes (the last one smaller); same bytes. */
export async function* gathered(pieces: AsyncIterable<Buffer>, size: number): AsyncGenerator<Buffer> {
  let held: Buffer[] = [];
  let bytes = 0;
  for await (const piece of pieces) {
    held.push(piece);
    bytes += piece.length;
    if (bytes >= size) {
      yield held.length === 1 ? held[0]! : Buffer.concat(held, bytes);
      held = [];
      bytes = 0;
    }
  }
  if (bytes > 0) yield Buffer.concat(held, bytes);
}

/** The gzip header's OS byte (offset 9) set to 255, "unknown", as gzipTar and node-tar's portable write it. */
export function portableGzipHeader(): Transform {
  let offset = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      if (offset <= 9 && offset + chunk.length > 9) chunk[9 - offset] = 0xff;
      offset += chunk.length;
      cb(null, chunk);
    },
  });
}
