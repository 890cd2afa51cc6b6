import { dirname, resolve } from 'node:path';
import { parseLockSource } from '../formats/lockfile.js';
import { findLockfile, readLockfile } from '../install/lock.js';
import { registryFor } from '../registry/locate.js';
import type { Context } from '../context.js';
import { removeSkill, type RemoveResult } from '../registry/remove.js';
import { SkillsError } from '../errors.js';
import { parseSpec } from '../model/spec.js';
import { safeJson, forTerminal } from '../ui/terminal-text.js';

export interface RemoveOptions {
  spec: string;
  force?: boolean;
  /** -q: nothing but errors (thrown). */
  quiet?: boolean;
  json?: boolean;
  registry?: string;
}

/** `skills remove <id>[@version]`: drop a version, or every version, from the store and the index. */
export async function remove(options: RemoveOptions, ctx: Context): Promise<RemoveResult & { registry: string }> {
  const spec = parseSpec(options.spec);
  if ('error' in spec) throw new SkillsError('E_USAGE', spec.error);
  if (spec.range !== undefined && !spec.exact) {
    throw new SkillsError('E_USAGE', `"${options.spec}" is a range; remove takes one exact version or none`, {
      hint: `e.g. skills registry remove ${spec.id}@1.0.0, or skills registry remove ${spec.id} for every version`,
    });
  }
  const registry = registryFor(options, ctx);
  if (!options.force) refuseLocked(registry, spec.id, spec.range, ctx);
  const result = { registry, ...(await removeSkill(registry, spec.id, spec.range, { force: options.force })) };
  if (options.json) ctx.stdout.write(`${safeJson(result)}\n`);
  else for (const w of result.warnings ?? []) ctx.stderr.write(`${forTerminal(`warning: ${w}`)}\n`);
  if (!options.json && !options.quiet) {
    const left = result.remaining.length > 0 ? `; still registered: ${result.remaining.join(', ')}` : '';
    ctx.stdout.write(
      `${forTerminal(`removed ${result.removed.map((v) => `${result.id}@${v}`).join(', ')} from ${registry}${left}`)}\n`,
    );
  }
  return result;
}

/**
 * The project's lock installs this version from this registry: removing it would break the next `skills install`
 * there, so it is refused (--force removes it anyway).
 */
function refuseLocked(registry: string, id: string, version: string | undefined, ctx: Context): void {
  const lockfile = findLockfile(ctx.cwd);
  let lock;
  try {
    lock = readLockfile(lockfile);
  } catch {
    return; // a lock that cannot be read says nothing about this registry
  }
  const entry = lock?.skills[id];
  if (!entry || (version !== undefined && version !== entry.version)) return;
  const src = parseLockSource(entry.source);
  if (src.kind !== 'registry') return;
  const from = src.dir === undefined ? undefined : resolve(dirname(lockfile), src.dir);
  if (from !== undefined && from !== registry) return;
  throw new SkillsError(
    'E_EXISTS',
    `${lockfile} installs ${id}@${entry.version} from this registry: the next skills install there needs it; nothing was removed`,
    { hint: `take it out of the project first (skills uninstall ${id}), or remove it anyway with --force` },
  );
}
