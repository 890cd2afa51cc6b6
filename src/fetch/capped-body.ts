// A response body read under a byte cap, the one way every download of skills counts its bytes: an archive or a
// well-known index streamed to disk, an npm registry's search answer, packument or tarball kept in memory. Past
// the cap it stops at once (the rest is never read, let alone buffered), whatever the server says it will send.

/** A size for a message: MiB, with one decimal below 10 MiB ("8.0 MiB", "64 MiB"). */
export const mib = (n: number): string => `${(n / (1024 * 1024)).toFixed(n < 10 * 1024 * 1024 ? 1 : 0)} MiB`;

export interface Cap {
  /** The most bytes the body may have. */
  maxBytes: number;
  /** The error for a body over the cap, given the bytes that came (or that its Content-Length declares). */
  over: (bytes: number) => Error;
  /** The body's Content-Length, when the server sent one: more than the cap is refused before a byte is read. */
  declared?: string | null;
}

/**
 * The chunks of `body`, counted: past `cap.maxBytes` the loop stops and `cap.over` is thrown (leaving the loop
 * cancels a web stream; a Node stream is paused, so its request should be aborted by the caller).
 */
export async function* cappedChunks(body: AsyncIterable<Uint8Array>, cap: Cap): AsyncGenerator<Uint8Array> {
  const declared = Number(cap.declared ?? Number.NaN);
  if (cap.declared != null && Number.isFinite(declared) && declared > cap.maxBytes) {
    await body[Symbol.asyncIterator]().return?.();
    throw cap.over(declared);
  }
  let bytes = 0;
  for await (const chunk of body) {
    bytes += chunk.length;
    if (bytes > cap.maxBytes) throw cap.over(bytes);
    yield chunk;
  }
}

/** The whole of `body`, in memory, under `cap`. */
export async function readCapped(body: AsyncIterable<Uint8Array>, cap: Cap): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const chunk of cappedChunks(body, cap)) parts.push(chunk);
  return Buffer.concat(parts);
}
