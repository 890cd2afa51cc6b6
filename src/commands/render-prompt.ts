import { homeOf, type Context } from '../context.js';
import { SkillsError } from '../errors.js';
import { formatExplain } from '../prompt/explain.js';
import { formatOf, renderPrompt, type RenderPromptOptions, type RenderPromptResult } from '../prompt/render-prompt.js';
import type { WritePromptResult } from '../prompt/write-prompt.js';
import { shownPath } from '../ui/shown-path.js';
import { forTerminal, safeJson } from '../ui/terminal-text.js';
import { setDiscoveryLimits } from '../skill/discover.js';
import { shownWarnings, skillWarningsOf } from '../prompt/skill-warnings.js';
import { counted } from '../formats/text.js';

export type { RenderPromptOptions, RenderPromptResult } from '../prompt/render-prompt.js';

/** `skills render-prompt [--query TEXT] [dirs…]`: the skills part of an agent's system prompt. */
export async function renderPromptCommand(
  options: RenderPromptOptions,
  ctx: Context,
): Promise<RenderPromptResult | WritePromptResult> {
  setDiscoveryLimits(ctx.env);
  if (options.write !== undefined) return writeCommand(options, ctx);
  if (options.check)
    throw new SkillsError('E_USAGE', '--check needs --write <file>: the file whose block it checks', {
      hint: 'skills render-prompt --write AGENTS.md --check',
    });
  const result = await renderPrompt(options, ctx);
  // --quiet: errors only (they are thrown); no warnings, no count of tokens.
  const say = (text: string) => (options.quiet ? undefined : ctx.stderr.write(text));
  for (const w of shownWarnings(result.warnings, skillWarningsOf(result), options.verbose))
    say(`warning: ${forTerminal(w)}\n`);
  if (formatOf(options) === 'json') {
    ctx.stdout.write(`${safeJson(result)}\n`);
    return result;
  }
  if (options.explain) ctx.stderr.write(forTerminal(formatExplain(result)));
  if (result.catalog.length === 0) say(forTerminal(emptyCatalog(result, ctx)));
  if (result.prompt !== '') {
    ctx.stdout.write(result.prompt);
    // "selected" only when something selects (a query, --select, a selector); else how many skills it holds.
    const asked = options.query !== undefined || options.select !== undefined || options.selector !== undefined;
    const n = result.catalog.length;
    const count = asked ? `${result.selected.length} of ${counted(n, 'skill')} selected` : counted(n, 'skill');
    say(`~${result.tokens} tokens (o200k_base), tier ${result.tier}, ${count}\n`);
  }
  return result;
}

/** --write FILE [--check]: the prompt into the file's managed block; what was done (or found) on stdout. */
async function writeCommand(options: RenderPromptOptions, ctx: Context): Promise<WritePromptResult> {
  const { writePrompt } = await import('../prompt/write-prompt.js');
  const result = await writePrompt(options, ctx);
  // --quiet: only what fails (a --check that finds the block missing or stale), as without --write.
  const quiet = options.quiet === true;
  if (!quiet)
    for (const w of shownWarnings(result.warnings, skillWarningsOf(result), options.verbose))
      ctx.stderr.write(`warning: ${forTerminal(w)}\n`);
  if (options.explain) ctx.stderr.write(forTerminal(formatExplain(result)));
  if (result.catalog.length === 0 && !quiet) ctx.stderr.write(forTerminal(emptyCatalog(result, ctx)));
  const { file, status, missing, fix } = result.write;
  const n = result.catalog.length;
  const skills = counted(n, 'skill');
  const line: Record<typeof status, string> = {
    created: `created ${file} with the skills block (${skills}, ~${result.tokens} tokens)`,
    appended: `added the skills block to ${file} (${skills}, ~${result.tokens} tokens)`,
    updated: `updated the skills block of ${file} (${skills}, ~${result.tokens} tokens)`,
    unchanged: `${file}: the skills block is up to date; nothing written`,
    current: `${file}: the skills block is up to date`,
    missing: `${file}: ${missing === 'file' ? 'no such file' : 'no skills block'}; run: ${fix}`,
    stale: `${file}: the skills block is stale (it differs from what render-prompt renders now); run: ${fix}`,
  };
  if (!quiet || status === 'missing' || status === 'stale') ctx.stdout.write(`${forTerminal(line[status])}\n`);
  return result;
}

/** The line an empty catalog gets on stderr: where the skills were looked for. */
function emptyCatalog(result: RenderPromptResult, ctx: Context): string {
  const { folders, registry, leftOut } = result.searched;
  const home = homeOf(ctx);
  const shown = (p: string) => shownPath(p, ctx.cwd, home);
  const where = folders.map(shown).join(', ');
  const from = registry === null ? ' (no registry read)' : ` and the registry ${shown(registry)}`;
  const left = leftOut > 0 ? `; ${leftOut} found ${leftOut === 1 ? 'is' : 'are'} hidden or disabled` : '';
  return `no skills to list: looked in ${where || 'no folder'}${from}${left}\n`;
}
