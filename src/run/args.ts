import { SkillsError } from '../errors.js';
import { parseJsonObject } from '../formats/json.js';

/** Top-level entries of the arguments object. */
export const MAX_ARGS = 100;
/** Bytes of the arguments, serialized as compact JSON (UTF-8). */
export const MAX_ARGS_BYTES = 4096;

// ---------------------------------------------------------------------------------------------- arguments

/**
 * What a script is given: a JSON object (seed 000's tools), or command-line words (a CLI such as an argparse script).
 */
export interface ScriptArgs {
  /** The object, when the arguments are one. */
  args?: Record<string, unknown>;
  /** The words, when the arguments are a JSON list of text. */
  argv?: string[];
  /** The arguments as compact JSON, as given. */
  json: string;
}

/**
 * The arguments from JSON text: a JSON object of at most MAX_ARGS entries and MAX_ARGS_BYTES bytes once
 * serialized, or a JSON list of text, the script's command-line words (at most MAX_ARGS of them and MAX_ARGS_BYTES
 * bytes). `label` says where the text came from (--args, a file, stdin) in the located E_USAGE.
 */
export function parseScriptArgs(text: string, label: string): ScriptArgs {
  const source = text.replace(/^\uFEFF/, '');
  if (source.trim() === '') return { args: {}, json: '{}' };
  const { value, problem } = parseJsonObject(source);
  if (problem && /found an array$/.test(problem.message))
    return parseScriptWords(JSON.parse(source) as unknown[], label);
  if (problem) {
    const what = problem.message.startsWith('not')
      ? `the arguments are ${problem.message}`
      : `the arguments: ${problem.message}`;
    throw new SkillsError('E_USAGE', `${label}:${problem.line}:${problem.column}: ${what}`, {
      hint: `the arguments are one JSON object, e.g. --args '{"url": "https://example.com", "limit": 10}', or a list of command-line words, e.g. --args '["--format", "json"]'`,
    });
  }
  const args = value!;
  const count = Object.keys(args).length;
  if (count > MAX_ARGS) {
    throw new SkillsError(
      'E_USAGE',
      `${label}: ${count} arguments, more than the ${MAX_ARGS} allowed (top-level entries of the object)`,
      {
        hint: 'group related values into a nested object or a list',
      },
    );
  }
  const json = JSON.stringify(args);
  const bytes = Buffer.byteLength(json);
  if (bytes > MAX_ARGS_BYTES) {
    throw new SkillsError(
      'E_USAGE',
      `${label}: the arguments take ${bytes} bytes as JSON, more than the ${MAX_ARGS_BYTES} allowed`,
      {
        hint: 'pass large data as a file and give its path in the arguments',
      },
    );
  }
  return { args, json };
}

/**
 * The words typed after the script (`skills run-script my-skill greet -- Alice --loud`): the script's command-line
 * words, as a JSON list of them given to --args would be, with the same bounds.
 */
export function scriptWords(words: string[]): ScriptArgs {
  return parseScriptWords(words, 'the words after the script');
}

/**
 * A JSON list as command-line words: text only, at most MAX_ARGS words and MAX_ARGS_BYTES bytes (each word and its
 * NUL).
 */
function parseScriptWords(list: unknown[], label: string): ScriptArgs {
  const bad = list.findIndex((w) => typeof w !== 'string');
  if (bad !== -1) {
    const w = list[bad];
    const found =
      w === null
        ? 'null'
        : Array.isArray(w)
          ? 'a list'
          : typeof w === 'object'
            ? 'an object'
            : `the ${typeof w} ${JSON.stringify(w)}`;
    throw new SkillsError('E_USAGE', `${label}: item ${bad + 1} of the list is ${found}; command-line words are text`, {
      hint:
        typeof w === 'number' || typeof w === 'boolean'
          ? `quote it: ${JSON.stringify(String(w))}`
          : 'give each word as a JSON string, e.g. ["--limit", "10"]',
    });
  }
  const argv = list as string[];
  if (argv.length > MAX_ARGS)
    throw new SkillsError('E_USAGE', `${label}: ${argv.length} command-line words, more than the ${MAX_ARGS} allowed`);
  const bytes = argv.reduce((n, w) => n + Buffer.byteLength(w) + 1, 0);
  if (bytes > MAX_ARGS_BYTES) {
    throw new SkillsError(
      'E_USAGE',
      `${label}: the command-line words take ${bytes} bytes, more than the ${MAX_ARGS_BYTES} allowed`,
      {
        hint: 'pass large data as a file and give its path as a word',
      },
    );
  }
  if (argv.some((w) => w.includes('\0')))
    throw new SkillsError(
      'E_USAGE',
      `${label}: a command-line word holds a NUL character, which no program can receive`,
    );
  return { argv, json: JSON.stringify(argv) };
}
