import { registryFor } from '../registry/locate.js';
import type { Context } from '../context.js';
import { changeUsage, type UsageResult } from '../registry/usage.js';
import { SkillsError } from '../errors.js';
import { parseSpec } from '../model/spec.js';
import { forTerminal, safeJson } from '../ui/terminal-text.js';

export interface UseOptions {
  id: string;
  /** The consumer: `--for` (`--by` is its old name). */
  by?: string;
  json?: boolean;
  registry?: string;
}

/** `skills use <id> --by CONSUMER`: record a consumer in the skill's usedBy, which remove respects. */
export function use(options: UseOptions, ctx: Context): Promise<UsageResult> {
  return changeUse(options, ctx, true);
}

/** `use` (add) and `unuse`: one change to the skill's usedBy, then one line, or the result as JSON. */
export async function changeUse(options: UseOptions, ctx: Context, add: boolean): Promise<UsageResult> {
  // The one rule for ids (a range has no place here: usedBy is kept per skill, not per version).
  const spec = parseSpec(options.id);
  if ('error' in spec) throw new SkillsError('E_USAGE', spec.error);
  const by = options.by;
  if (by === undefined)
    throw new SkillsError(
      'E_USAGE',
      `${add ? 'use' : 'unuse'} needs --for <consumer>: who ${add ? 'uses' : 'no longer uses'} the skill`,
      {
        hint: `e.g. skills registry ${add ? 'use' : 'unuse'} ${spec.id} --for content-creator`,
      },
    );
  if (spec.range !== undefined)
    throw new SkillsError('E_USAGE', `${add ? 'use' : 'unuse'} takes an id, not "${options.id}"`, {
      hint: `e.g. skills registry ${add ? 'use' : 'unuse'} ${spec.id} --for ${by.trim() || 'content-creator'}`,
    });
  const result = await changeUsage(registryFor(options, ctx), spec.id, by, add);
  if (options.json) ctx.stdout.write(`${safeJson(result)}\n`);
  else {
    const who = result.usedBy.length > 0 ? `is used by ${result.usedBy.join(', ')}` : 'is used by nobody';
    const unchanged = add ? ' (unchanged)' : ` (${by.trim()} did not use it)`;
    // Names written into the index before consumers were checked are shown escaped.
    ctx.stdout.write(forTerminal(`${result.id} ${who}${result.changed ? '' : unchanged}`) + '\n');
  }
  return result;
}
