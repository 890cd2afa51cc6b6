import { registryFor } from '../registry/locate.js';
import type { Context } from '../context.js';
import { unuseSkill, type UsageResult } from '../registry/registry.js';

export interface UnuseOptions {
  id: string;
  by: string;
  json?: boolean;
  registry?: string;
}

/** `skills unuse <id> --by CONSUMER`: take a consumer out of the skill's usedBy. */
export async function unuse(options: UnuseOptions, ctx: Context): Promise<UsageResult> {
  const registry = registryFor(options, ctx);
  const result = await unuseSkill(registry, options.id, options.by);
  if (options.json) ctx.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else {
    const who = result.usedBy.length > 0 ? `is used by ${result.usedBy.join(', ')}` : 'is used by nobody';
    ctx.stdout.write(`${result.id} ${who}${result.changed ? '' : ` (${options.by.trim()} did not use it)`}\n`);
  }
  return result;
}
