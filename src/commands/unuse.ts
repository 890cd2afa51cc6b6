import type { Context } from '../context.js';
import type { UsageResult } from '../registry/usage.js';
import { changeUse, type UseOptions } from './use.js';

export type UnuseOptions = UseOptions;

/** `skills unuse <id> --by CONSUMER`: take a consumer out of the skill's usedBy. */
export function unuse(options: UnuseOptions, ctx: Context): Promise<UsageResult> {
  return changeUse(options, ctx, false);
}
