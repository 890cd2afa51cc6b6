import { registryFor } from '../registry/locate.js';
import type { Context } from '../context.js';
import { SkillsError } from '../errors.js';
import { parseSpecs, resolveFromRegistry } from '../resolve/from-registry.js';
import type { Resolution, ResolvedSkill } from '../resolve/resolve.js';
import { paint, useColor } from '../ui/color.js';
import { columns, padColumns } from '../ui/columns.js';
import { safeJson, forTerminal, forTerminalLine } from '../ui/terminal-text.js';

export interface ResolveOptions {
  specs: string[];
  registry?: string;
  tree?: boolean;
  json?: boolean;
  color?: boolean;
}

export interface ResolveResult {
  registry: string;
  /** Paths in `resolved` are absolute here (the index keeps them relative to the registry). */
  resolution: Resolution;
}

/**
 * `skills resolve <spec…>`: exit 0 resolved; 1 when no resolution exists (an unknown skill, a missing version,
 * a conflict, a cycle: findings about the skills, reported on stderr or in the JSON document); 2 for a bad spec
 * or an unreadable registry (thrown, so main.ts reports them).
 */
export async function resolve(
  options: ResolveOptions,
  ctx: Context,
): Promise<{ result: ResolveResult; exitCode: number }> {
  const npm = options.specs.filter((s) => /^npm:/i.test(s) || s.startsWith('@'));
  let registry: string;
  let resolution: Resolution;
  if (npm.length > 0) {
    // An npm package: resolved against its registry's packuments (one package, with its dependencies).
    if (options.specs.length > 1)
      throw new SkillsError('E_USAGE', 'resolve takes one npm package at a time, and no registry spec beside it', {
        hint: `skills resolve ${npm[0]}`,
      });
    // Loaded only for an npm spec: a registry resolve (the common case) does without them.
    const [{ loadNpmConfig }, { registryForName }, { parseRemoteSource }, { resolveFromNpm }] = await Promise.all([
      import('../fetch/npm-config.js'),
      import('../fetch/npm-registry.js'),
      import('../formats/install-source.js'),
      import('../resolve/from-npm.js'),
    ]);
    const remote = parseRemoteSource(options.specs[0]!, () => false);
    if (remote?.kind !== 'npm') throw new SkillsError('E_USAGE', `${options.specs[0]} is not an npm package spec`);
    const config = loadNpmConfig(ctx);
    registry = registryForName(config, remote.name);
    const r = await resolveFromNpm(remote.name, remote.range, {
      config,
      nodeVersion: process.versions.node,
    });
    resolution = r.resolution;
    if (resolution.ok)
      for (const skill of resolution.resolved)
        skill.path = r.packuments.get(skill.id)?.versions[skill.version]?.dist.tarball ?? '';
  } else {
    const specs = parseSpecs(options.specs);
    registry = registryFor(options, ctx);
    resolution = await resolveFromRegistry(specs, registry, {
      nodeVersion: process.versions.node,
      platform: process.platform,
      maxSteps: maxStepsFrom(ctx.env.SKILLS_RESOLVE_MAX_STEPS),
    });
  }
  const result = { registry, resolution };
  const c = paint(useColor(options.color, ctx));

  if (!resolution.ok) {
    const { error, kind } = resolution;
    if (options.json) {
      const doc = {
        error: { code: error.code, kind, message: error.message, ...(error.hint ? { hint: error.hint } : {}) },
      };
      ctx.stdout.write(`${safeJson(doc)}\n`);
    } else {
      const ce = paint(useColor(options.color, ctx, ctx.stderr));
      ctx.stderr.write(
        `${ce.red('error:')} ${forTerminal(error.message)}\n${error.hint ? `${ce.dim('hint:')} ${forTerminal(error.hint)}\n` : ''}`,
      );
    }
    return { result, exitCode: 1 };
  }

  if (options.json) {
    ctx.stdout.write(`${safeJson({ resolved: resolution.resolved, warnings: resolution.warnings })}\n`);
    return { result, exitCode: 0 };
  }
  const cw = paint(useColor(options.color, ctx, ctx.stderr));
  for (const w of resolution.warnings) ctx.stderr.write(`${cw.yellow('warning:')} ${forTerminal(w)}\n`);
  ctx.stdout.write(
    options.tree ? formatTree(resolution.roots, resolution.resolved) : formatList(resolution.resolved, c),
  );
  return { result, exitCode: 0 };
}

/**
 * One line per skill, dependencies first: `id@version  layout  path`, columns aligned. What the registry's index
 * says (ids, versions, paths) is shown escaped, as list shows it.
 */
export function formatList(resolved: ResolvedSkill[], c: ReturnType<typeof paint>): string {
  const names = resolved.map((s) => forTerminalLine(`${s.id}@${s.version}`));
  const layouts = resolved.map((s) => forTerminalLine(s.layout));
  const width = Math.max(0, ...names.map(columns));
  const layoutWidth = Math.max(0, ...layouts.map(columns));
  return resolved
    .map(
      (s, i) =>
        `${padColumns(names[i]!, width)}  ${padColumns(layouts[i]!, layoutWidth)}  ${c.dim(forTerminalLine(s.path))}\n`,
    )
    .join('');
}

/** The dependency graph as `npm ls` draws it; a skill drawn once already is marked (deduped) and not expanded. */
export function formatTree(roots: string[], resolved: ResolvedSkill[]): string {
  const byKey = new Map(resolved.map((s) => [`${s.id}@${s.version}`, s]));
  const drawn = new Set<string>();
  const lines: string[] = [];
  const draw = (key: string, prefix: string, branch: string, childPrefix: string) => {
    const again = drawn.has(key);
    lines.push(`${prefix}${branch}${forTerminalLine(key)}${again ? ' (deduped)' : ''}`);
    if (again) return;
    drawn.add(key);
    const deps = byKey.get(key)?.dependencies ?? [];
    deps.forEach((dep, i) => {
      const last = i === deps.length - 1;
      draw(dep, prefix + childPrefix, last ? '└─ ' : '├─ ', last ? '   ' : '│  ');
    });
  };
  for (const root of roots) draw(root, '', '', '');
  return lines.map((l) => `${l}\n`).join('');
}

/** SKILLS_RESOLVE_MAX_STEPS: a positive whole number, else refused; unset leaves the default. */
function maxStepsFrom(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1)
    throw new SkillsError(
      'E_USAGE',
      `SKILLS_RESOLVE_MAX_STEPS is "${raw}": expected a whole number above 0, e.g. 5000000`,
    );
  return n;
}
