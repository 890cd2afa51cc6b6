import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { folderBlocked } from '../../../src/fs/blocked.js';
import { tempFolders } from '../../helpers/cli.js';

const { fresh, cleanup } = tempFolders('skills-blocked-');
afterAll(cleanup);

describe('folderBlocked', () => {
  it('is nothing for a folder, or a missing one below folders (made when written)', () => {
    const dir = fresh('p');
    mkdirSync(join(dir, '.claude/skills'), { recursive: true });
    expect(folderBlocked(join(dir, '.claude/skills'))).toBeUndefined();
    expect(folderBlocked(join(dir, '.cursor/skills'))).toBeUndefined();
    // A link to a folder is a folder.
    symlinkSync(join(dir, '.claude'), join(dir, '.agents'));
    expect(folderBlocked(join(dir, '.agents/skills'))).toBeUndefined();
  });

  it('names a link that leads nowhere and where it leads, at the folder or above it', () => {
    const dir = fresh('p');
    mkdirSync(join(dir, '.claude'));
    symlinkSync('/nonexistent/skills', join(dir, '.claude/skills'));
    expect(folderBlocked(join(dir, '.claude/skills'))).toEqual({
      kind: 'dangling-link',
      path: join(dir, '.claude/skills'),
      message: `${join(dir, '.claude/skills')} is a link to /nonexistent/skills, which leads nowhere`,
      hint: `create the folder it leads to, or remove the link (rm ${join(dir, '.claude/skills')}), then run again`,
    });
    symlinkSync('gone', join(dir, '.cursor'));
    expect(folderBlocked(join(dir, '.cursor/skills'))).toMatchObject({
      kind: 'dangling-link',
      path: join(dir, '.cursor'),
    });
  });

  it('names the file where a folder is needed: the folder itself or one above it', () => {
    const dir = fresh('p');
    writeFileSync(join(dir, '.claude'), 'x\n');
    expect(folderBlocked(join(dir, '.claude/skills'))).toMatchObject({
      kind: 'file',
      path: join(dir, '.claude'),
      message: `${join(dir, '.claude')} is a file, where a folder is needed`,
    });
    mkdirSync(join(dir, '.cursor'));
    writeFileSync(join(dir, '.cursor/skills'), 'x\n');
    expect(folderBlocked(join(dir, '.cursor/skills'))).toMatchObject({
      kind: 'file',
      path: join(dir, '.cursor/skills'),
    });
  });
});
