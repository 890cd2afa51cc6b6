import { basename, dirname, join, resolve } from 'node:path';
import { SkillsError, isSkillsError } from '../errors.js';
import { readInput, type InputRead } from '../fs/read.js';
import { offsetOf, parseJsonObject, type JsonProblem } from '../formats/json.js';
import { parseDotenvValues } from './secrets-dotenv.js';

// Seed 000 keeps API keys apart from skills, in /secrets/env.json beside /registry: a flat JSON object of variable
// name → value. A skill gets only the variables its manifest declares in `envVars`. A .env file (the format skills
// declare their variables in, `.env.example`) is read too: shared values only, as it has no sections.

/** Secrets files larger than this are refused: a key file is a few kilobytes. */
const MAX_SECRETS_BYTES = 1024 * 1024;

export interface Secrets {
  /** The file read (absolute). */
  file: string;
  /** Top-level name → value: seed 000's shape, for every skill. */
  shared: Record<string, string>;
  /** Sections by skill id (`{"my-skill": {"NAME": "value"}}`): values for that skill only, ahead of the shared ones. */
  bySkill: Record<string, Record<string, string>>;
}

/**
 * A secrets file's format: JSON for `*.json`, dotenv for `.env`, `*.env` and `.env.*`; otherwise JSON when the text
 * starts with `{`, else dotenv.
 */
export function secretsFormat(file: string, text: string): 'json' | 'dotenv' {
  const name = basename(file).toLowerCase();
  if (name.endsWith('.json')) return 'json';
  if (name === '.env' || name.endsWith('.env') || name.startsWith('.env.')) return 'dotenv';
  const body = text.replace(/^\uFEFF/, '').trimStart();
  return body.startsWith('{') ? 'json' : 'dotenv';
}

/** A secrets file's text (JSON or dotenv: secretsFormat); a mistake is a located E_CONFIG quoting no value. */
export function parseSecrets(text: string, file: string): Secrets {
  if (secretsFormat(file, text) === 'dotenv') {
    const { values, problem } = parseDotenvValues(text);
    if (problem)
      throw new SkillsError('E_CONFIG', `${file}:${problem.line}:${problem.column}: ${problem.message}`, {
        hint: 'a .env secrets file holds NAME=value lines (export, # comments and quoted values allowed), e.g. TWITTER_API_KEY=abc123',
      });
    return { file, shared: values, bySkill: {} };
  }
  const { value, tree, problem, at } = parseJsonObject(text.replace(/^\uFEFF/, ''));
  const fail = (p: JsonProblem) =>
    new SkillsError('E_CONFIG', `${file}:${p.line}:${p.column}: ${p.message}`, {
      hint: 'the secrets file is a JSON object of variable name → text, e.g. {"TWITTER_API_KEY": "…"}; a skill id may hold its own object of names',
    });
  if (problem) throw fail(problem);
  const where = (...path: string[]) => at(offsetOf(tree!, path, 'value'));
  const out: Secrets = { file, shared: {}, bySkill: {} };
  for (const [key, v] of Object.entries(value!)) {
    if (typeof v === 'string') {
      out.shared[key] = v;
    } else if (v && typeof v === 'object' && !Array.isArray(v)) {
      const section: Record<string, string> = {};
      for (const [name, sv] of Object.entries(v as Record<string, unknown>)) {
        if (typeof sv !== 'string')
          throw fail({
            message: `"${key}"."${name}" must be text (a JSON string), found ${kindOf(sv)}`,
            ...where(key, name),
          });
        section[name] = sv;
      }
      out.bySkill[key] = section;
    } else {
      throw fail({
        message: `"${key}" must be text (a JSON string) or an object of a skill's variables, found ${kindOf(v)}`,
        ...where(key),
      });
    }
  }
  return out;
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'number' ? 'a number' : typeof v === 'boolean' ? 'true or false' : typeof v;
}

/** seed 000's `/secrets/env.json` beside `/registry`: `secrets/env.json` in the registry's parent folder. */
export function defaultSecretsFile(registry: string): string {
  return join(dirname(resolve(registry)), 'secrets', 'env.json');
}

