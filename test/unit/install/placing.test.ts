import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Placing, journalOf, recoverPlacing } from '../../../src/install/placing.js';
import { tempFolders } from '../../helpers/cli.js';

const { fresh, cleanup } = tempFolders('skills-placing-');
afterAll(cleanup);

const sha = (t: string) => createHash('sha256').update(t).digest('hex');

/** A project with skills/a (old) and the staged copies an install of a (new) and b left, as a kill leaves them. */
function killedWhilePlacing(lockText: string, journalLock: string | null) {
  const project = fresh('project');
  const into = join(project, 'skills');
  mkdirSync(join(into, 'a'), { recursive: true });
  writeFileSync(join(into, 'a', 'SKILL.md'), 'old a\n');
  const stagedA = join(into, '.staging-a.4242.0a0b0c0d');
  const stagedB = join(into, '.staging-b.4242.0e0f1011');
  for (const [dir, text] of [
    [stagedA, 'new a\n'],
    [stagedB, 'new b\n'],
  ] as const) {
    mkdirSync(dir);
    writeFileSync(join(dir, 'SKILL.md'), text);
  }
  const lockfile = join(project, 'skills-lock.json');
  writeFileSync(lockfile, lockText);
  const staged = [
    { staging: stagedA, target: join(into, 'a') },
    { staging: stagedB, target: join(into, 'b') },
  ];
  writeFileSync(journalOf(lockfile), JSON.stringify({ pid: 4242, lock: journalLock, staged }));
  return { project, into, lockfile };
}

describe('recoverPlacing', () => {
  it('finishes the renames of an install whose lock was written', () => {
    const { project, into, lockfile } = killedWhilePlacing('{"new": true}\n', sha('{"new": true}\n'));
    expect(recoverPlacing(lockfile, project)).toBe('finished');
    expect(readdirSync(into).sort()).toEqual(['a', 'b']);
    expect(readFileSync(join(into, 'a', 'SKILL.md'), 'utf8')).toBe('new a\n');
    expect(readFileSync(join(into, 'b', 'SKILL.md'), 'utf8')).toBe('new b\n');
    expect(existsSync(journalOf(lockfile))).toBe(false);
    // Nothing left to do the second time.
    expect(recoverPlacing(lockfile, project)).toBeUndefined();
  });

  it('finishes one whose lock did not change (null), and undoes one whose lock was not written', () => {
    const same = killedWhilePlacing('{"old": true}\n', null);
    expect(recoverPlacing(same.lockfile, same.project)).toBe('finished');
    expect(readFileSync(join(same.into, 'a', 'SKILL.md'), 'utf8')).toBe('new a\n');
    const cut = killedWhilePlacing('{"old": true}\n', sha('{"new": true}\n'));
    expect(recoverPlacing(cut.lockfile, cut.project)).toBe('undone');
    expect(readdirSync(cut.into)).toEqual(['a']);
    expect(readFileSync(join(cut.into, 'a', 'SKILL.md'), 'utf8')).toBe('old a\n');
    expect(existsSync(journalOf(cut.lockfile))).toBe(false);
  });

  it("acts on nothing a stranger's journal names outside the project, or not named as a staged copy", () => {
    const project = fresh('project');
    const outside = fresh('outside');
    writeFileSync(join(outside, 'precious.txt'), 'mine\n');
    mkdirSync(join(project, 'skills', '.staging-x.1.00000000'), { recursive: true });
    mkdirSync(join(project, 'skills', 'decoy'), { recursive: true });
    symlinkSync(outside, join(project, 'linked'));
    mkdirSync(join(outside, '.staging-precious.txt.1.00000000'));
    const lockfile = join(project, 'skills-lock.json');
    writeFileSync(
      journalOf(lockfile),
      JSON.stringify({
        pid: 1,
        lock: null,
        staged: [
          { staging: join(project, 'skills', '.staging-x.1.00000000'), target: outside },
          { staging: join(project, 'skills', '.staging-x.1.00000000'), target: join(project, 'skills', 'decoy') },
          {
            staging: join(project, 'linked', '.staging-precious.txt.1.00000000'),
            target: join(project, 'linked', 'precious.txt'),
          },
          'not an entry',
        ],
      }),
    );
    expect(recoverPlacing(lockfile, project)).toBe('finished');
    expect(readFileSync(join(outside, 'precious.txt'), 'utf8')).toBe('mine\n');
    expect(existsSync(join(project, 'skills', 'decoy'))).toBe(true);
    expect(existsSync(join(project, 'skills', '.staging-x.1.00000000'))).toBe(true);
    // A journal that is not JSON was never whole: it is dropped.
    writeFileSync(journalOf(lockfile), '{"pid": 1, "lo');
    expect(recoverPlacing(lockfile, project)).toBe('undone');
    expect(existsSync(journalOf(lockfile))).toBe(false);
  });
});

