// The served folders, watched: a change anywhere below one (debounced) is handed on as the paths that changed.
// fs.watch is recursive on Linux, macOS and Windows since Node 20; where it is not, the folder and each folder
// below it get a watcher of their own. Node 20's recursive watch on Linux loses a folder renamed or removed below
// the root, and the root itself once it is removed and made again (a branch switch, rm -rf and a copy): so a tree is
// watched anew after a folder in it came or went, and a root that is gone is looked for until it is back.
import { readdirSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { isFolder, isNeverKept } from '../fs/walk.js';

export interface Watched {
  /** Folders watched with everything below them. */
  trees: string[];
  /** Folders watched for their own entries only (a registry: its index.json). */
  flat: string[];
}

/** How often a watched folder that is gone is looked for. */
export const GONE_POLL_MS = 1000;
/** How deep folders are watched one by one where fs.watch is not recursive. */
const DEPTH = 8;

interface Tree {
  watchers: FSWatcher[];
  /** The folders below the root when it was last watched: a rename of one of them means watching anew. */
  dirs: Set<string>;
  poll?: NodeJS.Timeout;
}

/** Watch; returns the function that stops every watcher. */
export function watchFolders(what: Watched, onChange: (paths: string[]) => void, debounceMs = 150): () => void {
  const flat: FSWatcher[] = [];
  const trees = new Map<string, Tree>();
  let pending = new Set<string>();
  let again = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const flush = () => {
    const batch = [...pending];
    const rearm = [...again];
    pending = new Set();
    again = new Set();
    for (const root of rearm) arm(root);
    onChange(batch);
  };
  const changed = (abs: string, root?: string, folderMoved = false) => {
    pending.add(abs);
    if (root !== undefined && folderMoved) again.add(root);
    clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  };
  const open = (dir: string, recursive: boolean, on: (event: string, name: string | undefined) => void) => {
    try {
      const w = watch(dir, { recursive }, (event, name) => on(event, name?.toString()));
      return w;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM') return 'unsupported';
      return undefined; // gone, or not readable: nothing to watch
    }
  };
  const arm = (root: string) => {
    if (stopped) return;
    const tree = trees.get(root)!;
    for (const w of tree.watchers) w.close();
    tree.watchers = [];
    clearInterval(tree.poll);
    tree.poll = undefined;
    if (!isFolder(root)) {
      // Gone: looked for until it is back, then watched anew and told as changed.
      tree.poll = setInterval(() => {
        if (isFolder(root)) changed(root, root, true);
      }, GONE_POLL_MS);
      tree.poll.unref();
      return;
    }
    tree.dirs = foldersBelow(root);
    const on = (base: string) => (event: string, name: string | undefined) => {
      const abs = name ? join(base, name) : base;
      // A folder that came (now one) or went (one before): the recursive watch may have lost it.
      changed(abs, root, event === 'rename' && (abs === root || tree.dirs.has(abs) || isFolder(abs)));
    };
    const whole = open(root, true, on(root));
    if (whole === 'unsupported') {
      for (const dir of [root, ...tree.dirs]) {
        const w = open(dir, false, on(dir));
        if (w && w !== 'unsupported') tree.watchers.push(watched(w, root));
      }
    } else if (whole) tree.watchers.push(watched(whole, root));
  };
  // A watcher that fails (its folder removed) is closed, and its tree watched anew.
  const watched = (w: FSWatcher, root: string) => w.on('error', () => changed(root, root, true));
  for (const root of what.trees) {
    if (trees.has(root)) continue;
    trees.set(root, { watchers: [], dirs: new Set() });
    arm(root);
  }
  for (const dir of what.flat) {
    const w = open(dir, false, (_event, name) => changed(name ? join(dir, name) : dir));
    if (w && w !== 'unsupported') flat.push(w.on('error', () => w.close()));
  }
  return () => {
    stopped = true;
    clearTimeout(timer);
    for (const w of flat) w.close();
    for (const tree of trees.values()) {
      clearInterval(tree.poll);
      for (const w of tree.watchers) w.close();
    }
  };
}

/** The folders below `root` (not itself), as deep as DEPTH, skipping those never part of a skill (isNeverKept). */
function foldersBelow(root: string): Set<string> {
  const out = new Set<string>();
  const visit = (dir: string, depth: number) => {
    if (depth === 0) return;
    let list;
    try {
      list = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const d of list)
      if (d.isDirectory() && !isNeverKept(d.name, true)) {
        const abs = join(dir, d.name);
        out.add(abs);
        visit(abs, depth - 1);
      }
  };
  visit(root, DEPTH);
  return out;
}
