import { existsSync, statSync } from 'node:fs';
import { dirname, join, parse, resolve } from 'node:path';
import { SkillsError } from '../errors.js';
import { CONFIG_FILE, parseConfig, type Config } from '../formats/config.js';
import { readBounded } from '../fs/read.js';

export { CONFIG_FILE, type Config, type RuleSetting } from '../formats/config.js';

/**
 * The nearest skills.config.json from `cwd` upward that is no folder, or undefined: a folder of that name is no
 * configuration, and the search goes on past it. Anything else of that name (a FIFO, a device, a link to one) is
 * found, and refused by loadConfig with its reason: a stranger's trap is said, not passed over in silence.
 */
export function findConfigFile(cwd: string): string | undefined {
  const top = parse(cwd).root;
  for (let d = cwd; ; d = dirname(d)) {
    const f = join(d, CONFIG_FILE);
    const st = statSync(f, { throwIfNoEntry: false });
    if (st && !st.isDirectory()) return f;
    if (d === top) return undefined;
  }
}

/**
 * Load the configuration: `file` when given (--config; absolute, or relative to cwd), else the nearest
 * skills.config.json from cwd upward, else defaults. Comments and trailing commas are allowed; anything else wrong
 * is an E_CONFIG error that names the file, line and column.
 */
export function loadConfig(cwd: string, file?: string, home?: string): Config {
  // `-c "$CONFIG"` with the variable unset: the nearest file instead would be another configuration, without a word.
  if (file !== undefined && file.trim() === '')
    throw new SkillsError('E_USAGE', '--config needs a file, and was given an empty name', {
      hint: 'name the configuration file (e.g. --config skills.config.json), or leave out --config to use the nearest one',
    });
  const path = file ? resolve(cwd, file) : findConfigFile(cwd);
  if (!path) return { dir: cwd, rules: {}, ignores: [] };
  let text: string;
  try {
    // A cloned repository's file: a regular file of at most 1 MiB (a symlink to a FIFO must not hang a hook).
    const read = readBounded(path, 1024 * 1024);
    if (read.text === undefined) throw new Error(`it is ${read.tooLarge} bytes; a configuration file is at most 1 MiB`);
    text = read.text;
  } catch (err) {
    const hint = file ? readHint(cwd, file, path) : undefined;
    throw new SkillsError('E_CONFIG', `cannot read ${path}: ${(err as Error).message}`, {
      cause: err,
      ...(hint ? { hint } : {}),
    });
  }
  const { config, problem } = parseConfig(text, path, dirname(path), home);
  if (problem)
    throw new SkillsError('E_CONFIG', `${path}:${problem.line}:${problem.column}: ${problem.message}`, {
      hint: problem.hint,
    });
  return config!;
}

/**
 * What to do when the file --config names cannot be read, where the cause alone would mislead: a `~` taken
 * literally (`-c '~/x.json'`, quoted, so the shell did not expand it), or a folder given for the file.
 */
function readHint(cwd: string, file: string, path: string): string | undefined {
  const st = statSync(path, { throwIfNoEntry: false });
  if (st?.isDirectory()) return `--config names a file, and ${path} is a folder: give the configuration file itself`;
  if ((file === '~' || file.startsWith('~/') || file.startsWith('~\\')) && !existsSync(join(cwd, '~')))
    return (
      `"${file}" was taken literally, relative to the current folder: the shell expands ~ to your home only when ` +
      'it is not quoted; leave the quotes off, or write "$HOME" for the ~'
    );
  return undefined;
}
