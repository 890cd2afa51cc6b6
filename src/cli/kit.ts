// What every command definition shares: the action shape, the examples at the end of --help, the options many
// commands take. Built once per program by program.ts.
import { Option, type Command } from 'commander';
import type { Context } from '../context.js';
import { SkillsError, isSkillsError } from '../errors.js';
import { READ_ONLY_HINT, errnoIn, ioError, readOnlyHint, realErrno } from '../fs/errno.js';

/**
 * A command's handler: its options (positional arguments by name, the flags, the global --color) and the context
 * in; the data it printed out, with the exit code it chose (0 when it has none).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Handler = (options: any, ctx: Context) => Promise<object>;

export interface Kit {
  /** The one shape of an action: load the handler, hand it the options, set the exit code it returns. */
  act: (
    load: () => Promise<Handler>,
    names: string[],
    adapt?: (o: Record<string, unknown>) => Record<string, unknown>,
  ) => (...args: unknown[]) => Promise<void>;
  /** The examples every `--help` ends with. */
  examples: (lines: string[]) => string;
  /** `--registry <dir>`. */
  registryOption: () => Option;
  /** A repeatable option whose values may also be comma-separated: `-a claude-code,cursor -a codex`. */
  collectList: (value: string, previous?: string[]) => string[];
}

export const examples = (lines: string[]): string => `\nExamples:\n${lines.map((l) => `  ${l}`).join('\n')}`;

export const registryOption = (): Option =>
  new Option(
    '--registry <dir>',
    'the registry folder (default: SKILLS_REGISTRY, else the nearest .skills/ upward, else ~/.skills)',
  );

export const collectList = (value: string, previous: string[] = []): string[] => [
  ...previous,
  ...value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== ''),
];

/** The options `list` and `registry list` share: the output and the filters. */
export const listOptions = (cmd: Command): Command =>
  cmd
    .option('--json', 'print the result as JSON')
    .option('--long', 'show every version, not only the latest')
    .option('--owner <id>', 'only skills of this owner')
    .addOption(new Option('--layout <layout>', 'only skills of this layout').choices(['skill-md', 'manifest']))
    .option('--verbose', 'print every warning about single skills (else the first 10, and how many more)')
    .addOption(registryOption());

/**
 * The flags no command takes together, refused (E_USAGE, exit 2) before any handler runs, the same in every command:
 * --json with a --format other than json, and --quiet with --verbose.
 */
export function refuseConflicts(cmd: Command): void {
  const o = cmd.opts();
  // Only an output format (one of whose choices is json: not pack's tgz or skill), and one given on the command
  // line (it has a default), disagrees with --json.
  const output = cmd.options.find((opt) => opt.long === '--format')?.argChoices?.includes('json') === true;
  if (o.json === true && output && cmd.getOptionValueSource('format') === 'cli' && o.format !== 'json')
    throw new SkillsError('E_USAGE', `use --json or --format ${String(o.format)}, not both: they ask for two formats`, {
      hint: '--json is the same as --format json',
    });
  if (o.quiet === true && o.verbose === true)
    throw new SkillsError('E_USAGE', 'use --quiet (less output) or --verbose (more), not both');
}

/** The options with which a command chooses the folder it writes: what a read-only file system's hint may name. */
const WHERE_OPTIONS: [string, string[]][] = [
  ['--registry', ['--registry', 'SKILLS_REGISTRY']],
  ['--into', ['--into']],
  ['--out', ['--out']],
  ['--dir', ['--dir']],
  ['--well-known', ['--well-known']],
];

/**
 * An error a command failed with, its read-only file system's hint naming that command's own options that choose
 * where it writes (none: the hint names none), not another command's.
 */
export function withOwnHint(cmd: Command, err: unknown): unknown {
  const errno = errnoIn(err);
  if (!errno || realErrno(errno).code !== 'EROFS') return err;
  const failed = isSkillsError(err) ? err : ioError(errno);
  if (failed.hint !== undefined && failed.hint !== READ_ONLY_HINT) return failed;
  const has = (long: string) => cmd.options.some((o) => o.long === long);
  // A command with --write (render-prompt) writes that file only; its --registry is read.
  const own = has('--write') ? ['--write'] : WHERE_OPTIONS.filter(([long]) => has(long)).flatMap(([, names]) => names);
  return new SkillsError(failed.code, failed.message, { cause: failed.cause, hint: readOnlyHint(own) });
}
