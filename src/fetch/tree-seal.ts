// What a cached git tree held when it was fetched: its listing (each entry's path and kind, a file's size, mode and
// modification time, a link's text), hashed into `<tree>.seal` beside it. A tree is kept per URL and commit and used
// again without the network, so one changed since (a file deleted or edited in ~/.cache by hand, a cleaner, a
// disk) would be installed as it now is, and locked with the integrity of what is left. A tree whose listing is not
// its seal's is put aside and fetched again. A tree with no seal (cached by an older version, or by a run killed
// between the rename and the seal) is sealed as it is found.
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SkillsError } from '../errors.js';
import { tempName, writeAtomic } from '../fs/atomic.js';

/** The file that holds a cached tree's seal. */
const sealFile = (tree: string): string => `${tree}.seal`;

/** The hash of a tree's listing: paths in order, kinds, sizes, modes, modification times and link texts. */
export function treeListing(tree: string): string {
  const h = createHash('sha256');
  const visit = (abs: string, rel: string): void => {
    for (const name of readdirSync(abs).sort()) {
      const path = join(abs, name);
      const r = rel === '' ? name : `${rel}/${name}`;
      const st = lstatSync(path, { bigint: true });
      if (st.isDirectory()) {
        h.update(`d ${r}\0`);
        visit(path, r);
      } else if (st.isSymbolicLink()) h.update(`l ${r}\0${readlinkSync(path)}\0`);
      else h.update(`f ${r}\0${st.size} ${st.mode & 0o7777n} ${st.mtimeNs}\0`);
    }
  };
  visit(tree, '');
  return h.digest('hex');
}

/** Seal a tree just put in the cache. A seal that cannot be written is none: the tree is sealed when next used. */
export function sealTree(tree: string): void {
  try {
    writeAtomic(sealFile(tree), `${treeListing(tree)}\n`, { flush: false });
  } catch {
    /* sealed when next used */
  }
}

/**
 * Whether the cached tree is what was fetched; a tree that is not is moved out of the way (`aside`: a temp name the
 * cache's sweep removes, should this run fail to) and removed, so that the caller fetches it again.
 */
export function treeHolds(tree: string, aside: string): boolean {
  try {
    return checked(tree, aside);
  } catch (err) {
    if (err instanceof SkillsError) throw err;
    throw new SkillsError('E_IO', `cannot check the cached git tree ${tree}: ${(err as Error).message}`, {
      cause: err,
      hint: `remove it (rm -rf ${tree}); it is fetched again`,
    });
  }
}

function checked(tree: string, aside: string): boolean {
  let sealed: string | undefined;
  try {
    sealed = readFileSync(sealFile(tree), 'utf8').trim();
  } catch {
    sealed = undefined;
  }
  const now = treeListing(tree);
  if (sealed === undefined) {
    sealTree(tree);
    return true;
  }
  if (sealed === now) return true;
  const away = join(dirname(tree), tempName(aside, 'changed'));
  renameSync(tree, away);
  rmSync(sealFile(tree), { force: true });
  rmSync(away, { recursive: true, force: true, maxRetries: 3 });
  return false;
}
