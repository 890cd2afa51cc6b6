import type { Context } from '../context.js';
import { SkillsError } from '../errors.js';
import { loadNpmConfig } from '../fetch/npm-config.js';
import { searchSkills, type SearchResult } from '../fetch/npm-search.js';
import { normalizeScope } from '../pack/npm-package.js';
import { paint, useColor } from '../ui/color.js';
import { forTerminal, safeJson } from '../ui/terminal-text.js';

export interface SearchOptions {
  words?: string[];
  scope?: string;
  limit?: string;
  json?: boolean;
  color?: boolean;
}

/** `skills search <words…>`: the skills an npm-compatible registry finds for the words. Exit 0, found or not. */
export async function search(options: SearchOptions, ctx: Context): Promise<SearchResult & { exitCode: number }> {
  const words = (options.words ?? []).join(' ').trim();
  if (words === '') throw new SkillsError('E_USAGE', 'give words to search for, e.g. skills search pdf invoices');
  const size = options.limit === undefined ? 20 : Number(options.limit);
  if (!Number.isInteger(size) || size < 1 || size > 250)
    throw new SkillsError('E_USAGE', `--limit must be a whole number from 1 to 250, not "${options.limit}"`);
  const config = loadNpmConfig(ctx);
  const scope = options.scope ?? config.settings.scope;
  const result = await searchSkills(words, config, {
    ...(scope ? { scope: normalizeScope(scope) } : {}),
    size,
  });
  const c = paint(useColor(options.color, ctx));
  if (result.malformed > 0)
    ctx.stderr.write(
      `${forTerminal(`warning: ${result.registry} answered ${result.malformed === 1 ? '1 hit' : `${result.malformed} hits`} that ${result.malformed === 1 ? 'is' : 'are'} not of the search API's shape; skipped`)}\n`,
    );
  if (options.json) ctx.stdout.write(`${safeJson(result)}\n`);
  else if (result.hits.length === 0)
    ctx.stderr.write(`${forTerminal(`no skills on ${result.registry} match "${words}"`)}\n`);
  else
    for (const h of result.hits)
      ctx.stdout.write(
        `${c.bold(forTerminal(`${h.name}@${h.version}`))}  ${forTerminal(shortened(h.description.replace(/\s+/g, ' ').trim()))}\n`,
      );
  return { ...result, exitCode: 0 };
}

/** A package's description is anyone's text (one of 100,000 characters was seen): a line holds the first 200. */
const SHOWN = 200;
export const shortened = (text: string): string => {
  const chars = [...text];
  return chars.length <= SHOWN ? text : `${chars.slice(0, SHOWN - 1).join('')}…`;
};
