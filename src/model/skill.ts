import type { Diagnostic, Position } from './diagnostic.js';
import type { DependencySpec } from './spec.js';

export type Layout = 'skill-md' | 'manifest';

/** A file or folder inside the skill, as the walk of its root found it. */
export interface SkillEntry {
  /** Path relative to the skill root, with forward slashes. */
  path: string;
  kind: 'file' | 'dir' | 'symlink' | 'other';
  /** For symlinks: where the link leads, and whether that stays inside the root. */
  target?: string;
  inside?: boolean;
  /** Mode bits, for scripts only (stat is not free). */
  mode?: number;
}

export interface ScriptRef {
  /** Path relative to the skill root. */
  path: string;
  /** Declared in the manifest or frontmatter `scripts`, as opposed to only found in scripts/. */
  declared: boolean;
  exists: boolean;
  executable?: boolean;
}

export interface McpServer {
  name: string;
  type: 'local' | 'remote';
  command?: string;
  args?: string[];
  url?: string;
}

export interface Triggers {
  keywords: string[];
  verbs: string[];
  patterns: string[];
}

/** One piece of the skill's instructions: the SKILL.md body, or one manifest context file. */
export interface InstructionPart {
  file: string;
  text: string;
  /** Line in `file` where `text` starts (1-based). */
  line: number;
  /** The text is ASCII alone (its file's bytes were): the unsafe-character scan then looks for controls only. */
  ascii?: true;
}

/** The one model every command works on, whatever the layout it came from. */
export interface Skill {
  id: string;
  name: string;
  version?: string;
  description: string;
  briefDescription?: string;
  owner?: string;
  layout: Layout;
  /** Absolute path of the skill folder. */
  root: string;
  /** Absolute path of SKILL.md (or skill.md) or manifest.json. */
  file: string;
  instructions: string;
  instructionParts: InstructionPart[];
  scripts: ScriptRef[];
  references: string[];
  assets: string[];
  entries: SkillEntry[];
  envVars: string[];
  mcpServers: McpServer[];
  dependencies: DependencySpec[];
  triggers?: Triggers;
  toolsets: string[];
  compatibility?: string;
  license?: string;
  allowedTools?: string;
  metadata: Record<string, string>;
  nodeVersion?: string;
  systemPackages: string[];
  /** Names set in .env.example, when the skill has one. */
  envExample?: string[];
  defaultEnabled: boolean;
  disableModelInvocation: boolean;
  /** The frontmatter or manifest object as parsed, for rules that look at raw shapes. */
  raw: Record<string, unknown>;
  /** Line and column of every key or field, by dotted path (`metadata.author`, `scripts[0]`). */
  positions: Record<string, Position>;
  /** The skill file's text, after BOM removal and newline normalisation. */
  source: string;
  /** What load found wrong while reading (parse errors, wrong types); validate adds the rest. */
  diagnostics: Diagnostic[];
}
