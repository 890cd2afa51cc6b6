import { registryFor } from '../registry/locate.js';
import type { Context } from '../context.js';
import { useSkill, type UsageResult } from '../registry/registry.js';

export interface UseOptions {
  id: string;
  by: string;
  json?: boolean;
  registry?: string;
}

/** `skills use <id> --by CONSUMER`: record a consumer in the skill's usedBy, which remove respects. */
export async function use(options: UseOptions, ctx: Context): Promise<UsageResult> {
  const registry = registryFor(options, ctx);
  const result = await useSkill(registry, options.id, options.by);
  if (options.json) ctx.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else ctx.stdout.write(`${result.id} is used by ${result.usedBy.join(', ')}${result.changed ? '' : ' (unchanged)'}\n`);
  return result;
}