/** A project whose install staged one copy of skill a (`skills/.staging-a.…`), its Placing holding it. */
function oneStaged(before?: (into: string, lockfile: string) => void) {
  const project = fresh('project');
  const into = join(project, 'skills');
  mkdirSync(join(into, '.staging-a.1.00000000'), { recursive: true });
  const lockfile = join(project, 'skills-lock.json');
  before?.(into, lockfile);
  const p = new Placing(lockfile);
  p.add({ staging: join(into, '.staging-a.1.00000000'), target: join(into, 'a') });
  return { into, lockfile, p };
}

describe('Placing', () => {
  it('renames every staged copy into place after the lock is written, and leaves no journal', () => {
    const { into, lockfile, p } = oneStaged();
    let seen: string[] = [];
    p.commit('{"lock": 1}\n', () => {
      // When the lock is written, the journal names the copy and nothing is in place yet.
      seen = readdirSync(into);
      expect(JSON.parse(readFileSync(journalOf(lockfile), 'utf8')).lock).toBe(sha('{"lock": 1}\n'));
      writeFileSync(lockfile, '{"lock": 1}\n');
    });
    expect(seen).toEqual(['.staging-a.1.00000000']);
    expect(readdirSync(into)).toEqual(['a']);
    expect(existsSync(journalOf(lockfile))).toBe(false);
    const q = new Placing(lockfile);
    mkdirSync(join(into, '.staging-b.1.00000000'));
    q.add({ staging: join(into, '.staging-b.1.00000000'), target: join(into, 'b') });
    q.abort();
    expect(readdirSync(into)).toEqual(['a']);
  });

  it('a lock that cannot be written leaves the project as it was: no staged copy, no journal, the old copy', () => {
    const { into, lockfile, p } = oneStaged((dir) => {
      mkdirSync(join(dir, 'a'));
      writeFileSync(join(dir, 'a', 'SKILL.md'), 'old a\n');
    });
    expect(() =>
      p.commit('{"lock": 2}\n', () => {
        throw new Error('no space');
      }),
    ).toThrow('no space');
    expect(readdirSync(into)).toEqual(['a']);
    expect(readFileSync(join(into, 'a', 'SKILL.md'), 'utf8')).toBe('old a\n');
    expect(existsSync(journalOf(lockfile))).toBe(false);
  });

  it('a journal that cannot be written removes the staged copies (the error is the journal write)', () => {
    // A folder where the journal goes: its rename fails.
    const { into, p } = oneStaged((_, lockfile) => mkdirSync(journalOf(lockfile)));
    let wrote = false;
    expect(() =>
      p.commit('{"lock": 2}\n', () => {
        wrote = true;
      }),
    ).toThrow(/^cannot write .*skills-lock\.json\.placing: it is a folder/);
    expect(wrote).toBe(false);
    expect(readdirSync(into)).toEqual([]);
  });

  it('a lock written whose flush then failed is committed: the copies are placed', () => {
    const { into, lockfile, p } = oneStaged();
    expect(() =>
      p.commit('{"lock": 3}\n', () => {
        writeFileSync(lockfile, '{"lock": 3}\n');
        throw new Error('flush failed');
      }),
    ).toThrow('flush failed');
    expect(readdirSync(into)).toEqual(['a']);
    expect(existsSync(journalOf(lockfile))).toBe(false);
  });
});
