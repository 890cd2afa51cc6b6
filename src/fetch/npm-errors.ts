// A registry's refusal (or silence) told as what it is, naming the registry and what to do: 401, 403, 404, a version
// published twice, a timeout, a registry out of reach. A token never shows, not even inside the registry's own words.
import { STATUS_CODES } from 'node:http';
import { SkillsError } from '../errors.js';
import { mib } from './capped-body.js';
import { hasCredentials, registrySetBy, type NpmConfig } from './npm-config.js';

export interface Failing {
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
  if (timedOut(err)) return noAnswer(err, f.registry, what, f.config);
  if (e.code === 'ECONNREFUSED' || e.code === 'ENOTFOUND' || e.code === 'ECONNRESET')
    return new SkillsError('E_IO', `cannot reach ${f.registry} (${e.code}) for ${what}`, {
      hint: 'check the registry URL (registry= or @scope:registry= in .npmrc) and the network',
      cause: err,
    });
  if (status !== undefined) {
    // Any other answer (a 405 from a registry that takes no publishes, a 500): the registry and where it was taken
    // from, since the usual cause is a registry nobody meant (npm's default, when no .npmrc names one).
    const scope = f.name.startsWith('@') ? f.name.split('/')[0] : undefined;
    const own = typeof e.body?.error === 'string' ? `: ${said}` : '';
    return new SkillsError(
      'E_IO',
      `${f.registry} answered ${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ''} for ${what}${own}`,
      {
        hint: `${f.registry} is ${registrySetBy(f.config, scope)}; to use another, write ${scope ?? ''}${scope ? ':' : ''}registry=<its URL> in the project's .npmrc`,
        cause: err,
      },
    );
  }
  return new SkillsError('E_IO', `${f.registry} failed for ${what}: ${said}`, { cause: err });
}

/**
 * A registry answer past its cap (`what`: the search "pdf", the package document of @acme/pdf…): the registry, the
 * cap and how much came before reading stopped.
 */
export function tooLarge(registry: string, what: string, maxBytes: number, bytes: number): SkillsError {
  return new SkillsError(
    'E_IO',
    `${registry} sent more than ${mib(maxBytes)} for ${what} (${bytes.toLocaleString('en-US')} bytes came before skills stopped reading); nothing was changed`,
    {
      hint: `an npm registry's answer is far smaller: check the registry URL (registry= or @scope:registry= in .npmrc); that server is not an npm registry, or is broken`,
    },
  );
}

/** Whether a request failed because the registry did not answer within the timeout. */
export function timedOut(err: unknown): boolean {
  const e = err as { code?: string; message?: string; type?: string };
  return (
    e.code === 'ETIMEDOUT' ||
    e.code === 'ERR_SOCKET_TIMEOUT' ||
    e.type === 'request-timeout' ||
    /timed? ?out/i.test(String(e.message ?? err))
  );
}

/** The one message for a registry that did not answer within SKILLS_REGISTRY_TIMEOUT, whatever was asked of it. */
export function noAnswer(err: unknown, registry: string, what: string, config: NpmConfig): SkillsError {
  const seconds = config.timeoutMs / 1000;
  return new SkillsError('E_IO', `${registry} did not answer in time for ${what}; nothing was changed`, {
    hint: `try again, check the registry URL in .npmrc, or give it longer than ${seconds} s with SKILLS_REGISTRY_TIMEOUT=<seconds>`,
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
