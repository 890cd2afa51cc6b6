// Inline disable comments in Markdown files: `<!-- skills-lint-disable … -->` and its -next-line form.
import type { Skill } from '../model/skill.js';
import type { LintFinding } from './linter.js';
import { knownNames } from './settings.js';
import type { Rule } from './types.js';

const DISABLE = /<!--\s*skills-lint-disable(-next-line)?((?:\s+[\w-]+,?)*)\s*-->/g;

/**
 * `<!-- skills-lint-disable SK012 -->` turns rules off for the whole Markdown file it is in,
 * `<!-- skills-lint-disable-next-line SK012 -->` for the line after it; no ids means every rule.
 */
export function applyInlineDisables(
  diagnostics: LintFinding[],
  skill: Skill,
  readText: (rel: string) => string | undefined,
  rules: Rule[],
): LintFinding[] {
  const names = knownNames(rules);
  const byFile = new Map<string, { all: Set<string> | 'all' | undefined; lines: Map<number, Set<string> | 'all'> }>();
  const directives = (file: string) => {
    let d = byFile.get(file);
    if (d) return d;
    d = { all: undefined, lines: new Map() };
    byFile.set(file, d);
    if (!/\.(md|markdown)$/i.test(file) || !file.startsWith(skill.root)) return d;
    const text = readText(file.slice(skill.root.length + 1));
    if (!text || !text.includes('skills-lint-disable')) return d;
    const lineStarts: number[] = [0];
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
    for (const m of text.matchAll(DISABLE)) {
      const ids = m[2]!
        .split(/[\s,]+/)
        .filter(Boolean)
        .map((n) => names.get(n) ?? n);
      const set: Set<string> | 'all' = ids.length === 0 ? 'all' : new Set(ids);
      if (m[1]) {
        let line = 0;
        while (line + 1 < lineStarts.length && lineStarts[line + 1]! <= m.index!) line++;
        d.lines.set(line + 2, set);
      } else if (set === 'all' || d.all === 'all') d.all = 'all';
      else d.all = new Set([...(d.all ?? []), ...set]);
    }
    return d;
  };
  return diagnostics.filter((diag) => {
    const d = directives(diag.file);
    const off = (s: Set<string> | 'all' | undefined) => s === 'all' || (s !== undefined && s.has(diag.ruleId));
    return !off(d.all) && !(diag.line !== undefined && off(d.lines.get(diag.line)));
  });
}
