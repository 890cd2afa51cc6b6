// The served folders, watched: a change anywhere below one (debounced) is handed on as the paths that changed.
// fs.watch is recursive on Linux, macOS and Windows since Node 20; where it is not, the folder and each folder
// below it at the start get a watcher of their own.
import { readdirSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { SKIP_DIRS } from '../fs/walk.js';

export interface Watched {
  /** Folders watched with everything below them. */
  trees: string[];
  /** Folders watched for their own entries only (a registry: its index.json). */
  flat: string[];
}

/** Watch; returns the function that stops every watcher. */
export function watchFolders(what: Watched, onChange: (paths: string[]) => void, debounceMs = 150): () => void {
  const watchers: FSWatcher[] = [];
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const changed = (abs: string) => {
    pending.add(abs);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const batch = [...pending];
      pending = new Set();
      onChange(batch);
    }, debounceMs);
  };
  const add = (dir: string, recursive: boolean): boolean => {
    try {
      const w = watch(dir, { recursive }, (_event, name) => changed(name ? join(dir, name.toString()) : dir));
      w.on('error', () => w.close());
      watchers.push(w);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM') return false;
      return true; // gone, or not readable: nothing to watch
    }
  };
  const below = (dir: string, depth: number) => {
    add(dir, false);
    if (depth === 0) return;
    let list;
    try {
      list = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const d of list) if (d.isDirectory() && !SKIP_DIRS.has(d.name)) below(join(dir, d.name), depth - 1);
  };
  for (const dir of what.trees) if (!add(dir, true)) below(dir, 8);
  for (const dir of what.flat) add(dir, false);
  return () => {
    clearTimeout(timer);
    for (const w of watchers) w.close();
  };
}
