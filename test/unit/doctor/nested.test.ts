import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nestedFolders, workingFolder } from '../../../src/doctor/nested.js';
import { tempFolders } from '../../helpers/cli.js';
import { writeTree } from '../../helpers/tree.js';

const { fresh, cleanup } = tempFolders('skills-nested-');
afterAll(cleanup);

describe('nestedFolders', () => {
  it('finds each project folder below the top, not the top own, nor in dependencies, dot folders or skill folders', () => {
    const top = fresh('mono');
    writeTree(top, {
      '.claude/skills/a/SKILL.md': '',
      'packages/web/.claude/skills/b/SKILL.md': '',
      'packages/web/src/deep/.claude/skills/c/SKILL.md': '',
      'packages/api/.agents/skills/d/SKILL.md': '',
      // A skill folder's own nested folders are the skill's, not the project's.
      'packages/web/.claude/skills/b/sub/.claude/skills/e/SKILL.md': '',
      'node_modules/x/.claude/skills/f/SKILL.md': '',
      '.github/y/.claude/skills/g/SKILL.md': '',
      // A file of that name is no folder.
      'docs/.claude/skills': 'not a folder',
    });
    const r = nestedFolders(top, ['.claude/skills', '.agents/skills']);
    expect(r.cut).toBeUndefined();
    expect(r.found.get('.claude/skills')).toEqual([
      join(top, 'packages/web/.claude/skills'),
      join(top, 'packages/web/src/deep/.claude/skills'),
    ]);
    expect(r.found.get('.agents/skills')).toEqual([join(top, 'packages/api/.agents/skills')]);
  });

  it('stops at its limits of folders and depth, and says where', () => {
    const top = fresh('wide');
    const tree: Record<string, string> = {};
    for (let i = 0; i < 30; i++) tree[`p${String(i).padStart(2, '0')}/.claude/skills/s/SKILL.md`] = '';
    tree['a/b/c/d/.claude/skills/s/SKILL.md'] = '';
    writeTree(top, tree);
    const cut = nestedFolders(top, ['.claude/skills'], { folders: 10, depth: 12 });
    // Sorted, depth first: a, a/b, a/b/c, a/b/c/d (which holds one), then p00 to p05: 10 folders, 7 found.
    expect(cut.found.get('.claude/skills')).toHaveLength(7);
    expect(cut.cut).toBe(`the search for nested skill folders stopped after 10 folders of ${top}`);
    // Depth 3 reaches a/b/c, not a/b/c/d.
    const shallow = nestedFolders(top, ['.claude/skills'], { folders: 1000, depth: 3 });
    expect(shallow.found.get('.claude/skills')).toHaveLength(30);
    expect(
      nestedFolders(top, ['.claude/skills'], { folders: 1000, depth: 4 }).found.get('.claude/skills'),
    ).toHaveLength(31);
  });

  it('workingFolder takes the project path off the end', () => {
    expect(workingFolder('/r/packages/web/.claude/skills', '.claude/skills')).toBe('/r/packages/web');
    expect(workingFolder('/r/x', '.claude/skills')).toBe('/r/x');
  });
});
