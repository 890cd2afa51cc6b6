import { describe, expect, it } from 'vitest';
import { describeErrno, errnoIn, ioError, isErrno, refineIoError } from '../../../src/fs/errno.js';
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
