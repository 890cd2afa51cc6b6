import { registryFor } from '../registry/locate.js';
import { join } from 'node:path';
import type { Context } from '../context.js';
import { readIndex, readReleases } from '../registry/registry.js';
import { catalogFromIndex, needsSystemPackages, resolveSpecs, systemPackageWarnings, type Resolution, type ResolvedSkill } from '../resolve/resolve.js';
import { SkillsError } from '../errors.js';
import { parseSpec, type DependencySpec } from '../model/spec.js';
import { paint, useColor } from '../ui/color.js';

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
export async function resolve(options: ResolveOptions, ctx: Context): Promise<{ result: ResolveResult; exitCode: number }> {
  const specs = parseSpecs(options.specs);
  const registry = registryFor(options, ctx);
  const catalog = catalogFromIndex(readIndex(registry), (id) => readReleases(registry, id));
  const resolution = resolveSpecs(specs, catalog, { nodeVersion: process.versions.node });
  if (resolution.ok) {
    // Asking the package manager costs a process per package: load the checker only when a skill lists any.
    if (needsSystemPackages(resolution.resolved, catalog)) {
      const { systemPackageChecker } = await import('../resolve/system-packages.js');
      resolution.warnings.push(...systemPackageWarnings(resolution.resolved, catalog, systemPackageChecker(process.platform)));
    }
    for (const skill of resolution.resolved) skill.path = join(registry, skill.path);
  }
  const result = { registry, resolution };
  const c = paint(useColor(options.color, ctx));

  if (!resolution.ok) {
    const { error, kind } = resolution;
    if (options.json) {
      const doc = { error: { code: error.code, kind, message: error.message, ...(error.hint ? { hint: error.hint } : {}) } };
      ctx.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
    } else {
      const ce = paint(useColor(options.color, ctx, ctx.stderr));
      ctx.stderr.write(`${ce.red('error:')} ${error.message}\n${error.hint ? `${ce.dim('hint:')} ${error.hint}\n` : ''}`);
    }
    return { result, exitCode: 1 };
  }

  if (options.json) {
    ctx.stdout.write(`${JSON.stringify({ resolved: resolution.resolved, warnings: resolution.warnings }, null, 2)}\n`);
    return { result, exitCode: 0 };
  }
  const cw = paint(useColor(options.color, ctx, ctx.stderr));
  for (const w of resolution.warnings) ctx.stderr.write(`${cw.yellow('warning:')} ${w}\n`);
  ctx.stdout.write(options.tree ? formatTree(resolution.roots, resolution.resolved) : formatList(resolution.resolved, c));
  return { result, exitCode: 0 };
}

function parseSpecs(raw: string[]): DependencySpec[] {
  const specs: DependencySpec[] = [];
  const errors: string[] = [];
  for (const r of raw) {
    const s = parseSpec(r);
    if ('error' in s) errors.push(s.error);
    else specs.push(s);
  }
  if (errors.length > 0) {
    throw new SkillsError('E_USAGE', errors.join('\n'), { hint: 'a spec is an id (latest version), id@1.2.3 (exact) or id@<semver range>, e.g. basic-tools@^1.0.0' });
  }
  return specs;
}

/** One line per skill, dependencies first: `id@version  layout  path`, columns aligned. */
export function formatList(resolved: ResolvedSkill[], c: ReturnType<typeof paint>): string {
  const names = resolved.map((s) => `${s.id}@${s.version}`);
  const width = Math.max(0, ...names.map((n) => n.length));
  const layoutWidth = Math.max(0, ...resolved.map((s) => s.layout.length));
  return resolved.map((s, i) => `${names[i]!.padEnd(width)}  ${s.layout.padEnd(layoutWidth)}  ${c.dim(s.path)}\n`).join('');
}

/** The dependency graph as `npm ls` draws it; a skill drawn once already is marked (deduped) and not expanded. */
export function formatTree(roots: string[], resolved: ResolvedSkill[]): string {
  const byKey = new Map(resolved.map((s) => [`${s.id}@${s.version}`, s]));
  const drawn = new Set<string>();
  const lines: string[] = [];
  const draw = (key: string, prefix: string, branch: string, childPrefix: string) => {
    const again = drawn.has(key);
    lines.push(`${prefix}${branch}${key}${again ? ' (deduped)' : ''}`);
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
