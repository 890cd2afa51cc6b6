import { SkillsError } from '../errors.js';
import type { Skill } from '../model/skill.js';
import { MARKER_PATTERN } from '../proc/sweep.js';
import { maskList } from './mask.js';
import { loadSecrets, locateSecrets, secretsFor } from './secrets.js';

/** The environment variables passed from the caller when set (with SKILL_DIR and the declared secrets). */
export const PASSED_ENV = ['PATH', 'HOME', 'LANG', 'TMPDIR'];

export interface EnvPlan {
  env: Record<string, string>;
  /** Declared variables the script gets no value for. */
  missing: string[];
  /** Values to mask: those of the declared variables the script gets. */
  secretValues: string[];
}

/**
 * The script's environment: PATH, HOME, LANG, TMPDIR (when the caller has them), SKILL_DIR, and the declared
 * variables from the secrets — or, with `inherit`, the caller's whole environment with those added. The markers of
 * the runs we are part of (a script that calls `skills run-script`) are kept, so that the enclosing run can find
 * and end the processes this one starts.
 */
export function buildEnv(opts: {
  caller: Record<string, string | undefined>;
  skillDir: string;
  declared: string[];
  secrets: Record<string, string>;
  inherit?: boolean;
  extra?: Record<string, string>;
  /** Where the secrets came from, for a refusal to name. */
  secretsFile?: string;
}): EnvPlan {
  const env: Record<string, string> = {};
  const take = (k: string) => {
    const v = opts.caller[k];
    if (v !== undefined) env[k] = v;
  };
  if (opts.inherit) Object.keys(opts.caller).forEach(take);
  else {
    PASSED_ENV.forEach(take);
    Object.keys(opts.caller)
      .filter((k) => MARKER_PATTERN.test(k))
      .forEach(take);
  }
  Object.assign(env, opts.extra);
  env.SKILL_DIR = opts.skillDir;
  Object.assign(env, opts.secrets);
  refuseNul(env, opts);
  const missing = opts.declared.filter((n) => env[n] === undefined);
  const secretValues = opts.declared.map((n) => env[n]).filter((v): v is string => v !== undefined);
  return { env, missing, secretValues };
}

/**
 * Refuse a variable whose name or value holds a NUL, before anything is spawned: no program can be given one (a C
 * string ends there), and Node's refusal quotes the value, a secret's with it, as `\x00`, which the masker cannot
 * know for the value. The refusal names the variable and where its value came from, never the value.
 */
function refuseNul(
  env: Record<string, string>,
  opts: { secrets: Record<string, string>; extra?: Record<string, string>; secretsFile?: string },
): void {
  for (const [name, value] of Object.entries(env)) {
    if (!name.includes('\0') && !value.includes('\0')) continue;
    const from = Object.hasOwn(opts.secrets, name)
      ? `its value in the secrets file${opts.secretsFile ? ` ${opts.secretsFile}` : ''}`
      : opts.extra && Object.hasOwn(opts.extra, name)
        ? "the value the script's shebang sets"
        : 'its value';
    throw new SkillsError(
      'E_CONFIG',
      `the environment variable ${name} cannot be given to the script: ${name.includes('\0') ? 'its name' : from} holds a NUL character (\\0), which no program's environment can hold; the script was not run`,
      {
        hint: `give ${name} a value without a NUL (binary data encoded as base64 or hex, or the path of a file that holds it)`,
      },
    );
  }
}

/**
 * The variables a skill declares, which alone it gets from the secrets: a manifest's `envVars`; for a SKILL.md
 * skill (the standard has no such field), the names its `.env.example` lists, the file where such skills say
 * what they need.
 */
export function declaredEnv(skill: Skill): string[] {
  return skill.layout === 'manifest' ? skill.envVars : [...new Set(skill.envExample ?? [])];
}

/** What the script is given beyond the arguments: its environment, the strings to mask, a warning to show. */
export interface ScriptEnv {
  plan: EnvPlan;
  /** maskList of the secret values the script gets. */
  mask: string[];
  /** Declared variables without a value: say so (masked) before the script runs. */
  warning?: string;
}

/**
 * The script's environment (buildEnv) with the declared variables from the secrets file. The secrets are read
 * only when the skill declares variables, or when a file is named (so a mistake in it shows).
 */
export async function scriptEnv(opts: {
  skill: Skill;
  /** --secrets. */
  secrets?: string;
  registry: string;
  cwd: string;
  caller: Record<string, string | undefined>;
  inherit?: boolean;
  /** NAME=value the interpreter's shebang sets. */
  extra: Record<string, string>;
  /** How long a secrets file that is a FIFO or a device may take to end. */
  timeoutMs: number;
}): Promise<ScriptEnv> {
  const { skill } = opts;
  const location = locateSecrets({ secrets: opts.secrets, cwd: opts.cwd, env: opts.caller, registry: opts.registry });
  const envVars = declaredEnv(skill);
  const secrets = envVars.length > 0 || location.explicit ? await loadSecrets(location, opts.timeoutMs) : undefined;
  const declared = secretsFor(secrets, skill.id, envVars);
  const plan = buildEnv({
    caller: opts.caller,
    skillDir: skill.root,
    declared: envVars,
    secrets: declared.values,
    inherit: opts.inherit,
    extra: opts.extra,
    ...(secrets ? { secretsFile: location.file } : {}),
  });
  const mask = maskList(plan.secretValues);
  if (plan.missing.length === 0) return { plan, mask };
  const them = plan.missing.length > 1 ? 'them' : 'it';
  const why = secrets
    ? `which the secrets file ${location.file} does not hold`
    : `but there is no secrets file at ${location.file}`;
  // The two ways to give a value, named where the user looks when the script then says "not set".
  const how = opts.inherit
    ? `, nor does your environment (--inherit-env): the script runs without ${them}; put ${them} in a file given with --secrets <file> (NAME=value lines, or JSON), or set ${them} in your environment`
    : `: the script runs without ${them}; give ${them} with --secrets <file> (NAME=value lines, or JSON), or pass your environment's with --inherit-env`;
  return {
    plan,
    mask,
    warning: `warning: ${skill.id} declares ${plan.missing.join(', ')}, ${why}${how}`,
  };
}
