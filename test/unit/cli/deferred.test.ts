// A run builds only the command its first argument names (cli/deferred.ts), and what it builds is what a full build
// has: the same help, options and subcommands.
import type { Command, Help } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/cli/program.js';
import { pipeContext } from '../../helpers/cli.js';

const ctx = pipeContext();
const build = (argv?: string[]) => buildProgram(ctx, () => {}, argv);
const names = (program: Command) => program.commands.map((c) => c.name());

/** Every command below `cmd`, with the help commander would print for it. */
function helps(cmd: Command, path = ''): Record<string, string> {
  const here = `${path} ${cmd.name()}`.trim();
  const out: Record<string, string> = { [here]: (cmd.createHelp() as Help).formatHelp(cmd, cmd.createHelp()) };
  for (const sub of cmd.commands) Object.assign(out, helps(sub, here));
  return out;
}

describe('the commands a run builds', () => {
  it('builds only the command the first argument names, by its name or an alias', () => {
    expect(names(build(['validate', '.']))).toEqual(['validate']);
    expect(names(build(['add', 'x']))).toEqual(['install']);
    expect(names(build(['ls']))).toEqual(['list']);
    expect(names(build(['registry', 'sync']))).toEqual(['registry']);
    expect(build(['registry']).commands[0]!.commands.map((c) => c.name())).toContain('sync');
  });

  it('builds every command when the first argument names none: help, an option, a typo, nothing', () => {
    const all = names(build());
    expect(all.length).toBeGreaterThan(15);
    for (const argv of [[], ['--help'], ['help', 'validate'], ['validat'], ['--no-color', 'validate']]) {
      expect(names(build(argv)), argv.join(' ')).toEqual(all);
    }
  });

  it('builds a command as a full build does: the same help, options and subcommands', () => {
    const full = helps(build());
    for (const command of build().commands) {
      const alone = build([command.name()]);
      expect(names(alone)).toEqual([command.name()]);
      for (const [path, text] of Object.entries(helps(alone.commands[0]!, 'skills'))) {
        expect(text, path).toBe(full[path]);
      }
    }
  });
});
