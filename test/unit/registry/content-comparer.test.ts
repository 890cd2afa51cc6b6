// contentComparer: whether two skill folders hold the same files, as their integrity says (a twin installed for two
// agents shadows nothing), made once for many pairs: each folder read once, and folders whose file lists differ told
// apart by the lists alone.
import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentComparer, folderIntegrity } from '../../../src/registry/integrity.js';
import { tempFolders } from '../../helpers/cli.js';
import { skillMd, writeTree, type TreeSpec } from '../../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-content-comparer-');
afterAll(cleanup);

const skill = (extra: TreeSpec = {}): TreeSpec => ({
  'SKILL.md': skillMd('name: twin\ndescription: Use when testing.'),
  'scripts/run.sh': { content: '#!/bin/sh\necho hi\n', mode: 0o755 },
  'references/guide.md': '# Guide\n',
  ...extra,
});

/** The answer integrity gives: same digest, and both readable. */
function byIntegrity(a: string, b: string): boolean {
  try {
    return folderIntegrity(a) === folderIntegrity(b);
  } catch {
    return false;
  }
}

describe('contentComparer', () => {
  it('answers as the folders’ integrity does, pair by pair', () => {
    const dir = fresh('pairs');
    const cases: Record<string, TreeSpec> = {
      twin: skill(),
      // Modes other than the execute bit are not part of the integrity: still a twin.
      'other-mode': skill({ 'references/guide.md': { content: '# Guide\n', mode: 0o600 } }),
      'other-bytes': skill({ 'references/guide.md': '# Guide!\n' }),
      'other-length': skill({ 'references/guide.md': '# Guide\n\n' }),
      'no-exec': skill({ 'scripts/run.sh': { content: '#!/bin/sh\necho hi\n', mode: 0o644 } }),
      'one-more': skill({ 'references/more.md': 'more\n' }),
      'other-name': {
        'SKILL.md': skillMd('name: twin\ndescription: Use when testing.'),
        'scripts/run.sh': { content: '#!/bin/sh\necho hi\n', mode: 0o755 },
        'references/guide2.md': '# Guide\n',
      },
      // Files the integrity leaves out make no difference.
      'with-env': skill({ '.env': 'SECRET=1\n', '.git/config': '[core]\n' }),
    };
    const base = join(dir, 'base');
    writeTree(base, skill());
    for (const [name, tree] of Object.entries(cases)) writeTree(join(dir, name), tree);
    const same = contentComparer();
    const answers = Object.keys(cases).map((name) => [name, same(base, join(dir, name))]);
    expect(answers).toEqual(Object.keys(cases).map((name) => [name, byIntegrity(base, join(dir, name))]));
    expect(Object.fromEntries(answers)).toEqual({
      twin: true,
      'other-mode': true,
      'other-bytes': false,
      'other-length': false,
      'no-exec': false,
      'one-more': false,
      'other-name': false,
      'with-env': true,
    });
  });

  it('tells symlinks apart by their text, and is false for a folder it cannot read', () => {
    const dir = fresh('links');
    for (const name of ['a', 'b', 'c']) writeTree(join(dir, name), skill());
    symlinkSync('guide.md', join(dir, 'a/references/alias.md'));
    symlinkSync('guide.md', join(dir, 'b/references/alias.md'));
    symlinkSync('../SKILL.md', join(dir, 'c/references/alias.md'));
    const same = contentComparer();
    expect(same(join(dir, 'a'), join(dir, 'b'))).toBe(true);
    expect(same(join(dir, 'a'), join(dir, 'c'))).toBe(false);
    expect(same(join(dir, 'a'), join(dir, 'missing'))).toBe(false);
    if (process.getuid?.() !== 0) {
      writeTree(join(dir, 'd'), skill());
      chmodSync(join(dir, 'd/references/guide.md'), 0);
      writeTree(join(dir, 'e'), skill());
      chmodSync(join(dir, 'e/references/guide.md'), 0);
      expect(same(join(dir, 'd'), join(dir, 'e'))).toBe(false);
    }
  });

  it('reads each folder once, however many pairs name it', () => {
    const dir = fresh('once');
    for (const name of ['first', 'copy-1', 'copy-2']) writeTree(join(dir, name), skill());
    const same = contentComparer();
    expect(same(join(dir, 'copy-1'), join(dir, 'first'))).toBe(true);
    // Changed after it was read: this comparer still holds what it read (one run sees one state of the folder).
    writeFileSync(join(dir, 'first/references/guide.md'), '# Changed\n');
    expect(same(join(dir, 'copy-2'), join(dir, 'first'))).toBe(true);
    expect(contentComparer()(join(dir, 'copy-2'), join(dir, 'first'))).toBe(false);
  });
});
