import type { Context } from '../context.js';
import { formatExplain } from '../prompt/explain.js';
import { formatOf, renderPrompt, type RenderPromptOptions, type RenderPromptResult } from '../prompt/render-prompt.js';
import { forTerminal, safeJson } from '../ui/terminal-text.js';
import { setDiscoveryLimits } from '../skill/discover.js';

export type { RenderPromptOptions, RenderPromptResult } from '../prompt/render-prompt.js';

/** `skills render-prompt [--query TEXT] [dirs…]`: the skills part of an agent's system prompt. */
export async function renderPromptCommand(options: RenderPromptOptions, ctx: Context): Promise<RenderPromptResult> {
  setDiscoveryLimits(ctx.env);
  const result = await renderPrompt(options, ctx);
  for (const w of result.warnings) ctx.stderr.write(`warning: ${forTerminal(w)}\n`);
  if (formatOf(options) === 'json') {
    ctx.stdout.write(`${safeJson(result)}\n`);
    return result;
  }
  if (options.explain) ctx.stderr.write(forTerminal(formatExplain(result)));
  if (result.prompt !== '') {
    ctx.stdout.write(result.prompt);
    ctx.stderr.write(
      `~${result.tokens} tokens (o200k_base), tier ${result.tier}, ${result.selected.length} of ${result.catalog.length} skills selected\n`,
    );
  }
  return result;
}
