// One skill → one npm package: `@<scope>/<id>`, the skill's version, its dependencies as the packages of its
// dependencies, and an `agentskills` field naming the skill (the shape of agentskills/agentskills issue 81, so other
// npm-based skill tools read the same packages). The tarball is our deterministic pack with npm's `package/` prefix
// and the package.json beside the skill's files.
import { createHash } from 'node:crypto';
import semver from 'semver';
import { SkillsError } from '../errors.js';
import type { Skill } from '../model/skill.js';
import { gzipTar, planPack, tarEntries } from './pack.js';
import { requiredFiles } from '../skill/ignore-rules.js';

/** npm's rule for a scope: what follows the @ in `@scope/name`. */
const SCOPE = /^[a-z0-9][a-z0-9._~-]*$/;

export interface NpmPackage {
  name: string;
  version: string;
  manifest: Record<string, unknown>;
  tarball: Buffer;
  /** sha512 SRI of the tarball, as npm records it. */
  integrity: string;
  files: string[];
  unpackedSize: number;
}

/** `@scope` from `scope`, `@scope` or `scope/`: the form npm's settings use; a usage error when it is no scope. */
export function normalizeScope(scope: string): string {
  const bare = scope.replace(/^@/, '').replace(/\/$/, '');
  if (!SCOPE.test(bare))
    throw new SkillsError('E_USAGE', `"${scope}" is not an npm scope (lowercase letters, digits, - . _ ~; e.g. @acme)`);
  return `@${bare}`;
}

/** The package name of a skill id in a scope. */
export const packageName = (scope: string, id: string) => `${normalizeScope(scope)}/${id}`;

/** The version a skill publishes as: strict semver (1.2.3, 1.2.3-beta.1), or a usage error that says how to set it. */
export function publishVersion(skill: Skill): string {
  const v = skill.version;
  const where =
    skill.layout === 'manifest' ? `"version" in ${skill.file}` : `metadata.version (or version) in ${skill.file}`;
  if (v === undefined)
    throw new SkillsError('E_INVALID', `${skill.id} has no version, and a package needs one`, {
      hint: `set ${where}, e.g. 1.0.0`,
    });
  if (semver.valid(v) !== v)
    throw new SkillsError('E_INVALID', `${skill.id}'s version "${v}" is not a strict semver version`, {
      hint: `set ${where} to MAJOR.MINOR.PATCH, e.g. ${semver.coerce(v)?.version ?? '1.0.0'}`,
    });
  return v;
}

/** Build the package of a skill (nothing is written). */
export async function npmPackage(skill: Skill, scope: string): Promise<NpmPackage> {
  const name = packageName(scope, skill.id);
  const version = publishVersion(skill);
  const plan = await planPack(skill.root, [], requiredFiles(skill));
  if (plan.files.some((f) => f.path === 'package.json'))
    throw new SkillsError(
      'E_INVALID',
      `${skill.root} has a package.json of its own; the package's is written by skills`,
      {
        hint: 'rename it, or list it in .skillignore',
      },
    );
  const dependencies = Object.fromEntries(
    skill.dependencies.map((d) => [packageName(scope, d.id), d.range ?? '*'] as const),
  );
  const manifest: Record<string, unknown> = {
    name,
    version,
    description: skill.description,
    ...(skill.license ? { license: skill.license } : {}),
    keywords: ['agent-skill', 'agentskills'],
    ...(Object.keys(dependencies).length > 0 ? { dependencies } : {}),
    agentskills: { skills: [{ name: skill.id, path: './' }] },
  };
  const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  const entries = [
    { path: 'package/package.json', content: manifestBytes, mode: 0o644 as const },
    ...tarEntries(plan, 'package/'),
  ].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const tarball = await gzipTar(entries);
  return {
    name,
    version,
    manifest,
    tarball,
    integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
    files: ['package.json', ...plan.files.map((f) => f.path)].sort(),
    unpackedSize: plan.unpackedSize + manifestBytes.length,
  };
}
