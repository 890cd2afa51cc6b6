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
    json(url: string, opts?: Record<string, unknown>): Promise<Record<string, unknown>>;
  }
  const fetch: Fetch;
  export default fetch;
}
declare module 'pacote' {
  export function tarball(
    spec: string,
    opts?: Record<string, unknown>,
  ): Promise<Buffer & { integrity?: string; resolved?: string }>;
  export function packument(spec: string, opts?: Record<string, unknown>): Promise<Record<string, unknown>>;
}
