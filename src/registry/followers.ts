// Files the registry keeps beside index.json and derives from it (render-prompt's selection index): written by code
// of a wing above, which registers here (main.ts), and run by updateIndex under the registry's lock right after
// index.json is replaced. A follower writes its file atomically and keys it by index.json's identity, so a crash
// between the two writes leaves an old file whole, which its readers then find stale and do not trust.
import type { RegistryIndex } from '../formats/index-file.js';

/**
 * Rewrite one derived file of the registry `dir` from the index just written (whole, or not at all). `before` is the
 * identity (index-io.ts indexIdentity) of the index.json this write replaced, undefined when there was none: a derived
 * file written from that one may be updated instead of rebuilt.
 */
export type IndexFollower = (dir: string, index: RegistryIndex, before: string | undefined) => void | Promise<void>;

const followers: IndexFollower[] = [];

/** Have `follower` run after every write of a registry's index (once per follower). */
export function followIndex(follower: IndexFollower): void {
  if (!followers.includes(follower)) followers.push(follower);
}

/** Take a follower off (tests). */
export function unfollowIndex(follower: IndexFollower): void {
  const at = followers.indexOf(follower);
  if (at !== -1) followers.splice(at, 1);
}

/**
 * Run every follower for the index just written. A follower that fails does not fail the write, which is done:
 * its file is then stale, and its readers fall back to index.json.
 */
export async function runFollowers(dir: string, index: RegistryIndex, before: string | undefined): Promise<void> {
  for (const follow of followers) {
    try {
      await follow(dir, index, before);
    } catch {
      // A derived file is a cache of index.json: without it, readers read index.json.
    }
  }
}
