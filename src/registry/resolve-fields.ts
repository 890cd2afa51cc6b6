import { STORE_PATH } from '../formats/index-file.js';

// The checks of a resolve index row's parts (resolve-index.ts): its list of versions and each version's fields.

export const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

/** A version's fields in a row: [version, layout, path, dependencies, nodeVersion?, systemPackages?]. */
export type Fields = [string, 0 | 1, 0 | 1 | string, string[], (string | null)?, string[]?];

/** A version as the second half of a store folder's name, `<id>@<version>` (STORE_PATH). */
const VERSION_PART = /^[^/\\]+$/;

/**
 * Whether `f` is a version's fields, checked as a releases file's release is (the path as STORE_PATH checks it).
 * `idFolder`: whether `<id>@<a version>` names a store folder, which the id decides (worked out once for a row).
 */
export function isFields(idFolder: boolean, f: unknown): f is Fields {
  if (!Array.isArray(f) || f.length < 4 || f.length > 6) return false;
  // By index, not destructured: destructuring steps an iterator, which allocates until the code is optimized.
  const a = f as unknown[];
  const version = a[0];
  const layout = a[1];
  const path = a[2];
  const dependencies = a[3];
  const nodeVersion = a[4];
  const systemPackages = a[5];
  return (
    typeof version === 'string' &&
    (layout === 0 || layout === 1) &&
    (path === 0 || path === 1
      ? idFolder && VERSION_PART.test(version)
      : typeof path === 'string' && STORE_PATH.test(path)) &&
    isStrings(dependencies) &&
    (nodeVersion === undefined || nodeVersion === null || typeof nodeVersion === 'string') &&
    (systemPackages === undefined || isStrings(systemPackages))
  );
}
