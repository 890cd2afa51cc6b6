// Publish a skill's package to an npm-compatible registry with npm's own libnpmpublish. The registry decides what
// is allowed (auth, a version published twice); its refusals are told plainly, naming the registry and what to do.
import { SkillsError } from '../errors.js';
import type { NpmConfig } from '../fetch/npm-config.js';
import { hasCredentials, registryOf } from '../fetch/npm-config.js';
import type { NpmPackage } from './npm-package.js';

export interface PublishNpmOptions {
  config: NpmConfig;
  tag: string;
  /** `public` or `restricted` (npm's default for a scoped package on npmjs.org is restricted). */
  access?: string;
  /** Milliseconds before a registry that stops answering is given up on. */
  timeoutMs?: number;
}

export interface PublishNpmResult {
  name: string;
  version: string;
  tag: string;
  registry: string;
  integrity: string;
}

/** Where a package of `name` goes: its scope's registry. */
export function registryForPackage(config: NpmConfig, name: string): string {
  return registryOf(config, name.startsWith('@') ? name.split('/')[0] : undefined);
}

export async function publishNpm(pkg: NpmPackage, opts: PublishNpmOptions): Promise<PublishNpmResult> {
  const registry = registryForPackage(opts.config, pkg.name);
  const { publish } = await import('libnpmpublish');
  try {
    await publish(pkg.manifest, pkg.tarball, {
      ...opts.config.settings,
      registry,
      defaultTag: opts.tag,
      ...(opts.access ? { access: opts.access } : {}),
      timeout: opts.timeoutMs ?? 60_000,
      fetchRetries: 0,
      // No npm banner or progress output of its own; nothing of the token in logs.
      log: { silly() {}, verbose() {}, http() {}, info() {}, notice() {}, warn() {}, error() {} },
    });
  } catch (err) {
    throw registryError(err, { registry, name: pkg.name, version: pkg.version, config: opts.config });
  }
  return { name: pkg.name, version: pkg.version, tag: opts.tag, registry, integrity: pkg.integrity };
}

interface Failing {
  registry: string;
  name: string;
  version?: string;
  config: NpmConfig;
}

/** A registry's refusal (or silence) as a SkillsError that names the registry and says what to do; never a token. */
export function registryError(err: unknown, f: Failing): SkillsError {
  const e = err as { statusCode?: number; code?: string; message?: string; body?: { error?: string } };
  const status = e.statusCode;
  const said = redactTokens(String(e.body?.error ?? e.message ?? err), f.config);
  const what = f.version ? `${f.name}@${f.version}` : f.name;
  const login = `log in with \`npm login --registry ${f.registry}\`, or set //${new URL(f.registry).host}${new URL(f.registry).pathname}:_authToken in an .npmrc (a \${TOKEN} from the environment is read)`;
  if (status === 401)
    return new SkillsError('E_CONFIG', `${f.registry} refused ${what}: not logged in (401)`, {
      hint: hasCredentials(f.config, f.registry) ? `the token for ${f.registry} was refused: ${login}` : login,
      cause: err,
    });
  if (status === 403 && /previously published|cannot publish over|already (been )?published|exists/i.test(said))
    return new SkillsError('E_EXISTS', `${what} is already published on ${f.registry}; a version is published once`, {
      hint: 'raise the version (metadata.version in SKILL.md, "version" in manifest.json) and publish again',
      cause: err,
    });
  if (status === 409)
    return new SkillsError('E_EXISTS', `${what} is already published on ${f.registry}; a version is published once`, {
      hint: 'raise the version (metadata.version in SKILL.md, "version" in manifest.json) and publish again',
      cause: err,
    });
  if (status === 403)
    return new SkillsError('E_CONFIG', `${f.registry} does not let this user publish or read ${what} (403): ${said}`, {
      hint: `check the scope's access on ${f.registry}, or ${login}`,
      cause: err,
    });
  if (status === 404)
    return new SkillsError('E_NOT_FOUND', `${f.registry} has no package ${f.name} (404)`, {
      hint: `check the name and the registry for its scope (@scope:registry= in .npmrc); ${f.registry} is the one used`,
      cause: err,
    });
  if (e.code === 'ETIMEDOUT' || e.code === 'ERR_SOCKET_TIMEOUT' || /timed? ?out/i.test(said))
    return new SkillsError('E_IO', `${f.registry} did not answer in time for ${what}; nothing was changed`, {
      hint: 'try again, or check the registry URL in .npmrc',
      cause: err,
    });
  if (e.code === 'ECONNREFUSED' || e.code === 'ENOTFOUND' || e.code === 'ECONNRESET')
    return new SkillsError('E_IO', `cannot reach ${f.registry} (${e.code}) for ${what}`, {
      hint: 'check the registry URL (registry= or @scope:registry= in .npmrc) and the network',
      cause: err,
    });
  return new SkillsError('E_IO', `${f.registry} failed for ${what}${status ? ` (${status})` : ''}: ${said}`, {
    cause: err,
  });
}

/** Any token of the configuration replaced by ***, wherever it shows up in a message. */
function redactTokens(text: string, config: NpmConfig): string {
  let out = text;
  for (const [k, v] of Object.entries(config.settings))
    if (/_authToken$|_auth$|_password$/.test(k) && v.length >= 4) out = out.split(v).join('***');
  return out;
}
