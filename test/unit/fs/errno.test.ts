import { describe, expect, it } from 'vitest';
import {
  READ_ONLY_HINT,
  afterCleanup,
  describeErrno,
  errnoIn,
  ioError,
  isErrno,
  readOnlyHint,
  refineIoError,
} from '../../../src/fs/errno.js';
import { SkillsError } from '../../../src/errors.js';

const errno = (code: string, syscall: string, path?: string, message = `${code}: system text, ${syscall}`) =>
  Object.assign(new Error(message), { code, syscall, errno: -1, ...(path ? { path } : {}) });

describe('errno errors', () => {
  it('tells an errno error from others, through causes', () => {
    expect(isErrno(errno('ENOSPC', 'write'))).toBe(true);
    expect(isErrno(Object.assign(new Error('x'), { code: 'Z_DATA_ERROR', errno: -3 }))).toBe(false);
    expect(isErrno(Object.assign(new Error('x'), { code: 'ERR_INVALID_ARG_TYPE' }))).toBe(false);
    const inner = errno('EROFS', 'mkdir', '/r');
    expect(errnoIn(new Error('outer', { cause: new Error('mid', { cause: inner }) }))).toBe(inner);
  });

  it('tells a path too long as a whole (10,000 nested folders) from a name too long', () => {
    const deep = `/r/${'a/'.repeat(3000)}SKILL.md`;
    expect(describeErrno(errno('ENAMETOOLONG', 'open', deep))).toEqual({
      message: `cannot open ${deep}: the path is longer than the 4,096 bytes the system takes (PATH_MAX) (ENAMETOOLONG)`,
      hint: 'use a shorter folder path, or fewer folders inside one another',
    });
    expect(describeErrno(errno('ENAMETOOLONG', 'open', `/r/${'n'.repeat(300)}`)).message).toMatch(
      /: the path is too long for this file system \(a name holds at most 255 bytes\) \(ENAMETOOLONG\)$/,
    );
  });

  it('says what failed, where, why and what to do', () => {
    expect(describeErrno(errno('ENOSPC', 'write', '/r/a'))).toEqual({
      message: 'cannot write /r/a: no space is left on the device (ENOSPC)',
      hint: 'free space on the file system that holds /r/a (df -h), then run again',
    });
    expect(describeErrno(errno('EROFS', 'mkdir', '/r/a')).message).toBe(
      'cannot create the folder /r/a: the file system is read-only (EROFS)',
    );
    expect(describeErrno(errno('EWHATEVER', 'open', '/x', 'EWHATEVER: odd thing, open')).message).toBe(
      'cannot open /x: odd thing (EWHATEVER)',
    );
    const e = ioError(errno('EFBIG', 'write'), '/big');
    expect([e.code, e.message]).toEqual([
      'E_IO',
      'cannot write /big: the file grew larger than this file system or the file size limit (ulimit -f) allows (EFBIG)',
    ]);
  });

  it('puts the plain reason in place of Node’s text in a SkillsError that quoted it', () => {
    const cause = errno('ENOSPC', 'write', '/r/f', 'ENOSPC: no space left on device, write');
    const e = refineIoError(new SkillsError('E_IO', `cannot write /r: ${cause.message}`, { cause }));
    expect(e.message).toBe('cannot write /r: no space is left on the device (ENOSPC)');
    expect(e.hint).toMatch(/^free space/);
    const plain = new SkillsError('E_USAGE', 'bad');
    expect(refineIoError(plain)).toBe(plain);
  });
});

describe('afterCleanup', () => {
  it('returns the first error when the cleanup works', () => {
    const first = new SkillsError('E_IO', 'cannot write /p/x: no space');
    expect(afterCleanup(first, () => {})).toBe(first);
  });

  it('never lets a failing cleanup replace the error: it is a second line of its message', () => {
    const first = new SkillsError('E_IO', 'cannot write /p/x: no space', { hint: 'free space' });
    const out = afterCleanup(first, () => {
      throw errno('ENAMETOOLONG', 'rm', '/p/.staging-x');
    }) as SkillsError;
    expect(out).toBe(first);
    expect(out.message).toBe(
      'cannot write /p/x: no space\n(the cleanup failed too: cannot remove /p/.staging-x: the path is too long for this file system (a name holds at most 255 bytes) (ENAMETOOLONG))',
    );
    expect(out.hint).toBe('free space');
  });

  it("tells a first errno error as ioError does, with the cleanup's line", () => {
    const out = afterCleanup(errno('ENOSPC', 'write', '/p/f'), () => {
      throw errno('EACCES', 'unlink', '/p/.f.tmp');
    }) as SkillsError;
    expect(out.code).toBe('E_IO');
    expect(out.message.split('\n')).toEqual([
      'cannot write /p/f: no space is left on the device (ENOSPC)',
      '(the cleanup failed too: cannot remove /p/.f.tmp: permission denied (EACCES))',
    ]);
  });
});

describe('readOnlyHint', () => {
  it('names the options given, or none', () => {
    expect(readOnlyHint([])).toBe(READ_ONLY_HINT);
    expect(readOnlyHint(['--dir'])).toBe('choose a writable folder (--dir), or remount it read-write');
    expect(describeErrno(errno('EROFS', 'open', '/r/f')).hint).toBe(READ_ONLY_HINT);
  });
});
