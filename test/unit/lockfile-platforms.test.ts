// `npm ci` refuses a lockfile that lacks any optional dependency of a locked package ("Missing: @rollup/rollup-
// android-arm-eabi@ from lock file"), on every platform, even those whose build it would never install. A lockfile
// written against a registry that lacked some platform's builds passes `npm install` here and breaks `npm ci`
// elsewhere: this test reads package-lock.json the way npm resolves it and names every optional package missing.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

interface LockEntry {
  version?: string;
  optionalDependencies?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** Where npm finds `name` from the package at `from`: its own node_modules, then each parent's, then the root's. */
export function locate(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  let dir = from;
  for (;;) {
    const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    if (candidate in packages) return candidate;
    if (dir === '') return undefined;
    const at = dir.lastIndexOf('/node_modules/');
    dir = at === -1 ? '' : dir.slice(0, at);
  }
}

/** Every `<package> → <optional dependency>` that the lockfile lacks. */
export function missingOptional(lock: { packages: Record<string, LockEntry> }): string[] {
  const missing: string[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    for (const name of Object.keys(entry.optionalDependencies ?? {})) {
      if (locate(lock.packages, path, name) === undefined) missing.push(`${path || '(root)'} → ${name}`);
    }
  }
  return missing;
}

describe('package-lock.json', () => {
  const lock = JSON.parse(readFileSync(fileURLToPath(new URL('../../package-lock.json', import.meta.url)), 'utf8'));

  it('holds every platform build of every optional dependency, so npm ci passes on any platform', () => {
    expect(missingOptional(lock)).toEqual([]);
  });

  it('names what a lockfile written against a registry lacking some builds is missing', () => {
    const broken = {
      packages: {
        '': { devDependencies: { rollup: '4.68.7' } },
        'node_modules/rollup': {
          version: '4.68.7',
          optionalDependencies: { '@rollup/rollup-linux-x64-gnu': '4.68.7', '@rollup/rollup-win32-x64-msvc': '4.68.7' },
        },
        'node_modules/@rollup/rollup-linux-x64-gnu': { version: '4.68.7' },
      },
    };
    expect(missingOptional(broken)).toEqual(['node_modules/rollup → @rollup/rollup-win32-x64-msvc']);
  });

  it('finds a nested copy the way npm does', () => {
    const nested = {
      packages: {
        'node_modules/vite/node_modules/rollup': { optionalDependencies: { fsevents: '2.3.3' } },
        'node_modules/fsevents': { version: '2.3.3' },
      },
    };
    expect(missingOptional(nested)).toEqual([]);
  });
});
