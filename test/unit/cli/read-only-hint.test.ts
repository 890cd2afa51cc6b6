// A read-only file system's hint names the options of the command that failed, never another command's.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { withOwnHint } from '../../../src/cli/kit.js';
import { buildProgram } from '../../../src/cli/program.js';
import { pipeContext } from '../../helpers/cli.js';
import { SkillsError } from '../../../src/errors.js';
import { ioError } from '../../../src/fs/errno.js';

const ctx = pipeContext();
const program = buildProgram(ctx, () => {});
const command = (path: string): Command => {
  let cmd = program;
  for (const name of path.split(' ')) cmd = cmd.commands.find((c) => c.name() === name)!;
  return cmd;
};
const erofs = () =>
  Object.assign(new Error('EROFS: read-only file system, open'), {
    code: 'EROFS',
    syscall: 'open',
    errno: -30,
    path: '/r/f',
  });
const hintOf = (path: string, err: unknown = erofs()) => (withOwnHint(command(path), err) as SkillsError).hint;

describe('withOwnHint', () => {
  it("names each command's own options that choose where it writes, or none", () => {
    expect(hintOf('init')).toBe('choose a writable folder (--dir), or remount it read-write');
    expect(hintOf('render-prompt')).toBe('choose a writable folder (--write), or remount it read-write');
    expect(hintOf('pack')).toBe('choose a writable folder (--out), or remount it read-write');
    expect(hintOf('registry sync')).toBe(
      'choose a writable folder (--registry, SKILLS_REGISTRY), or remount it read-write',
    );
    expect(hintOf('install')).toBe(
      'choose a writable folder (--registry, SKILLS_REGISTRY, --into), or remount it read-write',
    );
    expect(hintOf('lint')).toBe('choose a writable folder, or remount it read-write');
  });

  it('rewrites the hint of a SkillsError that carries the read-only error, keeping its message and code', () => {
    const wrapped = ioError(erofs(), '/r/f');
    const out = withOwnHint(command('init'), wrapped) as SkillsError;
    expect(out.message).toBe(wrapped.message);
    expect(out.code).toBe('E_IO');
    expect(out.hint).toBe('choose a writable folder (--dir), or remount it read-write');
  });

  it('leaves other errors, and a hint of its own, as they are', () => {
    const other = new SkillsError('E_USAGE', 'bad');
    expect(withOwnHint(command('init'), other)).toBe(other);
    const own = new SkillsError('E_IO', 'cannot write', { cause: erofs(), hint: 'do this' });
    expect(withOwnHint(command('init'), own)).toBe(own);
    const enospc = Object.assign(new Error('ENOSPC'), { code: 'ENOSPC', syscall: 'write', errno: -28 });
    expect(withOwnHint(command('init'), enospc)).toBe(enospc);
  });
});
