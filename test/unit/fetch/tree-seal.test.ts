import { afterAll, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sealTree, treeHolds, treeListing } from '../../../src/fetch/tree-seal.js';
import { writeTree } from '../../helpers/tree.js';

const base = mkdtempSync(join(tmpdir(), 'skills-tree-seal-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

it('a tree with no seal is sealed as found; one that changed since is put aside and removed', () => {
  const tree = join(base, 'abc');
  writeTree(tree, { 'skills/pdf/SKILL.md': '# PDF\n', 'skills/pdf/x.sh': 'echo\n', link: { symlink: 'skills' } });
  // Cached by an older version: no seal, taken as it is, and sealed.
  expect(treeHolds(tree, '.tmp-')).toBe(true);
  expect(existsSync(`${tree}.seal`)).toBe(true);
  expect(treeHolds(tree, '.tmp-')).toBe(true);
  // The same bytes with another time are another listing: an edit put back by hand is not taken on trust.
  const before = treeListing(tree);
  utimesSync(join(tree, 'skills/pdf/x.sh'), new Date(0), new Date(0));
  expect(treeListing(tree)).not.toBe(before);
  expect(treeHolds(tree, '.tmp-')).toBe(false);
  expect(readdirSync(base)).toEqual([]);
  // Sealed when put in the cache.
  writeTree(tree, { 'SKILL.md': '# S\n' });
  sealTree(tree);
  rmSync(join(tree, 'SKILL.md'));
  expect(treeHolds(tree, '.tmp-')).toBe(false);
  expect(existsSync(tree)).toBe(false);
});
