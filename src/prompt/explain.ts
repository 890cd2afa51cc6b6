import type { Scored } from './select.js';
import type { RenderPromptResult } from './render-prompt.js';
import { counted } from '../formats/text.js';

/** --explain's report: what the query matched, best first, with what was selected starred. */
export function formatExplain(result: Pick<RenderPromptResult, 'query' | 'ranked' | 'selected' | 'catalog'>): string {
  const { query, ranked, selected } = result;
  const candidates = result.catalog.length;
  if (query === null) return 'explain: no --query, so nothing was ranked\n';
  const chosen = new Set(selected.map((s) => s.name));
  const lines = [
    `explain: ${ranked?.length ?? 0} of ${counted(candidates, 'skill')} match ${JSON.stringify(query)} (* selected)`,
  ];
  for (const s of selected) if (s.kind === 'select' || s.kind === 'selector') lines.push(`* ${s.name}  ${s.kind}`);
  (ranked ?? []).forEach((r: Scored, i) => {
    lines.push(
      `${chosen.has(r.name) ? '*' : ' '} ${String(i + 1).padStart(2)}. ${r.name}  ${r.kind}  ${r.score.toFixed(2)}  ${r.matched.join('; ')}` +
        (r.below ? `  (not selected: ${r.below})` : ''),
    );
  });
  return `${lines.join('\n')}\n`;
}
