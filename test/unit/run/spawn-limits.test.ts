import { describe, expect, it } from 'vitest';
import { EXEC_STRING_MAX, execLimitError, spawnError } from '../../../src/run/spawn-limits.js';

describe('execLimitError', () => {
  it('refuses on Linux a variable whose NAME=value is over 128 KiB, and passes one at the limit', () => {
    const fits = 'v'.repeat(EXEC_STRING_MAX - 'K='.length - 1);
    expect(execLimitError('s.sh', { K: fits }, [], 'linux')).toBeUndefined();
    expect(execLimitError('s.sh', { K: `${fits}v` }, [], 'linux')?.message).toBe(
      'cannot run s.sh: the environment variable K is 131,073 bytes (as K=value), over the 131,072 bytes (128 KiB) Linux allows one variable',
    );
    expect(execLimitError('s.sh', { K: `${fits}v` }, [], 'darwin')).toBeUndefined();
  });

  it('refuses an argument over the limit, by its position', () => {
    expect(execLimitError('s.sh', {}, ['a', 'b'.repeat(EXEC_STRING_MAX)], 'linux')?.message).toContain(
      'its argument 2 is 131,073 bytes',
    );
  });
});

describe('spawnError', () => {
  it('says what the errno means for the script, and what to do', () => {
    const e2big = Object.assign(new Error('spawn bash E2BIG'), { code: 'E2BIG', errno: -7, syscall: 'spawn bash' });
    const err = spawnError('/s/x.sh', 'bash', e2big);
    expect(err.message).toBe(
      'cannot run /s/x.sh with bash: its arguments and environment together are larger than the system lets a program start with (E2BIG)',
    );
    expect(err.hint).toContain('a file path instead of the value');
    const odd = Object.assign(new Error('spawn bash EWEIRD'), { code: 'EWEIRD', errno: -99, syscall: 'spawn bash' });
    expect(spawnError('/s/x.sh', 'bash', odd).message).toBe('cannot run /s/x.sh with bash: spawn bash EWEIRD');
  });
});
