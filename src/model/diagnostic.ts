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
}

export interface Position {
  line: number;
  column: number;
}
