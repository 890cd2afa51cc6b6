import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { SkillsError, isSkillsError } from '../errors.js';
import { readInput, readStream, type InputRead } from '../fs/read.js';
import { parseScriptArgs, scriptWords, type ScriptArgs } from './args.js';

/** Arguments read from a file or stdin beyond this are refused before parsing (the serialized limit is 4,096 bytes). */
const MAX_ARGS_INPUT_BYTES = 1024 * 1024;

export interface ArgsInput {
  /** --args: the JSON text. */
  args?: string;
  /** --args-file: a path, or - for stdin. */
  argsFile?: string;
  /** The words typed after the script: its command-line words. */
  words?: string[];
}

/** An E_USAGE unless the arguments come from one place: the words after the script, --args or --args-file. */
export function checkArgumentSources(options: ArgsInput): void {
  const flags = [options.args !== undefined && '--args', options.argsFile !== undefined && '--args-file'].filter(
    (g): g is string => g !== false,
  );
  if (options.words !== undefined && options.words.length > 0 && flags.length > 0)
    throw new SkillsError(
      'E_USAGE',
      `give the arguments once: words after the script, or ${flags.join(' and ')}, not both`,
      {
        hint: `put the words in the JSON list instead: --args '${JSON.stringify(options.words)}'`,
      },
    );
  if (flags.length > 1) throw new SkillsError('E_USAGE', 'give the arguments once: --args or --args-file, not both');
}

/**
 * The arguments: the words after the script, else --args, else --args-file (- for stdin), else stdin when it is not
 * a terminal, else {}. Only one of the first three may be given.
 */
export async function readArguments(
  options: ArgsInput,
  io: { cwd: string; stdin: Readable & { isTTY?: boolean } },
  timeoutSeconds: number,
): Promise<ScriptArgs> {
  checkArgumentSources(options);
  if (options.words !== undefined && options.words.length > 0) return scriptWords(options.words);
  if (options.args !== undefined) return parseScriptArgs(options.args, '--args');
  if (options.argsFile !== undefined && options.argsFile !== '-') {
    const file = resolve(io.cwd, options.argsFile);
    let read: InputRead;
    try {
      // Any kind of file (a FIFO, <(…), a device), never read past the limit nor waited for past the timeout.
      read = await readInput(file, MAX_ARGS_INPUT_BYTES, timeoutSeconds * 1000);
    } catch (err) {
      if (isSkillsError(err)) throw new SkillsError(err.code, `--args-file ${err.message}`, { cause: err });
      const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
      throw new SkillsError(
        missing ? 'E_NOT_FOUND' : 'E_IO',
        `--args-file ${options.argsFile}: ${missing ? 'no such file' : (err as Error).message}`,
        { cause: err },
      );
    }
    if ('tooLarge' in read)
      throw new SkillsError(
        'E_USAGE',
        `${file}: the arguments file is larger than ${MAX_ARGS_INPUT_BYTES} bytes${read.size === undefined ? '' : ` (${read.size} bytes)`}; nothing past the limit was read`,
        { hint: 'the arguments are one JSON object of at most 4,096 bytes, e.g. {"url": "https://example.com"}' },
      );
    if ('timedOut' in read)
      throw new SkillsError('E_USAGE', `${file}: the arguments did not end within ${timeoutSeconds} s`, {
        hint: 'a FIFO or device named by --args-file must end (its writer closes it) within the timeout',
      });
    const text = read.bytes.toString('utf8');
    return parseScriptArgs(text, file);
  }
  if (options.argsFile === '-' || io.stdin.isTTY !== true)
    return parseScriptArgs(await readStdin(io.stdin, timeoutSeconds), 'stdin');
  return { json: '{}' };
}

/** All of stdin, bounded in size and in time (a caller that leaves stdin open would otherwise hang us). */
async function readStdin(stdin: Readable, timeoutSeconds: number): Promise<string> {
  let read: InputRead;
  try {
    read = await readStream(stdin, MAX_ARGS_INPUT_BYTES, timeoutSeconds * 1000);
  } catch (err) {
    throw new SkillsError('E_IO', `cannot read the arguments from stdin: ${(err as Error).message}`, { cause: err });
  }
  if ('tooLarge' in read)
    throw new SkillsError('E_USAGE', `stdin: the arguments are larger than ${MAX_ARGS_INPUT_BYTES} bytes`);
  if ('timedOut' in read)
    throw new SkillsError(
      'E_USAGE',
      `stdin did not end within ${timeoutSeconds} s: run-script reads the JSON arguments from stdin when it is not a terminal`,
      { hint: "pass the arguments with --args '{…}' (or --args '{}'), or close stdin (< /dev/null)" },
    );
  return read.bytes.toString('utf8');
}
