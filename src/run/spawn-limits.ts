// What the system refuses when it starts a script: an environment variable or argument too long for exec (Linux's
// 128 KiB a string), checked before spawning so the refusal names it; and any other spawn error told as what it
// means for the script, rather than Node's bare "spawn E2BIG".
import { SkillsError } from '../errors.js';

/** Linux's limit on one argument or environment string, NAME=value and its NUL byte (MAX_ARG_STRLEN, 32 pages). */
export const EXEC_STRING_MAX = 131072;

const bytes = (n: number) => n.toLocaleString('en-US');

/**
 * The refusal of an environment variable or argument longer than `platform` lets exec pass, or undefined. Only
 * Linux limits one string; the limit on all of them together depends on the stack limit (ulimit -s) and is left to
 * the spawn's E2BIG (spawnError).
 */
export function execLimitError(
  script: string,
  env: Record<string, string>,
  args: readonly string[],
  platform: NodeJS.Platform = process.platform,
): SkillsError | undefined {
  if (platform !== 'linux') return undefined;
  for (const [name, value] of Object.entries(env)) {
    const size = Buffer.byteLength(name) + Buffer.byteLength(value) + 2;
    if (size > EXEC_STRING_MAX)
      return new SkillsError(
        'E_CONFIG',
        `cannot run ${script}: the environment variable ${name} is ${bytes(size)} bytes (as ${name}=value), over the ${bytes(EXEC_STRING_MAX)} bytes (128 KiB) Linux allows one variable`,
        {
          hint: `put the value in a file and give the script its path instead (e.g. ${name}_FILE=/path/to/file in the secrets file, declared beside ${name}), for it to read`,
        },
      );
  }
  const long = args.findIndex((a) => Buffer.byteLength(a) + 1 > EXEC_STRING_MAX);
  if (long !== -1)
    return new SkillsError(
      'E_USAGE',
      `cannot run ${script}: its argument ${long + 1} is ${bytes(Buffer.byteLength(args[long]!) + 1)} bytes, over the ${bytes(EXEC_STRING_MAX)} bytes (128 KiB) Linux allows one argument`,
      { hint: 'give the script the path of a file that holds it instead' },
    );
  return undefined;
}

// What an errno of spawn means for the script run, and what to do.
const SPAWN_REASONS: Record<string, [string, string]> = {
  E2BIG: [
    'its arguments and environment together are larger than the system lets a program start with',
    'pass fewer or shorter environment variables (without --inherit-env, or a shorter secret: a file path instead of the value)',
  ],
  EACCES: [
    'permission denied: the interpreter is not an executable file, or a folder on its way may not be searched',
    'check the shebang names an executable program (ls -l), or run the script through its interpreter',
  ],
  ENOEXEC: [
    'the interpreter is not a program this system can run (exec format error)',
    "check the script's shebang names a program built for this system",
  ],
  ENOMEM: ['the system is out of memory', 'close other programs, then run again'],
  EAGAIN: ['the system cannot start another process now (too many processes)', 'end other processes, then run again'],
  EMFILE: ['too many files are open', 'raise the limit of open files (ulimit -n), then run again'],
  ENFILE: ['the system has too many files open', 'close other programs, then run again'],
  ETXTBSY: ['the interpreter is a file being written', 'wait until it is written, then run again'],
  ENOTDIR: ['a part of the path is a file, not a folder', "check the shebang's path"],
  ELOOP: ['too many symbolic links on the way (a loop?)', "check the links on the shebang's path (ls -l)"],
  ENAMETOOLONG: ['the path is too long', 'use a shorter path'],
  EPERM: ['the operation is not permitted', 'check the interpreter may be run by you (ls -l, a noexec mount)'],
};

/** A spawn error (not ENOENT, which the caller tells) as what it means, naming the script and the errno. */
export function spawnError(script: string, command: string, err: NodeJS.ErrnoException): SkillsError {
  const code = err.code ?? '';
  const known = SPAWN_REASONS[code];
  const reason = known
    ? `${known[0]} (${code})`
    : /^(?:spawn(?:Sync)? \S+ )?(E[A-Z0-9]+)?:?\s*(.*)$/.exec(err.message)?.[2] || err.message;
  return new SkillsError('E_IO', `cannot run ${script} with ${command}: ${reason}`, {
    cause: err,
    ...(known ? { hint: known[1] } : {}),
  });
}
