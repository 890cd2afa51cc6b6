// macOS's files beside a skill's (.DS_Store, AppleDouble ._ files) are never part of it: not hashed or copied. A
// lock or a registry an older skills wrote, when it still counted the ._ files, is taken to hold the same content.
import { afterAll, describe, expect, it } from 'vitest';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { packedMode } from '../../../src/fs/archive-entries.js';
import {
  digest,
  folderHolds,
  folderIntegrity,
  legacyIntegrities,
  skillFiles,
  type StoredFile,
} from '../../../src/registry/integrity.js';
import { tempFolders } from '../../helpers/cli.js';
import { skillMd, writeTree } from '../../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-mac-files-');
afterAll(cleanup);

const skill = (extra: Record<string, string> = {}) => {
  const root = join(fresh(), 'mac');
  writeTree(root, {
    'SKILL.md': skillMd('name: mac\ndescription: Use when testing.\nmetadata:\n  version: "1.0.0"'),
    'references/notes.md': 'notes\n',
    ...extra,
  });
  return root;
};

/** What an older skills hashed: the ._ files among the others, in path order. */
function olderDigest(root: string, macFiles: string[]): string {
  const files: StoredFile[] = [...skillFiles(root)];
  for (const rel of macFiles) {
    const abs = join(root, rel);
    const st = statSync(abs);
    files.push({ rel, abs, kind: 'file', mode: packedMode(st.mode), size: st.size });
  }
  return digest(files.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0)));
}

describe("macOS's files in a skill folder", () => {
  it('are left out of its files and its integrity', () => {
    const plain = skill();
    const withMac = skill({
      '.DS_Store': 'x',
      '._SKILL.md': '\u0000\u0005\u0016\u0007',
      'references/._notes.md': 'ad',
    });
    expect(skillFiles(withMac).map((f) => f.rel)).toEqual(['SKILL.md', 'references/notes.md']);
    expect(folderIntegrity(withMac)).toBe(folderIntegrity(plain));
  });

  it('the integrity an older skills recorded with the ._ files still matches the folder', () => {
    const root = skill({ '._SKILL.md': '\u0000\u0005\u0016\u0007', 'references/._notes.md': 'ad' });
    const older = olderDigest(root, ['._SKILL.md', 'references/._notes.md']);
    expect(older).not.toBe(folderIntegrity(root));
    expect(folderHolds(root, older)).toBe(true);
    expect(legacyIntegrities(root)).toContain(older);
    // Not any integrity: a changed file is still a change.
    expect(folderHolds(root, olderDigest(skill({ '._SKILL.md': 'other' }), ['._SKILL.md']))).toBe(false);
  });

  it('a folder without ._ files has no such older integrity', () => {
    expect(legacyIntegrities(skill({ '.DS_Store': 'x' }))).toEqual([]);
  });
});
