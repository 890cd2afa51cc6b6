import { relative, resolve } from 'node:path';
import { homeOf, type Context } from '../context.js';
import { SkillsError } from '../errors.js';
import { loadNpmConfig } from '../fetch/npm-config.js';
import { lintPaths } from '../lint/lint-paths.js';
import { jsonDiagnostic, type Diagnostic } from '../model/diagnostic.js';
import { npmPackage, normalizeScope, type NpmPackage } from '../pack/npm-package.js';
import { publishNpm, registryForPackage, type PublishNpmResult } from '../pack/publish-npm.js';
import { publishWellKnown, type WellKnownResult } from '../pack/well-known.js';
import { loadOneSkill } from '../skill/one-skill.js';
import { paint, useColor } from '../ui/color.js';
import { safeJson, forTerminal } from '../ui/terminal-text.js';
import { formatDiagnostic } from '../ui/validate-report.js';

export interface PublishOptions {
  dir?: string;
  scope?: string;
  tag?: string;
  access?: string;
  wellKnown?: string;
  dryRun?: boolean;
  json?: boolean;
  color?: boolean;
}

export interface PublishOutcome {
  exitCode: number;
  diagnostics?: Diagnostic[];
  npm?: {
    package: Omit<NpmPackage, 'tarball' | 'manifest'> & { manifest: Record<string, unknown> };
    registry: string;
    tag: string;
    published?: PublishNpmResult;
  };
  wellKnown?: WellKnownResult;
  dryRun: boolean;
}

const kb = (n: number) =>
  n < 1000 ? `${n} B` : n < 1e6 ? `${(n / 1000).toFixed(1)} kB` : `${(n / 1e6).toFixed(1)} MB`;

/**
 * `skills publish [dir]`: validate and lint (errors stop it), then publish the skill as an npm package or into a
 * well-known folder. Exit 0 published (or shown, with --dry-run); 1 the skill has errors; 2 usage, auth, a version
 * already published, I/O (thrown).
 */
export async function publish(options: PublishOptions, ctx: Context): Promise<PublishOutcome> {
  const root = resolve(ctx.cwd, options.dir ?? '.');
  const c = paint(useColor(options.color, ctx));
  const ce = paint(useColor(options.color, ctx, ctx.stderr));
  const rel = (p: string) => relative(ctx.cwd, p) || '.';
  const dryRun = options.dryRun === true;
  if (options.wellKnown !== undefined && (options.scope !== undefined || options.access !== undefined))
    throw new SkillsError('E_USAGE', '--well-known writes a folder; --scope and --access are for an npm registry');

  // Validate and lint first: what a registry holds is immutable, so a broken skill never goes out.
  const skill = loadOneSkill(root, 'publish', ctx.cwd);
  const run = await lintPaths({ paths: [root], cwd: ctx.cwd, env: ctx.env, home: homeOf(ctx) });
  const errors = run.reports.flatMap((r) => r.diagnostics).filter((d) => d.severity === 'error');
  if (errors.length > 0) {
    if (options.json)
      ctx.stdout.write(
        `${safeJson({ error: { code: 'E_INVALID', message: `${skill.id} has ${errors.length} error(s); nothing was published` }, diagnostics: errors.map(jsonDiagnostic) })}\n`,
      );
    else {
      for (const d of errors) ctx.stderr.write(`${formatDiagnostic(d, ce, rel)}\n`);
      ctx.stderr.write(
        `${ce.red('error:')} ${forTerminal(skill.id)} has ${errors.length} error(s); nothing was published\n`,
      );
      ctx.stderr.write(`${ce.dim('hint:')} fix them (skills lint ${forTerminal(rel(root))}), then publish again\n`);
    }
    return { exitCode: 1, diagnostics: errors, dryRun };
  }

  if (options.wellKnown !== undefined) {
    const out = resolve(ctx.cwd, options.wellKnown);
    const result = await publishWellKnown(skill, out, dryRun);
    if (options.json) ctx.stdout.write(`${safeJson({ dryRun, wellKnown: result })}\n`);
    else {
      const verb = dryRun ? 'would write' : 'wrote';
      ctx.stdout.write(
        `${verb} ${c.bold(forTerminal(skill.id))} (${result.entry.type}) to ${forTerminal(rel(result.file))}\n${verb} ${forTerminal(rel(result.index))} (${result.kept + 1} skill${result.kept === 0 ? '' : 's'})\n`,
      );
      ctx.stdout.write(
        `${c.dim('serve')} ${forTerminal(rel(out))} ${c.dim('from any static host; install with: skills install https://<host>/')}\n`,
      );
    }
    return { exitCode: 0, wellKnown: result, dryRun };
  }

  const config = loadNpmConfig(ctx);
  const scopeSetting = options.scope ?? config.settings.scope;
  if (!scopeSetting)
    throw new SkillsError('E_USAGE', `no npm scope to publish ${skill.id} under`, {
      hint: 'give --scope @your-team, or set scope=@your-team in .npmrc',
    });
  const scope = normalizeScope(scopeSetting);
  const pkg = await npmPackage(skill, scope);
  const registry = registryForPackage(config, pkg.name);
  const tag = options.tag ?? 'latest';
  const { tarball: _t, ...shown } = pkg;
  const npm: NonNullable<PublishOutcome['npm']> = { package: shown, registry, tag };
  if (!dryRun)
    npm.published = await publishNpm(pkg, {
      config,
      tag,
      ...(options.access ? { access: options.access } : {}),
    });
  if (options.json) ctx.stdout.write(`${safeJson({ dryRun, npm })}\n`);
  else {
    if (dryRun) {
      ctx.stdout.write(`${c.bold(forTerminal(`${pkg.name}@${pkg.version}`))} (dry run: nothing was published)\n`);
      for (const f of pkg.files) ctx.stdout.write(`  ${forTerminal(f)}\n`);
      ctx.stdout.write(
        `${pkg.files.length} files, ${kb(pkg.unpackedSize)} unpacked, ${kb(pkg.tarball.length)} packed\nintegrity ${pkg.integrity}\nwould publish to ${registry} with tag ${tag}\n`,
      );
    } else
      ctx.stdout.write(
        `published ${c.bold(forTerminal(`${pkg.name}@${pkg.version}`))} to ${forTerminal(`${registry} (tag ${tag})`)}\n`,
      );
  }
  return { exitCode: 0, npm, dryRun };
}
