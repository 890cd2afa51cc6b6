// A file or folder in a skill whose name is not UTF-8 (Latin-1 `café.txt` as the byte E9, say) is listed by Node with
// U+FFFD in place of the bytes, and a path joined from it names nothing: pack and install refuse the skill for it
// (fs/byte-names), and a zip or tar carries the bytes as they are, for other systems to show as they may or refuse.
// validate (and so lint) warns of it, naming it with the bytes escaped, so a pre-commit hook catches it before pack;
// not of one pack leaves out (.skillignore, else .gitignore, secrets, .DS_Store …), which pack does not refuse.
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Skill } from '../model/skill.js';
import { diag } from '../model/diagnostic.js';
import { NOT_UTF8_HINT, notUtf8Names, shownBytePath } from '../fs/byte-names.js';
import { realPlaceJudge } from './left-out.js';

/** One warning for each entry of the skill whose name is not UTF-8 (two that read alike are each named). */
export function checkEntryNames(skill: Skill, out: Diagnostic[]): void {
  const seen = new Set<string>();
  let packed: ((path: string, isDir: boolean) => boolean) | undefined;
  for (const e of skill.entries) {
    if (!e.path.includes('\uFFFD') || seen.has(e.path)) continue;
    seen.add(e.path);
    const slash = e.path.lastIndexOf('/');
    // Below a folder so named nothing was listed; that folder is the one named.
    if (slash >= 0 && e.path.slice(0, slash).includes('\uFFFD')) continue;
    packed ??= packJudge(skill.root);
    if (!packed(e.path, e.kind === 'dir')) continue;
    const dir = slash < 0 ? skill.root : join(skill.root, e.path.slice(0, slash));
    for (const escaped of notUtf8Names(dir, e.path.slice(slash + 1)))
      out.push(
        diag(
          'file-name-encoding',
          'warning',
          'its name is not UTF-8 (bytes shown escaped): skills pack and install refuse the skill for it, and a zip or tar carries the bytes as they are, which other systems show otherwise or refuse',
          shownBytePath(dir, escaped),
          undefined,
          NOT_UTF8_HINT,
        ),
      );
  }
}

/**
 * Whether pack keeps the entry at `path` (relative to the skill's root), by the rules pack itself reads (left-out):
 * an ignore file that cannot be read, which stops pack, keeps it here, so the warning still stands.
 */
function packJudge(root: string): (path: string, isDir: boolean) => boolean {
  let judge: ReturnType<typeof realPlaceJudge>;
  let realRoot: string;
  try {
    realRoot = realpathSync.native(root);
    judge = realPlaceJudge(realRoot);
  } catch {
    return () => true;
  }
  return (path, isDir) => {
    try {
      return judge(join(realRoot, path), isDir) === undefined;
    } catch {
      return true;
    }
  };
}
