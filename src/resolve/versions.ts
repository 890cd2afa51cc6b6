// Versions and ranges, compared and matched fast: a registry repeats a handful of them over thousands of releases.
import Range from 'semver/classes/range.js';
import SemVer from 'semver/classes/semver.js';
import { onceEach } from '../model/memo.js';

// Plain x.y.z versions, by far the most common, compare as numbers; anything else goes through semver.
const PLAIN = /^(\d{1,9})\.(\d{1,9})\.(\d{1,9})$/;
const parsedVersions = new Map<string, SemVer | number[] | null>();

/**
 * A plain x.y.z version as three numbers, any other semver as a SemVer; undefined when it is not semver. Worked out
 * once per version (the same array each time): a registry has a handful of versions, compared thousands of times.
 */
export function versionKey(v: string): SemVer | readonly number[] | undefined {
  return (
    onceEach(parsedVersions, v, (x) => {
      const m = PLAIN.exec(x);
      return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : new SemVer(x);
    }) ?? undefined
  );
}

/** Compare two versions that versionKey accepts, semver order. */
export function compareVersions(a: string, b: string): number {
  const x = versionKey(a)!;
  const y = versionKey(b)!;
  if (Array.isArray(x) && Array.isArray(y)) return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
  return new SemVer(a).compare(b);
}

const ranges = new Map<string, Range | null>();
// One small map of versions per distinct range, never one long `${range}${version}` key: V8 hashes a string longer
// than 16,383 characters by its length alone, so long keys would all share one bucket and every lookup would crawl.
const matching = new Map<string, Map<string, boolean>>();

/** Whether version satisfies range; registries repeat both, so each pair is worked out once. */
export function matches(version: string, range: string): boolean {
  let byVersion = matching.get(range);
  if (byVersion === undefined) matching.set(range, (byVersion = new Map()));
  let m = byVersion.get(version);
  if (m !== undefined) return m;
  const r = onceEach(ranges, range, (x) => new Range(x));
  m = r !== null && r.test(version);
  byVersion.set(version, m);
  return m;
}
