import { homedir } from 'node:os';
import type { Context } from '../context.js';
import { locateRegistry, useSkill, type UsageResult } from '../core/registry.js';

export interface UseOptions {
  id: string;
  by: string;
  json?: boolean;
  registry?: string;
}

/** `skills use <id> --by CONSUMER`: record a consumer in the skill's usedBy, which remove respects. */
export async function use(options: UseOptions, ctx: Context): Promise<UsageResult> {
  const registry = locateRegistry({ registry: options.registry, cwd: ctx.cwd, env: ctx.env, home: ctx.env.HOME ?? homedir() });
  const result = await useSkill(registry, options.id, options.by);
  if (options.json) ctx.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else ctx.stdout.write(`${result.id} is used by ${result.usedBy.join(', ')}${result.changed ? '' : ' (unchanged)'}\n`);
  return result;
}
