import type { Layout, Skill } from '../model/skill.js';
import type { Diagnostic, Severity } from '../model/diagnostic.js';

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
  /** Every rule and check id and alias there is (knownNames), mapped to its id. */
  ruleNames: ReadonlyMap<string, string>;
  /**
   * What was reported of the skill before this rule (validate's checks and the rules before it, with the
   * configuration's severities, before the disable comments apply), and the ids of the rules that report later,
   * comparing skills (checkTree): for SK135, which comes last.
   */
  reported?(): { findings: Pick<Diagnostic, 'ruleId' | 'file' | 'line'>[]; later: ReadonlySet<string> };
  /**
   * Say that what the rule reports of this skill depends on files outside its folder (SK109 on the plugin it ships
   * in): the skill's result is then not kept in the lint cache, which knows only the skill's own files.
   */
  readsOutside?(): void;
  /**
   * What a rule learns once for a whole run, by key: made by `make` the first time, then the same for every skill of
   * the run (SK109's plugin folders and marketplaces: a 4 MiB marketplace.json read once, not once a skill).
   */
  runCache?<T>(key: string, make: () => T): T;
}

/** What a tree rule sees of each skill: the linter keeps no more of a skill once its own checks have run. */
export type TreeSkill = Pick<Skill, 'id' | 'name' | 'layout' | 'root' | 'file' | 'positions'>;

export interface TreeContext {
  options: Record<string, unknown>;
  report(skill: TreeSkill, r: Report): void;
}

/** What the linter lends to a rule's prepare. */
export interface RuleTools {
  /** The o200k_base count of a text, from the user's token cache where it has the count. */
  countTokens(text: string): Promise<number>;
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
  /**
   * The asynchronous part of the rule's work on these skills (token counts, say), before their checks; only for
   * skills the rule runs on. The linter goes through skills one at a time, so it is called with each in turn; with
   * nothing to wait for it returns nothing, and the linter goes on without a turn of the event loop.
   */
  prepare?(skills: Skill[], options: Record<string, unknown>, tools: RuleTools): Promise<void> | void;
  check?(skill: Skill, ctx: RuleContext): void;
  /** Rules that compare skills with each other, run once every skill has been checked. */
  checkTree?(skills: TreeSkill[], ctx: TreeContext): void;
}
