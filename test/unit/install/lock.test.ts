import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findLockfile, lockPath, readLockfile } from '../../../src/install/lock.js';
import { isSkillsError } from '../../../src/errors.js';
import { tempFolders } from '../../helpers/cli.js';

const { fresh, cleanup } = tempFolders('skills-install-lock-');
afterAll(cleanup);

const SRI = `sha512-${Buffer.alloc(64, 7).toString('base64')}`;

describe('findLockfile', () => {
  it('finds the nearest skills-lock.json above cwd', () => {
    const root = fresh('project');
    const deep = join(root, 'a/b');
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(root, 'skills-lock.json'), '{}');
    expect(findLockfile(deep)).toBe(join(root, 'skills-lock.json'));
  });

  it('stops at the repository root (the first folder with .git), and then names one in cwd', () => {
    const outer = fresh('outer');
    writeFileSync(join(outer, 'skills-lock.json'), '{}');
    const repo = join(outer, 'repo');
    const deep = join(repo, 'src');
    mkdirSync(join(repo, '.git'), { recursive: true });
    mkdirSync(deep, { recursive: true });
    expect(findLockfile(deep)).toBe(join(deep, 'skills-lock.json'));
  });
});

describe('readLockfile', () => {
  it('is undefined when there is no lock', () => {
    expect(readLockfile(join(fresh(), 'skills-lock.json'))).toBeUndefined();
  });

  it('reads a valid lock', () => {
    const file = join(fresh(), 'skills-lock.json');
    const lock = {
      lockfileVersion: 1,
      skills: { pdf: { version: '1.0.0', source: 'registry', integrity: SRI, dependencies: {} } },
    };
    writeFileSync(file, JSON.stringify(lock));
    expect(readLockfile(file)!.skills.pdf).toEqual(lock.skills.pdf);
  });

  it('refuses a corrupt lock with E_CONFIG located at file:line:column, saying nothing was written', () => {
    const file = join(fresh(), 'skills-lock.json');
    writeFileSync(file, '{\n  "lockfileVersion": 1,\n  "skills": [\n');
    let err: unknown;
    try {
      readLockfile(file);
    } catch (e) {
      err = e;
    }
    expect(isSkillsError(err) && err.code).toBe('E_CONFIG');
    expect((err as Error).message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: `));
    expect((err as { hint?: string }).hint).toContain('nothing was installed or written');
  });
});

describe('lockPath', () => {
  it('keeps a path relative to the lock folder, with forward slashes; the folder itself is "."', () => {
    expect(lockPath('/p', '/p/vendor/pdf.tgz')).toBe('vendor/pdf.tgz');
    expect(lockPath('/p', '/p')).toBe('.');
    expect(lockPath('/p/app', '/p/shared/skills')).toBe('../shared/skills');
  });
});
