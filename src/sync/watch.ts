// Watching a folder tree, debounced, for sync --watch.
import { lstatSync, readdirSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { SkillsError } from '../errors.js';
import { isNeverKept } from '../fs/walk.js';

const NATIVE_RECURSIVE = new Set<string>(['darwin', 'win32']);

export interface WatchOptions {
  signal: AbortSignal;
  /** Quiet time after the last change before onChange runs. */
  debounceMs?: number;
  /**
   * true: Node's recursive fs.watch; false: one watcher per folder. By default recursive only where it is native
   * (macOS, Windows).
   */
  recursive?: boolean;
}

/**
 * Watch a folder tree and call onChange with the absolute paths that changed, once each burst of changes has
 * been quiet for debounceMs; calls never overlap. Resolves when the signal aborts and the running call ends.
 */
export function watchTree(
  root: string,
  onChange: (paths: string[]) => Promise<void>,
  options: WatchOptions,
): Promise<void> {
  const debounce = options.debounceMs ?? 200;
  const watchers = new Map<string, FSWatcher>();
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let failure: unknown;

  return new Promise<void>((resolvePromise, reject) => {
    const finish = () => {
      clearTimeout(timer);
      for (const w of watchers.values()) w.close();
      watchers.clear();
      void (running ?? Promise.resolve()).then(() => (failure ? reject(failure) : resolvePromise()));
    };
    const flush = () => {
      timer = undefined;
      if (running || pending.size === 0 || options.signal.aborted) return;
      const batch = [...pending];
      pending = new Set();
      running = onChange(batch)
        .catch((err) => {
          failure = err;
          if (!options.signal.aborted) finish();
        })
        .finally(() => {
          running = undefined;
          if (pending.size > 0 && !options.signal.aborted) schedule();
        });
    };
    const schedule = () => {
      clearTimeout(timer);
      timer = setTimeout(flush, debounce);
    };
    const changed = (abs: string) => {
      pending.add(abs);
      schedule();
    };
    const watchOne = (dir: string) => {
      if (watchers.has(dir)) return;
      let w: FSWatcher;
      try {
        w = watch(dir, (_event, name) => {
          const abs = name ? join(dir, name.toString()) : dir;
          // A folder that appears gets its own watcher (and everything below it).
          if (name) {
            try {
              if (lstatSync(abs).isDirectory()) watchBelow(abs);
            } catch {
              /* gone again */
            }
          }
          changed(abs);
        });
      } catch {
        return;
      }
      w.on('error', () => {
        w.close();
        watchers.delete(dir);
      });
      watchers.set(dir, w);
    };
    const watchBelow = (dir: string) => {
      watchOne(dir);
      for (const d of (() => {
        try {
          return readdirSync(dir, { withFileTypes: true });
        } catch {
          return [];
        }
      })()) {
        if (d.isDirectory() && !isNeverKept(d.name, true)) watchBelow(join(dir, d.name));
      }
    };
    // On Linux, Node 20 emulates recursive fs.watch in JavaScript with one inotify watch per file and per folder,
    // node_modules and .git included (a tree of 300 skills with 10 files each in node_modules: 3,901 watches against
    // our 301), re-reading a folder on each event; a large tree runs out of the user's inotify watches, and sync
    // --watch once missed a new skill on a loaded machine. Our watchers are one per folder, skip the folders never
    // part of a skill (isNeverKept), add a new folder's watch inside its event, and the debounced rescan of that
    // folder finds what was written before.
    let recursive = options.recursive ?? NATIVE_RECURSIVE.has(process.platform);
    if (recursive) {
      try {
        const w = watch(root, { recursive: true }, (_event, name) =>
          changed(name ? join(root, name.toString()) : root),
        );
        w.on('error', (err) => {
          failure = err;
          finish();
        });
        watchers.set(root, w);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM') {
          reject(new SkillsError('E_IO', `cannot watch ${root}: ${(err as Error).message}`, { cause: err }));
          return;
        }
        recursive = false;
      }
    }
    if (!recursive) watchBelow(root);
    if (options.signal.aborted) finish();
    else options.signal.addEventListener('abort', finish, { once: true });
  });
}
