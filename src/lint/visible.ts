// Which findings a person is shown. By default info findings are hidden (hints about tidiness, 210 of them on
// 122 real skills), except those of a rule whose level the configuration sets: asking for a level is asking to
// see it. --verbose shows everything; --quiet only errors, as ESLint's --quiet does. Machines (--format json,
// sarif) get every finding: they filter by severity themselves.
import type { LintReport } from './linter.js';

export interface VisibleOptions {
  verbose?: boolean;
  quiet?: boolean;
  /** Rule ids whose level the configuration sets: their info findings are shown. */
  explicit?: ReadonlySet<string>;
}

export interface Visible {
  /** The reports with only the findings to show; with `quiet`, only the skills that have one. */
  reports: LintReport[];
  hiddenWarnings: number;
  hiddenInfos: number;
}

/** The findings to show a person, and how many of each severity were left out. */
export function visibleFindings(reports: LintReport[], options: VisibleOptions): Visible {
  if (options.verbose && !options.quiet) return { reports, hiddenWarnings: 0, hiddenInfos: 0 };
  let hiddenWarnings = 0;
  let hiddenInfos = 0;
  const out: LintReport[] = [];
  for (const r of reports) {
    const diagnostics = r.diagnostics.filter((d) => {
      if (d.severity === 'error') return true;
      if (d.severity === 'warning') {
        if (!options.quiet) return true;
        hiddenWarnings++;
        return false;
      }
      if (!options.quiet && options.explicit?.has(d.ruleId)) return true;
      hiddenInfos++;
      return false;
    });
    if (options.quiet && diagnostics.length === 0) continue;
    out.push(diagnostics.length === r.diagnostics.length ? r : { ...r, diagnostics });
  }
  return { reports: out, hiddenWarnings, hiddenInfos };
}