export interface SecretsLocation {
  file: string;
  /** Named by --secrets or SKILLS_SECRETS: then it must exist. */
  explicit: boolean;
  /** What named it, for messages. */
  from: '--secrets' | 'SKILLS_SECRETS' | 'default';
}

/** Which secrets file to read: --secrets, else SKILLS_SECRETS, else secrets/env.json beside the registry. */
export function locateSecrets(opts: {
  secrets?: string;
  cwd: string;
  env: Record<string, string | undefined>;
  registry: string;
}): SecretsLocation {
  if (opts.secrets !== undefined && opts.secrets.trim() !== '')
    return { file: resolve(opts.cwd, opts.secrets), explicit: true, from: '--secrets' };
  const fromEnv = opts.env.SKILLS_SECRETS;
  if (fromEnv !== undefined && fromEnv.trim() !== '')
    return { file: resolve(opts.cwd, fromEnv), explicit: true, from: 'SKILLS_SECRETS' };
  return { file: defaultSecretsFile(opts.registry), explicit: false, from: 'default' };
}

/** Why a secrets file cannot be read, as a SkillsError; undefined when a default file does not exist. */
function unreadable(location: SecretsLocation, err: unknown): SkillsError | undefined {
  if (isSkillsError(err))
    return new SkillsError(err.code, `cannot read the secrets file: ${err.message}`, { cause: err });
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' && !location.explicit) return undefined;
  if (code === 'ENOENT') {
    return new SkillsError('E_NOT_FOUND', `the secrets file ${location.file} (from ${location.from}) does not exist`, {
      hint: 'create it (NAME=value lines, or a JSON object of variable name → value), or point --secrets at the right file',
    });
  }
  return new SkillsError('E_IO', `cannot read the secrets file ${location.file}: ${(err as Error).message}`, {
    cause: err,
  });
}

function tooLarge(location: SecretsLocation, size?: number): SkillsError {
  const found = size === undefined ? '' : ` (${size} bytes)`;
  return new SkillsError(
    'E_CONFIG',
    `${location.file}: the secrets file is larger than ${MAX_SECRETS_BYTES} bytes${found}; nothing past the limit was read`,
    { hint: 'a secrets file holds variable names and values only' },
  );
}

/**
 * Read a secrets file of any kind (a FIFO, `<(…)`, a device too: never past the limit, never waiting past
 * `timeoutMs`); undefined when a default file does not exist, an E_NOT_FOUND when a named one does not.
 */
export async function loadSecrets(location: SecretsLocation, timeoutMs: number): Promise<Secrets | undefined> {
  let read: InputRead;
  try {
    read = await readInput(location.file, MAX_SECRETS_BYTES, timeoutMs);
  } catch (err) {
    const e = unreadable(location, err);
    if (e) throw e;
    return undefined;
  }
  if ('tooLarge' in read) throw tooLarge(location, read.size);
  if ('timedOut' in read)
    throw new SkillsError('E_CONFIG', `${location.file}: the secrets file did not end within ${timeoutMs / 1000} s`, {
      hint: 'a FIFO or device named as the secrets file must end (its writer closes it) within the timeout',
    });
  return parseSecrets(read.bytes.toString('utf8'), location.file);
}

/**
 * The values of `names` for one skill: its own section first, then the shared names; the names not found are missing.
 */
export function secretsFor(
  secrets: Secrets | undefined,
  skillId: string,
  names: string[],
): { values: Record<string, string>; missing: string[] } {
  const values: Record<string, string> = {};
  const missing: string[] = [];
  const own = secrets?.bySkill[skillId];
  for (const name of names) {
    const v =
      own && Object.hasOwn(own, name)
        ? own[name]
        : secrets && Object.hasOwn(secrets.shared, name)
          ? secrets.shared[name]
          : undefined;
    if (v === undefined) missing.push(name);
    else values[name] = v;
  }
  return { values, missing };
}
