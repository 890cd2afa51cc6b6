import type { Layout, Skill } from '../model/skill.js';
import type { Severity } from '../model/diagnostic.js';

/** One change a fix makes. Paths are absolute. Line numbers are 1-based, as in diagnostics. */
export type Change =
  /** Replace lines [line, endLine] (default: line) whose current text, joined by \n without CRs, is `expect`. */
  | { kind: 'replace'; file: string; line: number; endLine?: number; expect: string; text: string }
  /** Set the mode bits of a file. */
  | { kind: 'chmod'; file: string; mode: number }
  /** Append text to a file, creating it when missing. */
  | { kind: 'append'; file: string; text: string };

/** A safe fix: applying it cannot change what the skill means, and a second run finds nothing left to do. */
export interface Fix {
  description: string;
  changes: Change[];
}

export interface Report {
  message: string;
  /** Absolute path; the skill file when omitted. */
  file?: string;
  line?: number;
  column?: number;
  hint?: string;
  fix?: Fix;
  /** Severity for this one finding, when a rule reports more than one kind (rare). */
  severity?: Severity;
}

/** What a rule gets besides the skill: its options, file access through one cache, and the report call. */
export interface RuleContext {
  options: Record<string, unknown>;
  report(r: Report): void;
  /** Text of a file of the skill (path relative to its root), or undefined when missing, binary or over 1 MiB. */
  readText(rel: string): string | undefined;
  /** Size in bytes and mode bits of a file of the skill (not following a symlink out), or undefined. */
  stat(rel: string): { size: number; mode: number } | undefined;
}

export interface TreeContext {
  options: Record<string, unknown>;
  report(skill: Skill, r: Report): void;
}

export interface RuleOption {
  default: number | string | boolean | string[];
  description: string;
}

/** A lint rule: one file in src/lint/rules, listed in src/lint/rules/index.ts. */
export interface Rule {
  /** [stable id, readable alias]; ids are never reused. */
  names: [string, string];
  description: string;
  tags: string[];
  layouts: Layout[];
  severity: Severity;
  sources: string[];
  fixable: boolean;
  options?: Record<string, RuleOption>;
  /** Load what the rule needs (a tokenizer, say) once, before the first check, only when it will run. */
  prepare?(skills: Skill[], options: Record<string, unknown>): Promise<void>;
  check?(skill: Skill, ctx: RuleContext): void;
  /** Rules that compare skills with each other. */
  checkTree?(skills: Skill[], ctx: TreeContext): void;
}
