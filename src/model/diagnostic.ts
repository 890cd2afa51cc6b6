import { CHECKS, type CheckName } from './checks.js';

export type Severity = 'error' | 'warning' | 'info';

/** One finding about a skill, located in a file when it can be. */
export interface Diagnostic {
  ruleId: string;
  rule: string;
  severity: Severity;
  message: string;
  /** Absolute path of the file the finding is in. */
  file: string;
  line?: number;
  column?: number;
  hint?: string;
  /** What a fix needs to know, so that none reads the message (never printed). */
  data?: DiagnosticData;
}

/** Facts a check attaches to its finding for `lint --fix`. */
export interface DiagnosticData {
  /** yaml-syntax: a slip formats/yaml-repair.ts knows, and the line (1-based, in the file) it is on. */
  slip?: { kind: 'colon' | 'block' | 'indicator'; line: number };
  /** field-type: the field whose value has the wrong type. */
  field?: string;
  /** script-executable: the script, relative to the skill folder. */
  path?: string;
}

export interface Position {
  line: number;
  column: number;
}

/** Make a diagnostic for one of validate's checks. */
export function diag(
  check: CheckName,
  severity: Severity,
  message: string,
  file: string,
  pos?: Position,
  hint?: string,
  data?: DiagnosticData,
): Diagnostic {
  const d: Diagnostic = { ruleId: CHECKS[check].id, rule: check, severity, message, file };
  if (pos) {
    d.line = pos.line;
    d.column = pos.column;
  }
  if (hint) d.hint = hint;
  if (data) d.data = data;
  return d;
}

/** A diagnostic as every --json document prints it: line and column always present (null when unknown). */
export function jsonDiagnostic(d: Diagnostic & { fix?: unknown }) {
  return {
    ruleId: d.ruleId,
    rule: d.rule,
    severity: d.severity,
    message: d.message,
    file: d.file,
    line: d.line ?? null,
    column: d.column ?? null,
    ...(d.hint ? { hint: d.hint } : {}),
    ...(d.fix ? { fixable: true } : {}),
  };
}
