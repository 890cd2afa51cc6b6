// npm's configuration as npm finds it, for talking to an npm-compatible registry: the project's .npmrc (the nearest
// one from the working folder up to the home folder), the user's (~/.npmrc, or $NPM_CONFIG_USERCONFIG), and
// NPM_CONFIG_* / npm_config_* variables, later ones winning in the reverse order (environment over project over
// user), as npm does. The result is the flat settings npm's own libraries take (`registry`, `@scope:registry`,
// `//host/:_authToken`, …). Tokens never leave this object: messages name the registry, not the credentials.
import { existsSync } from 'node:fs';
import { dirname, join, parse as parsePath } from 'node:path';
import { SkillsError } from '../errors.js';
import { homeOf, type Context } from '../context.js';
import { nerfDart, normalizeRegistry, parseNpmrc } from '../formats/npmrc.js';
import { readBounded } from '../fs/read.js';

export const DEFAULT_NPM_REGISTRY = 'https://registry.npmjs.org/';

export interface NpmConfig {
  /** Flat settings, for npm-registry-fetch, pacote and libnpmpublish. */
  settings: Record<string, string>;
  /** The .npmrc files read, nearest first. */
  files: string[];
  /** Where each setting was set, for messages: `registry= in /path/.npmrc`, or the variable (`NPM_CONFIG_REGISTRY`). */
  setBy: Record<string, string>;
  /** How long a registry request may wait for an answer: SKILLS_REGISTRY_TIMEOUT seconds (60 by default). */
  timeoutMs: number;
}

const DEFAULT_TIMEOUT_S = 60;

/** SKILLS_REGISTRY_TIMEOUT in milliseconds: the one wait every request to a registry honours. */
export function registryTimeoutMs(env: Context['env']): number {
  const raw = env.SKILLS_REGISTRY_TIMEOUT;
  if (raw === undefined || raw.trim() === '') return DEFAULT_TIMEOUT_S * 1000;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new SkillsError('E_CONFIG', `SKILLS_REGISTRY_TIMEOUT is "${raw}"; it is a number of seconds above 0`, {
      hint: `set it to how long a registry may take to answer, e.g. SKILLS_REGISTRY_TIMEOUT=30, or unset it (${DEFAULT_TIMEOUT_S} s)`,
    });
  return seconds * 1000;
}

const MAX_NPMRC = 1024 * 1024;

function readNpmrc(file: string, env: Context['env']): Record<string, string> | undefined {
  if (!existsSync(file)) return undefined;
  const { text, tooLarge } = readBounded(file, MAX_NPMRC);
  if (tooLarge) throw new SkillsError('E_CONFIG', `${file} is ${tooLarge} bytes; an .npmrc may be at most 1 MiB`);
  if (text === undefined) return undefined;
  const { settings, missing } = parseNpmrc(text, env);
  if (missing.length > 0)
    throw new SkillsError('E_CONFIG', `${file} names \${${missing[0]}}, which is not set`, {
      hint: `set ${missing[0]} in the environment, or write \${${missing[0]}?} in ${file} to allow it unset`,
    });
  return settings;
}

/** The project's .npmrc: the nearest from `cwd` upward, not above the home folder. */
function projectNpmrc(cwd: string, home: string): string | undefined {
  let dir = cwd;
  for (;;) {
    if (dir === home) return undefined;
    const file = join(dir, '.npmrc');
    if (existsSync(file)) return file;
    const up = dirname(dir);
    if (up === dir || dir === parsePath(dir).root) return undefined;
    dir = up;
  }
}

/** Settings from NPM_CONFIG_FOO_BAR / npm_config_foo_bar, as npm names them (foo-bar), and the variable of each. */
function envSettings(env: Context['env']): { settings: Record<string, string>; setBy: Record<string, string> } {
  const settings: Record<string, string> = {};
  const setBy: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || !/^npm_config_/i.test(name)) continue;
    const key = name.slice('npm_config_'.length).toLowerCase();
    if (key === '' || key === 'userconfig') continue;
    const setting = key.startsWith('_') ? key : key.replace(/_/g, '-');
    settings[setting] = value;
    setBy[setting] = name;
  }
  return { settings, setBy };
}

/** Read npm's configuration for a command run in `ctx.cwd`. */
export function loadNpmConfig(ctx: Pick<Context, 'cwd' | 'env'>): NpmConfig {
  const home = homeOf(ctx);
  const files: string[] = [];
  const settings: Record<string, string> = {};
  const setBy: Record<string, string> = {};
  const project = projectNpmrc(ctx.cwd, home);
  const user = ctx.env.NPM_CONFIG_USERCONFIG ?? ctx.env.npm_config_userconfig ?? join(home, '.npmrc');
  for (const file of [user, project]) {
    if (!file) continue;
    const s = readNpmrc(file, ctx.env);
    if (!s) continue;
    files.unshift(file);
    Object.assign(settings, s);
    for (const key of Object.keys(s)) setBy[key] = `${key}= in ${file}`;
  }
  const env = envSettings(ctx.env);
  Object.assign(settings, env.settings);
  Object.assign(setBy, env.setBy);
  return {
    settings,
    setBy,
    files,
    timeoutMs: registryTimeoutMs(ctx.env),
  };
}

/** The registry a package's scope is published to and fetched from: `@scope:registry`, else `registry`. */
export function registryOf(config: NpmConfig, scope?: string): string {
  const s = config.settings;
  const scoped = scope ? s[`${scope}:registry`] : undefined;
  return normalizeRegistry(scoped ?? s.registry ?? DEFAULT_NPM_REGISTRY);
}

/**
 * Where the registry of `scope` was taken from, for a message: the .npmrc line or variable that set it, or npm's
 * default when none did.
 */
export function registrySetBy(config: NpmConfig, scope?: string): string {
  const key = scope && config.settings[`${scope}:registry`] !== undefined ? `${scope}:registry` : 'registry';
  if (config.settings[key] !== undefined) return `set by ${config.setBy[key] ?? `${key}=`}`;
  const lines = scope ? `${scope}:registry= or registry=` : 'registry=';
  return `npm's default registry: no .npmrc (nor NPM_CONFIG_REGISTRY) sets ${lines}`;
}

/** Whether credentials for `registry` are set (a token, a basic auth pair or `_auth`). */
export function hasCredentials(config: NpmConfig, registry: string): boolean {
  const key = nerfDart(registry);
  const s = config.settings;
  return Boolean(s[`${key}:_authToken`] || s[`${key}:_auth`] || (s[`${key}:username`] && s[`${key}:_password`]));
}
