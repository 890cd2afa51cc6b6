// An .npmrc file's text → its settings, as npm reads it: ini syntax (npm's own `ini` package), `${NAME}` replaced
// by the environment variable (`${NAME?}` by nothing when it is unset), quotes around a value dropped by ini.
import { parse } from 'ini';

export interface NpmrcResult {
  settings: Record<string, string>;
  /** Environment variables named by `${NAME}` that are not set (npm fails on these; we say which). */
  missing: string[];
}

/** Parse an .npmrc's text; values that are not strings (ini sections, lists) are left out. */
export function parseNpmrc(text: string, env: Record<string, string | undefined>): NpmrcResult {
  const missing: string[] = [];
  const expand = (s: string) =>
    s.replace(/(\\*)\$\{([^}?]+)(\?)?\}/g, (all, slashes: string, name: string, optional?: string) => {
      if (slashes.length % 2 === 1) return all.slice(1);
      const value = env[name];
      if (value === undefined) {
        if (!optional) missing.push(name);
        return `${slashes}`;
      }
      return `${slashes}${value}`;
    });
  const settings: Record<string, string> = {};
  for (const [key, value] of Object.entries(parse(text) as Record<string, unknown>)) {
    if (typeof value === 'string') settings[expand(key)] = expand(value);
    else if (typeof value === 'boolean') settings[expand(key)] = String(value);
  }
  return { settings, missing };
}

/** The registry URL with one trailing slash. */
export function normalizeRegistry(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

/** `//host[:port]/path/`: the key prefix npm gives a registry's credentials (its "nerf dart"). */
export function nerfDart(url: string): string {
  const u = new URL(url);
  const path = u.pathname.endsWith('/') ? u.pathname : `${u.pathname}/`;
  return `//${u.host}${path}`;
}
