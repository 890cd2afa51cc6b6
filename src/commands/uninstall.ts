import { relative } from 'node:path';
import type { Context } from '../context.js';
import { installTarget } from './install.js';
import { uninstallSkill, type UninstallResult } from '../install/uninstall.js';
import { SkillsError } from '../errors.js';
import { parseSpec } from '../model/spec.js';
import { paint, useColor } from '../ui/color.js';
import { safeJson, forTerminal } from '../ui/terminal-text.js';

export interface UninstallOptions {
  id: string;
  into?: string[];
  agent?: string[];
  global?: boolean;
  for?: string;
  force?: boolean;
  dryRun?: boolean;
  /** -q: nothing but errors (thrown). */
  quiet?: boolean;
  json?: boolean;
  registry?: string;
  color?: boolean;
}

/**
 * `skills uninstall <id>`: out of --into and the lock's recorded folders, the lock, and the store unless something
 * still uses it.
 */
export async function uninstall(
  options: UninstallOptions,
  ctx: Context,
): Promise<UninstallResult & { registry: string; lockfile: string }> {
  const spec = parseSpec(options.id);
  if ('error' in spec) throw new SkillsError('E_USAGE', spec.error);
  if (spec.range !== undefined)
    throw new SkillsError(
      'E_USAGE',
      `uninstall takes an id, not "${options.id}": the version is the one skills-lock.json records`,
      { hint: `e.g. skills uninstall ${spec.id}` },
    );
  if (options.for !== undefined && options.for.trim() === '')
    throw new SkillsError('E_USAGE', '--for is empty: expected the consumer whose use ends', {
      hint: 'e.g. --for content-creator',
    });
  const target = installTarget(options, ctx);
  const { registry, lockfile } = target;
  const r = await uninstallSkill({
    ...target,
    id: spec.id,
    consumer: options.for?.trim(),
    force: options.force,
    dryRun: options.dryRun,
  });
  const result = { registry, lockfile, ...r };
  const ce = paint(useColor(options.color, ctx, ctx.stderr));
  if (!options.quiet || options.json)
    for (const w of r.warnings) ctx.stderr.write(`${ce.yellow('warning:')} ${forTerminal(w)}\n`);
  if (options.json) {
    ctx.stdout.write(`${safeJson(result)}\n`);
    return result;
  }
  if (options.quiet) return result;
  const rel = (p: string) => relative(ctx.cwd, p) || '.';
  const name = r.version ? `${r.id}@${r.version}` : r.id;
  const parts: string[] = [];
  for (const p of r.removed) parts.push(rel(p));
  if (r.lock) parts.push(rel(lockfile));
  if (r.store.length) parts.push(`the store (${r.store.map((p) => relative(registry, p)).join(', ')})`);
  const verb = options.dryRun ? 'would uninstall' : 'uninstalled';
  ctx.stdout.write(`${verb} ${forTerminal(`${name}${parts.length ? ` from ${parts.join(', ')}` : ''}`)}\n`);
  if (options.dryRun) ctx.stdout.write('dry run: nothing was removed\n');
  if (r.keptFor.length)
    ctx.stdout.write(`${forTerminal(`kept in the store ${registry}: used by ${r.keptFor.join(', ')}`)}\n`);
  return result;
}
