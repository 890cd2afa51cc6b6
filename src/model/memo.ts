// A value worked out once per key, kept with its failure: the floor under every "read/parse each X once" cache.

/** `work(key)` worked out once per key and kept in `cache`; null when it throws (and kept so: not tried again). */
export function onceEach<T>(cache: Map<string, T | null>, key: string, work: (key: string) => T): T | null {
  let got = cache.get(key);
  if (got === undefined) {
    try {
      got = work(key);
    } catch {
      got = null;
    }
    cache.set(key, got);
  }
  return got;
}
