// What the serve wing is handed by `skills serve` (commands/serve.ts): plain functions over the skills
// render-prompt would read, the prompt wing's selection and run-script's runner. The wing imports neither.
import type { Layout, Skill, Triggers } from '../model/skill.js';

/** One skill as the catalog found it (render-prompt's catalog entry). */
export interface SourceSkill {
  /** The name it goes by (SKILL.md `name`, NFKC; manifest `id`): unique among the skills served. */
  name: string;
  description: string;
  briefDescription?: string;
  version?: string;
  triggers?: Triggers;
  layout: Layout;
  /** The skill folder (a registry skill's stored copy). */
  root: string;
  scope: string;
}

export interface SourceSkills {
  /** The skills listed, in precedence order. */
  listed: SourceSkill[];
  /** Served but not listed: `disable-model-invocation: true` or `default_enabled: false` (still loadable by name). */
  hidden: SourceSkill[];
  /** Names turned off by disabledSkills: not served at all. */
  disabled: string[];
  warnings: string[];
}

/** A skill's script as run-script sees it: `refused` says why it may not run. */
export interface ScriptOffer {
  path: string;
  name: string;
  /** Declared by the skill (a manifest's "scripts"), not only found below scripts/. */
  declared?: boolean;
  refused?: string;
}

export interface ScriptCall {
  /** The skill folder. */
  root: string;
  /** The script's path in the skill. */
  script: string;
  /** The JSON object the script gets (first argument and stdin), or its command-line words. */
  args?: Record<string, unknown>;
  words?: string[];
  /** Ends the script (as its timeout does): the client cancelled the call, or went away. */
  signal?: AbortSignal;
}

/** A finished run, as run-script's --json document has it, with its notices (masked). */
export interface ScriptRun {
  success: boolean;
  result?: unknown;
  error?: unknown;
  exitCode: number;
  durationMs: number;
  stdout: string;
  stderr: string;
  truncated: { stdout: boolean; stderr: boolean };
  timedOut: boolean;
  notices: string[];
}

/** A skill the built-in selection picked for a query. */
export interface Picked {
  name: string;
  kind: string;
  score?: number;
  matched: string[];
}

export interface SkillSource {
  /** The skills now (read afresh on each call: the serve wing caches). */
  skills(): SourceSkills;
  /** The folders to watch for changes (those that exist). */
  watched(): string[];
  /** render-prompt's selection among `skills` for a request. */
  select(query: string, skills: SourceSkill[], max: number): Picked[];
  /** The scripts of a loaded skill, as run-script lists them. */
  scripts(skill: Skill): ScriptOffer[];
  /** Run a script through run-script (clean environment, declared secrets, masking, timeout, output cap). */
  runScript(call: ScriptCall): Promise<ScriptRun>;
}
