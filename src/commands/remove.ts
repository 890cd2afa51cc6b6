import { registryFor } from '../registry/locate.js';
import type { Context } from '../context.js';
import { removeSkill, type RemoveResult } from '../registry/remove.js';
import { SkillsError } from '../errors.js';
import { parseSpec } from '../model/spec.js';
import { safeJson } from '../ui/terminal-text.js';

export interface RemoveOptions {
  spec: string;
  force?: boolean;
  json?: boolean;
  registry?: string;
}

/** `skills remove <id>[@version]`: drop a version, or every version, from the store and the index. */
export async function remove(options: RemoveOptions, ctx: Context): Promise<RemoveResult & { registry: string }> {
  const spec = parseSpec(options.spec);
  if ('error' in spec) throw new SkillsError('E_USAGE', spec.error);
  if (spec.range !== undefined && !spec.exact) {
    throw new SkillsError('E_USAGE', `"${options.spec}" is a range; remove takes one exact version or none`, {
      hint: `e.g. skills remove ${spec.id}@1.0.0, or skills remove ${spec.id} for every version`,
    });
  }
  const registry = registryFor(options, ctx);
  const result = { registry, ...(await removeSkill(registry, spec.id, spec.range, { force: options.force })) };
  if (options.json) ctx.stdout.write(`${safeJson(result)}\n`);
  else {
    const left = result.remaining.length > 0 ? `; still registered: ${result.remaining.join(', ')}` : '';
    ctx.stdout.write(`removed ${result.removed.map((v) => `${result.id}@${v}`).join(', ')} from ${registry}${left}\n`);
  }
  return result;
}
