// The few functions of npm's own libraries that skills calls (they ship no types).
declare module 'libnpmpublish' {
  export function publish(
    manifest: Record<string, unknown>,
    tarball: Buffer,
    opts: Record<string, unknown>,
  ): Promise<unknown>;
}
declare module 'npm-registry-fetch' {
  interface Fetch {
    /** The answer, its status checked (an HTTP error is thrown as npm-registry-fetch's own), its body unread. */
    (
      url: string,
      opts?: Record<string, unknown>,
    ): Promise<{
      headers: { get(name: string): string | null };
      body: AsyncIterable<Buffer>;
    }>;
    json(url: string, opts?: Record<string, unknown>): Promise<Record<string, unknown>>;
  }
  const fetch: Fetch;
  export default fetch;
}
declare module 'pacote' {
  export const tarball: {
    /** The tarball's bytes, checked against `integrity`, handed to `handler` as a stream (pacote may retry once). */
    stream<T>(
      spec: string,
      handler: (stream: AsyncIterable<Buffer> & { on(event: 'error', f: () => void): unknown }) => Promise<T>,
      opts?: Record<string, unknown>,
    ): Promise<T>;
  };
  export function packument(spec: string, opts?: Record<string, unknown>): Promise<Record<string, unknown>>;
}
