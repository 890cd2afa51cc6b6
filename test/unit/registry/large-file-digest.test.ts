// A file larger than HASH_CHUNK is hashed a chunk at a time: the integrity is the same bytes as before (the header,
// then the whole content), whether the file was statted by the walk or is read unstatted from a load's entries, and
// whether digestKeeping may keep it or not.
import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HASH_CHUNK, digest, digestKeeping, fileHeader, skillFiles } from '../../../src/registry/integrity.js';
import { loadSkill } from '../../../src/skill/load.js';
import { tempFolders } from '../../helpers/cli.js';
import { skillMd, writeTree } from '../../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-large-digest-');
afterAll(cleanup);

describe('digest of a file larger than HASH_CHUNK', () => {
  it('is the hash of its header and whole content, read by chunks or whole, statted or not', () => {
    const root = fresh('big');
    const md = skillMd('name: big\ndescription: Use when testing.');
    writeTree(root, { 'SKILL.md': md });
    // Not a multiple of the chunk, and not the same byte throughout: a chunk hashed twice or left out shows.
    const data = Buffer.alloc(2 * HASH_CHUNK + 12345);
    for (let i = 0; i < data.length; i++) data[i] = (i * 7 + (i >> 13)) & 0xff;
    writeFileSync(join(root, 'data.bin'), data);
    const mdBytes = Buffer.from(md);
    // The files in skillFiles' order, each as its header and its whole content.
    const sorted = skillFiles(root).map((f) => f.rel);
    const want = createHash('sha512');
    for (const rel of sorted) {
      const bytes = rel === 'data.bin' ? data : mdBytes;
      want.update(fileHeader({ kind: 'file', rel, mode: 0o644 }, bytes.length));
      want.update(bytes);
    }
    const integrity = `sha512-${want.digest('base64')}`;
    expect(digest(skillFiles(root))).toBe(integrity);
    const skill = loadSkill(root);
    const unstatted = skillFiles(root, skill.entries);
    expect(unstatted.some((f) => f.unstatted)).toBe(true);
    expect(digest(unstatted)).toBe(integrity);
    // Kept when the budget allows, hashed by chunks (and not kept) when it does not: the same integrity.
    const roomy = skillFiles(root, loadSkill(root).entries);
    expect(digestKeeping(roomy, { bytes: 64 * HASH_CHUNK })).toBe(integrity);
    expect(roomy.find((f) => f.rel === 'data.bin')!.content?.equals(data)).toBe(true);
    const tight = skillFiles(root);
    expect(digestKeeping(tight, { bytes: HASH_CHUNK })).toBe(integrity);
    expect(tight.find((f) => f.rel === 'data.bin')!.content).toBeUndefined();
  });
});
